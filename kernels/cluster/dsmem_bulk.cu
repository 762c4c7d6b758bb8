// dsmem_bulk.cu — asynchronous traffic into a neighbour CTA's shared memory, all tracked by the
// *receiver's* mbarrier: a bulk push (cp.async.bulk.shared::cluster.shared::cta), asynchronous
// stores (st.async), an asynchronous reduction (red.async) and a bulk reduction
// (cp.reduce.async.bulk.shared::cluster.shared::cta), with the sender announcing the bytes by a
// remote expect_tx and a remote arrive.expect_tx, and the receiver releasing the sender with a
// remote arrive once everything landed (so no CTA exits while its outgoing copy still reads it).
//
// Families: cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes;
// st.async.shared::cluster.mbarrier::complete_tx::bytes.u32;
// red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32;
// cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32;
// mbarrier.expect_tx.relaxed.cluster.shared::cluster; mbarrier.arrive.expect_tx.release.cluster
// .shared::cluster (sink _); mbarrier.arrive.release.cluster.shared::cluster (sink _);
// mbarrier.try_wait.parity.acquire.cluster; mapa.shared::cluster; fence.proxy.async.shared::cta;
// barrier.cluster. PTX ISA §9.7.9.25.4.1, §9.7.9.25.4.2, §9.7.9.12 (st.async), §9.7.12.7
// (red.async), §9.7.13.15.11-13.
// Specs: dsmem_bulk_2cta.json (cluster 2x1x1), dsmem_bulk_4cta.json (4x1x1).
//
// CTA g (linear id) has cluster rank r of n; its left neighbour L = rank (r+n-1)%n is CTA gL.
// Every CTA sends to its right neighbour. Expected, per CTA g:
//   recv[g][i]  = in[gL][i]                                (i < 64, the bulk push)
//   words[g][t] = in[gL][t] ^ 0xABCD0000                   (t < 4, st.async from L's threads)
//   acc[g]      = 1000 * r + (L + 7)                       (red.async.add onto 1000 * r)
//   racc[g][i]  = in[g][i] + in[gL][i]  (mod 2^32)         (cp.reduce.async.bulk.add onto own in)
#include <cooperative_groups.h>

#include "../tma/async_util.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr uint32_t kWords = 64, kBytes = 4 * kWords;
constexpr uint32_t kTxBytes = kBytes /*push*/ + 16 /*st.async*/ + 4 /*red.async*/ + kBytes /*cp.reduce*/;

__device__ __forceinline__ void remote_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void remote_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;"
               :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void remote_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void push_bulk(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(dst), "r"(tk::smem_u32(src)), "r"(bytes), "r"(bar) : "memory");
}
__device__ __forceinline__ void reduce_bulk_add(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile(
      "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], %2, [%3];"
      :: "r"(dst), "r"(tk::smem_u32(src)), "r"(bytes), "r"(bar) : "memory");
}
__device__ __forceinline__ void st_async(uint32_t dst, uint32_t v, uint32_t bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
               :: "r"(dst), "r"(v), "r"(bar) : "memory");
}
__device__ __forceinline__ void red_async_add(uint32_t dst, uint32_t v, uint32_t bar) {
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
               :: "r"(dst), "r"(v), "r"(bar) : "memory");
}

}  // namespace

extern "C" __global__ void dsmem_bulk(const uint32_t* in, uint32_t* recv_out, uint32_t* words_out,
                                      uint32_t* acc_out, uint32_t* racc_out) {
  __shared__ alignas(128) uint32_t src[kWords];
  __shared__ alignas(128) uint32_t recv[kWords];
  __shared__ alignas(128) uint32_t racc[kWords];
  __shared__ alignas(16) uint32_t words[4];
  __shared__ uint32_t acc;
  __shared__ uint64_t got, done;
  const cg::cluster_group cluster = cg::this_cluster();
  const uint32_t t = threadIdx.x;
  const uint32_t r = cluster.block_rank(), n = cluster.num_blocks();
  const uint32_t g = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const uint32_t right = (r + 1) % n;

  for (uint32_t i = t; i < kWords; i += blockDim.x) {
    src[i] = in[g * kWords + i];
    racc[i] = src[i];
  }
  if (t == 0) {
    acc = 1000 * r;
    ptx::mbarrier_init(&got, 2);   // our own arrive + the sender's arrive.expect_tx
    ptx::mbarrier_init(&done, 1);  // the receiver's "all landed" arrive
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  // src is read and racc/acc are updated by the async proxy: order our generic writes first.
  ptx::fence_proxy_async(ptx::space_shared);
  tk::cluster_sync();

  const uint32_t right_got = tk::map_rank(tk::smem_u32(&got), right);
  if (t == 0) {
    // Announce all bytes before our own arrive can let the phase complete: the phase needs both
    // arrivals, and ours carries the rest of the expectation.
    remote_expect_tx(right_got, kBytes);
    remote_arrive_expect_tx(right_got, kTxBytes - kBytes);
    push_bulk(tk::map_rank(tk::smem_u32(recv), right), src, kBytes, right_got);
    reduce_bulk_add(tk::map_rank(tk::smem_u32(racc), right), src, kBytes, right_got);
    red_async_add(tk::map_rank(tk::smem_u32(&acc), right), r + 7, right_got);
  }
  if (t < 4) st_async(tk::map_rank(tk::smem_u32(&words[t]), right), src[t] ^ 0xABCD0000u, right_got);
  if (t == 0) ptx::mbarrier_arrive(&got);

  // Everything from the left neighbour has landed once `got` completes (acquire, cluster scope:
  // the complete_tx of the async operations are cluster-scope releases).
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &got, 0)) {
  }
  if (t == 0) remote_arrive(tk::map_rank(tk::smem_u32(&done), (r + n - 1) % n));  // release the sender

  for (uint32_t i = t; i < kWords; i += blockDim.x) {
    recv_out[g * kWords + i] = recv[i];
    racc_out[g * kWords + i] = racc[i];
  }
  if (t < 4) words_out[g * 4 + t] = words[t];
  if (t == 0) acc_out[g] = acc;

  // Our own outgoing push/reduce read `src` until the right neighbour's `got` completed; it tells
  // us through `done`. Only then may this CTA (and its shared memory) go away.
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &done, 0)) {
  }
}
