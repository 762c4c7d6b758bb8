// async_util.cuh — the few helpers every kernel of kernels/tma and kernels/cluster shares, written
// the way production kernels write them (CUTLASS's barrier.h / cluster_sm90.hpp idioms, CCCL's
// cuda::ptx wrappers). Only what CCCL 3.0's cuda::ptx has no wrapper for is inline PTX here:
// elect.sync, mapa, mbarrier.complete_tx, mbarrier.arrive_drop, cp.async.bulk.prefetch.
//
// PTX ISA references (9.x numbering, see docs/tma_and_mbarrier.md §6):
//   elect.sync                      §9.7.13.14
//   mapa                            §9.7.9.23
//   barrier.cluster                 §9.7.13.3
//   mbarrier.* (phases, tx-count)   §9.7.13.15
//   cp.async.bulk.prefetch          §9.7.9.25.4.3
#pragma once

#include <cuda.h>  // CUtensorMap (the 128-byte opaque tensor map passed as __grid_constant__)
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

namespace tk {

// A shared-memory pointer as the 32-bit .shared::cta address PTX operands take.
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Round a generic pointer into dynamic shared memory up to `align` bytes (a power of two). The
// swizzle patterns repeat every 1024/512/256 bytes of the *absolute* shared address
// (docs/smem_layouts.md §5), so kernels put swizzled tiles on a 1024-byte boundary themselves instead
// of trusting where the dynamic window starts.
template <class T = uint8_t>
__device__ __forceinline__ T* align_smem(void* p, uint32_t align) {
  const uint32_t a = smem_u32(p);
  const uint32_t pad = ((a + align - 1) & ~(align - 1)) - a;
  return reinterpret_cast<T*>(static_cast<uint8_t*>(p) + pad);
}

// elect.sync: one active lane of `mask` gets true (§9.7.13.14). Which lane is not specified by PTX.
__device__ __forceinline__ bool elect_one(uint32_t mask = 0xffffffffu) {
  uint32_t pred = 0;
  asm volatile(
      "{\n\t.reg .pred p;\n\t.reg .b32 lane;\n\t"
      "elect.sync lane|p, %1;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(pred)
      : "r"(mask));
  return pred != 0;
}

// Blocking waits on an mbarrier phase parity (§9.7.13.15.16): the CUTLASS loop around try_wait,
// with and without a suspend-time hint (nanoseconds).
__device__ __forceinline__ void wait_parity(uint64_t* bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}
__device__ __forceinline__ void wait_parity_hint(uint64_t* bar, uint32_t parity, uint32_t hint_ns) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity, hint_ns)) {
  }
}
// The same at cluster scope (.acquire.cluster): for phases completed by other CTAs' releases
// (remote arrives, multicast complete_tx).
__device__ __forceinline__ void wait_parity_cluster(uint64_t* bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, bar, parity)) {
  }
}
// Spin on the non-blocking test_wait instead.
__device__ __forceinline__ void spin_parity(uint64_t* bar, uint32_t parity) {
  while (!ptx::mbarrier_test_wait_parity(bar, parity)) {
  }
}

// mapa.shared::cluster: the address of the same shared variable in CTA `rank` of the cluster.
__device__ __forceinline__ uint32_t map_rank(uint32_t smem_addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(smem_addr), "r"(rank));
  return r;
}

// barrier.cluster (§9.7.13.3), warp-uniform (.aligned) as CUTLASS's cluster_sync(): all non-exited
// threads of the cluster arrive (release) and wait (acquire).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// mbarrier.complete_tx (§9.7.13.15.12): tx-count -= bytes without moving data.
__device__ __forceinline__ void complete_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
               :: "r"(smem_u32(bar)), "r"(bytes) : "memory");
}

// mbarrier.arrive_drop (§9.7.13.15.14): leave the barrier for good (expected count -= 1 for this
// and every later phase) and arrive once on the current phase.
__device__ __forceinline__ uint64_t arrive_drop(uint64_t* bar) {
  uint64_t state;
  asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1];"
               : "=l"(state) : "r"(smem_u32(bar)) : "memory");
  return state;
}

// Copy `bytes` (a multiple of 16) from shared to global memory with 16-byte vector accesses,
// all threads of the block. Used to write shared-memory images out raw, byte for byte.
__device__ __forceinline__ void dump_smem(const void* smem, void* gmem, uint32_t bytes) {
  const uint4* s = static_cast<const uint4*>(smem);
  uint4* g = static_cast<uint4*>(gmem);
  for (uint32_t i = threadIdx.x; i < bytes / 16; i += blockDim.x) g[i] = s[i];
}

}  // namespace tk
