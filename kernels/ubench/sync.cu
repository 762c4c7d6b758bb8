// sync.cu — synchronisation and distributed shared memory (PTX ISA §9.7.13.15 mbarrier, §9.7.13.1
// bar.sync, §9.7.13.3 barrier.cluster, §9.7.9.8 ld.shared::cluster, §9.7.9.23 mapa, §9.7.13.4 fence):
//   sync,mbar_arrive_wait.latency   one thread: arrive (count 1) then try_wait.parity on the phase
//                                   it just completed, per round
//   sync,mbar_arrive.issue          one thread: arrive on a count-(2^20-1) barrier (never completes),
//                                   cycles per arrive
//   sync,mbar_pingpong.latency      two warps hand a token back and forth through two mbarriers
//                                   (arrive by one, try_wait by the other): cycles per hand-off
//   sync,bar_sync_W.latency         bar.sync 0 by W warps in a loop: cycles per barrier
//   sync,cluster_barrier_C.latency  barrier.cluster.arrive + wait by every thread of C CTAs (one
//                                   warp each), cycles per round
//   sync,dsmem_local.latency / dsmem_remote.latency   ld.shared::cluster.u32 pointer chase in the
//                                   CTA's own / the peer CTA's shared memory (cluster of 2)
//   sync,fence_acq_rel_gpu.cycles / fence_sc_gpu.cycles   fence.acq_rel.gpu / fence.sc.gpu, one thread
//   sync,fence_proxy_async.cycles   fence.proxy.async.shared::cta
//   sync,fence_acq_rel_cluster.cycles / fence_acq_rel_cta.cycles   the same at cluster / CTA scope
//   sync,fence_acq_rel_gpu_after_16_stores / _store_mad64 / _mad64.cycles   16 stores then the fence; a store,
//       64 dependent mads (~256 cycles), the fence; the mads and the fence alone (2026-12-03)
//   sync,fence_acq_rel_gpu_after_store.cycles   st.global then fence.acq_rel.gpu: a fence that has
//                                   a store to wait for
//   sync,mbar_arrive_S_T.issue      one thread of CTA 0 of a cluster of 2: mbarrier.arrive.S.cluster
//                                   back to back on a never-completing barrier of its own CTA (T =
//                                   local) or of the peer (T = remote, a mapa address); S = release
//                                   or relaxed: what a release at cluster scope costs per arrive
#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

__device__ __forceinline__ uint32_t sa(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void wait_parity(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n\t.reg .pred p;\n"
      "W:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W;\n\t}" ::"r"(bar),
      "r"(parity)
      : "memory");
}

__global__ void k_arrive_wait(int n, uint64_t* out) {
  __shared__ __align__(8) uint64_t bar;
  const uint32_t b = sa(&bar);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  const uint64_t t0 = clock64_();
  for (int i = 0; i < n; ++i) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b) : "memory");
    wait_parity(b, i & 1);
  }
  out[0] = clock64_() - t0;
}

__global__ void k_arrive(int n, uint64_t* out) {
  __shared__ __align__(8) uint64_t bar;
  const uint32_t b = sa(&bar);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"((1u << 20) - 1) : "memory");
  const uint64_t t0 = clock64_();
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b) : "memory");
  }
  out[0] = clock64_() - t0;
}

template <int Release, int Remote>
__global__ void k_arrive_cluster(int n, uint64_t* out) {
  __shared__ __align__(8) uint64_t bar;
  const uint32_t b = sa(&bar);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"((1u << 20) - 1) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;\n\tbarrier.cluster.arrive.release.aligned;\n\t"
               "barrier.cluster.wait.acquire.aligned;" ::: "memory");
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  uint32_t target;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(target) : "r"(b), "r"(Remote ? rank ^ 1u : rank));
  if (rank == 0 && threadIdx.x == 0) {
    const uint64_t t0 = clock64_();
    for (int i = 0; i < n; ++i) {
#pragma unroll
      for (int k = 0; k < 16; ++k) {
        if (Release) asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(target) : "memory");
        else asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" ::"r"(target) : "memory");
      }
    }
    out[0] = clock64_() - t0;
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__global__ void k_pingpong(int n, uint64_t* out) {
  __shared__ __align__(8) uint64_t bar[2];
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar[0])) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar[1])) : "memory");
  }
  __syncthreads();
  const uint64_t t0 = clock64_();
  for (int i = 0; i < n; ++i) {
    if (warp == 0) {
      if (lane == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sa(&bar[0])) : "memory");
      wait_parity(sa(&bar[1]), i & 1);
    } else {
      wait_parity(sa(&bar[0]), i & 1);
      if (lane == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sa(&bar[1])) : "memory");
    }
  }
  if (threadIdx.x == 0) out[0] = clock64_() - t0;
}

