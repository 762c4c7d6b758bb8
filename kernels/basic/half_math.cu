// half_math.cu — IEEE binary16 arithmetic with cuda_fp16.h, scalar (__half) and packed
// (__half2), on random bit patterns (so NaNs, infinities, subnormals and both zeros all occur).
// Only correctly rounded operations are used here (no __hdiv/hsqrt/hexp: those are built on
// .approx instructions and live in approx_math.cu).
//
// Families: add/sub/mul/fma.rn.f16 and .f16x2, .sat (__hadd_sat, __hfma_sat, __hmul2_sat),
// fma.rn.relu (__hfma_relu), min/max.f16(x2) and their .NaN forms (__hmin_nan, __hmax2_nan),
// neg/abs.f16(x2), setp.{eq,ne,lt,le,gt,ge,equ,neu,ltu,leu,gtu,geu,nan,num}.f16 and set.*.f16x2
// (comparisons returning masks: __hlt2_mask, __hgeu2), testp-free NaN/inf checks (__hisnan/
// __hisinf), cvt between f16 and f32/f64/integers in every rounding mode, __hadd_rn (fma
// contraction off), mov.b32 {lo, hi} packing (__halves2half2, __high2half, __lowhigh2highlow).
// Specs: half_math.json
//
// Outputs are raw f16 bits (u16) so NaN payloads are compared exactly: out[i * kOuts + k].

#include <cuda_fp16.h>

constexpr int kOuts = 48;

__device__ __forceinline__ unsigned short bits(__half h) {
  return __half_as_ushort(h);
}

extern "C" __global__ void half_math(const unsigned short* __restrict__ a_bits,
                                     const unsigned short* __restrict__ b_bits,
                                     const unsigned short* __restrict__ c_bits, int n,
                                     unsigned short* __restrict__ out, int* __restrict__ iout) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half a = __ushort_as_half(a_bits[i]);
  const __half b = __ushort_as_half(b_bits[i]);
  const __half c = __ushort_as_half(c_bits[i]);
  unsigned short* o = out + i * kOuts;

  // Scalar arithmetic (round to nearest even; the _rn forms forbid contraction into fma).
  o[0] = bits(__hadd(a, b));
  o[1] = bits(__hsub(a, b));
  o[2] = bits(__hmul(a, b));
  o[3] = bits(__hfma(a, b, c));
  o[4] = bits(__hadd_rn(__hmul_rn(a, b), c));  // two roundings
  o[5] = bits(__hadd_sat(a, b));
  o[6] = bits(__hfma_sat(a, b, c));
  o[7] = bits(__hfma_relu(a, b, c));
  o[8] = bits(__hmin(a, b));
  o[9] = bits(__hmax(a, b));
  o[10] = bits(__hmin_nan(a, b));
  o[11] = bits(__hmax_nan(a, b));
  o[12] = bits(__hneg(a));
  o[13] = bits(__habs(b));
  o[14] = bits(__hsub_rn(c, a));
  o[15] = bits(__hmul_sat(b, c));

  // Comparisons: one bit each.
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
  o[16] = (unsigned short)cmp;

  // Packed arithmetic on (a, b) and (c, a).
  const __half2 x = __halves2half2(a, b);
  const __half2 y = __halves2half2(c, a);
  const __half2 z = __halves2half2(b, c);
  __half2 r;
  r = __hadd2(x, y);
  o[17] = bits(__low2half(r)), o[18] = bits(__high2half(r));
  r = __hmul2(x, y);
  o[19] = bits(__low2half(r)), o[20] = bits(__high2half(r));
  r = __hfma2(x, y, z);
  o[21] = bits(__low2half(r)), o[22] = bits(__high2half(r));
  r = __hfma2_relu(x, y, z);
  o[23] = bits(__low2half(r)), o[24] = bits(__high2half(r));
  r = __hsub2_sat(x, y);
  o[25] = bits(__low2half(r)), o[26] = bits(__high2half(r));
  r = __hmin2(x, y);
  o[27] = bits(__low2half(r)), o[28] = bits(__high2half(r));
  r = __hmax2_nan(x, y);
  o[29] = bits(__low2half(r)), o[30] = bits(__high2half(r));
  r = __habs2(__hneg2(x));
  o[31] = bits(__low2half(r)), o[32] = bits(__high2half(r));
  r = __hlt2_mask(x, y) == 0u ? __lowhigh2highlow(x) : __hgeu2(x, y);  // masks and 1.0/0.0
  o[33] = bits(__low2half(r)), o[34] = bits(__high2half(r));
  const unsigned m = __hle2_mask(x, z) ^ (__hbne2(x, y) ? 0x80000001u : 0u);
  o[35] = (unsigned short)m, o[36] = (unsigned short)(m >> 16);

  // Conversions: f32 <-> f16 in all rounding modes, f64 -> f16, integers <-> f16.
  const float fa = __half2float(a);
  const float fw = __int_as_float((int)(a_bits[i] | (unsigned)b_bits[i] << 16));  // any f32 bits
  o[37] = bits(__float2half_rn(fw));
  o[38] = bits(__float2half_rz(fw));
  o[39] = bits(__float2half_rd(fw));
  o[40] = bits(__float2half_ru(fw));
  o[41] = bits(__double2half((double)fw * 3.0));
  o[42] = bits(__int2half_rn((int)(c_bits[i] * 77u) - 2000000));
  o[43] = bits(__uint2half_rz(b_bits[i] * 1000u));
  o[44] = bits(__ll2half_rd((long long)(short)a_bits[i] * 123457ll));
  o[45] = bits(__short2half_ru((short)c_bits[i]));
  o[46] = (unsigned short)__float_as_uint(fa);          // low half of the exact f32 value
  o[47] = (unsigned short)(__float_as_uint(fa) >> 16);  // high half

  // f16 -> integers in all rounding modes (NaN -> 0, saturating at the range ends).
  int* io = iout + i * 8;
  io[0] = __half2int_rn(c);
  io[1] = __half2int_rz(c);
  io[2] = __half2int_rd(c);
  io[3] = __half2int_ru(c);
  io[4] = (int)__half2uint_rn(b);
  io[5] = (int)__half2short_rz(a);
  io[6] = (int)__half2ushort_rd(c);
  io[7] = (int)__half2ll_ru(b);
}
