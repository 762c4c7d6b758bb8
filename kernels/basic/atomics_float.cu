// atomics_float.cu — floating-point atomics whose results cannot depend on the order of updates:
// every partial sum is exactly representable (small integers or multiples of a power of two far
// from the precision limit), so each addition is exact and any order gives the same bits.
//
// Families: atom.global.add.f32, atom.global.add.f64, atom.add.noftz.f16x2 / .bf16x2 / .f16 /
// .bf16 (generic addresses), atom.shared.add.f32/.f64, red.global.add.f32 and
// red.global.add.noftz.f16x2 (inline PTX), atom.exch.b32 on floats (one thread per address),
// a CAS loop implementing a float max (atom.cas.b32 + setp.gt.f32), cvt.rn.f32.u32 / f64.u32,
// cvt.rn.f16x2.f32 (__floats2half2_rn), cvt.rn.bf16x2.f32.
// Specs: atomics_float.json
//
// Exactness bounds (384 threads, 96 per block, 4 blocks):
//   f32 slots: integers <= 15 each, totals <= 5760 < 2^24.
//   f64 slot: multiples of 2^-8 below 2^8, totals < 2^17: 25 significant bits < 53.
//   f16x2: .x adds 0..3 (total <= 1152 < 2^11), .y adds 0 or 0.5 (total*2 <= 384 < 2^11).
//   bf16x2 / bf16: one slot per block, 0 or 1 per thread: totals <= 96 < 2^8.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ float atomic_max_float(float* addr, float val) {
  // Classic CAS loop on the bit pattern; max is order-free (inputs here are never NaN).
  unsigned* p = reinterpret_cast<unsigned*>(addr);
  unsigned old = *p, assumed;
  do {
    assumed = old;
    if (__uint_as_float(assumed) >= val) break;
    old = atomicCAS(p, assumed, __float_as_uint(val));
  } while (assumed != old);
  return __uint_as_float(old);
}

extern "C" __global__ void atomics_float(const unsigned* __restrict__ in, float* f32_slots,
                                         double* f64_slot, __half2* h2_slot,
                                         __nv_bfloat162* b2_slots, __half* h_slot,
                                         __nv_bfloat16* b_slots, float* xchg, float* xret,
                                         float* fmax_slot, float* sh_out) {
  __shared__ float sf[8];
  __shared__ double sd[2];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + tid;
  const unsigned v = in[gid];
  if (tid < 8) sf[tid] = 0.0f;
  if (tid < 2) sd[tid] = 0.0;
  __syncthreads();

  // f32: global, one of 8 slots by (gid % 8), plus an inline red.
  atomicAdd(&f32_slots[gid & 7], (float)(v & 15u));
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(&f32_slots[8]), "f"((float)((v >> 4) & 7u))
               : "memory");

  // f64: multiples of 2^-8.
  atomicAdd(f64_slot, (double)(v >> 16) * 0.00390625);

  // f16x2 / f16: small integers and halves.
  const __half2 h2 = __floats2half2_rn((float)((v >> 8) & 3u), 0.5f * (float)((v >> 10) & 1u));
  atomicAdd(h2_slot, h2);
  asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(h2_slot + 1),
               "r"(*reinterpret_cast<const unsigned*>(&h2))
               : "memory");
  atomicAdd(h_slot, __float2half((float)((v >> 12) & 1u)));

  // bf16x2 / bf16: per-block slots so the totals stay below 2^8.
  atomicAdd(&b2_slots[blockIdx.x],
            __floats2bfloat162_rn((float)((v >> 13) & 1u), (float)((v >> 14) & 1u)));
  atomicAdd(&b_slots[blockIdx.x], __float2bfloat16((float)((v >> 15) & 1u)));

  // Exchange on distinct addresses: the old value returned is the initial one.
  // Any bits, NaNs included: exch moves bits without looking at them.
  xret[gid] = atomicExch(&xchg[gid], __uint_as_float(v));

  // Order-free max through a CAS loop: candidates are finite, +-[0.5, 1) with v's sign and
  // mantissa.
  atomic_max_float(fmax_slot, __uint_as_float((v & 0x807fffffu) | 0x3f000000u));

  // Shared memory.
  atomicAdd(&sf[tid & 7], (float)(v >> 28));
  atomicAdd(&sd[tid & 1], (double)((v >> 20) & 0xffu) * 0.25);
  __syncthreads();
  if (tid < 8) sh_out[blockIdx.x * 10 + tid] = sf[tid];
  if (tid < 2) sh_out[blockIdx.x * 10 + 8 + tid] = (float)sd[tid];  // exact: < 2^16, step 1/4
}
