// tma_queue.cu — how many bulk copies an SM's TMA unit accepts before the issuing thread stalls
// (PTX ISA §9.7.9.25.4.1 cp.async.bulk, §9.7.9.25.5.2 cp.async.bulk.tensor; both are asynchronous:
// the issuing thread goes on, and the copy completes on an mbarrier, §9.7.13.15 complete_tx).
//
// Method: one thread (or the first thread of 2 or 4 warps of one CTA) issues n copies back to back
// to distinct shared-memory destinations, reading %clock64 after every issue into shared memory;
// nothing else runs on the SM. While the unit's queue has room an issue costs a few cycles; when
// it is full the issue waits for an entry to free, and the gap after the issue jumps. Rows:
//   tma_queue,<kind>_<bytes>B_<src>_w<W>.accepted   issues before the first gap > 3x the median of
//                                                    the first 8 gaps (and > 64 cycles), per issuer
//   tma_queue,<kind>_<bytes>B_<src>_w<W>.fast_gap   median gap of those first issues (cycles)
//   tma_queue,<kind>_<bytes>B_<src>_w<W>.steady_gap median gap over the last half (cycles per issue,
//                                                    per issuer, once the queue is full)
//   tma_queue,<kind>_<bytes>B_<src>_w<W>.total      first issue -> every copy complete (cycles)
// kind: bulk (cp.async.bulk global -> shared) or tile (cp.async.bulk.tensor.2d, no swizzle, u8);
// src: hbm (the copies spread evenly, 512 KiB-2 MiB apart, over a 1 GiB buffer, a fresh base per run: L2 misses) or l2 (the
// same 64 KiB, read once before). Values: the median of 5 runs. `tma_queue_raw` rows (group,
// config, issue index, gap) give the gaps of the last run of every config for the first 160 issues.
// The issue loop keeps its address arithmetic to 32-bit adds and masks (the first run,
// results/h200-2026-12-02-tma_queue, computed a 64-bit remainder per copy: 312 cycles per issue,
// too slow to fill the queue), and every destination is 128-byte aligned (a tensor copy's
// shared-memory destination must be, PTX ISA §9.7.9.25.5.2).
#include <cudaTypedefs.h>

#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

__device__ __forceinline__ uint32_t sa(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

constexpr uint32_t kRing = 128 * 1024;     // destination bytes in shared memory (a power of two)
constexpr uint32_t kMaxIssues = 512;       // per issuer
constexpr uint32_t kMaxIssuers = 4;
constexpr uint32_t kBars = 16;             // one mbarrier per 512 KiB of expected bytes (8 MiB at most)
constexpr uint64_t kBarBytes = 512 * 1024;
static_assert(kBars * kBarBytes >= uint64_t(kMaxIssues) * kMaxIssuers * 4096, "the largest run needs more mbarriers");
constexpr uint64_t kBufBytes = 1ull << 30;
constexpr uint32_t kRowBytes = 16384;      // the 2D view: 16 KiB rows, 65536 of them

// Dynamic shared memory: [timestamps: issuers x (n + 1) u64][mbarriers][ring]
__global__ void k_issue(int kind, const uint8_t* src, const __grid_constant__ CUtensorMap m, uint32_t bytes, int n,
                        int issuers, uint64_t base, uint64_t stride, uint64_t wrap, uint64_t* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  uint64_t* ts = reinterpret_cast<uint64_t*>(smem);
  uint64_t* bars = ts + kMaxIssuers * (kMaxIssues + 1);
  uint8_t* ring = smem + 64 * 1024;
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint64_t total = uint64_t(bytes) * n * issuers;
  const uint32_t nbars = uint32_t((total + kBarBytes - 1) / kBarBytes);
  if (threadIdx.x == 0) {
    for (uint32_t b = 0; b < nbars; ++b) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bars[b])) : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (uint32_t b = 0; b < nbars; ++b) {
      const uint64_t part = (b + 1 < nbars) ? kBarBytes : total - kBarBytes * (nbars - 1);
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bars[b])), "r"(uint32_t(part))
                   : "memory");
    }
  }
  __syncthreads();
  if (lane == 0 && warp < uint32_t(issuers)) {
    uint64_t* my = ts + warp * (kMaxIssues + 1);
    my[0] = clock64_();
    for (int i = 0; i < n; ++i) {
      const uint32_t k = uint32_t(i) * issuers + warp;  // global copy index (issuers interleave)
      // slot: each copy takes max(bytes, 128) of the ring (128-byte aligned), kRing a power of two
      const uint32_t dst = sa(ring + ((k * (bytes < 128 ? 128 : bytes)) & (kRing - 1)));
      const uint32_t bar = sa(&bars[(uint64_t(k) * bytes) / kBarBytes]);
      const uint64_t off = (base + uint64_t(k) * stride) & (wrap - 1);  // wrap: a power of two
      if (kind == 0) {
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                     "l"(src + off), "r"(bytes), "r"(bar)
                     : "memory");
      } else {
        const int x = int(off % kRowBytes), y = int(off / kRowBytes);
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                dst),
            "l"(&m), "r"(x), "r"(y), "r"(bar)
            : "memory");
      }
      my[i + 1] = clock64_();
    }
  }
  if (threadIdx.x == 0) {
    for (uint32_t b = 0; b < nbars; ++b) {
      asm volatile(
          "{\n\t.reg .pred p;\n"
          "W:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t@!p bra W;\n\t}" ::"r"(sa(&bars[b]))
          : "memory");
    }
    out[kMaxIssuers * (kMaxIssues + 1)] = clock64_();
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < kMaxIssuers * (kMaxIssues + 1); i += blockDim.x) out[i] = ts[i];
}

