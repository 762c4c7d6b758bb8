// f32_ftz.cu — single precision with subnormals flushed to zero, as code built with -ftz=true
// (or --use_fast_math) gets it: nvcc then emits the .ftz forms of the f32 instructions. Division
// and square root stay IEEE-rounded (-prec-div/-prec-sqrt remain true), so everything is exact.
// (The next line is read by gen_ptx.sh.)
// nvcc-flags: -ftz=true
//
// Families: add/sub/mul/fma.rn.ftz.f32, div.rn.ftz.f32, sqrt.rn.ftz.f32, rcp.rn.ftz.f32,
// min/max.ftz.f32, setp.*.ftz.f32, cvt.ftz.f64.f32 (a subnormal f32 widens to +-0),
// cvt.ftz.sat.f32.f32 (__saturatef), abs/neg.ftz.f32, mul.rz.ftz.f32, cvt.rni.f32.f32.
// Specs: f32_ftz.json
//
// Inputs are biased towards subnormals: for odd threads the kernel makes a subnormal (or zero)
// and b a tiny normal (2^-126 .. 2^-124), so both flushed inputs and flushed results occur.

extern "C" __global__ void f32_ftz(const unsigned* __restrict__ ra, const unsigned* __restrict__ rb,
                                   int n, unsigned* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned ua = ra[i], ub = rb[i];
  if (i & 1) {
    ua &= 0x807fffffu;                      // a subnormal (or zero) of either sign
    ub = (ub & 0x80ffffffu) | 0x00800000u;  // b tiny normal: 2^-126 or 2^-125 scale
  }
  const float a = __uint_as_float(ua), b = __uint_as_float(ub);
  unsigned* o = out + i * 16;
  o[0] = __float_as_uint(a + b);
  o[1] = __float_as_uint(a - b);
  o[2] = __float_as_uint(a * b);
  o[3] = __float_as_uint(fmaf(a, b, 1.0e-38f));
  o[4] = __float_as_uint(a / b);
  o[5] = __float_as_uint(sqrtf(fabsf(a)));
  o[6] = __float_as_uint(1.0f / b);
  o[7] = __float_as_uint(fminf(a, b));
  o[8] = __float_as_uint(fmaxf(a, -b));
  o[9] = __float_as_uint(__saturatef(fmaf(a, b, 0.25f)));
  o[10] = (a < b) | (a == 0.0f) << 1 | (b != b) << 2 | (a >= -b) << 3;
  const double d = (double)a;  // cvt.ftz.f64.f32: a subnormal input becomes +-0
  o[11] = (unsigned)(__double_as_longlong(d) >> 32);
  o[12] = __float_as_uint(rintf(a * 1.0e30f));
  o[13] = __float_as_uint(fabsf(a) + 0.0f);
  o[14] = __float_as_uint(-(a * 0.5f));
  o[15] = __float_as_uint(__fmul_rz(a, 4.0f));
}
