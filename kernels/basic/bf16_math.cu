// bf16_math.cu — bfloat16 arithmetic with cuda_bf16.h, scalar (__nv_bfloat16) and packed
// (__nv_bfloat162), on random bit patterns (NaNs, infinities, subnormals, both zeros). Only
// correctly rounded operations (no h2exp/hsqrt/division: see approx_math.cu).
//
// Families: add/sub/mul/fma.rn.bf16 and .bf16x2 (sm_90 native), fma.rn.relu.bf16(x2),
// min/max.bf16(x2) with and without .NaN, neg/abs.bf16(x2), setp.*.bf16 (ordered and unordered),
// set.*.bf16x2 masks, cvt between bf16 and f32/f64/f16/integers in every rounding mode
// (cvt.rn/rz/rm/rp.bf16.f32, cvt.rn.bf16x2.f32, integer conversions), the f32 bit view of a bf16.
// Specs: bf16_math.json
//
// Outputs are raw bf16 bits (u16): out[i * kOuts + k].

#include <cuda_bf16.h>
#include <cuda_fp16.h>

constexpr int kOuts = 40;
typedef __nv_bfloat16 bf16;
typedef __nv_bfloat162 bf162;

__device__ __forceinline__ unsigned short bits(bf16 h) {
  return __bfloat16_as_ushort(h);
}

extern "C" __global__ void bf16_math(const unsigned short* __restrict__ a_bits,
                                     const unsigned short* __restrict__ b_bits,
                                     const unsigned short* __restrict__ c_bits, int n,
                                     unsigned short* __restrict__ out, int* __restrict__ iout) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const bf16 a = __ushort_as_bfloat16(a_bits[i]);
  const bf16 b = __ushort_as_bfloat16(b_bits[i]);
  const bf16 c = __ushort_as_bfloat16(c_bits[i]);
  unsigned short* o = out + i * kOuts;

  o[0] = bits(__hadd(a, b));
  o[1] = bits(__hsub(a, b));
  o[2] = bits(__hmul(a, b));
  o[3] = bits(__hfma(a, b, c));
  o[4] = bits(__hadd_rn(__hmul_rn(a, b), c));
  o[5] = bits(__hfma_relu(a, b, c));
  o[6] = bits(__hmin(a, b));
  o[7] = bits(__hmax(a, b));
  o[8] = bits(__hmin_nan(a, b));
  o[9] = bits(__hmax_nan(a, b));
  o[10] = bits(__hneg(a));
  o[11] = bits(__habs(b));
  o[12] = bits(__hadd_sat(a, c));
  o[13] = bits(__hfma_sat(c, b, a));

  unsigned cmp = 0;
  cmp |= __heq(a, b) << 0;
  cmp |= __hne(a, b) << 1;
  cmp |= __hlt(a, b) << 2;
  cmp |= __hle(a, b) << 3;
  cmp |= __hgt(a, b) << 4;
  cmp |= __hge(a, b) << 5;
  cmp |= __hequ(a, b) << 6;
  cmp |= __hneu(a, b) << 7;
  cmp |= __hltu(a, b) << 8;
  cmp |= __hleu(a, b) << 9;
  cmp |= __hgtu(a, b) << 10;
  cmp |= __hgeu(a, b) << 11;
  cmp |= __hisnan(a) << 12;
  cmp |= (__hisinf(b) != 0) << 13;
  o[14] = (unsigned short)cmp;

  const bf162 x = __halves2bfloat162(a, b);
  const bf162 y = __halves2bfloat162(c, a);
  const bf162 z = __halves2bfloat162(b, c);
  bf162 r;
  r = __hadd2(x, y);
  o[15] = bits(__low2bfloat16(r)), o[16] = bits(__high2bfloat16(r));
  r = __hmul2(x, y);
  o[17] = bits(__low2bfloat16(r)), o[18] = bits(__high2bfloat16(r));
  r = __hfma2(x, y, z);
  o[19] = bits(__low2bfloat16(r)), o[20] = bits(__high2bfloat16(r));
  r = __hfma2_relu(x, y, z);
  o[21] = bits(__low2bfloat16(r)), o[22] = bits(__high2bfloat16(r));
  r = __hmax2(x, y);
  o[23] = bits(__low2bfloat16(r)), o[24] = bits(__high2bfloat16(r));
  r = __hmin2_nan(x, y);
  o[25] = bits(__low2bfloat16(r)), o[26] = bits(__high2bfloat16(r));
  r = __habs2(__hneg2(z));
  o[27] = bits(__low2bfloat16(r)), o[28] = bits(__high2bfloat16(r));
  const unsigned m = __hgt2_mask(x, y) ^ __hltu2_mask(y, z);
  o[29] = (unsigned short)m, o[30] = (unsigned short)(m >> 16);

  // Conversions.
  const float fw = __int_as_float((int)(a_bits[i] | (unsigned)c_bits[i] << 16));  // any f32 bits
  o[31] = bits(__float2bfloat16_rn(fw));
  o[32] = bits(__float2bfloat16_rz(fw));
  o[33] = bits(__float2bfloat16_rd(fw));
  o[34] = bits(__float2bfloat16_ru(fw));
  const bf162 p = __floats2bfloat162_rn(fw, __int_as_float((int)(b_bits[i] * 65537u)));
  o[35] = bits(__low2bfloat16(p)), o[36] = bits(__high2bfloat16(p));
  o[37] = bits(__double2bfloat16((double)fw / 3.0));
  o[38] = bits(__int2bfloat16_rz((int)(b_bits[i] * 40503u)));
  o[39] = __half_as_ushort(__float2half_rn(__bfloat162float(c)));  // bf16 -> f32 -> f16

  int* io = iout + i * 6;
  io[0] = __bfloat162int_rn(c);
  io[1] = __bfloat162int_rz(c);
  io[2] = __bfloat162int_rd(b);
  io[3] = __bfloat162int_ru(b);
  io[4] = (int)__bfloat162uint_rz(a);
  io[5] = (int)__bfloat162short_rn(a);
}
