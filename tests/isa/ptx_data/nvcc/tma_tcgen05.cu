// TMA + mbarrier + tcgen05 through CCCL cuda::ptx wrappers (sm_100a only), plus elect.sync inline PTX.
#include <cuda/ptx>
#include <cuda.h>
#include <cstdint>
namespace ptx = cuda::ptx;
__global__ void __launch_bounds__(128) tma_k(const __grid_constant__ CUtensorMap tm, float* out) {
  __shared__ alignas(128) float smem[32*32];
  __shared__ uint64_t bar;
  __shared__ uint32_t tmem_addr;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  uint64_t st = 0;
  if (threadIdx.x == 0) {
    int32_t c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, smem, &tm, c, &bar);
    st = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(smem));
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {}
  if (threadIdx.x < 32) {
    ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_addr, 32);
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
  }
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  uint32_t t = tmem_addr;
  if (threadIdx.x == 0) {
    uint32_t mask[4] = {0,0,0,0};
    ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, t, (uint64_t)smem, (uint64_t)smem+8, 0x8100490u, true);
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 1)) {}
  uint32_t r[4];
  ptx::tcgen05_ld_32x32b(r, t);
  ptx::tcgen05_wait_ld();
  out[threadIdx.x] = smem[threadIdx.x] + __uint_as_float(r[0]+r[1]+r[2]+r[3]);
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tm, c, smem);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
  }
  if (threadIdx.x < 32) ptx::tcgen05_dealloc(ptx::cta_group_1, t, 32);
  unsigned e; asm volatile("{ .reg .pred P; elect.sync _|P, 0xffffffff; selp.u32 %0, 1, 0, P; }" : "=r"(e));
  out[64+threadIdx.x] = e;
}