__global__ void k_bar_sync(int n, uint64_t* out) {
  const uint64_t t0 = clock64_();
  for (int i = 0; i < n; ++i) asm volatile("bar.sync 0;" ::: "memory");
  if (threadIdx.x == 0) out[0] = clock64_() - t0;
}

__global__ void k_cluster_barrier(int n, uint64_t* out) {
  const uint64_t t0 = clock64_();
  for (int i = 0; i < n; ++i)
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (threadIdx.x == 0) out[blockIdx.x] = clock64_() - t0;
}

template <int N>
__global__ void k_dsmem_chase(int remote, uint64_t* out, uint32_t* sinkp) {
  __shared__ uint32_t s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = ((i * 97 + 13) % 1024) * 4;
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x == 0 && rank == 0) {
    uint32_t base;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(base) : "r"(sa(s)), "r"(remote ? 1u : 0u));
    uint32_t x = 4;
    uint64_t best = ~0ull;
    for (int r = 0; r < 4; ++r) {
      const uint64_t t0 = clock64_();
#pragma unroll
      for (int i = 0; i < N; ++i) asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(x) : "r"(base + x) : "memory");
      const uint64_t t1 = clock64_();
      best = best < t1 - t0 ? best : t1 - t0;
    }
    out[0] = best;
    *sinkp = x;
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ uint32_t g_fence_lines[16 * 32];

template <int KIND, int N>
__global__ void k_fence(uint64_t* out) {
  const uint64_t t0 = clock64_();
  uint32_t spin = static_cast<uint32_t>(t0) | 1u;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if (KIND == 0) asm volatile("fence.acq_rel.gpu;" ::: "memory");
    if (KIND == 1) asm volatile("fence.sc.gpu;" ::: "memory");
    if (KIND == 2) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (KIND == 3) asm volatile("fence.acq_rel.cluster;" ::: "memory");
    if (KIND == 4) asm volatile("fence.acq_rel.cta;" ::: "memory");
    if (KIND == 5) {  // a global store outstanding before each fence
      asm volatile("st.global.u32 [%0], %1;" ::"l"(out + 1), "r"(i) : "memory");
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
    }
    if (KIND == 6) {  // 16 stores to 16 lines outstanding before each fence
#pragma unroll
      for (int j = 0; j < 16; ++j) asm volatile("st.global.u32 [%0], %1;" ::"l"(g_fence_lines + 32 * j), "r"(i) : "memory");
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
    }
    if (KIND == 7 || KIND == 8) {  // (7: a store, then) 64 dependent mad.lo.u32 (~256 cycles), then the fence
      if (KIND == 7) asm volatile("st.global.u32 [%0], %1;" ::"l"(out + 1), "r"(i) : "memory");
#pragma unroll
      for (int j = 0; j < 64; ++j) asm volatile("mad.lo.u32 %0, %0, %0, %1;" : "+r"(spin) : "r"(j));
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
    }
  }
  if (spin == 0x7fffffffu) out[2] = spin;
  out[0] = clock64_() - t0;
}

cudaLaunchConfig_t cluster_cfg(int csize, int nclusters, int threads, cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(csize * nclusters);
  cfg.blockDim = dim3(threads);
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = csize;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cfg;
}

}  // namespace

