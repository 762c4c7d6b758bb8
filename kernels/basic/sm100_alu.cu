// sm100_alu.cu — ordinary (non-tensor-core) instructions that are new in sm_100: packed f32x2
// arithmetic in every rounding mode (CUDA 13's __fadd2_rn ... __ffma2_rd) and the floating-point
// warp reduction redux.sync.{min,max}{.abs}{.NaN}.f32.
//
// nvcc-arch: sm_100a
// Built for sm_100a. THE H200 (sm_90a) CANNOT RUN THIS KERNEL: ptxas and the simulator judge it
// until a Blackwell GPU is available.
//
// Families: add/mul/fma.{rn,rz,rm,rp}.f32x2 (mov.b64 packing of two f32), redux.sync.min.f32,
// redux.sync.max.abs.f32, redux.sync.min.NaN.f32, redux.sync.max.abs.NaN.f32 (inline PTX).
// Specs: sm100_alu.json

__device__ __forceinline__ unsigned u(float f) {
  return __float_as_uint(f);
}

extern "C" __global__ void sm100_alu(const float2* __restrict__ xs, const float2* __restrict__ ys,
                                     unsigned* __restrict__ out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float2 x = xs[i], y = ys[i];
  unsigned* o = out + i * 32;
  float2 r;
  r = __fadd2_rn(x, y), o[0] = u(r.x), o[1] = u(r.y);
  r = __fadd2_rz(x, y), o[2] = u(r.x), o[3] = u(r.y);
  r = __fadd2_rd(x, y), o[4] = u(r.x), o[5] = u(r.y);
  r = __fadd2_ru(x, y), o[6] = u(r.x), o[7] = u(r.y);
  r = __fmul2_rn(x, y), o[8] = u(r.x), o[9] = u(r.y);
  r = __fmul2_rz(x, y), o[10] = u(r.x), o[11] = u(r.y);
  r = __fmul2_rd(x, y), o[12] = u(r.x), o[13] = u(r.y);
  r = __fmul2_ru(x, y), o[14] = u(r.x), o[15] = u(r.y);
  r = __ffma2_rn(x, y, x), o[16] = u(r.x), o[17] = u(r.y);
  r = __ffma2_rz(x, y, y), o[18] = u(r.x), o[19] = u(r.y);
  r = __ffma2_rd(y, y, x), o[20] = u(r.x), o[21] = u(r.y);
  r = __ffma2_ru(x, x, y), o[22] = u(r.x), o[23] = u(r.y);

  // Warp reductions over f32 (x.x may be NaN/inf: the inputs are random bit patterns).
  float m;
  asm volatile("redux.sync.min.f32 %0, %1, 0xffffffff;" : "=f"(m) : "f"(x.x));
  o[24] = u(m);
  asm volatile("redux.sync.max.abs.f32 %0, %1, 0xffffffff;" : "=f"(m) : "f"(x.y));
  o[25] = u(m);
  asm volatile("redux.sync.min.NaN.f32 %0, %1, 0xffffffff;" : "=f"(m) : "f"(x.x));
  o[26] = u(m);
  asm volatile("redux.sync.max.abs.NaN.f32 %0, %1, 0xffffffff;" : "=f"(m) : "f"(y.x));
  o[27] = u(m);
  if (threadIdx.x & 1) {  // partial mask: odd lanes
    asm volatile("redux.sync.max.f32 %0, %1, 0xaaaaaaaa;" : "=f"(m) : "f"(y.y));
    o[28] = u(m);
  } else {
    o[28] = 0;
  }
  o[29] = o[30] = o[31] = 0;
}
