// smem_addr.cu — what shared-memory addresses look like on the GPU, rank by rank of a cluster, and
// what every instruction that takes or returns one does with them (PTX ISA §5.1.7 "Distributed
// shared memory", §6.4.1 "Generic addressing", §9.7.9.23 mapa, §9.7.9.24 getctarank, §9.7.9.22
// isspacep, §9.7.9.20 cvta, §9.7.13.15 mbarrier, §9.7.9.25.4.1 cp.async.bulk, §9.7.9.12 st.async).
// PTX leaves the numeric encoding of .shared::cluster addresses to the implementation; real kernels
// depend on it (CUTLASS's 2-SM TMA clears bit 24 of its own barrier's address to reach the even CTA
// of the pair), so this kernel records it. Facts drawn from it: docs/shared_memory.md.
//
// Kernels
//   smem_addr       (specs smem_addr_c{2,4,8,16}, smem_addr_2x2): the address of every static and
//                   dynamic shared variable, the shared-memory special registers, mapa / getctarank /
//                   isspacep / cvta results, and DSMEM traffic through addresses built by bit
//                   arithmetic (rank field replaced, bit 24 cleared): ld/st/atom.shared::cluster,
//                   remote mbarrier arrive, cp.async.bulk and st.async into the even CTA of a pair
//                   with its barrier reached through the masked own address.
//   smem_addr_a1024 (spec smem_addr_a1024): the same address words for a kernel whose dynamic
//                   shared array is declared alignas(1024) (CUTLASS's SharedStorage idiom).
//   smem_probe      (specs smem_probe_m<mode>, cluster of 2): one questionable access per spec, so
//                   that a fault ends only that spec (see the table at smem_probe below).
//
// smem_addr: out[cta * 64 + k], cta = linear block index in the grid, written by thread 0:
//    0 %cluster_ctarank            1 %cluster_nctarank
//    2 &s8   3 &s1   4 &s16   5 &s128   6 &mbar   7 &dyn          (32-bit shared addresses)
//    8 lo32(generic &dyn)          9 hi32(generic &dyn) == hi32(cvta.shared.u64 0) (1/0)
//   10 lo32(cvta.to.shared.u64 (generic &dyn))  11 hi32 of the same
//   12 %dynamic_smem_size  13 %total_smem_size  14 %aggr_smem_size
//   15 %reserved_smem_offset_begin  16 _end  17 _cap  18 _0  19 _1
//   20 mapa.shared::cluster.u32(&dyn, peer)        peer = (rank + 1) % n
//   21 lo32(mapa.shared::cluster.u64(&dyn, peer))  22 hi32
//   23 lo32(mapa.u64(generic &dyn, peer))          24 hi32 of it == the window's hi32 (1/0)
//   25 getctarank.shared::cluster.u32(&dyn)        26 (mapa result)
//   27 (&dyn & 0x00ffffff)                         28 (&dyn ^ 1 << 24)
//   29 getctarank.u64(generic &dyn)                30 (generic mapa result)
//   31 isspacep.shared::cta(generic &dyn)          32 isspacep.shared::cluster(generic &dyn)
//   33 isspacep.shared::cta(generic peer)          34 isspacep.shared::cluster(generic peer)
//   35 isspacep.shared(generic peer)               36 isspacep.global(generic peer)
//   37 mapa.shared::cluster.u32(&dyn & 0x00ffffff, rank)   (own address rebuilt from the offset)
//   38 mapa.shared::cluster.u32(mapa result, rank)         (back from the peer's address)
//   39 ((&dyn & 0x00ffffff) | peer << 24) == mapa result (1/0)
//   40 ld.shared::cluster [(&dyn & 0x00ffffff) | peer << 24]      (the peer's dyn[0])
//   41 ld.shared::cluster [&dyn & ~(1 << 24)]                     (the even pair member's dyn[0])
//   42 ld.u32 generic [window | (&dyn & 0x00ffffff) | peer << 24] (the peer's dyn[0])
//   43 st.shared::cluster into the peer's dyn[1] through the built address: what arrived here
//      (the left neighbour's stamp)
//   44 atom.shared::cluster.add of 1 by both pair members onto the even member's dyn[2] through
//      &dyn[2] & ~(1 << 24): 2 on even ranks, 0 on odd ranks (the odd pair member of an odd-sized
//      cluster does not exist: cluster sizes here are even)
//   45 even ranks: the phase of mbar (count 1) completed by the odd member's remote
//      mbarrier.arrive.release.cluster.shared::cluster through &mbar & ~(1 << 24) (1/0, bounded
//      wait); odd ranks: 2
//   46 rank 0: the phase of mbar2 (count n - 1) completed by every other rank's remote arrive
//      through &mbar2 & 0x00ffffff (whole rank field cleared) (1/0); other ranks: 2
//   47 even ranks: cp.async.bulk.shared::cluster.shared::cta of 16 bytes by the odd member into our
//      recv[0..3], completing on our mbar3 named by the odd member's &mbar3 & ~(1 << 24):
//      phase completed (1/0); odd ranks: 2
//   48..51 even ranks: recv[0..3] (the odd member's stamps); odd ranks: 0
//   52 even ranks: st.async ... complete_tx of 4 bytes into recv[4] with mbar4 & ~(1 << 24): phase
//      completed (1/0); 53 recv[4]; odd ranks: 2, 0
//   54 getctarank.shared::cluster.u32(&s8)  55 mapa.shared::cluster.u32(&s128, 0)
//   56..63 0
#include <cstdint>

