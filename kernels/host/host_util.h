// Host-side helpers of the host programs (kernels/host/README.md): what a CUDA program's own host
// code does — error checks, a deterministic generator, tensor maps encoded through the driver entry
// point the runtime hands out (cudaGetDriverEntryPointByVersion, as CUTLASS does), so that the very
// same binary runs on a GPU and under `tcsim exec`.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define HOST_CHECK(call)                                                                             \
  do {                                                                                               \
    const cudaError_t e_ = (call);                                                                   \
    if (e_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));    \
      std::exit(2);                                                                                  \
    }                                                                                                \
  } while (0)

namespace host {

// xorshift64*: the same numbers on every machine.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<uint64_t>(hi - lo + 1)); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>((next() >> 40) * 0x1p-24); }
};

// bf16 of a float that is exactly representable (small integers, the values used here): the top
// half of its bits.
inline uint16_t bf16_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}
inline float bf16_value(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

inline EncodeTiled encode_tiled() {
  static EncodeTiled fn = nullptr;
  if (!fn) {
    cudaDriverEntryPointQueryResult q;
    void* p = nullptr;
    HOST_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || !p) {
      std::fprintf(stderr, "cuTensorMapEncodeTiled is not available\n");
      std::exit(2);
    }
    fn = reinterpret_cast<EncodeTiled>(p);
  }
  return fn;
}

// A 2-D row-major [rows][cols] tensor of `elem` bytes, boxes of box_cols x box_rows, 128B swizzle.
inline CUtensorMap tensor_map_2d(const void* base, CUtensorMapDataType t, uint32_t elem, uint64_t rows, uint64_t cols,
                                 uint32_t box_cols, uint32_t box_rows,
                                 CUtensorMapL2promotion l2 = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
  CUtensorMap m;
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * elem};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t es[2] = {1, 1};
  const CUresult r = encode_tiled()(&m, t, 2, const_cast<void*>(base), dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                    CU_TENSOR_MAP_SWIZZLE_128B, l2, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed (CUresult %d)\n", static_cast<int>(r));
    std::exit(2);
  }
  return m;
}

}  // namespace host
