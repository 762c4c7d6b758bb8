// tma_box_outside_smem.cu — BROKEN ON PURPOSE: the TMA destination is placed so that the box
// (64 x 32 u32 = 8192 bytes) runs past the end of the CTA's shared memory: the kernel aligns the
// destination to 1024 bytes inside a 4096-byte dynamic allocation and loads 8192 bytes there.
//
// tcsim must report: an error at the cp.async.bulk.tensor — destination [dst, dst + 8192) of the
// 8192-byte box lies outside the CTA's shared memory (allocation of ~4 KB: static + dynamic), with
// the instruction's PTX line, the box size and the window; no write happens (PTX ISA
// §9.7.9.25.5.2: the copy must stay inside the destination state space). On hardware: an
// "out of range shared or local address" fault (cudaErrorIllegalAddress family).
// Spec: tma_box_outside_smem.json.
#include "../async_util.cuh"

extern "C" __global__ void tma_box_outside_smem(const __grid_constant__ CUtensorMap tm, uint32_t* out) {
  extern __shared__ uint8_t dsmem[];
  __shared__ uint64_t bar;
  uint8_t* dst = tk::align_smem(dsmem, 1024);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 8192);
    const int32_t c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, dst, &tm, c, &bar);  // BUG
  }
  tk::wait_parity(&bar, 0);
  if (threadIdx.x == 0) out[0] = reinterpret_cast<const uint32_t*>(dst)[0];
}