namespace {

constexpr int kWords = 64;

#define SREG(name, r) asm volatile("mov.u32 %0, %%" name ";" : "=r"(r))

__device__ __forceinline__ uint32_t saddr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t mapa_u32(uint32_t a, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
  return r;
}
__device__ __forceinline__ uint64_t mapa_u64(uint64_t a, uint32_t rank) {
  uint64_t r;
  asm volatile("mapa.shared::cluster.u64 %0, %1, %2;" : "=l"(r) : "l"(a), "r"(rank));
  return r;
}
__device__ __forceinline__ uint64_t mapa_generic(uint64_t a, uint32_t rank) {
  uint64_t r;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"(a), "r"(rank));
  return r;
}
__device__ __forceinline__ uint32_t ctarank_u32(uint32_t a) {
  uint32_t r;
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"(a));
  return r;
}
__device__ __forceinline__ uint32_t ctarank_generic(uint64_t a) {
  uint32_t r;
  asm volatile("getctarank.u64 %0, %1;" : "=r"(r) : "l"(a));
  return r;
}
#define ISSPACEP(space, a, r)                                                                   \
  asm volatile("{\n\t.reg .pred p;\n\tisspacep." space " p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" \
               : "=r"(r)                                                                        \
               : "l"(a))
__device__ __forceinline__ uint64_t cvta_shared(uint64_t a) {
  uint64_t r;
  asm volatile("cvta.shared.u64 %0, %1;" : "=l"(r) : "l"(a));
  return r;
}
__device__ __forceinline__ uint64_t cvta_to_shared(uint64_t a) {
  uint64_t r;
  asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(r) : "l"(a));
  return r;
}
__device__ __forceinline__ uint32_t ld_cluster(uint32_t a) {
  uint32_t v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}
__device__ __forceinline__ void st_cluster(uint32_t a, uint32_t v) {
  asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ uint64_t globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ void mbar_init(uint32_t a, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count) : "memory");
}
// Waits (at cluster scope) for the phase of parity 0 to complete, at most about 2 ms: 1 once it has
// completed, 0 on time-out (a wrong address never completes it; the kernel must not hang).
__device__ __forceinline__ uint32_t mbar_wait_bounded(uint32_t a) {
  const uint64_t t0 = globaltimer();
  for (;;) {
    uint32_t done;
    asm volatile(
        "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0, 1000;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(a)
        : "memory");
    if (done) return 1;
    if (globaltimer() - t0 > 2000000) return 0;
  }
}
__device__ __forceinline__ void mbar_arrive_remote(uint32_t cluster_addr) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(cluster_addr) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t a, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(a), "r"(bytes) : "memory");
}

