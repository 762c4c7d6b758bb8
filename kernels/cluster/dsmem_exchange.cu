// dsmem_exchange.cu — distributed shared memory: CTAs of a cluster read, write and update each
// other's shared memory, through cooperative_groups (generic addresses from mapa.u64) and through
// explicit .shared::cluster instructions (mapa.shared::cluster.u32 + ld/st/atom/red.shared::cluster).
//
// Families: mapa.u64 (generic) and mapa.shared::cluster.u32; ld.u32 through a generic DSMEM
// address; ld.shared::cluster.u32, st.shared::cluster.u32, atom.shared::cluster.add.u32,
// red.shared::cluster.xor.b32, getctarank.shared::cluster.u32 and getctarank.u64 (generic);
// barrier.cluster.arrive / wait (cg::cluster_group::sync); %cluster_ctarank, %cluster_nctarank.
// PTX ISA §5.1.7 (DSMEM windows), §9.7.9.23 (mapa), §9.7.9.24 (getctarank), §9.7.13.3.
// Specs: dsmem_exchange_2x1.json (cluster 2x1x1), dsmem_exchange_4x1.json (4x1x1),
// dsmem_exchange_2x2.json (2x2x1).
//
// Block = 128 threads; CTA g (linear block id in the grid) with cluster rank r of n. Expected:
//   slab (own)        s_r[t] = in[g][t]                                             (t < 128)
//   peek[g][t]        = s_{(r+1)%n}[(5t) % 128]   (generic load through map_shared_rank)
//   peek2[g][t]       = s_{(r+n-1)%n}[t] ^ 0xFFFF (ld.shared::cluster from the left neighbour)
//   inbox[g][q]       = 0x1000 * (q + 1) + r      for q < n: CTA q stored it into our inbox[q]
//                     (st.shared::cluster); entries q >= n stay 0
//   count[g]          = sum over all CTAs of the cluster and threads of (t + 1) = n * 8256 on
//                       rank 0 (atom.shared::cluster.add onto rank 0), 0 on the others
//   xors[g]           = xor over all ranks q of (0x5A5A0000 | q), on every CTA (red.xor from
//                       every CTA into every CTA, one thread each)
//   ranks[g][0..1]    = getctarank of the two mapped addresses = (r+1)%n, (r+n-1)%n
#include <cooperative_groups.h>

#include "../tma/async_util.cuh"

namespace cg = cooperative_groups;

namespace {

__device__ __forceinline__ uint32_t ld_cluster(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}
__device__ __forceinline__ void st_cluster(uint32_t addr, uint32_t v) {
  asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
}
// Returns the old value, which depends on the order of arrival: callers must not output it.
__device__ __forceinline__ uint32_t atom_add_cluster(uint32_t addr, uint32_t v) {
  uint32_t old;
  asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(addr), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ void red_xor_cluster(uint32_t addr, uint32_t v) {
  asm volatile("red.shared::cluster.xor.b32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t getctarank_u32(uint32_t cluster_addr) {
  uint32_t r;
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"(cluster_addr));
  return r;
}
__device__ __forceinline__ uint32_t getctarank_generic(const void* p) {
  uint32_t r;
  asm volatile("getctarank.u64 %0, %1;" : "=r"(r) : "l"(p));
  return r;
}

}  // namespace

extern "C" __global__ void dsmem_exchange(const uint32_t* in, uint32_t* peek, uint32_t* peek2, uint32_t* inbox_out,
                                          uint32_t* count_out, uint32_t* xors_out, uint32_t* ranks_out) {
  __shared__ uint32_t slab[128];
  __shared__ uint32_t inbox[16];
  __shared__ uint32_t counter, xacc;
  const cg::cluster_group cluster = cg::this_cluster();
  const uint32_t t = threadIdx.x;
  const uint32_t r = cluster.block_rank(), n = cluster.num_blocks();
  const uint32_t g = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);

  slab[t] = in[g * 128 + t];
  if (t < 16) inbox[t] = 0;
  if (t == 0) {
    counter = 0;
    xacc = 0;
  }
  cluster.sync();  // every CTA's shared memory is initialised before anyone touches it remotely

  const uint32_t right = (r + 1) % n, left = (r + n - 1) % n;
  const uint32_t* right_slab = cluster.map_shared_rank(slab, right);
  peek[g * 128 + t] = right_slab[(5 * t) % 128];

  const uint32_t left_slab = tk::map_rank(tk::smem_u32(slab), left);
  peek2[g * 128 + t] = ld_cluster(left_slab + 4 * t) ^ 0xFFFFu;

  // Thread t < n sends to CTA t: our rank's slot of its inbox gets 0x1000 * (r + 1) + t.
  if (t < n) st_cluster(tk::map_rank(tk::smem_u32(&inbox[r]), t), 0x1000u * (r + 1) + t);
  (void)atom_add_cluster(tk::map_rank(tk::smem_u32(&counter), 0), t + 1);
  if (t < n) red_xor_cluster(tk::map_rank(tk::smem_u32(&xacc), t), 0x5A5A0000u | r);

  if (t == 0) {
    ranks_out[g * 2 + 0] = getctarank_generic(right_slab);
    ranks_out[g * 2 + 1] = getctarank_u32(left_slab);
  }
  cluster.sync();  // all remote writes have landed; no CTA touches a peer after this point

  if (t < 16) inbox_out[g * 16 + t] = inbox[t];
  if (t == 0) {
    count_out[g] = counter;
    xors_out[g] = xacc;
  }
}
