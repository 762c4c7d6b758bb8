// The MMA fast path: bit-exact tensor-core dot products for the simulator's tensor-core units.
//
// One generic engine (docs/mma_numerics.md) driven by a DotShape (a parameter row's Numerics plus
// the instruction's kind, types, K and modifiers):
//   1. decode: A/B/C/scale codes -> (class, sign, nominal exponent, integer significand);
//      tf32 low 13 bits ignored; negate bits flip signs; zero rule folded into the exponent;
//      UE8M0 scale exponents (mxf8f6f4) folded into the element exponents.
//   2. per group of `group` products (chained when K > group, each group rounded to D's format):
//      special pre-pass (NaN, 0*Inf, Inf-Inf -> canonical NaN; +-Inf);
//      maxE = max(product exponents e_a+e_b, C's exponent, floor);
//      every term truncated toward zero at nfrac fraction bits below 2^maxE (no sticky);
//      exact int64 sum (or an exact wide sum for the exact-sum datapath);
//      one rounding (RZ / RN, f32 13- or 23-bit, f16).
//   3. mxf4 / mxf4nvf4: exact sums of `bs_unit` products times the two scale significands, each
//      unit one term with the nominal exponent E_sA+E_sB, window bs_nfrac.
//   4. kind::i8: exact sum, wrap or saturate.
//   5. Structure::F16Halves (mma.sync fp8 on sm_90a/sm_100a, emulated by ptxas): fp8 operands as
//      f16, two chained HMMA groups over the k%4 halves (C = +0), one IEEE RN add of C.
// Std-only: kernels/probes/ compiles this file with nvcc into the differential program; the
// doctest suite proves it equal to the Boost oracle (models/mma/oracle.h) step by step.
#pragma once
#include <cstdint>
#include <vector>

#include "models/mma/decode.h"
#include "models/mma/dot_shape.h"
#include "models/mma/rounding.h"
#include "models/mma/simd_kernels.h"

namespace tcsim::models::mma {

class DotEngine {
 public:
  // Throws std::invalid_argument with check_shape()'s message when the shape is inconsistent.
  explicit DotEngine(const DotShape& shape);
  const DotShape& shape() const { return s_; }

  // One output element. a, b: K element codes (f32/tf32: the fp32 word; f16/bf16: 16-bit code;
  // fp8/fp6/fp4/s8/u8: the code in the low bits); c: C's word (f32 bits, f16 code or s32);
  // sa, sb: scale_blocks() scale codes each (nullptr when unscaled). Returns D's word.
  uint32_t dot(const uint32_t* a, const uint32_t* b, uint32_t c, const uint8_t* sa = nullptr,
               const uint8_t* sb = nullptr) const;

  // A whole M x N tile: a is M x K row-major, b is K x N column-major (column j at b + j*K),
  // c and d are M x N row-major words; sa is M x blocks, sb is N x blocks (row-major).
  // Decodes every row of A and column of B once. d may alias c.
  void tile(int m, int n, const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d,
            const uint8_t* sa = nullptr, const uint8_t* sb = nullptr) const;

  // A decoded operand vector (one row of A or column of B, K elements).
  struct Vec {
    const int32_t* exp;
    const int32_t* sig;  // signed significand (sign applied)
    const uint8_t* cls;
    const uint8_t* neg;
    const int32_t* unit_scale_exp;  // mxf4 kinds: per scale block, nominal exponent
    const int32_t* unit_scale_sig;  //   and significand of the block's scale
    uint8_t flags;                  // kHasSpecial | kHasNaN
  };
  static constexpr uint8_t kHasSpecial = 1, kHasNaN = 2;

 private:
  struct Buf;  // storage behind Vec
  void decode_vec(const uint32_t* codes, const uint8_t* scales, const Decoder& d, bool negate,
                  Buf& buf, int slot) const;
  uint32_t dot_decoded(const Vec& a, const Vec& b, uint32_t c) const;
  void tile_rows(int m, int n, const Vec* vecs, const uint32_t* c, uint32_t* d) const;
  template <int kOutFrac, bool kF16, bool kRN>
  void tile_rows_t(int m, int n, const Vec* vecs, const uint32_t* c, uint32_t* d) const;
  uint32_t dot_int(const Vec& a, const Vec& b, uint32_t c) const;
  uint32_t dot_halves(const Vec& a, const Vec& b, uint32_t c) const;
  uint32_t ieee_add(uint32_t x, uint32_t y) const;
  uint32_t dot_block4(const Vec& a, const Vec& b, uint32_t c) const;
  uint32_t combine_block4(const Vec& a, const Vec& b, uint32_t c, const int64_t* raw) const;
  void tile_block4(int m, int n, const Vec* vecs, const uint32_t* c, uint32_t* d) const;
  uint32_t group_fp(const Vec& a, const Vec& b, int k0, int k1, uint32_t c, bool first) const;
  bool group_special(const Vec& a, const Vec& b, int k0, int k1, const Elem& ce,
                     uint32_t* out) const;
  uint32_t group_exact(const Vec& a, const Vec& b, int k0, int k1, const Elem& ce) const;
  int64_t sum_wide(const Vec& a, const Vec& b, int k0, int k1, int* mx) const;
  bool all_neg_zero(const Vec& a, const Vec& b, int k0, int k1, const Elem& ce) const;
  uint32_t special_or_zero(bool nan, bool pinf, bool ninf) const;
  Elem decode_c(uint32_t c, bool first) const;
  uint32_t finish(int64_t s, int lsb_exp, bool all_neg_zero) const;

  DotShape s_;
  Decoder da_, db_, dc_, dscale_;
  OutFormat out_;
  Round round_;
  int group_;
  int fp_;          // fraction bits of a product: frac(A) + frac(B)
  int zero_c_exp_;  // exponent of a zero C in maxE (kSkipExp: none)
  bool halves_;     // Structure::F16Halves: operands decoded as f16, permuted into two halves
  bool simd_ok_;    // the group kernels of simd_kernels.h apply (nfrac <= 29, nfrac >= fp_)
  const simd::Kernels* kernels_;
};

}  // namespace tcsim::models::mma
