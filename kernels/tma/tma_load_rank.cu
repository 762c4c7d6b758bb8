// tma_load_rank.cu — TMA tile loads of 1-D to 5-D boxes (cp.async.bulk.tensor.{1..5}d, tile mode,
// global -> shared::cta, mbarrier::complete_tx::bytes), each CTA one box, written out raw.
//
// Families: cp.async.bulk.tensor.Nd.shared::cta.global.tile.mbarrier::complete_tx::bytes (N = 1..5,
// through cuda::ptx::cp_async_bulk_tensor), mbarrier.init / arrive.expect_tx / try_wait.parity,
// fence.mbarrier_init, a tensor map passed as a __grid_constant__ CUtensorMap parameter.
// PTX ISA §9.7.9.25.5.2 (cp.async.bulk.tensor), §5.5 (tensors, bounding box, traversal stride).
// Specs: tma_load_{1d,2d,3d,4d,5d}.json (u8, bf16, f32 with element strides, u16, f64/u64).
//
// CTA (bx, by, bz) loads the box whose origin is
//     c[d] = origin[d] + (d < 3 ? b[d] * step[d] : 0)
// into dynamic shared memory (1024-byte aligned), waits on its mbarrier, and copies the
// `box_bytes` bytes of the shared image to out + linear_cta * box_bytes. With interleave NONE the
// shared image is the box, densely packed, dimension 0 fastest, E_d = ceil(box[d]/elementStride[d])
// elements along dimension d (docs/tma_and_mbarrier.md §2), so out holds exactly those elements.
#include "async_util.cuh"

namespace {

template <int Rank>
__device__ void load_box_kernel(const CUtensorMap& tm, int o0, int o1, int o2, int o3, int o4,
                                int s0, int s1, int s2, uint8_t* out, uint32_t box_bytes) {
  extern __shared__ uint8_t dsmem[];
  __shared__ uint64_t full;
  uint8_t* box = tk::align_smem(dsmem, 1024);

  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&full, 1);
    // Make the initialised barrier visible to the async proxy before the TMA can complete_tx on it.
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();

  if (threadIdx.x == 0) {
    const int all[5] = {o0 + static_cast<int>(blockIdx.x) * s0, o1 + static_cast<int>(blockIdx.y) * s1,
                        o2 + static_cast<int>(blockIdx.z) * s2, o3, o4};
    int32_t c[Rank];
    for (int d = 0; d < Rank; ++d) c[d] = all[d];
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, box_bytes);
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, box, &tm, c, &full);
  }
  tk::wait_parity(&full, 0);

  const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  tk::dump_smem(box, out + static_cast<size_t>(cta) * box_bytes, box_bytes);
}

}  // namespace

#define TMA_LOAD_ENTRY(N)                                                                          \
  extern "C" __global__ void tma_load_##N##d(const __grid_constant__ CUtensorMap tm, int o0, int o1, \
                                             int o2, int o3, int o4, int s0, int s1, int s2,         \
                                             uint8_t* out, uint32_t box_bytes) {                     \
    load_box_kernel<N>(tm, o0, o1, o2, o3, o4, s0, s1, s2, out, box_bytes);                        \
  }

TMA_LOAD_ENTRY(1)
TMA_LOAD_ENTRY(2)
TMA_LOAD_ENTRY(3)
TMA_LOAD_ENTRY(4)
TMA_LOAD_ENTRY(5)