void run_sync() {
  Clocks clk(256);
  uint32_t* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  auto per = [&](auto launch, double count) {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      launch();
      sync_check("sync bench");
      v.push_back(double(clk.get()[0]) / count);
    }
    return median(v);
  };
  row("sync", "mbar_arrive_wait.latency", per([&] { k_arrive_wait<<<1, 1>>>(256, clk.d); }, 256), "cycles",
      "mbarrier.arrive (count 1) + try_wait.parity of the completed phase, one thread, per round");
  row("sync", "mbar_arrive.issue", per([&] { k_arrive<<<1, 1>>>(64, clk.d); }, 64 * 16), "cycles",
      "mbarrier.arrive back to back on a barrier that does not complete, one thread");
  row("sync", "mbar_pingpong.latency", per([&] { k_pingpong<<<1, 64>>>(256, clk.d); }, 512), "cycles",
      "two warps alternate through two mbarriers (arrive / try_wait): cycles per hand-off");
  for (int w : {1, 4, 8, 32})
    row("sync", "bar_sync_" + std::to_string(w) + ".latency", per([&] { k_bar_sync<<<1, 32 * w>>>(256, clk.d); }, 256),
        "cycles", "bar.sync 0 in a loop, " + std::to_string(w) + " warps: cycles per barrier");
  for (int c : {2, 4}) {
    cudaLaunchAttribute attr[1];
    const cudaLaunchConfig_t cfg = cluster_cfg(c, 1, 32, attr);
    row("sync", "cluster_barrier_" + std::to_string(c) + ".latency",
        per([&] { UB_CHECK(cudaLaunchKernelEx(&cfg, k_cluster_barrier, 256, clk.d)); }, 256), "cycles",
        "barrier.cluster.arrive.release + wait.acquire, one warp per CTA, cluster of " + std::to_string(c));
  }
  for (int remote : {0, 1}) {
    cudaLaunchAttribute attr[1];
    const cudaLaunchConfig_t cfg = cluster_cfg(2, 1, 32, attr);
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      UB_CHECK(cudaLaunchKernelEx(&cfg, k_dsmem_chase<64>, remote, clk.d, sinkp));
      UB_CHECK(cudaLaunchKernelEx(&cfg, k_dsmem_chase<128>, remote, clk.d + 1, sinkp));
      sync_check("dsmem");
      const auto h = clk.get();
      v.push_back((double(h[1]) - double(h[0])) / 64.0);
    }
    row("sync", remote ? "dsmem_remote.latency" : "dsmem_local.latency", median(v), "cycles",
        remote ? "ld.shared::cluster.u32 chase in the peer CTA's shared memory (cluster of 2)"
               : "ld.shared::cluster.u32 chase in the CTA's own shared memory through a mapa address");
  }
  auto fence = [&](auto k32, auto k64, const char* name, const char* detail) {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      k32<<<1, 1>>>(clk.d);
      k64<<<1, 1>>>(clk.d + 1);
      sync_check(name);
      const auto h = clk.get();
      v.push_back((double(h[1]) - double(h[0])) / 32.0);
    }
    row("sync", name, median(v), "cycles", detail);
  };
  fence(k_fence<0, 32>, k_fence<0, 64>, "fence_acq_rel_gpu.cycles", "fence.acq_rel.gpu back to back, one thread");
  fence(k_fence<1, 32>, k_fence<1, 64>, "fence_sc_gpu.cycles", "fence.sc.gpu back to back, one thread");
  fence(k_fence<2, 32>, k_fence<2, 64>, "fence_proxy_async.cycles", "fence.proxy.async.shared::cta back to back");
  fence(k_fence<3, 32>, k_fence<3, 64>, "fence_acq_rel_cluster.cycles", "fence.acq_rel.cluster back to back, one thread (no cluster launch)");
  fence(k_fence<4, 32>, k_fence<4, 64>, "fence_acq_rel_cta.cycles", "fence.acq_rel.cta back to back, one thread");
  fence(k_fence<5, 32>, k_fence<5, 64>, "fence_acq_rel_gpu_after_store.cycles",
        "st.global.u32 then fence.acq_rel.gpu, back to back, one thread: a fence with one store outstanding");
  fence(k_fence<6, 32>, k_fence<6, 64>, "fence_acq_rel_gpu_after_16_stores.cycles",
        "16 st.global.u32 to 16 lines then fence.acq_rel.gpu, one thread: a fence with 16 stores outstanding");
  fence(k_fence<7, 32>, k_fence<7, 64>, "fence_acq_rel_gpu_store_mad64.cycles",
        "st.global.u32, 64 dependent mad.lo.u32, fence.acq_rel.gpu, one thread: does the store's wait overlap the mads");
  fence(k_fence<8, 32>, k_fence<8, 64>, "fence_acq_rel_gpu_mad64.cycles",
        "64 dependent mad.lo.u32 then fence.acq_rel.gpu, one thread (no store): the baseline of the row above");
  {
    cudaLaunchAttribute attr[1];
    const cudaLaunchConfig_t cfg = cluster_cfg(2, 1, 32, attr);
    auto arrive = [&](auto k, const char* name, const char* detail) {
      row("sync", name, per([&] { UB_CHECK(cudaLaunchKernelEx(&cfg, k, 16, clk.d)); }, 16 * 16), "cycles", detail);
    };
    arrive(k_arrive_cluster<1, 0>, "mbar_arrive_release_local.issue",
           "mbarrier.arrive.release.cluster.shared::cluster back to back, own CTA's barrier (cluster of 2)");
    arrive(k_arrive_cluster<1, 1>, "mbar_arrive_release_remote.issue",
           "mbarrier.arrive.release.cluster.shared::cluster back to back, the peer's barrier (cluster of 2)");
    arrive(k_arrive_cluster<0, 0>, "mbar_arrive_relaxed_local.issue",
           "mbarrier.arrive.relaxed.cluster.shared::cluster back to back, own CTA's barrier (cluster of 2)");
    arrive(k_arrive_cluster<0, 1>, "mbar_arrive_relaxed_remote.issue",
           "mbarrier.arrive.relaxed.cluster.shared::cluster back to back, the peer's barrier (cluster of 2)");
  }
  cudaFree(sinkp);
}

}  // namespace ub
