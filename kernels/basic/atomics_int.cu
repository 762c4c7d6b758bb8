// atomics_int.cu — every integer atomic operation, type, state space and scope, used so that the
// final memory contents do not depend on the order in which the GPU serialises the updates.
//
// Families: atom.{global,shared,generic}.{add,min,max}.{u32,s32,u64,s64}, atom.{and,or,xor}.
// {b32,b64}, atom.{inc,dec}.u32 (wrap-around), atom.cas.{b16,b32,b64} (CAS loops for commutative
// updates), atom.exch.{b32,b64} (one thread per address: returns are deterministic), scopes
// (.cta via atomicAdd_block, .sys via atomicAdd_system, .relaxed.gpu/.acq_rel.cta via
// cuda::atomic_ref), red.{global,shared}.* (inline PTX: nvcc 13 emits atom even for unused
// results), ticket counters checked through xor/sum of the returned tickets.
// Specs: atomics_int.json
//
// Layout of the outputs (see reference.py for the expected values):
//   g32[0..31]   global u32/s32 slots, g64[0..15] global u64/s64 slots (initial values from
//                atomics_g32.npy / atomics_g64.npy, made by make_data.py), g16[0..3] u16 CAS slots
//   xchg32/xchg64[tid]  per-thread exchange slots, xret32/xret64[tid] their returned old values
//   sh_out[block*48 + k] shared-memory results of each block (32 u32 slots, then 8 u64 as lo,hi)
#include <cuda/atomic>

// A commutative update through compare-and-swap: x <- (x + v) mod 1000003.
__device__ unsigned cas_add_mod(unsigned* p, unsigned v) {
  unsigned old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, (assumed + v % 1000003u) % 1000003u);  // no u32 wrap
  } while (assumed != old);
  return old;
}

// 64-bit: x <- x ^ rotl(v, 7)   (xor commutes, so the final value is order-free).
__device__ void cas_xor_rot64(unsigned long long* p, unsigned long long v) {
  const unsigned long long w = (v << 7) | (v >> 57);
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, assumed ^ w);
  } while (assumed != old);
}

// 16-bit: x <- x + v (mod 2^16) with the sm_70+ 16-bit CAS.
__device__ void cas_add16(unsigned short* p, unsigned short v) {
  unsigned short old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, (unsigned short)(assumed + v));
  } while (assumed != old);
}

