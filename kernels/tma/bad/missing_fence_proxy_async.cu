// missing_fence_proxy_async.cu — BROKEN ON PURPOSE: threads write an epilogue tile with ordinary
// shared-memory stores (generic proxy) and one thread TMA-stores it (async proxy) after a
// __syncthreads() only. The generic writes are not ordered before the async-proxy reads without
// fence.proxy.async.shared::cta, so the store may read stale bytes.
//
// tcsim must report: a proxy race — the cp.async.bulk.tensor store (global.shared::cta) reads
// shared bytes [tile, tile + 4096) written by st.shared in this kernel (the fill loop) with no
// fence.proxy.async between them (PTX ISA §9.7.13.4; docs/tma_and_mbarrier.md §3, rule 1).
// On hardware the output usually looks right, which is what makes this bug dangerous.
// Spec: missing_fence_proxy_async.json.
#include "../async_util.cuh"

extern "C" __global__ void missing_fence_proxy_async(const __grid_constant__ CUtensorMap tm_out, const uint32_t* in) {
  __shared__ alignas(1024) uint32_t tile[1024];  // 32 x 32 u32, no swizzle
  for (uint32_t i = threadIdx.x; i < 1024; i += blockDim.x) tile[i] = in[i] + 1;
  // BUG: missing ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    const int32_t c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tm_out, c, tile);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}
