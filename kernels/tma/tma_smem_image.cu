// tma_smem_image.cu — one TMA tile load into a sentinel-filled shared-memory window, and the whole
// window written out raw, byte for byte: the shared-memory *image* of a box. It is the judge of
// tcsim's TMA layout function (every swizzle mode and element size: swizzle/*.json) and of the
// facts about a box's shared-memory footprint (facts/*.json).
//
// Families: st.shared (sentinel fill), fence.proxy.async.shared::cta (generic writes, then async-
// proxy writes to the same bytes), cp.async.bulk.tensor.{2,3}d.shared::cta.global.tile with
// mbarrier::complete_tx::bytes, mbarrier init/arrive.expect_tx/try_wait.parity, mov from
// %dynamic_smem_size / %total_smem_size. PTX ISA §5.5.3 (bounding box), §5.5.7 (swizzling modes),
// §9.7.9.25.5.2 (cp.async.bulk.tensor), §9.7.13.4 (fence.proxy.async).
//
// Dynamic shared memory layout (no static shared memory in this kernel, so the dynamic window is
// the CTA's whole user shared memory):
//
//   dyn_base            the mbarrier (8 bytes)
//   win = dyn_base rounded up to 1024 (dyn_base + 1024 when dyn_base is 1024-aligned)
//   dst = win + dst_offset            the TMA destination
//   [win, win + image_bytes)          filled with 0xA5 bytes first, then written out to `out`
//
// So a spec with dynamic_smem_bytes = 1024 + N leaves exactly N bytes from `win` to the end of the
// allocation when dyn_base is 1024-aligned; `info` records the addresses to check that:
//   info[0] = dyn_base (shared::cta address)   info[1] = dst
//   info[2] = %dynamic_smem_size               info[3] = %total_smem_size
// info is an output only in the facts specs: the addresses are the machine's choice, not the
// kernel's result, so golden specs leave it out.
//
// Expected image: bytes of [win, win + image_bytes) that the box does not cover stay 0xA5; the box
// elements land at the offsets of the TMA layout function (dimension 0 fastest, rows at a pitch of
// max(row bytes, swizzle span), then the swizzle XOR on the absolute address — README.md fact 1);
// OOB elements are zero, or the OOB NaN (0x7ff7 per 16 bits) when oob_fill is nan.
#include "async_util.cuh"

namespace {

__device__ __forceinline__ uint32_t dynamic_smem_size() {
  uint32_t r;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t total_smem_size() {
  uint32_t r;
  asm("mov.u32 %0, %%total_smem_size;" : "=r"(r));
  return r;
}

template <int Rank>
__device__ void smem_image(const CUtensorMap& tm, int c0, int c1, int c2, uint32_t dst_offset,
                           uint32_t tx_bytes, uint32_t image_bytes, uint8_t* out, uint32_t* info) {
  extern __shared__ __align__(16) uint8_t dsmem[];
  uint64_t* bar = reinterpret_cast<uint64_t*>(dsmem);
  uint8_t* win = tk::align_smem(dsmem + 8, 1024);
  uint8_t* dst = win + dst_offset;

  // Sentinel fill, 16 bytes per store.
  for (uint32_t i = threadIdx.x; i < image_bytes / 16; i += blockDim.x)
    reinterpret_cast<uint4*>(win)[i] = make_uint4(0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    if (info != nullptr) {
      info[0] = tk::smem_u32(dsmem);
      info[1] = tk::smem_u32(dst);
      info[2] = dynamic_smem_size();
      info[3] = total_smem_size();
    }
  }
  // Every thread's generic stores must be ordered before the TMA's async-proxy writes.
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();

  if (threadIdx.x == 0) {
    const int all[3] = {c0, c1, c2};
    int32_t c[Rank];
    for (int d = 0; d < Rank; ++d) c[d] = all[d];
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar, tx_bytes);
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, dst, &tm, c, bar);
  }
  tk::wait_parity(bar, 0);
  tk::dump_smem(win, out, image_bytes);
}

}  // namespace

extern "C" __global__ void tma_smem_image_2d(const __grid_constant__ CUtensorMap tm, int c0, int c1,
                                             uint32_t dst_offset, uint32_t tx_bytes,
                                             uint32_t image_bytes, uint8_t* out, uint32_t* info) {
  smem_image<2>(tm, c0, c1, 0, dst_offset, tx_bytes, image_bytes, out, info);
}

extern "C" __global__ void tma_smem_image_3d(const __grid_constant__ CUtensorMap tm, int c0, int c1,
                                             int c2, uint32_t dst_offset, uint32_t tx_bytes,
                                             uint32_t image_bytes, uint8_t* out, uint32_t* info) {
  smem_image<3>(tm, c0, c1, c2, dst_offset, tx_bytes, image_bytes, out, info);
}