extern "C" __global__ void atomics_int(const unsigned* __restrict__ in, unsigned* g32,
                                       unsigned long long* g64, unsigned short* g16,
                                       unsigned* xchg32, unsigned long long* xchg64,
                                       unsigned* xret32, unsigned long long* xret64,
                                       unsigned* sh_out) {
  __shared__ unsigned s32[32];
  __shared__ unsigned long long s64[8];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + tid;
  const unsigned v = in[gid];
  const int sv = (int)v;  // signed view of the same bits
  const unsigned long long v64 = ((unsigned long long)in[gid ^ 1] << 32) | v;

  // Starting values: identities of min/max/and where a slot needs one.
  if (tid < 32) {
    s32[tid] = tid == 2 ? 0x7fffffffu : tid == 3 ? 0x80000000u : (tid == 4 || tid == 6) ? ~0u : 0u;
  }
  if (tid < 8) s64[tid] = (tid == 1) ? 0x7fffffffffffffffull : (tid == 3) ? ~0ull : 0ull;
  __syncthreads();

  // ---- global, 32-bit -------------------------------------------------------------------------
  atomicAdd(&g32[0], v & 0xffffu);
  atomicSub(&g32[1], v & 0xffu);
  atomicMin(reinterpret_cast<int*>(&g32[2]), sv);
  atomicMax(reinterpret_cast<int*>(&g32[3]), sv);
  atomicMin(&g32[4], v);
  atomicMax(&g32[5], v);
  atomicAnd(&g32[6], v | 0x00010000u);
  atomicOr(&g32[7], v & 0x11111111u);
  atomicXor(&g32[8], v);
  atomicInc(&g32[9], 100u);  // wraps to 0 after 100: final = (#threads) mod 101
  atomicDec(&g32[10], 50u);  // from 0: 50, 49, ..., 0, 50, ...: final depends only on the count
  cas_add_mod(&g32[11], v);  // initial value must be < 1000003
  atomicAdd_block(&g32[12], 1u);   // atom.global.cta
  atomicAdd_system(&g32[13], 3u);  // atom.global.sys
  // Tickets: the set of returned values is {0..N-1} whatever the order; xor/sum/max of it are
  // fixed.
  const unsigned ticket = atomicAdd(&g32[14], 1u);
  atomicXor(&g32[15], ticket);
  atomicAdd(&g32[16], ticket);
  atomicMax(&g32[17], ticket);
  {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev(g32[18]);
    dev.fetch_add(v & 7u, cuda::memory_order_relaxed);  // atom.add.relaxed.gpu
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> mx(g32[19]);
    mx.fetch_max(v >> 4, cuda::memory_order_relaxed);
  }
  // red: reductions without a result (inline PTX: the only way to get red from nvcc 13).
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(&g32[20]), "r"(v >> 20) : "memory");
  asm volatile("red.global.min.s32 [%0], %1;" ::"l"(&g32[21]), "r"(sv) : "memory");
  asm volatile("red.relaxed.gpu.global.or.b32 [%0], %1;" ::"l"(&g32[22]), "r"(1u << (v & 31))
               : "memory");
  asm volatile("red.global.inc.u32 [%0], %1;" ::"l"(&g32[23]), "r"(7u) : "memory");
  asm volatile("red.global.dec.u32 [%0], %1;" ::"l"(&g32[24]), "r"(9u) : "memory");
  asm volatile("red.global.xor.b32 [%0], %1;" ::"l"(&g32[25]), "r"(v * 3u) : "memory");
  asm volatile("red.release.gpu.global.max.u32 [%0], %1;" ::"l"(&g32[26]), "r"(v & 0xfffu)
               : "memory");

  // ---- global, 64-bit ------------------------------------------------------------------------
  atomicAdd(&g64[0], v64);
  atomicMin(reinterpret_cast<long long*>(&g64[1]), (long long)v64);
  atomicMax(reinterpret_cast<long long*>(&g64[2]), (long long)v64);
  atomicMin(&g64[3], v64);
  atomicMax(&g64[4], v64);
  atomicAnd(&g64[5], v64 | 0x8000000000000001ull);
  atomicOr(&g64[6], v64 & 0x0101010101010101ull);
  atomicXor(&g64[7], v64);
  cas_xor_rot64(&g64[8], v64);
  asm volatile("red.global.add.u64 [%0], %1;" ::"l"(&g64[9]), "l"(v64 >> 3) : "memory");
  asm volatile("red.global.max.s64 [%0], %1;" ::"l"(&g64[10]), "l"(v64) : "memory");

  // ---- 16-bit CAS ----------------------------------------------------------------------------
  cas_add16(&g16[tid & 3], (unsigned short)(v >> 16));

  // ---- exchange: one thread per address, so the returned old value is the initial one --------
  xret32[gid] = atomicExch(&xchg32[gid], v);
  xret64[gid] = atomicExch(&xchg64[gid], v64);

  // ---- shared memory ---------------------------------------------------------------------------
  atomicAdd(&s32[0], v & 0xffu);
  atomicSub(&s32[1], 1u);
  atomicMin(reinterpret_cast<int*>(&s32[2]), sv);
  atomicMax(reinterpret_cast<int*>(&s32[3]), sv);
  atomicMin(&s32[4], v);
  atomicMax(&s32[5], v);
  atomicAnd(&s32[6], v | 0xff00ff00u);
  atomicOr(&s32[7], v & 0x01010101u);
  atomicXor(&s32[8], v);
  atomicInc(&s32[9], 30u);
  atomicDec(&s32[10], 7u);
  cas_add_mod(&s32[11], v);
  if (tid < 16) atomicExch(&s32[12 + tid], tid * 7u + 1u);  // one thread per slot
  atomicAdd(&s64[0], v64);
  atomicMin(reinterpret_cast<long long*>(&s64[1]), (long long)v64);
  atomicMax(&s64[2], v64);
  atomicAnd(&s64[3], v64);
  atomicOr(&s64[4], v64 & 0xf0f0f0f0f0f0f0f0ull);
  atomicXor(&s64[5], v64);
  cas_xor_rot64(&s64[6], v64);
  {
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk(s32[28]);
    blk.fetch_add(2u, cuda::memory_order_acq_rel);  // atom.add.acq_rel.cta on shared memory
  }
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&s32[29])),
               "r"(v & 0xffu)
               : "memory");
  asm volatile("red.shared.max.u64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&s64[7])),
               "l"(v64)
               : "memory");
  __syncthreads();

  if (tid < 32) sh_out[blockIdx.x * 48 + tid] = s32[tid];
  if (tid < 8) {
    sh_out[blockIdx.x * 48 + 32 + 2 * tid] = (unsigned)s64[tid];
    sh_out[blockIdx.x * 48 + 33 + 2 * tid] = (unsigned)(s64[tid] >> 32);
  }
}
