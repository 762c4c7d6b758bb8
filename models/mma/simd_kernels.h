// The two inner loops of a fused group (engine.cc), in a portable scalar form and an AVX2 form
// chosen at run time. Both compute the same integers (tests run the oracle comparison with each).
// Std-only interface; the AVX2 code is compiled only for x86-64 GCC/Clang hosts.
#pragma once
#include <cstdint>

namespace tcsim::models::mma::simd {

// One fused group's products: *mx = max(*mx, max_k ea[k] + eb[k]) (the nominal product
// exponents), then returns sum_k sign(p_k) * ((|p_k| << base) >> (*mx - ea[k] - eb[k])) with
// p_k = sa[k] * sb[k]: every product aligned to units of 2^(mx - nfrac) and truncated toward zero
// (base = nfrac - the product's fraction bits). Requires 0 <= base and |p_k| << base < 2^31
// (nfrac <= 29).
using GroupFn = int64_t (*)(const int32_t* ea, const int32_t* sa, const int32_t* eb,
                            const int32_t* sb, int n, int base, int* mx);

// The same for one row of A against n columns of B: column j's operands start at
// eb + j * stride and sb + j * stride (len products each); mx[j] holds the column's initial
// maximum (C's exponent, the floor) and receives the final one; sum[j] receives the sum.
using RowGroupFn = void (*)(const int32_t* ea, const int32_t* sa, const int32_t* eb,
                            const int32_t* sb, int len, int stride, int n, int base, int32_t* mx,
                            int64_t* sum);

struct Kernels {
  GroupFn group;
  RowGroupFn row_group;
  const char* name;  // "avx2" or "scalar"
};

// The kernels in use: AVX2 when the CPU has it, unless force_scalar(true) was called.
const Kernels& kernels();
// For tests and benchmarks: pin the portable kernels (true) or return to the best (false).
void force_scalar(bool on);

}  // namespace tcsim::models::mma::simd
