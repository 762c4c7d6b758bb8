// cluster_sregs.cu — the thread-block-cluster special registers, in a launch with explicit 3D
// cluster dimensions (spec "cluster": [2, 1, 2]), read the way CUDA code reads them: through
// cooperative_groups (cluster_group) and through libcu++'s cuda::ptx::get_sreg_* wrappers.
//
// Families: mov.u32 from %clusterid.{x,y,z}, %nclusterid.*, %cluster_ctaid.*, %cluster_nctaid.*,
// %cluster_ctarank, %cluster_nctarank, %is_explicit_cluster; no cluster barrier and no
// distributed shared memory (those belong to the asynchronous-machine corpus).
// Specs: cluster_sregs.json
//
// out[block_linear * 8 + k], written by thread 0 of each block:
//   0 clusterid (x | y << 8 | z << 16)   1 nclusterid   2 cluster_ctaid   3 cluster_nctaid
//   4 cluster_ctarank   5 cluster_nctarank   6 is_explicit_cluster
//   7 consistency: cluster_ctaid == ctaid % cluster_nctaid and clusterid == ctaid / cluster_nctaid
//     per dimension (bit per check), and ctarank == the row-major rank of cluster_ctaid.

#include <cooperative_groups.h>

#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__device__ __forceinline__ unsigned pack(unsigned x, unsigned y, unsigned z) {
  return x | y << 8 | z << 16;
}

extern "C" __global__ void cluster_sregs(unsigned* __restrict__ out) {
  if (threadIdx.x != 0) return;
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned cx = ptx::get_sreg_clusterid_x(), cy = ptx::get_sreg_clusterid_y(),
                 cz = ptx::get_sreg_clusterid_z();
  const unsigned ncx = ptx::get_sreg_nclusterid_x(), ncy = ptx::get_sreg_nclusterid_y(),
                 ncz = ptx::get_sreg_nclusterid_z();
  const dim3 in_cluster = cluster.block_index();  // %cluster_ctaid
  const dim3 cdim = cluster.dim_blocks();         // %cluster_nctaid
  const unsigned rank = cluster.block_rank();     // %cluster_ctarank
  const unsigned nrank = cluster.num_blocks();    // %cluster_nctarank
  const unsigned explicit_cluster = ptx::get_sreg_is_explicit_cluster();

  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned* o = out + block * 8;
  o[0] = pack(cx, cy, cz);
  o[1] = pack(ncx, ncy, ncz);
  o[2] = pack(in_cluster.x, in_cluster.y, in_cluster.z);
  o[3] = pack(cdim.x, cdim.y, cdim.z);
  o[4] = rank;
  o[5] = nrank;
  o[6] = explicit_cluster;
  const unsigned ok =
      (in_cluster.x == blockIdx.x % cdim.x) | (in_cluster.y == blockIdx.y % cdim.y) << 1 |
      (in_cluster.z == blockIdx.z % cdim.z) << 2 | (cx == blockIdx.x / cdim.x) << 3 |
      (cy == blockIdx.y / cdim.y) << 4 | (cz == blockIdx.z / cdim.z) << 5 |
      (rank == in_cluster.x + cdim.x * (in_cluster.y + cdim.y * in_cluster.z)) << 6;
  o[7] = ok;
}