// u8 elements, 16 KiB rows; a box of `bytes`: min(bytes, 256) wide, the rest in rows.
CUtensorMap make_map(void* p, uint32_t bytes) {
  CUtensorMap m;
  const cuuint64_t dims[2] = {kRowBytes, kBufBytes / kRowBytes};
  const cuuint64_t strides[1] = {kRowBytes};
  const cuuint32_t box[2] = {bytes < 256 ? bytes : 256, bytes < 256 ? 1 : bytes / 256};
  const cuuint32_t es[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, p, dims, strides, box, es,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", int(r));
    std::exit(2);
  }
  return m;
}

}  // namespace

void run_tma_queue() {
  uint8_t* buf = nullptr;
  UB_CHECK(cudaMalloc(&buf, kBufBytes));
  UB_CHECK(cudaMemset(buf, 1, kBufBytes));
  const size_t nout = kMaxIssuers * (kMaxIssues + 1) + 1;
  Clocks c(nout);
  const size_t shmem = 64 * 1024 + kRing;
  UB_CHECK(cudaFuncSetAttribute(k_issue, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shmem)));
  const int n = 512;
  uint64_t run = 0;
  for (int kind = 0; kind < 2; ++kind)
    for (uint32_t bytes : {16u, 128u, 1024u, 4096u})
      for (int hbm = 1; hbm >= 0; --hbm)
        for (int issuers : {1, 2, 4}) {
          const CUtensorMap m = make_map(buf, bytes);
          // hbm: the copies spread evenly over the 1 GiB (512 KiB apart with 4 issuers)
          const uint64_t stride = hbm ? kBufBytes / (uint64_t(n) * issuers) : bytes;
          const uint64_t wrap = hbm ? kBufBytes : 64 * 1024;
          const char* kn = kind ? "tile" : "bulk";
          const std::string cfg =
              std::string(kn) + "_" + std::to_string(bytes) + "B_" + (hbm ? "hbm" : "l2") + "_w" + std::to_string(issuers);
          std::vector<double> acc, fast, steady, total;
          std::vector<uint64_t> last;
          if (!hbm) {  // the 64 KiB into the L2
            k_issue<<<1, 32 * issuers, shmem>>>(kind, buf, m, bytes, n, issuers, 0, stride, wrap, c.d);
            sync_check(cfg.c_str());
          }
          for (int rep = 0; rep < 5; ++rep) {
            // hbm: a fresh 4 KiB-aligned base per run, so no copy re-reads a line an earlier run read
            const uint64_t base = hbm ? (++run * 8192) % (1u << 20) : 0;
            k_issue<<<1, 32 * issuers, shmem>>>(kind, buf, m, bytes, n, issuers, base, stride, wrap, c.d);
            sync_check(cfg.c_str());
            const std::vector<uint64_t> h = c.get();
            uint64_t first = ~0ull;
            for (int w = 0; w < issuers; ++w) {
              const uint64_t* t = h.data() + w * (kMaxIssues + 1);
              first = std::min(first, t[0]);
              std::vector<double> g;
              for (int i = 0; i < n; ++i) g.push_back(double(t[i + 1] - t[i]));
              const double f = median(std::vector<double>(g.begin(), g.begin() + 8));
              int a = n;
              for (int i = 0; i < n; ++i)
                if (g[i] > 3 * f && g[i] > 64) {
                  a = i;
                  break;
                }
              acc.push_back(a);
              fast.push_back(f);
              steady.push_back(median(std::vector<double>(g.begin() + n / 2, g.end())));
              if (w == 0) last.assign(g.begin(), g.begin() + 160);
            }
            total.push_back(double(h[nout - 1] - first));
          }
          const std::string d = std::string(kind ? "cp.async.bulk.tensor.2d" : "cp.async.bulk") + " " +
                                std::to_string(bytes) + " B x " + std::to_string(n) + " per issuer, " +
                                std::to_string(issuers) + " issuing warp(s), " + (hbm ? "HBM" : "L2-resident");
          row("tma_queue", cfg + ".accepted", median(acc), "issues", d);
          row("tma_queue", cfg + ".fast_gap", median(fast), "cycles", d);
          row("tma_queue", cfg + ".steady_gap", median(steady), "cycles", d);
          row("tma_queue", cfg + ".total", median(total), "cycles", d);
          for (size_t i = 0; i < last.size(); ++i)
            std::printf("tma_queue_raw,%s,%zu,%llu\n", cfg.c_str(), i, static_cast<unsigned long long>(last[i]));
          std::fflush(stdout);
        }
  UB_CHECK(cudaFree(buf));
}

}  // namespace ub
