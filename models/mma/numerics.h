// The arithmetic parameters of one tensor-core datapath (ref/numerics.md §2.1).
//
// Every NVIDIA MMA studied so far (Volta .. Blackwell; Fasi et al. 2021, Khattak & Mikaitis 2025
// "KM", MMA-Sim 2025) is a *block fused dot-product-add*: exact products (not renormalised), C as
// one more term, alignment of every term to the largest nominal exponent maxE, truncation toward
// zero at `nfrac` fraction bits below 2^maxE (no sticky bit), an exact integer sum, and one final
// rounding. What differs between GPUs and instruction paths is this small set of numbers and
// rules. The places where the public models disagree (zero operands, exponent floor, f16 C
// exponent, zero sign, block-scaled reduction unit) are explicit fields, so that hardware probes
// (kernels/probes/) can select them instead of a guess being baked into code.
//
// This header is std-only: kernels/probes/ compiles the fast path with nvcc.
#pragma once
#include <cstdint>

#include "models/formats/format.h"

namespace tcsim::models::mma {

// Sentinel exponents. Far outside any format's range but far from int32 overflow, so sums of
// two of them and differences with real exponents stay exact.
inline constexpr int kNoFloor = -(1 << 20);
inline constexpr int kSkipExp = -(1 << 20);

// nfrac value meaning "no truncation at all": the exact sum, rounded once (KM/MMA-Sim have no such
// path; our replay of the B200 legacy mma.sync fp8 files fits it, ref/numerics.md §1.2).
inline constexpr int kExactNfrac = 1 << 12;

// What exponent a zero A or B operand has when the max exponent is chosen (probe Q20).
enum class ZeroExp : uint8_t {
  Skip,        // KM, sf-tensor/tcgen05: a product with a zero operand takes no part in maxE
  Fixed,       // MMA-Sim: a zero has exponent `zero_operand_exp` (-126) whatever its format
  FormatEmin,  // a zero has its format's emin (the exponent its field encodes)
};

// The sign of an exactly-zero result (probe Q12).
enum class ZeroSign : uint8_t {
  Positive,  // KM, MMA-Sim, sf-tensor: always +0 (B200 words "*-negative-zero": C=-0 -> +0)
  Ieee,      // IEEE sum of zeros under RN: -0 only if every term is a -0
};

struct Numerics {
  int group = 0;            // products fused per normalisation; 0 = the whole instruction K.
                            // K > group: groups are chained, each rounded to D's format (§1.1.6)
  int nfrac = 25;           // fraction bits kept below 2^maxE; kExactNfrac = no truncation
  int f32_out_frac = 23;    // fraction bits of an f32 D: 23, or 13 for Hopper fp8 ("e8m13")
  Round f32_round = Round::RZ;
  Round f16_round = Round::RN;
  ZeroExp zero_operand = ZeroExp::Skip;
  int zero_operand_exp = -126;       // used by ZeroExp::Fixed
  bool c_zero_in_max = false;        // MMA-Sim: a +-0 C takes part in maxE with `c_zero_exp`
  int c_zero_exp = -126;
  int exp_floor = kNoFloor;          // maxE = max(maxE, exp_floor) (KM: -133 for H100/B200 f32 D)
  bool f16_c_fp32_view = false;      // f16 C exponent: false = clamped to f16 emin (-14, MMA-Sim);
                                     // true = its value seen as an fp32 (normalised, KM)
  ZeroSign zero_sign = ZeroSign::Positive;
  uint32_t nan_f32 = 0x7fffffffu;    // canonical NaN written for an f32 D (MMA-Sim, B200 words)
  uint16_t nan_f16 = 0x7fff;         // canonical NaN written for an f16 D (B200 word, f16 D)
  // Block-scaled kinds with K=64 (mxf4, mxf4nvf4), ref/numerics.md §2.5:
  int bs_unit = 16;                  // products summed exactly before truncation (MMA-Sim 16;
                                     // sf-tensor describes 4 for the UE4M3 path)
  int bs_nfrac = 35;                 // fraction bits kept below the max scale exponent
  bool bs_zero_units_in_max = true;  // MMA-Sim: a unit whose sum is 0 still has exponent E_sA+E_sB
};

}  // namespace tcsim::models::mma
