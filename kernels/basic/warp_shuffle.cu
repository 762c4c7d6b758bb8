// warp_shuffle.cu — shfl.sync in every mode, width (segment clamp) and with partial member masks,
// plus the warp-shuffle algorithms real kernels are built from.
//
// Families: shfl.sync.{idx,up,down,bfly}.b32 with c = ((32-width)<<8)|clamp for widths 4/8/16/32,
// raw shfl.sync with its predicate output (inline PTX: __shfl_*_sync drops it), partial masks in
// divergent code (even lanes / odd lanes / low 24 lanes), 64-bit and half2 shuffles, warp
// reduce (bfly), inclusive scan (up), bitonic sort of 32 keys (bfly + min/max + selp), broadcast.
// Specs: warp_shuffle.json
//
// out has kOuts u32 per thread. Shuffle semantics (PTX ISA "shfl.sync"): for lane L with
// segmask = c[12:8], maxLane = (L & segmask) | (c[4:0] & ~segmask), minLane = L & segmask:
//   up: j = L - b, valid if j >= maxLane;   down: j = L + b, valid if j <= maxLane;
//   bfly: j = L ^ b, valid if j <= maxLane; idx: j = minLane | (b & ~segmask), valid if j <=
//   maxLane;
// an invalid j reads the lane's own value (and clears the predicate).
#include <cuda_fp16.h>

constexpr int kOuts = 24;
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ unsigned shfl_pred(unsigned v, unsigned b, unsigned c, unsigned mask,
                                              unsigned* pred_bits, int mode) {
  unsigned r, p;
  // One asm per mode keeps the mode an immediate, as in real code.
  switch (mode) {
    case 0:
      asm volatile("{.reg .pred p; shfl.sync.idx.b32 %0|p, %2, %3, %4, %5; selp.u32 %1, 1, 0, p;}"
                   : "=r"(r), "=r"(p)
                   : "r"(v), "r"(b), "r"(c), "r"(mask));
      break;
    case 1:
      asm volatile("{.reg .pred p; shfl.sync.up.b32 %0|p, %2, %3, %4, %5; selp.u32 %1, 1, 0, p;}"
                   : "=r"(r), "=r"(p)
                   : "r"(v), "r"(b), "r"(c), "r"(mask));
      break;
    case 2:
      asm volatile("{.reg .pred p; shfl.sync.down.b32 %0|p, %2, %3, %4, %5; selp.u32 %1, 1, 0, p;}"
                   : "=r"(r), "=r"(p)
                   : "r"(v), "r"(b), "r"(c), "r"(mask));
      break;
    default:
      asm volatile("{.reg .pred p; shfl.sync.bfly.b32 %0|p, %2, %3, %4, %5; selp.u32 %1, 1, 0, p;}"
                   : "=r"(r), "=r"(p)
                   : "r"(v), "r"(b), "r"(c), "r"(mask));
      break;
  }
  *pred_bits = (*pred_bits << 1) | p;
  return r;
}

__device__ unsigned warp_reduce_max(unsigned v) {
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_xor_sync(kFull, v, off));
  return v;
}

__device__ unsigned warp_inclusive_scan(unsigned v, int lane) {
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned up = __shfl_up_sync(kFull, v, off);
    if (lane >= off) v += up;
  }
  return v;
}

// Bitonic sort of one key per lane, ascending by lane.
__device__ unsigned warp_bitonic_sort(unsigned key, int lane) {
  for (int k = 2; k <= 32; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      const unsigned other = __shfl_xor_sync(kFull, key, j);
      const bool ascending = (lane & k) == 0 || k == 32;
      const bool lower = (lane & j) == 0;
      key = (lower == ascending) ? min(key, other) : max(key, other);
    }
  }
  return key;
}

extern "C" __global__ void warp_shuffle(const unsigned* __restrict__ in,
                                        unsigned* __restrict__ out) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const unsigned v = in[gid];
  unsigned* o = out + gid * kOuts;

  // CUDA intrinsics, full mask, all modes and widths.
  o[0] = __shfl_sync(kFull, v, (lane * 7 + 3) & 31);
  o[1] = __shfl_up_sync(kFull, v, 3);
  o[2] = __shfl_down_sync(kFull, v, 5);
  o[3] = __shfl_xor_sync(kFull, v, 6);
  o[4] = __shfl_sync(kFull, v, lane + 9, 16);  // srcLane taken modulo the 16-lane segment
  o[5] = __shfl_up_sync(kFull, v, 2, 8);
  o[6] = __shfl_down_sync(kFull, v, 3, 4);
  o[7] = __shfl_xor_sync(kFull, v, 5, 8);
  o[8] = __shfl_xor_sync(kFull, v, 9, 8);  // laneMask >= width: j may leave the segment downwards

  // Raw shfl.sync with predicates and unusual c operands (clamp below 31, segments of 2 lanes).
  unsigned preds = 0;
  o[9] = shfl_pred(v, 20, 0x1f, kFull, &preds, 0);          // idx, no segments
  o[10] = shfl_pred(v, 7, 0x00, kFull, &preds, 1);          // up
  o[11] = shfl_pred(v, 7, 0x1f, kFull, &preds, 2);          // down
  o[12] = shfl_pred(v, 3, 0x1e0f, kFull, &preds, 3);        // bfly, segmask 0x1e, clamp 15
  o[13] = shfl_pred(v, 1, 0x1c03, kFull, &preds, 2);        // down inside 4-lane segments
  o[14] = shfl_pred(v, 31 - lane, 0x0f, kFull, &preds, 0);  // idx, clamp 15: sources > 15 invalid
  o[15] = preds;

  // Partial masks: even lanes shuffle among themselves, odd lanes among themselves.
  if ((lane & 1) == 0) {
    o[16] = __shfl_sync(0x55555555u, v, (lane + 6) & 31);
  } else {
    o[16] = __shfl_xor_sync(0xaaaaaaaau, v, 2);
  }
  // The low 24 lanes: a down-shuffle whose sources stay inside the mask.
  if (lane < 24) {
    o[17] = __shfl_down_sync(0x00ffffffu, v, 4, 8);
  } else {
    o[17] = ~v;
  }

  // 64-bit and half2 payloads.
  const unsigned long long w = ((unsigned long long)v << 32) | (v ^ 0xa5a5a5a5u);
  const unsigned long long ws = __shfl_sync(kFull, w, 31 - lane);
  o[18] = (unsigned)(ws >> 32) ^ (unsigned)ws;
  const double d = __shfl_down_sync(kFull, (double)(v >> 8), 1);
  o[19] = (unsigned)d;
  __half2 h = *reinterpret_cast<const __half2*>(&v);
  h = __shfl_xor_sync(kFull, h, 1);
  o[20] = *reinterpret_cast<unsigned*>(&h);

  // Algorithms.
  o[21] = warp_reduce_max(v);
  o[22] = warp_inclusive_scan(v & 0xffff, lane);
  o[23] = warp_bitonic_sort(v, lane);
}
