// Bulk reductions, element by element (see bulk_reduce.h for the rules).
#include "sim/units/bulk_reduce.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "models/formats/format.h"
#include "sim/launch_state.h"
#include "sim/partition.h"

namespace tcsim::sim::tma {

namespace {
template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
void store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

template <class T>
T int_op(ReduceOp op, T a, T b) {
  switch (op) {
    case ReduceOp::Add: return static_cast<T>(a + b);
    case ReduceOp::Min: return std::min(a, b);
    case ReduceOp::Max: return std::max(a, b);
    case ReduceOp::Inc: return a >= b ? T(0) : static_cast<T>(a + 1);
    case ReduceOp::Dec: return (a == 0 || a > b) ? b : static_cast<T>(a - 1);
    case ReduceOp::And: return a & b;
    case ReduceOp::Or: return a | b;
    case ReduceOp::Xor: return a ^ b;
  }
  return a;
}

// IEEE minNum / maxNum on doubles (a NaN operand loses to a number).
double fmin_num(double a, double b) { return std::fmin(a, b); }
double fmax_num(double a, double b) { return std::fmax(a, b); }

uint64_t half_op(ReduceOp op, isa::DType t, uint64_t a, uint64_t b) {
  using namespace tcsim::models;
  const double x = to_double(t, a), y = to_double(t, b);
  double r = 0;
  switch (op) {
    case ReduceOp::Add: r = x + y; break;  // exact in double for f16; see bulk_reduce.h for bf16
    case ReduceOp::Min: r = fmin_num(x, y); break;
    case ReduceOp::Max: r = fmax_num(x, y); break;
    default: return a;
  }
  if (std::isnan(r)) return 0x7fff;  // the canonical f16 / bf16 NaN
  return encode(t, r, Round::RN, false);
}
}  // namespace

std::string_view reduce_op_name(ReduceOp op) {
  constexpr std::string_view n[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
  return n[static_cast<int>(op)];
}

bool parse_reduce_op(const isa::ptx::Instr& in, ReduceOp* op) {
  using isa::ptx::Mod;
  const std::pair<Mod, ReduceOp> t[] = {{Mod::add, ReduceOp::Add}, {Mod::min, ReduceOp::Min}, {Mod::max, ReduceOp::Max},
                                        {Mod::inc, ReduceOp::Inc}, {Mod::dec, ReduceOp::Dec}, {Mod::and_, ReduceOp::And},
                                        {Mod::or_, ReduceOp::Or},  {Mod::xor_, ReduceOp::Xor}};
  for (const auto& [m, r] : t)
    if (in.has(m)) {
      *op = r;
      return true;
    }
  return false;
}

bool reduce_type_of_map(isa::TensorMapDataType t, ReduceType* r) {
  using T = isa::TensorMapDataType;
  switch (t) {
    case T::UInt32: *r = ReduceType::U32; return true;
    case T::Int32: *r = ReduceType::S32; return true;
    case T::UInt64: *r = ReduceType::U64; return true;
    case T::Int64: *r = ReduceType::S64; return true;
    case T::Float32: case T::Float32Ftz: *r = ReduceType::F32; return true;
    case T::Float64: *r = ReduceType::F64; return true;
    case T::Float16: *r = ReduceType::F16; return true;
    case T::BFloat16: *r = ReduceType::BF16; return true;
    default: return false;
  }
}

uint32_t reduce_type_bytes(ReduceType t) {
  switch (t) {
    case ReduceType::U32: case ReduceType::S32: case ReduceType::F32: return 4;
    case ReduceType::U64: case ReduceType::S64: case ReduceType::F64: return 8;
    default: return 2;
  }
}

std::string reduce_type_error(ReduceOp op, ReduceType t) {
  const bool fl = t == ReduceType::F32 || t == ReduceType::F64 || t == ReduceType::F16 || t == ReduceType::BF16;
  switch (op) {
    case ReduceOp::Add: return "";
    case ReduceOp::Min: case ReduceOp::Max:
      return t == ReduceType::F32 || t == ReduceType::F64 ? fmt::format(".{} is not defined on 32/64-bit floats (PTX "
                                                                         "ISA §9.7.9.25.4.2: .f16/.bf16 only)",
                                                                         reduce_op_name(op))
                                                           : "";
    case ReduceOp::Inc: case ReduceOp::Dec:
      return t == ReduceType::U32 ? "" : fmt::format(".{} is defined on .u32 only (PTX ISA §9.7.9.25.4.2)", reduce_op_name(op));
    default:
      return fl ? fmt::format(".{} is a bitwise operation: not defined on floating-point elements (PTX ISA "
                              "§9.7.9.25.4.2)",
                              reduce_op_name(op))
                : "";
  }
}

std::string reduce_type_error(ReduceOp op, isa::TensorMapDataType t) {
  ReduceType r;
  if (!reduce_type_of_map(t, &r))
    return fmt::format("the tensor map's type {} cannot be reduced (PTX ISA §9.7.9.25.5.3: 32/64-bit integers, "
                       "f16, bf16, f32, f64)",
                       isa::tensor_map_dtype_name(t));
  return reduce_type_error(op, r);
}

void reduce_element(ReduceOp op, ReduceType t, uint8_t* dst, const uint8_t* src) {
  switch (t) {
    case ReduceType::U32: store(dst, int_op(op, load<uint32_t>(dst), load<uint32_t>(src))); return;
    case ReduceType::S32: store(dst, int_op(op, load<int32_t>(dst), load<int32_t>(src))); return;
    case ReduceType::U64: store(dst, int_op(op, load<uint64_t>(dst), load<uint64_t>(src))); return;
    case ReduceType::S64: store(dst, int_op(op, load<int64_t>(dst), load<int64_t>(src))); return;
    case ReduceType::F32: {
      const float a = load<float>(dst), b = load<float>(src);
      store(dst, op == ReduceOp::Add ? a + b : op == ReduceOp::Min ? std::fmin(a, b) : std::fmax(a, b));
      return;
    }
    case ReduceType::F64: {
      const double a = load<double>(dst), b = load<double>(src);
      store(dst, op == ReduceOp::Add ? a + b : op == ReduceOp::Min ? std::fmin(a, b) : std::fmax(a, b));
      return;
    }
    case ReduceType::F16: case ReduceType::BF16: {
      const isa::DType d = t == ReduceType::F16 ? isa::DType::F16 : isa::DType::BF16;
      store(dst, static_cast<uint16_t>(half_op(op, d, load<uint16_t>(dst), load<uint16_t>(src))));
      return;
    }
  }
}

void reduce_global(Partition& part, const LaunchState& L, ReduceOp op, ReduceType t, uint64_t addr, const void* src,
                   uint32_t n) {
  // Through the overlay's reduction log: reductions from CTAs in other partitions combine at the
  // quantum boundary (StoreOverlay::reduce).
  const uint32_t es = reduce_type_bytes(t);
  const auto* s = static_cast<const uint8_t*>(src);
  const uint32_t aux = static_cast<uint32_t>(op) | static_cast<uint32_t>(t) << 8;
  auto fn = [](uint8_t* bytes, const uint8_t* operand, uint32_t a) {
    reduce_element(static_cast<ReduceOp>(a & 0xff), static_cast<ReduceType>(a >> 8), bytes, operand);
  };
  for (uint32_t k = 0; k + es <= n; k += es) part.overlay().reduce(*L.gm, addr + k, es, fn, s + k, aux);
}

void reduce_global(Partition& part, const LaunchState& L, ReduceOp op, isa::TensorMapDataType t, uint64_t addr,
                   const void* src, uint32_t n) {
  ReduceType r = ReduceType::U32;
  reduce_type_of_map(t, &r);
  reduce_global(part, L, op, r, addr, src, n);
}

}  // namespace tcsim::sim::tma
