// cvt_fp6_fp4.cu — the Blackwell narrow-format conversions: f32 pairs to fp6 (e2m3x2, e3m2x2) and
// fp4 (e2m1x2) and back to f16x2, f32/bf16 to the ue8m0 scale format (rz/rp, with and without
// .satfinite) and ue8m0x2 back to bf16x2, the .relu forms, and stochastic rounding (cvt.rs).
//
// nvcc-arch: sm_100a
// Built for sm_100a: these cvt forms require sm_100a/sm_101a/sm_103a (PTX ISA 8.6+). THE H200
// (sm_90a) CANNOT RUN THIS KERNEL; its specs are judged by ptxas and by the simulator alone until
// a Blackwell GPU is available.
//
// Families: cvt.rn.satfinite{.relu}.{e2m3x2,e3m2x2,e2m1x2}.f32, cvt.rn{.relu}.f16x2.{e2m3x2,
// e3m2x2,e2m1x2}, cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32,bf16x2}, cvt.rn.bf16x2.ue8m0x2,
// cvt.rs{.relu}.satfinite.{e4m3x4,e2m1x4}.f32 (stochastic rounding with explicit random bits),
// cvt.rn.satfinite.tf32.f32 (sm_100 only).
// Specs: cvt_fp6_fp4.json
//
// Conversion rules (cuda_fp6.hpp / cuda_fp4.hpp / cuda_fp8.hpp, CUDA 13.0; docs/mma_numerics.md §5):
// fp6/fp4 always saturate to +-maxnorm, NaN -> +maxnorm; ue8m0 rz takes the exponent, rp rounds
// up when any mantissa bit is set; NOSAT overflow -> 0xFF (NaN).

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

extern "C" __global__ void cvt_fp6_fp4(const float* __restrict__ xs,
                                       const unsigned* __restrict__ rbits, int n,
                                       unsigned char* __restrict__ narrow,
                                       unsigned* __restrict__ wide) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x0 = xs[2 * i], x1 = xs[2 * i + 1];
  const float2 x = make_float2(x0, x1);
  unsigned char* q = narrow + i * 16;
  unsigned* w = wide + i * 8;

  // f32 pair -> fp6 / fp4 (RNE, always saturating). Low element from .x.
  const __nv_fp6x2_storage_t e2m3 = __nv_cvt_float2_to_fp6x2(x, __NV_E2M3, cudaRoundNearest);
  const __nv_fp6x2_storage_t e3m2 = __nv_cvt_float2_to_fp6x2(x, __NV_E3M2, cudaRoundNearest);
  const __nv_fp4x2_storage_t e2m1 = __nv_cvt_float2_to_fp4x2(x, __NV_E2M1, cudaRoundNearest);
  q[0] = (unsigned char)e2m3, q[1] = (unsigned char)(e2m3 >> 8);
  q[2] = (unsigned char)e3m2, q[3] = (unsigned char)(e3m2 >> 8);
  q[4] = e2m1;  // two nibbles, low = .x

  // Back to f16x2.
  const __half2_raw h63 = __nv_cvt_fp6x2_to_halfraw2(e2m3, __NV_E2M3);
  const __half2_raw h32 = __nv_cvt_fp6x2_to_halfraw2(e3m2, __NV_E3M2);
  const __half2_raw h21 = __nv_cvt_fp4x2_to_halfraw2(e2m1, __NV_E2M1);
  w[0] = h63.x | (unsigned)h63.y << 16;
  w[1] = h32.x | (unsigned)h32.y << 16;
  w[2] = h21.x | (unsigned)h21.y << 16;

  // ue8m0 scale factors from f32 pairs and from bf16x2.
  q[5] = (unsigned char)__nv_cvt_float2_to_e8m0x2(x, __NV_SATFINITE, cudaRoundZero);
  q[6] = (unsigned char)(__nv_cvt_float2_to_e8m0x2(x, __NV_NOSAT, cudaRoundPosInf) >> 8);
  __nv_bfloat162_raw b2;
  b2.x = (unsigned short)rbits[i];
  b2.y = (unsigned short)(rbits[i] >> 16);
  const __nv_fp8x2_storage_t s2 =
      __nv_cvt_bfloat162raw_to_e8m0x2(b2, __NV_SATFINITE, cudaRoundPosInf);
  q[7] = (unsigned char)s2, q[8] = (unsigned char)(s2 >> 8);
  const __nv_bfloat162_raw back = __nv_cvt_e8m0x2_to_bf162raw(s2);
  w[3] = back.x | (unsigned)back.y << 16;

  // .relu forms and stochastic rounding (inline PTX).
  unsigned short r16;
  asm("cvt.rn.satfinite.relu.e3m2x2.f32 %0, %1, %2;" : "=h"(r16) : "f"(x1), "f"(x0));
  q[9] = (unsigned char)r16, q[10] = (unsigned char)(r16 >> 8);
  unsigned r32;
  asm("cvt.rn.relu.f16x2.e2m3x2 %0, %1;" : "=r"(r32) : "h"((unsigned short)e2m3));
  w[4] = r32;
  asm("{.reg .b8 t; cvt.rn.satfinite.relu.e2m1x2.f32 t, %1, %2; cvt.u32.u8 %0, t;}"
      : "=r"(r32)
      : "f"(x1), "f"(x0));
  q[11] = (unsigned char)r32;
  asm("cvt.rs.satfinite.e4m3x4.f32 %0, {%1, %2, %3, %4}, %5;"
      : "=r"(r32)
      : "f"(x0), "f"(x1), "f"(x0 * 0.37f), "f"(x1 * -2.0f), "r"(rbits[i]));
  w[5] = r32;
  unsigned short r4;
  asm("cvt.rs.relu.satfinite.e2m1x4.f32 %0, {%1, %2, %3, %4}, %5;"
      : "=h"(r4)
      : "f"(x0), "f"(x1), "f"(-x0), "f"(x1 * 0.25f), "r"(rbits[i] * 2654435761u));
  q[12] = (unsigned char)r4, q[13] = (unsigned char)(r4 >> 8);
  asm("cvt.rn.satfinite.tf32.f32 %0, %1;" : "=r"(r32) : "f"(x0 * 1.0e36f));
  w[6] = r32;
  w[7] = __nv_cvt_e8m0_to_bf16raw(q[5]).x;
  q[14] = (unsigned char)__nv_cvt_bfloat16raw_to_e8m0(
      __nv_bfloat16_raw{(unsigned short)(rbits[i] >> 7)}, __NV_NOSAT, cudaRoundZero);
  q[15] = 0;
}