// The address words shared by smem_addr and smem_addr_a1024 (0..39 and 54..55).
template <class Dyn>
__device__ __forceinline__ void address_words(uint32_t* o, const void* s8, const void* s1, const void* s16,
                                              const void* s128, const void* mbar, const Dyn* dyn) {
  uint32_t rank, n;
  SREG("cluster_ctarank", rank);
  SREG("cluster_nctarank", n);
  const uint32_t peer = (rank + 1) % n;
  const uint32_t d = saddr(dyn);
  const uint64_t gd = reinterpret_cast<uint64_t>(dyn);
  const uint64_t window = cvta_shared(0);
  o[0] = rank;
  o[1] = n;
  o[2] = saddr(s8);
  o[3] = saddr(s1);
  o[4] = saddr(s16);
  o[5] = saddr(s128);
  o[6] = saddr(mbar);
  o[7] = d;
  o[8] = static_cast<uint32_t>(gd);
  o[9] = (gd >> 32) == (window >> 32);
  const uint64_t back = cvta_to_shared(gd);
  o[10] = static_cast<uint32_t>(back);
  o[11] = static_cast<uint32_t>(back >> 32);
  uint32_t v;
  SREG("dynamic_smem_size", v);
  o[12] = v;
  SREG("total_smem_size", v);
  o[13] = v;
  SREG("aggr_smem_size", v);
  o[14] = v;
  SREG("reserved_smem_offset_begin", v);
  o[15] = v;
  SREG("reserved_smem_offset_end", v);
  o[16] = v;
  SREG("reserved_smem_offset_cap", v);
  o[17] = v;
  SREG("reserved_smem_offset_0", v);
  o[18] = v;
  SREG("reserved_smem_offset_1", v);
  o[19] = v;
  const uint32_t m = mapa_u32(d, peer);
  o[20] = m;
  const uint64_t m64 = mapa_u64(d, peer);
  o[21] = static_cast<uint32_t>(m64);
  o[22] = static_cast<uint32_t>(m64 >> 32);
  const uint64_t mg = mapa_generic(gd, peer);
  o[23] = static_cast<uint32_t>(mg);
  o[24] = (mg >> 32) == (window >> 32);
  o[25] = ctarank_u32(d);
  o[26] = ctarank_u32(m);
  o[27] = ctarank_u32(d & 0x00ffffffu);
  o[28] = ctarank_u32(d ^ (1u << 24));
  o[29] = ctarank_generic(gd);
  o[30] = ctarank_generic(mg);
  ISSPACEP("shared::cta", gd, v);
  o[31] = v;
  ISSPACEP("shared::cluster", gd, v);
  o[32] = v;
  ISSPACEP("shared::cta", mg, v);
  o[33] = v;
  ISSPACEP("shared::cluster", mg, v);
  o[34] = v;
  ISSPACEP("shared", mg, v);
  o[35] = v;
  ISSPACEP("global", mg, v);
  o[36] = v;
  o[37] = mapa_u32(d & 0x00ffffffu, rank);
  o[38] = mapa_u32(m, rank);
  o[39] = ((d & 0x00ffffffu) | peer << 24) == m;
  o[54] = ctarank_u32(saddr(s8));
  o[55] = mapa_u32(saddr(s128), 0);
}

}  // namespace

