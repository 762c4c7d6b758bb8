// The arithmetic parameters of one tensor-core datapath (sources: docs/mma_numerics.md).
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

// nfrac value meaning "no truncation at all": the exact sum, rounded once (a probe alternative; no
// row uses it since the B200 mma.sync fp8 files, which fitted it 5000/4999, were found to be
// Structure::F16Halves, which fits them 5000/5000).
inline constexpr int kExactNfrac = 1 << 12;

// What exponent a zero A or B operand has when the max exponent is chosen (probe Q20).
enum class ZeroExp : uint8_t {
  Skip,        // KM, sf-tensor/tcgen05: a product with a zero operand takes no part in maxE
               // (confirmed on an H200, every sm_90a path: Q20 in kernels/probes/results/)
  Fixed,       // MMA-Sim: a zero has exponent `zero_operand_exp` (-126) whatever its format
  FormatEmin,  // a zero has its format's emin (the exponent its field encodes)
};

// How the instruction is executed (probe Q10).
enum class Structure : uint8_t {
  Fused,      // one tensor-core datapath: groups of `group` products fused with C, chained
  F16Halves,  // mma.sync e4m3/e5m2 on sm_90a and sm_100a, which have no fp8 mma.sync unit: ptxas
              // (CUDA 13.0) emits F2FP.F16.E4M3/E5M2.UNPACK_B (every operand converted to f16,
              // exactly), two HMMAs on the f16 datapath of this row's other parameters -- the
              // products with k%4 in {0,1} (bytes 0-1 of each operand register) with C = +0, then
              // those with k%4 in {2,3} chained onto it -- and one IEEE add of the instruction's C
              // rounded to nearest even (FADD for f32 D, HADD2 for f16 D). Confirmed on an H200
              // (kernels/probes/results/h200-2026-11-30) and by KM's B200 mma.sync fp8 files.
};

// The sign of an exactly-zero result (probe Q12).
enum class ZeroSign : uint8_t {
  Positive,  // KM, MMA-Sim, sf-tensor: always +0 (B200 words "*-negative-zero": C=-0 -> +0;
             // every sm_90a path on an H200: Q12)
  Ieee,      // IEEE sum of zeros under RN: -0 only if every term is a -0
};

struct Numerics {
  Structure structure = Structure::Fused;
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
  int exp_floor = kNoFloor;          // maxE = max(maxE, exp_floor) (KM: -133 for H100/B200 f32 D;
                                     // the H200 has none at -126, Q1; <= -127 not excluded)
  bool f16_c_fp32_view = false;      // f16 C exponent: false = clamped to f16 emin (-14, MMA-Sim;
                                     // the H200's, Q2); true = its value seen as an fp32 (KM)
  ZeroSign zero_sign = ZeroSign::Positive;
  uint32_t nan_f32 = 0x7fffffffu;    // canonical NaN written for an f32 D (MMA-Sim, B200 words)
  uint16_t nan_f16 = 0x7fff;         // canonical NaN written for an f16 D (B200 word, f16 D)
  // Block-scaled kinds with K=64 (mxf4, mxf4nvf4), docs/mma_numerics.md §2:
  int bs_unit = 16;                  // products summed exactly before truncation (MMA-Sim 16;
                                     // sf-tensor describes 4 for the UE4M3 path)
  int bs_nfrac = 35;                 // fraction bits kept below the max scale exponent
  bool bs_zero_units_in_max = true;  // MMA-Sim: a unit whose sum is 0 still has exponent E_sA+E_sB
};

}  // namespace tcsim::models::mma
