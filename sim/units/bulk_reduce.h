// The element operations of the bulk reductions (PTX ISA §9.7.9.25.4.2 cp.reduce.async.bulk,
// §9.7.9.25.5.3 cp.reduce.async.bulk.tensor): `dst = dst op src` for one element in global or
// shared memory. The rules follow the PTX atom/red operations the reductions are defined by
// (§9.7.13.5 atom): .inc: (old >= src) ? 0 : old + 1; .dec: (old == 0 || old > src) ? src : old - 1;
// .min/.max signed for .s32/.s64, unsigned otherwise, IEEE minNum/maxNum for the float types;
// .add on floats rounds to nearest even (f16/bf16 as .noftz: subnormals kept; f32: host IEEE
// arithmetic, subnormals kept — UNCONFIRMED whether the engine flushes them as atom.add.f32 does).
#pragma once
#include <cstdint>
#include <string>

#include "isa/descriptors/tensor_map.h"
#include "isa/ptx/ir.h"

namespace tcsim::sim {
class Partition;
struct LaunchState;
}  // namespace tcsim::sim

namespace tcsim::sim::tma {

enum class ReduceOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor };
enum class ReduceType : uint8_t { U32, S32, U64, S64, F32, F64, F16, BF16 };

std::string_view reduce_op_name(ReduceOp op);
// The reduction modifier of an instruction; false when it has none.
bool parse_reduce_op(const isa::ptx::Instr& in, ReduceOp* op);
// The element type of a tensor reduction, from the tensor map (false: not a reducible type).
bool reduce_type_of_map(isa::TensorMapDataType t, ReduceType* r);
uint32_t reduce_type_bytes(ReduceType t);
// Empty when `op` is defined on `t`, else the rule (PTX ISA §9.7.9.25.5.3 / §9.7.9.25.4.2 tables).
std::string reduce_type_error(ReduceOp op, ReduceType t);
std::string reduce_type_error(ReduceOp op, isa::TensorMapDataType t);

// dst = dst op src, one element of reduce_type_bytes(t) bytes (little-endian).
void reduce_element(ReduceOp op, ReduceType t, uint8_t* dst, const uint8_t* src);

// Applies op element by element to global memory [addr, addr + n) through the partition's overlay.
void reduce_global(Partition& part, const LaunchState& L, ReduceOp op, ReduceType t, uint64_t addr, const void* src,
                   uint32_t n);
void reduce_global(Partition& part, const LaunchState& L, ReduceOp op, isa::TensorMapDataType t, uint64_t addr,
                   const void* src, uint32_t n);

}  // namespace tcsim::sim::tma