// Static shared variables of several alignments, declared in this order (ptxas lays them out).
extern "C" __global__ void smem_addr(uint32_t* __restrict__ out) {
  __shared__ alignas(8) uint64_t s8;
  __shared__ uint8_t s1[3];
  __shared__ alignas(16) uint4 s16;
  __shared__ alignas(128) uint32_t s128[5];
  __shared__ alignas(8) uint64_t mbar[4];  // mbar (bit 24 arrive), mbar2 (rank 0), mbar3 (bulk), mbar4 (st.async)
  __shared__ alignas(16) uint32_t recv[8];
  extern __shared__ __align__(16) uint32_t dyn[];

  uint32_t rank, n;
  SREG("cluster_ctarank", rank);
  SREG("cluster_nctarank", n);
  const uint32_t peer = (rank + 1) % n;
  const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  uint32_t* o = out + cta * kWords;
  const uint32_t d = saddr(dyn);
  const uint32_t stamp = 0xabc00000u | cta << 8 | rank;
  if (threadIdx.x == 0) {
    dyn[0] = stamp;
    dyn[1] = 0;
    dyn[2] = 0;
    for (int i = 0; i < 8; ++i) recv[i] = 0;
    s8 = 0;
    s1[0] = 1;
    s16 = make_uint4(0, 0, 0, 0);
    s128[0] = 0;
    mbar_init(saddr(&mbar[0]), 1);
    mbar_init(saddr(&mbar[1]), n - 1);
    mbar_init(saddr(&mbar[2]), 1);
    mbar_init(saddr(&mbar[3]), 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    address_words(o, &s8, s1, &s16, s128, &mbar[0], dyn);
  }
  cluster_sync();
  if (threadIdx.x == 0) {
    o[40] = ld_cluster((d & 0x00ffffffu) | peer << 24);
    o[41] = ld_cluster(d & ~(1u << 24));
    const uint64_t window = cvta_shared(0);
    o[42] = *reinterpret_cast<volatile uint32_t*>(window | (d & 0x00ffffffu) | peer << 24);
    st_cluster((saddr(&dyn[1]) & 0x00ffffffu) | peer << 24, stamp);
    asm volatile("red.shared::cluster.add.u32 [%0], 1;" ::"r"(saddr(&dyn[2]) & ~(1u << 24)) : "memory");
    if (rank & 1) {
      // The odd member of the pair signals the even member's barriers through its own addresses
      // with bit 24 cleared (the CUTLASS 2-SM idiom).
      mbar_arrive_remote(saddr(&mbar[0]) & ~(1u << 24));
    }
    if (rank != 0) mbar_arrive_remote(saddr(&mbar[1]) & 0x00ffffffu);
  }
  cluster_sync();  // every DSMEM access above is done; the even members now arm the async copies
  if (threadIdx.x == 0 && !(rank & 1)) {
    mbar_expect_tx(saddr(&mbar[2]), 16);
    mbar_expect_tx(saddr(&mbar[3]), 4);
  }
  cluster_sync();
  if (threadIdx.x == 0 && (rank & 1)) {
    // Stage 16 bytes of stamps in our own recv[4..7], push them into the even member's recv[0..3].
    recv[4] = stamp;
    recv[5] = stamp + 1;
    recv[6] = stamp + 2;
    recv[7] = stamp + 3;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" ::"r"(
            saddr(&recv[0]) & ~(1u << 24)),
        "r"(saddr(&recv[4])), "r"(saddr(&mbar[2]) & ~(1u << 24))
        : "memory");
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(
                     saddr(&dyn[4]) & ~(1u << 24)),
                 "r"(stamp ^ 0x5555u), "r"(saddr(&mbar[3]) & ~(1u << 24))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;" ::: "memory");
  }
  if (threadIdx.x == 0) {
    o[43] = dyn[1];
    if (rank & 1) {
      o[45] = 2;
      o[47] = 2;
      o[52] = 2;
    } else {
      o[45] = mbar_wait_bounded(saddr(&mbar[0]));
      o[47] = mbar_wait_bounded(saddr(&mbar[2]));
      for (int i = 0; i < 4; ++i) o[48 + i] = recv[i];
      o[52] = mbar_wait_bounded(saddr(&mbar[3]));
      o[53] = dyn[4];
    }
    o[46] = rank == 0 ? mbar_wait_bounded(saddr(&mbar[1])) : 2;
  }
  cluster_sync();  // the red.add of both pair members has landed
  if (threadIdx.x == 0) o[44] = dyn[2];
  cluster_sync();  // no CTA exits while a peer may still touch its shared memory
}

// The address words only, with the dynamic array aligned to 1024 bytes.
extern "C" __global__ void smem_addr_a1024(uint32_t* __restrict__ out) {
  __shared__ alignas(8) uint64_t s8;
  __shared__ uint8_t s1[3];
  __shared__ alignas(16) uint4 s16;
  __shared__ alignas(128) uint32_t s128[5];
  __shared__ alignas(8) uint64_t mbar[4];
  extern __shared__ __align__(1024) uint8_t dyn1024[];
  const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (threadIdx.x == 0) {
    s8 = 1;
    s1[0] = 1;
    s16 = make_uint4(1, 0, 0, 0);
    s128[0] = 1;
    mbar[0] = 1;
    dyn1024[0] = 1;
    address_words(out + cta * kWords, &s8, s1, &s16, s128, &mbar[0], dyn1024);
  }
  cluster_sync();
}

