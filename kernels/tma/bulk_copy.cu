// bulk_copy.cu — the non-tensor bulk copy engine both ways: global -> shared in four spellings
// (cp.async.bulk to .shared::cta and to the own CTA through .shared::cluster, libcu++'s
// cuda::memcpy_async with a cuda::barrier, and one with an L2 cache hint), an L2 prefetch, and
// shared -> global stores tracked by bulk async-groups, with a partial wait_group.read that lets
// the kernel rewrite the buffers whose stores have finished reading while later stores still run.
//
// Families: cp.async.bulk.prefetch.L2.global; cp.async.bulk.shared::cta.global.mbarrier::complete_tx
// ::bytes; cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes (own CTA);
// createpolicy.fractional.L2::evict_first + cp.async.bulk ... .L2::cache_hint; libcu++
// cuda::memcpy_async(block, ..., cuda::aligned_size_t<16>, cuda::barrier) (mbarrier.expect_tx,
// arrive with count, try_wait on a state token, %globaltimer, nanosleep);
// cp.async.bulk.global.shared::cta.bulk_group; commit_group; wait_group.read 2; wait_group 0;
// fence.proxy.async.shared::cta. PTX ISA §9.7.9.25.4, §9.7.9.25.6, §9.7.9.9 (createpolicy).
// Spec: bulk_copy.json (3 CTAs, chunk = 512 bytes).
//
// CTA b owns src bytes [4b*chunk, 4(b+1)*chunk): chunk q is copied in by method q (q = 0..3).
// Expected outputs (u32 words, w = word index inside CTA b's 4 chunks):
//   dst [b][w] = src[b][w] + 1                    (all four chunks)
//   dst2[b][w] = ~(src[b][w] + 1)                 (chunks 0 and 1 only: dst2 is 2*chunk per CTA)
#include <cooperative_groups.h>
#include <cuda/barrier>

#include "async_util.cuh"

namespace cg = cooperative_groups;

extern "C" __global__ void bulk_copy(const uint32_t* src, uint32_t* dst, uint32_t* dst2, uint32_t chunk) {
  extern __shared__ uint8_t dsmem[];
  __shared__ uint64_t got;  // chunks 0, 1, 3 (raw PTX); chunk 2 uses the cuda::barrier below
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> got2;
  uint8_t* buf = tk::align_smem(dsmem, 128);
  const uint32_t words = chunk / 4;
  const uint32_t* my_src = src + blockIdx.x * 4 * words;
  const cg::thread_block block = cg::this_thread_block();

  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&got, 1);
    init(&got2, block.size());
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();

  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" :: "l"(my_src), "r"(4 * chunk) : "memory");
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &got, 3 * chunk);
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, buf, my_src, chunk, &got);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf + chunk, my_src + words, chunk, &got);
    uint64_t policy;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    asm volatile(
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
        :: "r"(tk::smem_u32(buf + 3 * chunk)), "l"(my_src + 3 * words), "r"(chunk), "r"(tk::smem_u32(&got)),
           "l"(policy)
        : "memory");
  }
  cuda::memcpy_async(block, buf + 2 * chunk, my_src + 2 * words, cuda::aligned_size_t<16>(chunk), got2);
  got2.arrive_and_wait();
  tk::wait_parity(&got, 0);

  uint32_t* w = reinterpret_cast<uint32_t*>(buf);
  for (uint32_t i = threadIdx.x; i < 4 * words; i += blockDim.x) w[i] += 1;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();

  // Four stores, four bulk groups.
  if (threadIdx.x == 0) {
    for (uint32_t q = 0; q < 4; ++q) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst + (blockIdx.x * 4 + q) * words,
                         buf + q * chunk, chunk);
      ptx::cp_async_bulk_commit_group();
    }
    // At most the two newest groups (chunks 2, 3) may still be pending: chunks 0 and 1 have been
    // read out of shared memory and may be overwritten.
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<2>());
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < 2 * words; i += blockDim.x) w[i] = ~w[i];
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst2 + blockIdx.x * 2 * words, buf, 2 * chunk);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}
