#include "models/mma/simd_kernels.h"

#include <atomic>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define TCSIM_MMA_AVX2 1
#include <immintrin.h>
#endif

namespace tcsim::models::mma::simd {
namespace {

int max_exp_scalar(const int32_t* ea, const int32_t* eb, int n, int init) {
  int m = init;
  for (int k = 0; k < n; ++k) {
    const int e = ea[k] + eb[k];
    m = e > m ? e : m;
  }
  return m;
}

int64_t sum_scalar(const int32_t* ea, const int32_t* sa, const int32_t* eb, const int32_t* sb,
                   int n, int mx, int base) {
  int64_t s = 0;
  for (int k = 0; k < n; ++k) {
    const int32_t p = sa[k] * sb[k];
    const uint32_t d = static_cast<uint32_t>(mx - (ea[k] + eb[k]));
    const uint32_t m = (p < 0 ? 0u - static_cast<uint32_t>(p) : static_cast<uint32_t>(p)) << base;
    const uint32_t t = d > 31 ? 0 : m >> d;  // truncation of the magnitude: toward zero
    s += p < 0 ? -int64_t{t} : int64_t{t};
  }
  return s;
}

#ifdef TCSIM_MMA_AVX2
__attribute__((target("avx2"), always_inline)) inline int max_exp_avx2(const int32_t* ea, const int32_t* eb, int n,
                                                 int init) {
  __m256i m = _mm256_set1_epi32(init);
  int k = 0;
  for (; k + 8 <= n; k += 8)
    m = _mm256_max_epi32(m, _mm256_add_epi32(_mm256_loadu_si256((const __m256i*)(ea + k)),
                                             _mm256_loadu_si256((const __m256i*)(eb + k))));
  __m128i h = _mm_max_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
  h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0x4e));
  h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0xb1));
  return max_exp_scalar(ea + k, eb + k, n - k, _mm_cvtsi128_si32(h));
}

__attribute__((target("avx2"), always_inline)) inline int64_t sum_avx2(const int32_t* ea, const int32_t* sa,
                                                 const int32_t* eb, const int32_t* sb, int n,
                                                 int mx, int base) {
  const __m256i vmx = _mm256_set1_epi32(mx);
  const __m128i vbase = _mm_cvtsi32_si128(base);
  __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
  int k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m256i e = _mm256_add_epi32(_mm256_loadu_si256((const __m256i*)(ea + k)),
                                       _mm256_loadu_si256((const __m256i*)(eb + k)));
    const __m256i p = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i*)(sa + k)),
                                         _mm256_loadu_si256((const __m256i*)(sb + k)));
    const __m256i d = _mm256_sub_epi32(vmx, e);  // >= 0; counts above 31 shift everything out
    const __m256i t = _mm256_srlv_epi32(_mm256_sll_epi32(_mm256_abs_epi32(p), vbase), d);
    const __m256i st = _mm256_sign_epi32(t, p);  // back to the product's sign (0 stays 0)
    acc0 = _mm256_add_epi64(acc0, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(st)));
    acc1 = _mm256_add_epi64(acc1, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(st, 1)));
  }
  const __m256i acc = _mm256_add_epi64(acc0, acc1);
  const __m128i h = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  const int64_t s = _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1);
  return s + sum_scalar(ea + k, sa + k, eb + k, sb + k, n - k, mx, base);
}
#endif

int64_t group_scalar(const int32_t* ea, const int32_t* sa, const int32_t* eb, const int32_t* sb,
                     int n, int base, int* mx) {
  *mx = max_exp_scalar(ea, eb, n, *mx);
  return sum_scalar(ea, sa, eb, sb, n, *mx, base);
}

#ifdef TCSIM_MMA_AVX2
__attribute__((target("avx2"))) int64_t group_avx2(const int32_t* ea, const int32_t* sa,
                                                   const int32_t* eb, const int32_t* sb, int n,
                                                   int base, int* mx) {
  *mx = max_exp_avx2(ea, eb, n, *mx);
  return sum_avx2(ea, sa, eb, sb, n, *mx, base);
}
#endif

void row_group_scalar(const int32_t* ea, const int32_t* sa, const int32_t* eb, const int32_t* sb,
                      int len, int stride, int n, int base, int32_t* mx, int64_t* sum) {
  for (int j = 0; j < n; ++j) {
    int m = mx[j];
    sum[j] = group_scalar(ea, sa, eb + static_cast<size_t>(j) * stride,
                          sb + static_cast<size_t>(j) * stride, len, base, &m);
    mx[j] = m;
  }
}

#ifdef TCSIM_MMA_AVX2
__attribute__((target("avx2"))) void row_group_avx2(const int32_t* ea, const int32_t* sa,
                                                    const int32_t* eb, const int32_t* sb, int len,
                                                    int stride, int n, int base, int32_t* mx,
                                                    int64_t* sum) {
  for (int j = 0; j < n; ++j) {
    const int32_t* ebj = eb + static_cast<size_t>(j) * stride;
    const int32_t* sbj = sb + static_cast<size_t>(j) * stride;
    const int m = max_exp_avx2(ea, ebj, len, mx[j]);
    mx[j] = m;
    sum[j] = sum_avx2(ea, sa, ebj, sbj, len, m, base);
  }
}
#endif

const Kernels kScalar{group_scalar, row_group_scalar, "scalar"};
#ifdef TCSIM_MMA_AVX2
const Kernels kAvx2{group_avx2, row_group_avx2, "avx2"};
#endif

const Kernels* best() {
#ifdef TCSIM_MMA_AVX2
  if (__builtin_cpu_supports("avx2")) return &kAvx2;
#endif
  return &kScalar;
}

std::atomic<const Kernels*> g_current{nullptr};

}  // namespace

const Kernels& kernels() {
  const Kernels* k = g_current.load(std::memory_order_relaxed);
  if (!k) {
    k = best();
    g_current.store(k, std::memory_order_relaxed);
  }
  return *k;
}

void force_scalar(bool on) { g_current.store(on ? &kScalar : best(), std::memory_order_relaxed); }

}  // namespace tcsim::models::mma::simd