// smem_probe: one questionable access, in a cluster of 2; thread 0 of each CTA; out[cta * 8 + k].
// Every CTA first stores its stamp 0x5a000000 | rank into own[0] and clears own[1], own[2].
//   mode 0: ld.shared::cta [&own ^ 1 << 24] (the other rank's bits in a .shared::cta address)
//           -> o[0] = value read
//   mode 1: st.shared::cta [&own[1] ^ 1 << 24], 0x77000000 | rank; after a cluster barrier
//           o[0] = own[1], o[1] = the peer's own[1] (through mapa)
//   mode 2: ld.u32 generic [window | &own ^ 1 << 24] -> o[0] (the peer's stamp, if generic
//           addresses carry the rank like mapa's)
//   mode 3: ld.shared::cluster [(&own & 0x00ffffff) | 5 << 24] (a rank outside the cluster) -> o[0]
//   mode 4: mbarrier.arrive.shared::cta [&bar ^ 1 << 24] by rank 1 only (bar: count 1 in both
//           CTAs); after a cluster barrier o[0] = own bar's phase 0 completed (test_wait, 1/0)
//   mode 5: mapa.shared::cluster.u32 (&own, r) for r = 2, 16, 17, 255 -> o[0..3]; getctarank of
//           &own | 0x0f000000, | 0x1f000000, | 0xff000000 -> o[4..6]
//   mode 6: atom.shared::cta.add [&own[2] ^ 1 << 24], 1; after a cluster barrier o[0] = own[2],
//           o[1] = the peer's own[2]
//   mode 7: isspacep.shared::cta / ::cluster / .shared of window | (&own ^ 1 << 24), and of
//           window | (&own & 0x00ffffff) | 5 << 24 -> o[0..5]
//   mode 8: ld.shared.u32 (no ::cta) [&own ^ 1 << 24] -> o[0]
//   mode 9: mbarrier.arrive.b64 (generic) [window | &bar ^ 1 << 24] by rank 1 only; after a
//           cluster barrier o[0] = own bar's phase 0 completed (1/0)
extern "C" __global__ void smem_probe(uint32_t mode, uint32_t* __restrict__ out) {
  __shared__ alignas(16) uint32_t own[4];
  __shared__ alignas(8) uint64_t bar;
  uint32_t rank;
  SREG("cluster_ctarank", rank);
  const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  uint32_t* o = out + cta * 8;
  const uint32_t a = saddr(own), b = saddr(&bar);
  if (threadIdx.x == 0) {
    own[0] = 0x5a000000u | rank;
    own[1] = 0;
    own[2] = 0;
    mbar_init(b, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_sync();
  if (threadIdx.x == 0) {
    const uint64_t window = cvta_shared(0);
    uint32_t v = 0;
    switch (mode) {
      case 0:
        asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(a ^ (1u << 24)) : "memory");
        o[0] = v;
        break;
      case 1:
        asm volatile("st.shared::cta.u32 [%0], %1;" ::"r"((a + 4) ^ (1u << 24)), "r"(0x77000000u | rank) : "memory");
        break;
      case 2:
        o[0] = *reinterpret_cast<volatile uint32_t*>(window | (a ^ (1u << 24)));
        break;
      case 3:
        o[0] = ld_cluster((a & 0x00ffffffu) | 5u << 24);
        break;
      case 4:
        if (rank == 1) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b ^ (1u << 24)) : "memory");
        break;
      case 5:
        o[0] = mapa_u32(a, 2);
        o[1] = mapa_u32(a, 16);
        o[2] = mapa_u32(a, 17);
        o[3] = mapa_u32(a, 255);
        o[4] = ctarank_u32(a | 0x0f000000u);
        o[5] = ctarank_u32(a | 0x1f000000u);
        o[6] = ctarank_u32(a | 0xff000000u);
        break;
      case 6:
        asm volatile("red.shared::cta.add.u32 [%0], 1;" ::"r"((a + 8) ^ (1u << 24)) : "memory");
        break;
      case 7: {
        const uint64_t x = window | (a ^ (1u << 24)), y = window | (a & 0x00ffffffu) | 5u << 24;
        ISSPACEP("shared::cta", x, v);
        o[0] = v;
        ISSPACEP("shared::cluster", x, v);
        o[1] = v;
        ISSPACEP("shared", x, v);
        o[2] = v;
        ISSPACEP("shared::cta", y, v);
        o[3] = v;
        ISSPACEP("shared::cluster", y, v);
        o[4] = v;
        ISSPACEP("shared", y, v);
        o[5] = v;
        break;
      }
      case 8:
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a ^ (1u << 24)) : "memory");
        o[0] = v;
        break;
      case 9:
        if (rank == 1) asm volatile("mbarrier.arrive.b64 _, [%0];" ::"l"(window | (b ^ (1u << 24))) : "memory");
        break;
      default:
        break;
    }
  }
  cluster_sync();
  if (threadIdx.x == 0) {
    if (mode == 1 || mode == 6) {
      const uint32_t w = mode == 1 ? 4 : 8;
      o[0] = *reinterpret_cast<volatile uint32_t*>(reinterpret_cast<volatile uint8_t*>(own) + w);
      o[1] = ld_cluster(mapa_u32(a + w, rank ^ 1));
    }
    if (mode == 4 || mode == 9) {
      uint32_t done;
      asm volatile(
          "{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
          : "=r"(done)
          : "r"(b)
          : "memory");
      o[0] = done;
    }
  }
  cluster_sync();
}
