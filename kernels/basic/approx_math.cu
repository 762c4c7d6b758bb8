// approx_math.cu — THE ONE KERNEL WITH APPROXIMATE RESULTS. The .approx instructions (ex2, lg2,
// sin, cos, rsqrt, sqrt, rcp, tanh, div.approx/div.full) are specified only by error bounds, not
// bit patterns, so the simulator cannot match the GPU bit for bit by construction. Every output
// of this kernel is excepted from the bit-exact diff and compared with a tolerance instead
// (README.md lists the bound used for each column); everything else in the corpus is bit-exact.
//
// Families: ex2.approx{.ftz}.f32 (__expf, __exp10f, __powf), lg2.approx{.ftz}.f32 (__logf,
// __log2f, __log10f), sin/cos.approx.f32 (__sinf, __cosf, __sincosf, __tanf), rsqrt.approx{.ftz}
// .f32 (rsqrtf, hrsqrt), div.approx.f32 (__fdividef, __tanf), rcp.approx.ftz.f32 (__hdiv, hrcp),
// sqrt.approx{.ftz}.f32 (hsqrt; inline), rcp.approx.f32 / rcp.approx.ftz.f64 / rsqrt.approx.f64 /
// tanh.approx.f32 (inline PTX), ex2.approx.f16x2 / ex2.approx.ftz.bf16x2 and
// tanh.approx.{f16,f16x2,bf16,bf16x2} (inline PTX), and the f16/bf16 math functions of
// cuda_fp16.h/cuda_bf16.h built on f32 approximations (h2exp2, hexp, hlog, hsin, hcos).
// Specs: approx_math.json

#include <cuda_bf16.h>
#include <cuda_fp16.h>

constexpr int kOuts = 34;

__device__ __forceinline__ unsigned u(float f) {
  return __float_as_uint(f);
}

extern "C" __global__ void approx_math(const float* __restrict__ xs, int n,
                                       unsigned* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = xs[i];              // in [-10, 10]
  const float p = fabsf(x) + 0.125f;  // positive argument for logs and roots
  unsigned* o = out + i * kOuts;
  float r;

  o[0] = u(__expf(x));
  o[1] = u(__exp10f(x * 0.25f));
  o[2] = u(__logf(p));
  o[3] = u(__log2f(p));
  o[4] = u(__log10f(p));
  o[5] = u(__sinf(x));
  o[6] = u(__cosf(x));
  float s, c;
  __sincosf(x * 0.5f, &s, &c);
  o[7] = u(s), o[8] = u(c);
  o[9] = u(__tanf(x * 0.1f));
  o[10] = u(rsqrtf(p));
  o[11] = u(__fdividef(x, p));
  o[12] = u(__powf(p, 0.75f));
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(p));
  o[13] = u(r);
  asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[14] = u(r);
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x * 0.3f));
  o[15] = u(r);
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[16] = u(r);
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(p));
  o[17] = u(r);
  double d;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(d) : "d"((double)p));
  o[18] = (unsigned)(__double_as_longlong(d) >> 32);
  asm("rsqrt.approx.f64 %0, %1;" : "=d"(d) : "d"((double)p));
  o[19] = (unsigned)(__double_as_longlong(d) >> 32);

  // Half and bfloat16.
  const __half hx = __float2half(x * 0.5f), hp = __float2half(p);
  const __half2 h2 = __halves2half2(hx, hp);
  const __half2 e2 = h2exp2(h2);
  o[20] = *reinterpret_cast<const unsigned*>(&e2);
  o[21] = __half_as_ushort(hexp(hx)) | (unsigned)__half_as_ushort(hlog(hp)) << 16;
  o[22] = __half_as_ushort(hsqrt(hp)) | (unsigned)__half_as_ushort(hrsqrt(hp)) << 16;
  o[23] = __half_as_ushort(hrcp(hp)) | (unsigned)__half_as_ushort(hsin(hx)) << 16;
  o[24] = __half_as_ushort(__hdiv(hx, hp)) | (unsigned)__half_as_ushort(hcos(hx)) << 16;
  const __nv_bfloat162 b2 = __floats2bfloat162_rn(x * 0.5f, p);
  const __nv_bfloat162 eb = h2exp2(b2);
  o[25] = *reinterpret_cast<const unsigned*>(&eb);
  unsigned short th;
  asm("tanh.approx.f16 %0, %1;" : "=h"(th) : "h"(__half_as_ushort(hx)));
  o[26] = th;
  unsigned t2;
  asm("tanh.approx.f16x2 %0, %1;" : "=r"(t2) : "r"(*reinterpret_cast<const unsigned*>(&h2)));
  o[27] = t2;
  asm("tanh.approx.bf16 %0, %1;"
      : "=h"(th)
      : "h"(__bfloat16_as_ushort(__float2bfloat16(x * 0.2f))));
  o[28] = th;
  asm("tanh.approx.bf16x2 %0, %1;" : "=r"(t2) : "r"(*reinterpret_cast<const unsigned*>(&b2)));
  o[29] = t2;
  o[30] = __bfloat16_as_ushort(hexp(__float2bfloat16(x * 0.5f)));
  o[31] = __bfloat16_as_ushort(hsqrt(__float2bfloat16(p)));
  asm("ex2.approx.f16x2 %0, %1;" : "=r"(t2) : "r"(*reinterpret_cast<const unsigned*>(&h2)));
  o[32] = t2;
  asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(t2) : "r"(*reinterpret_cast<const unsigned*>(&b2)));
  o[33] = t2;
}
