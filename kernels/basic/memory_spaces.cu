// memory_spaces.cu — loads and stores in every state space, width and vector shape, with the
// cache and memory-order qualifiers CUDA code uses: generic pointers that point into global,
// shared and local memory, isspacep/cvta between them, volatile, .nc and the cache hints, and
// release/acquire/relaxed accesses at cta/gpu/sys scope with the matching fences.
//
// Families: ld/st.global.{u8,u16,u32,u64,f32,f64} and .v2/.v4 vectors, ld.global.nc (__ldg and
// const __restrict__), ld.global.{ca,cg,cs,lu,cv} (__ldca/__ldcg/__ldcs/__ldlu/__ldcv),
// st.global.{wb,cg,cs,wt} (__stwb/__stcg/__stcs/__stwt), ld/st.volatile.{global,shared},
// ld/st.shared vectors, ld/st.local vectors (a struct in local memory), generic ld/st (through a
// __noinline__ function taking a plain pointer), cvta.{global,shared,local} and cvta.to.*,
// isspacep.{global,shared,local,const} (__isGlobal/__isShared/__isLocal/__isConstant),
// ld.param.{u32,f32,u64}, ld.const, ld.relaxed/ld.acquire/st.release at
// .cta/.gpu/.sys scope (cuda::atomic_ref), membar.{cta,gl,sys} (__threadfence_*),
// fence.acq_rel/fence.sc (cuda::atomic_thread_fence), mov of a .shared symbol's address.
// Specs: memory_spaces.json

#include <cuda/atomic>

__constant__ int c_table[8] = {1, -2, 3, -5, 8, -13, 21, -34};

// Every thread owns one slot of s4 and s_words (indexed by threadIdx.x), so they hold as many
// entries as the largest block the kernel is launched with (memory_spaces.json: 128 threads).
// Smaller arrays would put the stores of the upper threads past the CTA's shared memory.
constexpr unsigned kMaxBlock = 128;

// Generic accesses: which space the pointer is in is only known at run time.
__device__ __noinline__ unsigned generic_rmw(unsigned* p, unsigned add) {
  const unsigned old = *p;
  *p = old * 2u + add;
  return old;
}

__device__ __noinline__ unsigned space_of(const void* p) {
  return (__isGlobal(p) ? 1u : 0u) | (__isShared(p) ? 2u : 0u) | (__isLocal(p) ? 4u : 0u) |
         (__isConstant(p) ? 8u : 0u);
}

