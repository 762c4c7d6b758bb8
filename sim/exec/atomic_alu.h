// The arithmetic of atom / red (PTX ISA §9.7.13.5 "atom", §9.7.13.6 "red"): one element's new
// value from its old value and the operands, independent of where the element lives. The memory
// side (shared memory at once, global memory at the quantum boundary) is sim/exec/atomic.cc.
//
//   atomic { d = *a; *a = (op == cas) ? cas(*a, b, c) : op(*a, b); }
//   inc(r, s) = (r >= s) ? 0 : r + 1;          dec(r, s) = (r == 0 || r > s) ? s : r - 1;
//   exch(r, s) = s;                            cas(r, s, t) = (r == s) ? t : r;
//
// Floating-point .add rounds to nearest even (§9.7.13.5): "atom.add.f32 on global memory flushes
// subnormal inputs and results to sign-preserving zero; atom.add.f32 on shared memory supports
// subnormal inputs and results"; .f16/.f16x2/.bf16/.bf16x2 need .noftz and keep subnormals. The
// vector .min/.max of f16/bf16 (sm_90, §9.7.13.5 vector table) follow min/max.f16 (§9.7.4.x): a NaN
// operand is ignored unless both are NaN, -0 orders below +0.
// NaN results (the PTX ISA leaves their bits open; assumed to match the SM's own arithmetic, see
// sim/exec/fp_util.h — not yet confirmed for the atomic units on hardware): f32 -> 0x7fffffff,
// f16/bf16 -> 0x7fff, f64 -> the first NaN operand (the memory value, then b) quieted, an invalid
// inf - inf -> 0xfff8000000000000.
#pragma once
#include <cstdint>

namespace tcsim::sim::atomic {

enum class AOp : uint8_t { And, Or, Xor, Cas, Exch, Add, Inc, Dec, Min, Max };

// Element types. Bitwise ops and exch/cas see only the width (B16/B32/B64/B128).
enum class AType : uint8_t { B16, B32, B64, B128, U32, S32, U64, S64, F32, F64, F16, BF16, F16x2, BF16x2 };

constexpr uint32_t type_bytes(AType t) {
  switch (t) {
    case AType::B16: case AType::F16: case AType::BF16: return 2;
    case AType::B64: case AType::U64: case AType::S64: case AType::F64: return 8;
    case AType::B128: return 16;
    default: return 4;
  }
}

const char* op_name(AOp op);
const char* type_name(AType t);

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
// Values are zero-extended bit patterns of the element; the result is one too.
template <AOp Op, AType T, bool Ftz = false>
inline uint64_t alu(uint64_t old, uint64_t b, uint64_t c) {
  constexpr uint64_t mask = type_bytes(T) >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * type_bytes(T))) - 1;
  if constexpr (Op == AOp::And) return old & b & mask;
  else if constexpr (Op == AOp::Or) return (old | b) & mask;
  else if constexpr (Op == AOp::Xor) return (old ^ b) & mask;
  else if constexpr (Op == AOp::Exch) return b & mask;
  else if constexpr (Op == AOp::Cas) return (old & mask) == (b & mask) ? c & mask : old & mask;
  else if constexpr (Op == AOp::Inc) {
    const uint32_t r = static_cast<uint32_t>(old), s = static_cast<uint32_t>(b);
    return r >= s ? 0 : r + 1;
  } else if constexpr (Op == AOp::Dec) {
    const uint32_t r = static_cast<uint32_t>(old), s = static_cast<uint32_t>(b);
    return (r == 0 || r > s) ? s : r - 1;
  } else if constexpr (Op == AOp::Add) {
    if constexpr (T == AType::F32) return add_f32(static_cast<uint32_t>(old), static_cast<uint32_t>(b), Ftz);
    else if constexpr (T == AType::F64) return add_f64(old, b);
    else if constexpr (T == AType::F16) return add_f16(static_cast<uint16_t>(old), static_cast<uint16_t>(b));
    else if constexpr (T == AType::BF16) return add_bf16(static_cast<uint16_t>(old), static_cast<uint16_t>(b));
    else if constexpr (T == AType::F16x2) return half2(static_cast<uint32_t>(old), static_cast<uint32_t>(b), add_f16);
    else if constexpr (T == AType::BF16x2) return half2(static_cast<uint32_t>(old), static_cast<uint32_t>(b), add_bf16);
    else return (old + b) & mask;  // two's complement: the same bits for signed and unsigned
  } else {  // Min, Max
    constexpr bool kMax = Op == AOp::Max;
    if constexpr (T == AType::S32) {
      const int32_t x = static_cast<int32_t>(old), y = static_cast<int32_t>(b);
      return static_cast<uint32_t>(kMax ? (x > y ? x : y) : (x < y ? x : y));
    } else if constexpr (T == AType::S64) {
      const int64_t x = static_cast<int64_t>(old), y = static_cast<int64_t>(b);
      return static_cast<uint64_t>(kMax ? (x > y ? x : y) : (x < y ? x : y));
    } else if constexpr (T == AType::F16 || T == AType::BF16) {
      return minmax_h(static_cast<uint16_t>(old), static_cast<uint16_t>(b), kMax, T == AType::BF16);
    } else if constexpr (T == AType::F16x2 || T == AType::BF16x2) {
      return half2_minmax(static_cast<uint32_t>(old), static_cast<uint32_t>(b), kMax, T == AType::BF16x2);
    } else {
      const uint64_t x = old & mask, y = b & mask;
      return kMax ? (x > y ? x : y) : (x < y ? x : y);
    }
  }
}

// The same with op and type chosen at run time (the global-memory path at the quantum boundary,
// vector forms, tests). Unsupported combinations never reach here: the binder rejects them.
uint64_t alu(AOp op, AType t, bool ftz, uint64_t old, uint64_t b, uint64_t c);

}  // namespace tcsim::sim::atomic
