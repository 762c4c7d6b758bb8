// The element read-modify-write ALU: one element's new value from its old value and the operands,
// independent of where the element lives and which instruction asked. Every reduction of tcsim
// goes through it, so one operation gives the same bits on every path:
//   atom / red                      PTX ISA §9.7.13.5 "atom", §9.7.13.6 "red"   (sim/exec/atomic.cc)
//   red.async                       PTX ISA §9.7.13.7 "red.async"                (sim/exec/remote_async.cc)
//   cp.reduce.async.bulk            PTX ISA §9.7.9.25.4.2                        (sim/units/tma_engine.cc)
//   cp.reduce.async.bulk.tensor     PTX ISA §9.7.9.25.5.3                        (sim/units/tma_engine.cc)
// The memory side (shared memory at once; global memory through the RMW log at the quantum
// boundary) is sim/memory/rmw_log.h. docs/reductions.md lists which (op, type, ftz) each path
// uses and why.
//
//   atomic { d = *a; *a = (op == cas) ? cas(*a, b, c) : op(*a, b); }
//   inc(r, s) = (r >= s) ? 0 : r + 1;          dec(r, s) = (r == 0 || r > s) ? s : r - 1;
//   exch(r, s) = s;                            cas(r, s, t) = (r == s) ? t : r;
//
// Floating-point .add rounds to nearest even (§9.7.13.5) in exact integer arithmetic rounded once
// (sim/exec/fp_util.h round_pack): no host floating-point state is involved, so the results are the
// same inside the partitions' controlled FP environment and at the quantum boundary outside it.
// `ftz` flushes subnormal inputs and results to sign-preserving zero (f32 only: "atom.add.f32 on
// global memory flushes subnormal inputs and results to sign-preserving zero; atom.add.f32 on
// shared memory supports subnormal inputs and results", §9.7.13.5); .f16/.f16x2/.bf16/.bf16x2 (.noftz)
// keep subnormals. min/max of f16/bf16 (the vector atomics of sm_90 and the bulk reductions) follow
// min/max.f16 (§9.7.3): a NaN operand is ignored unless both are NaN, -0 orders below +0.
// NaN results (the PTX ISA leaves their bits open; assumed to match the SM's own arithmetic,
// sim/exec/fp_util.h; UNCONFIRMED for the atomic and TMA units on hardware): f32 -> 0x7fffffff,
// f16/bf16 -> 0x7fff, f64 -> the first NaN operand (the memory value, then b) quieted, an invalid
// inf - inf -> 0xfff8000000000000.
#pragma once
#include <cstdint>
#include <cstring>

namespace tcsim::isa::ptx {
struct Instr;
}