extern "C" __global__ void memory_spaces(const float4* __restrict__ in4, const int2* in2,
                                         const unsigned char* __restrict__ bytes,
                                         const unsigned short* __restrict__ halves,
                                         const double* __restrict__ dbl, unsigned* scratch,
                                         unsigned* __restrict__ out, int scale, int bias,
                                         float fscale, unsigned mask) {
  __shared__ float4 s4[kMaxBlock];
  __shared__ unsigned s_words[kMaxBlock];
  __shared__ unsigned s_flag;
  const int t = threadIdx.x;
  const int gid = blockIdx.x * blockDim.x + t;
  unsigned* o = out + gid * 24;

  // Vector loads and stores: global -> shared -> global.
  const float4 v = in4[gid];  // ld.global.nc.v4.f32
  s4[t] = v;
  const int2 w = in2[gid];  // ld.global.v2.u32 (not const restrict: no .nc)
  s_words[t] = (unsigned)w.x ^ (unsigned)w.y;
  if (t == 0) s_flag = 0;
  __syncthreads();
  const float4 nb = s4[(t + 1) % blockDim.x];  // ld.shared.v4
  o[0] = __float_as_uint(nb.x) ^ __float_as_uint(nb.w);
  o[1] = s_words[(t + 5) % blockDim.x];
  __syncthreads();  // every read of s_words is done before any thread rewrites its own slot

  // Narrow and wide scalar types, __ldg, and the cache-hint loads.
  o[2] = bytes[gid] | (unsigned)__ldg(&bytes[gid + 1]) << 8 | (unsigned)halves[gid] << 16;
  const double d = __ldcs(&dbl[gid]);
  o[3] = (unsigned)(__double_as_longlong(d) >> 20);
  o[4] = __ldca(&scratch[gid]) + __ldcg(&scratch[gid + 1]) + __ldlu(&scratch[gid + 2]) +
         __ldcv(&scratch[gid + 3]);

  // Scalar parameters of several types, constant memory.
  o[5] = (unsigned)(scale * t + bias) ^ mask;
  o[6] = __float_as_uint(__fmul_rn(fscale, v.y)) + (unsigned)c_table[t & 7];

  // Local memory: a struct whose address escapes to a generic pointer.
  struct alignas(16) Local {
    unsigned a[4];
    unsigned b;
  } loc;
  loc.a[0] = t, loc.a[1] = gid, loc.a[2] = (unsigned)w.x, loc.a[3] = (unsigned)w.y;
  loc.b = 7;
  unsigned gp = generic_rmw(&loc.b, 1u);        // generic -> local
  gp += generic_rmw(&s_words[t], (unsigned)t);  // generic -> shared (own slot)
  gp += generic_rmw(&scratch[1024 + gid], 3u);  // generic -> global (own slot)
  o[7] = gp + loc.b + loc.a[(t >> 1) & 3];
  o[8] = space_of(&loc) | space_of(&s_words[0]) << 4 | space_of(scratch) << 8 |
         space_of(&c_table[0]) << 12;
  o[9] = (unsigned)__cvta_generic_to_shared(&s_words[t]) -
         (unsigned)__cvta_generic_to_shared(&s_words[0]);

  // Store cache hints (distinct slots, read back after the fence below).
  __stwb(&scratch[2048 + 4 * gid + 0], (unsigned)t);
  __stcg(&scratch[2048 + 4 * gid + 1], (unsigned)gid);
  __stcs(&scratch[2048 + 4 * gid + 2], o[0]);
  __stwt(&scratch[2048 + 4 * gid + 3], o[1]);

  // volatile and memory-model accesses within the block.
  volatile unsigned* vs = &s_words[0];
  __syncthreads();
  vs[t] = vs[t] + 1u;  // ld/st.volatile.shared on own slot
  volatile unsigned* vg = &scratch[3072 + gid];
  *vg = *vg ^ 0xffu;  // ld/st.volatile.global
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> flag(s_flag);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> gslot(scratch[4096 + gid]);
  cuda::atomic_ref<unsigned, cuda::thread_scope_system> sslot(scratch[5120 + gid]);
  gslot.store(gid * 3u, cuda::memory_order_release);           // st.release.gpu
  sslot.store(gid * 5u, cuda::memory_order_relaxed);           // st.relaxed.sys
  const unsigned g1 = gslot.load(cuda::memory_order_acquire);  // ld.acquire.gpu
  const unsigned s1 = sslot.load(cuda::memory_order_relaxed);  // ld.relaxed.sys
  flag.fetch_add(1u, cuda::memory_order_relaxed);
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block);
  __syncthreads();
  o[10] = g1 + s1;
  o[11] = flag.load(cuda::memory_order_acquire);  // ld.acquire.cta: blockDim.x after the barrier
  o[12] = vs[(t + 3) % blockDim.x];
  o[13] = scratch[2048 + 4 * gid + 0] + scratch[2048 + 4 * gid + 1] + scratch[2048 + 4 * gid + 2] +
          scratch[2048 + 4 * gid + 3];
  o[14] = *vg;
  o[15] = scratch[1024 + gid];

  // 64-bit and 8/16-bit stores.
  unsigned long long* o64 = reinterpret_cast<unsigned long long*>(out + gid * 24 + 16);
  o64[0] = (unsigned long long)__double_as_longlong(d) ^ 0x5555555555555555ull;  // st.global.u64
  unsigned char* o8 = reinterpret_cast<unsigned char*>(out + gid * 24 + 18);
  o8[0] = (unsigned char)t, o8[1] = (unsigned char)gid, o8[2] = 0xab, o8[3] = bytes[gid + 2];
  unsigned short* o16 = reinterpret_cast<unsigned short*>(out + gid * 24 + 19);
  o16[0] = (unsigned short)(gid * 7), o16[1] = halves[gid + 1];
  float4* of = reinterpret_cast<float4*>(out + gid * 24 + 20);
  *of = make_float4(v.w, v.z, v.y, v.x);  // st.global.v4
}
