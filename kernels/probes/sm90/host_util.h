// Host-side helpers of the sm_90a probe programs: exact value -> code encoding, device buffers,
// packing element codes at their storage width, environment report.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "models/formats/format.h"

#define PROBES_CK(call)                                                                     \
  do {                                                                                      \
    cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                \
      std::printf("CUDA_ERROR %s at %s:%d: %s\n", #call, __FILE__, __LINE__,               \
                  cudaGetErrorString(e_));                                                  \
      std::fflush(stdout);                                                                  \
      std::exit(3);                                                                         \
    }                                                                                       \
  } while (0)

namespace probes {

using tcsim::isa::DType;

// The code of type t whose value is exactly v (nullopt if t cannot hold it). -0.0 keeps its sign.
inline std::optional<uint32_t> encode(DType t, double v) {
  if (t == DType::S8 || t == DType::U8) {
    const long x = static_cast<long>(v);
    if (static_cast<double>(x) != v) return std::nullopt;
    if (t == DType::S8 ? (x < -128 || x > 127) : (x < 0 || x > 255)) return std::nullopt;
    return static_cast<uint32_t>(x) & 0xffu;
  }
  if (t == DType::S32) {
    const long long x = static_cast<long long>(v);
    if (static_cast<double>(x) != v || x < INT32_MIN || x > INT32_MAX) return std::nullopt;
    return static_cast<uint32_t>(static_cast<int32_t>(x));
  }
  if (t == DType::F32 || t == DType::TF32 || t == DType::BF16) {
    const float f = static_cast<float>(v);
    if (!(static_cast<double>(f) == v) && !(v != v)) return std::nullopt;
    uint32_t w;
    std::memcpy(&w, &f, 4);
    if (t == DType::TF32 && (w & 0x1fffu)) return std::nullopt;
    if (t == DType::BF16) return (w & 0xffffu) ? std::nullopt : std::optional<uint32_t>(w >> 16);
    return w;
  }
  // f16 and the narrow formats: search the exact decodes
  static std::map<DType, std::map<std::pair<bool, double>, uint32_t>> tables;
  auto& tab = tables[t];
  if (tab.empty()) {
    const auto& f = tcsim::models::format_spec(t);
    for (uint32_t c = 0; c < (1u << f.storage_bits); ++c) {
      const double x = tcsim::models::to_double(t, c);
      if (x != x) continue;
      tab.emplace(std::pair{std::signbit(x), x}, c);
    }
  }
  const auto it = tab.find(std::pair{std::signbit(v), v});
  if (it == tab.end()) return std::nullopt;
  return it->second;
}

// Element codes (one uint32 each) packed at `ebytes` per element, little-endian.
inline void pack(const std::vector<uint32_t>& codes, int ebytes, std::vector<uint8_t>& out) {
  out.resize(codes.size() * ebytes);
  for (size_t i = 0; i < codes.size(); ++i)
    for (int b = 0; b < ebytes; ++b) out[i * ebytes + b] = static_cast<uint8_t>(codes[i] >> (8 * b));
}

template <class T>
struct DevBuf {
  T* p = nullptr;
  size_t n = 0;
  void ensure(size_t count) {
    if (count <= n) return;
    if (p) cudaFree(p);
    PROBES_CK(cudaMalloc(&p, count * sizeof(T)));
    n = count;
  }
  ~DevBuf() {
    if (p) cudaFree(p);
  }
};

// PROBES_FAKE_GPU=1: every launch is replaced by tcsim's own model on the host. Only for testing
// this program's host side (encodings, bookkeeping, throughput) on a machine without a GPU: every
// comparison then succeeds by construction and says nothing about the hardware.
inline bool fake_gpu() {
  static const bool f = [] {
    const char* e = std::getenv("PROBES_FAKE_GPU");
    return e && *e == '1';
  }();
  return f;
}

inline void print_environment(const char* program) {
  if (fake_gpu()) {
    std::printf("ENV	program=%s	gpu=NONE (PROBES_FAKE_GPU=1: results come from tcsim's model, "
                "not from hardware)\n", program);
    return;
  }
  int dev = 0, drv = 0, rt = 0;
  cudaDeviceProp prop{};
  PROBES_CK(cudaGetDevice(&dev));
  PROBES_CK(cudaGetDeviceProperties(&prop, dev));
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  std::printf("ENV\tprogram=%s\tgpu=%s\tsm=%d%d\tsms=%d\tdriver_api=%d\truntime=%d\tnvcc=%d.%d\n",
              program, prop.name, prop.major, prop.minor, prop.multiProcessorCount, drv, rt,
              __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__);
}

}  // namespace probes
