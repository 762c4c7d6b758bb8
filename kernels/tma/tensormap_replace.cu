// tensormap_replace.cu — tensor maps modified on the device, the grouped-GEMM way (CUTLASS's
// tma_descriptor_replace_*): a CTA copies the __grid_constant__ map to shared memory, replaces its
// global address and a global dimension with tensormap.replace, publishes it to global memory with
// tensormap.cp_fenceproxy, acquires it with fence.proxy.tensormap, and loads through it. Another
// CTA edits a copy of the map in global memory directly. The map's 128 bytes are opaque: the kernel
// only copies them and edits them through tensormap.replace, so the result does not depend on the
// encoding (tcsim's or the driver's).
//
// Families: tensormap.replace.tile.{global_address,global_dim}.{shared::cta,global}.b1024;
// tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned;
// fence.proxy.tensormap::generic.release.gpu; fence.proxy.tensormap::generic.acquire.gpu [a], 128;
// cp.async.bulk.tensor.2d through a tensor map in global memory (generic address of .global).
// PTX ISA §9.7.9.26 (tensormap.replace), §9.7.9.27 (tensormap.cp_fenceproxy), §9.7.13.4 (proxy
// fences), §5.5.8 (tensor-map residency).
// Spec: tensormap_replace.json (3 CTAs).
//
// The parameter map describes `a`: u32, 32 columns x 32 rows (128-byte rows), box 32 x 16.
//   CTA 0 loads rows 0..15 of a through the parameter itself.
//   CTA 1: address := b, global_dim[1] := 8 (edited in shared memory) -> rows 0..7 of b, then
//          rows 8..15 are out of bounds: zero.
//   CTA 2: address := b + 2 rows, global_dim[1] := 6 (edited in global memory) -> rows 2..7 of b,
//          then 10 zero rows.
// Expected out[cta] (16 rows x 32 u32 each): as listed.
#include "async_util.cuh"

namespace {
constexpr uint32_t kBoxBytes = 16 * 128;
}

extern "C" __global__ void tensormap_replace(const __grid_constant__ CUtensorMap tm, const uint32_t* b,
                                             CUtensorMap* scratch, uint32_t* out) {
  __shared__ alignas(128) CUtensorMap smem_map;
  __shared__ alignas(1024) uint8_t box[kBoxBytes];
  __shared__ uint64_t full;
  const uint32_t cta = blockIdx.x, tid = threadIdx.x;
  CUtensorMap* gmap = scratch + cta;  // 128-byte slots of a 256-byte aligned buffer
  const CUtensorMap* use = &tm;

  if (tid == 0) {
    ptx::mbarrier_init(&full, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  if (cta == 1 && tid < 32) {
    // Warp 0 copies the map into shared memory, one 4-byte word per lane, and edits it there.
    reinterpret_cast<uint32_t*>(&smem_map)[tid] = reinterpret_cast<const uint32_t*>(&tm)[tid];
    __syncwarp();
    if (tid == 0) {
      ptx::tensormap_replace_global_address(ptx::space_shared, &smem_map, reinterpret_cast<uint64_t>(b));
      ptx::tensormap_replace_global_dim(ptx::space_shared, &smem_map, ptx::n32_t<1>(), uint32_t{8});
    }
    __syncwarp();
    // Whole warp (.sync.aligned): copy to global and release it to the tensormap proxy.
    ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, gmap, &smem_map, ptx::n32_t<128>());
    use = gmap;
  } else if (cta == 2 && tid < 32) {
    reinterpret_cast<uint32_t*>(gmap)[tid] = reinterpret_cast<const uint32_t*>(&tm)[tid];
    __syncwarp();
    if (tid == 0) {
      ptx::tensormap_replace_global_address(ptx::space_global, gmap, reinterpret_cast<uint64_t>(b + 2 * 32));
      ptx::tensormap_replace_global_dim(ptx::space_global, gmap, ptx::n32_t<1>(), uint32_t{6});
    }
    __syncwarp();
    // Every lane wrote part of the map through the generic proxy: each releases its writes to the
    // tensormap proxy (thread 0 will acquire before the TMA reads the map).
    ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu);
    use = gmap;
  }
  __syncthreads();

  if (tid == 0) {
    if (cta != 0) ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, use, ptx::n32_t<128>());
    const int32_t c[2] = {0, 0};
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, uint32_t{kBoxBytes});
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, box, use, c, &full);
  }
  tk::wait_parity(&full, 0);
  tk::dump_smem(box, out + cta * (kBoxBytes / 4), kBoxBytes);
}