namespace tcsim::sim::rmw {

enum class Op : uint8_t { And, Or, Xor, Cas, Exch, Add, Inc, Dec, Min, Max };

// Element types. Bitwise ops and exch/cas see only the width (B16/B32/B64/B128).
enum class Type : uint8_t { B16, B32, B64, B128, U32, S32, U64, S64, F32, F64, F16, BF16, F16x2, BF16x2 };

constexpr uint32_t type_bytes(Type t) {
  switch (t) {
    case Type::B16: case Type::F16: case Type::BF16: return 2;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 8;
    case Type::B128: return 16;
    default: return 4;
  }
}
constexpr bool is_float(Type t) {
  return t == Type::F32 || t == Type::F64 || t == Type::F16 || t == Type::BF16 || t == Type::F16x2 ||
         t == Type::BF16x2;
}

const char* op_name(Op op);
const char* type_name(Type t);

// The one reduction-modifier table (.and .or .xor .cas .exch .add .inc .dec .min .max): the number of
// operation modifiers `in` carries, the last of them in *op.
int parse_op(const isa::ptx::Instr& in, Op* op);

// ---- IEEE addition, round to nearest even, exact (software; independent of the host FP state) --
uint32_t add_f32(uint32_t a, uint32_t b, bool ftz);  // ftz: flush subnormal inputs and result
uint64_t add_f64(uint64_t a, uint64_t b);
uint16_t add_f16(uint16_t a, uint16_t b);
uint16_t add_bf16(uint16_t a, uint16_t b);
// min/max of two f16 (bf16 when `bf16`) codes.
uint16_t minmax_h(uint16_t a, uint16_t b, bool is_max, bool bf16);

inline uint32_t half2(uint32_t a, uint32_t b, uint16_t (*f)(uint16_t, uint16_t)) {
  return uint32_t{f(static_cast<uint16_t>(a), static_cast<uint16_t>(b))} |
         uint32_t{f(static_cast<uint16_t>(a >> 16), static_cast<uint16_t>(b >> 16))} << 16;
}
inline uint32_t half2_minmax(uint32_t a, uint32_t b, bool is_max, bool bf16) {
  return uint32_t{minmax_h(static_cast<uint16_t>(a), static_cast<uint16_t>(b), is_max, bf16)} |
         uint32_t{minmax_h(static_cast<uint16_t>(a >> 16), static_cast<uint16_t>(b >> 16), is_max, bf16)} << 16;
}

// The new value of one element of at most 64 bits (B128 is handled by the caller: cas/exch only).
// Values are zero-extended bit patterns of the element; the result is one too. Op and type fixed at
// compile time: the execute functions of atom/red (shared memory, one call per lane).
template <Op O, Type T, bool Ftz = false>
inline uint64_t alu(uint64_t old, uint64_t b, uint64_t c) {
  constexpr uint64_t mask = type_bytes(T) >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * type_bytes(T))) - 1;
  if constexpr (O == Op::And) return old & b & mask;
  else if constexpr (O == Op::Or) return (old | b) & mask;
  else if constexpr (O == Op::Xor) return (old ^ b) & mask;
  else if constexpr (O == Op::Exch) return b & mask;
  else if constexpr (O == Op::Cas) return (old & mask) == (b & mask) ? c & mask : old & mask;
  else if constexpr (O == Op::Inc) {
    const uint32_t r = static_cast<uint32_t>(old), s = static_cast<uint32_t>(b);
    return r >= s ? 0 : r + 1;
  } else if constexpr (O == Op::Dec) {
    const uint32_t r = static_cast<uint32_t>(old), s = static_cast<uint32_t>(b);
    return (r == 0 || r > s) ? s : r - 1;
  } else if constexpr (O == Op::Add) {
    if constexpr (T == Type::F32) return add_f32(static_cast<uint32_t>(old), static_cast<uint32_t>(b), Ftz);
    else if constexpr (T == Type::F64) return add_f64(old, b);
    else if constexpr (T == Type::F16) return add_f16(static_cast<uint16_t>(old), static_cast<uint16_t>(b));
    else if constexpr (T == Type::BF16) return add_bf16(static_cast<uint16_t>(old), static_cast<uint16_t>(b));
    else if constexpr (T == Type::F16x2) return half2(static_cast<uint32_t>(old), static_cast<uint32_t>(b), add_f16);
    else if constexpr (T == Type::BF16x2) return half2(static_cast<uint32_t>(old), static_cast<uint32_t>(b), add_bf16);
    else return (old + b) & mask;  // two's complement: the same bits for signed and unsigned
  } else {  // Min, Max
    constexpr bool kMax = O == Op::Max;
    if constexpr (T == Type::S32) {
      const int32_t x = static_cast<int32_t>(old), y = static_cast<int32_t>(b);
      return static_cast<uint32_t>(kMax ? (x > y ? x : y) : (x < y ? x : y));
    } else if constexpr (T == Type::S64) {
      const int64_t x = static_cast<int64_t>(old), y = static_cast<int64_t>(b);
      return static_cast<uint64_t>(kMax ? (x > y ? x : y) : (x < y ? x : y));
    } else if constexpr (T == Type::F16 || T == Type::BF16) {
      return minmax_h(static_cast<uint16_t>(old), static_cast<uint16_t>(b), kMax, T == Type::BF16);
    } else if constexpr (T == Type::F16x2 || T == Type::BF16x2) {
      return half2_minmax(static_cast<uint32_t>(old), static_cast<uint32_t>(b), kMax, T == Type::BF16x2);
    } else {
      if constexpr (T == Type::F32 || T == Type::F64) return old;  // no PTX form has it
      const uint64_t x = old & mask, y = b & mask;
      return kMax ? (x > y ? x : y) : (x < y ? x : y);
    }
  }
}

// The same with op and type chosen at run time (the RMW log at the quantum boundary, vector forms,
// red.async, the bulk reductions). Combinations no PTX form has never reach here: each instruction
// family's binder rejects them; for them this returns `old`.
uint64_t alu(Op op, Type t, bool ftz, uint64_t old, uint64_t b, uint64_t c);

// One element operation as the engines carry it: the operation, its element type, and whether
// f32 subnormals are flushed.
struct ElemOp {
  Op op = Op::Add;
  Type type = Type::U32;
  bool ftz = false;
};

// *dst = dst op src for one element of type_bytes(e.type) <= 8 bytes (little-endian, unaligned
// allowed); returns the old value.
inline uint64_t apply(const ElemOp& e, uint8_t* dst, const uint8_t* src) {
  const uint32_t n = type_bytes(e.type);
  uint64_t old = 0, b = 0;
  std::memcpy(&old, dst, n);
  std::memcpy(&b, src, n);
  const uint64_t v = alu(e.op, e.type, e.ftz, old, b, 0);
  std::memcpy(dst, &v, n);
  return old;
}

}  // namespace tcsim::sim::rmw
