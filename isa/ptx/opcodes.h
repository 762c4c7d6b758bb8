// The opcode table (opcodes.def) as C++: the Op enum, each row's mnemonic, type class, family,
// timing class, operand signature and implementation status.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "isa/ptx/types.h"

namespace tcsim::isa::ptx {

enum class Op : uint16_t {
#define PTX_OP(id, mn, tc, fam, timing, sig, status) id,
#include "isa/ptx/opcodes.def"
#undef PTX_OP
  Count_
};

// Which instruction type selects a row among rows with the same mnemonic.
enum class TypeClass : uint8_t { Any, Int, Float, Half };

enum class Family : uint8_t {
#define PTX_FAMILY(id, section, exists) id,
#include "isa/ptx/families.def"
#undef PTX_FAMILY
  Count_
};

// Coarse issue/latency class of an instruction. Functional mode maps each to a small fixed
// latency (sim/timing); the timing model refines them per GPU.
enum class Timing : uint8_t {
  Alu, IntMul, Fp32, Fp64, Half, Sfu, Convert, Control, Barrier, WarpCollective, Memory, Atomic,
  Fence, AsyncCopy, Mbarrier, Tensor, Misc
};

enum class OpStatus : uint8_t { Impl, Todo };

struct OpInfo {
  Op op;
  std::string_view ident;     // C++ identifier of the row (tests, diagnostics)
  std::string_view mnemonic;  // "cp.async.bulk.tensor"
  TypeClass type_class;
  Family family;
  Timing timing;
  std::string_view signature;
  OpStatus status;
};

const OpInfo& op_info(Op op);
std::span<const OpInfo> all_ops();
inline std::string_view op_mnemonic(Op op) { return op_info(op).mnemonic; }

struct FamilyInfo {
  Family family;
  std::string_view name;     // file stem: sim/exec/<name>.cc
  std::string_view section;  // PTX ISA section title
  bool exists;
};
const FamilyInfo& family_info(Family f);

// True when `mnemonic` (e.g. "cp.async.bulk") is the mnemonic of at least one row.
bool is_mnemonic(std::string_view mnemonic);
// The row for `mnemonic` whose type class accepts `first_type` (Type::None when the instruction
// has no type suffix); nullptr when no row accepts it.
const OpInfo* find_op(std::string_view mnemonic, Type first_type);
// Every row sharing a mnemonic (for diagnostics listing the legal type classes).
std::vector<const OpInfo*> rows_with_mnemonic(std::string_view mnemonic);

}  // namespace tcsim::isa::ptx
