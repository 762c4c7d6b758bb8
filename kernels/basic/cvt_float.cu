// cvt_float.cu — conversions between floating-point formats: f64 -> f32 in every IEEE rounding
// mode, f32 -> f64 / f16 -> f32 / f16 -> f64 (exact), pairs of f32 -> f16x2 / bf16x2 (with .relu
// and .satfinite), f16 <-> bf16, f32 -> tf32 (rna, rn, rz), and rounding to an integral value in
// the same format (rint/floor/ceil/trunc -> cvt.{rni,rmi,rpi,rzi}).
//
// Families: cvt.{rn,rz,rm,rp}.f32.f64 (__double2float_rn ...), cvt.f64.f32, cvt.f32.f16,
// cvt.f64.f16 (inline PTX), cvt.rn.f16x2.f32 (__floats2half2_rn), cvt.rn.bf16x2.f32,
// cvt.{rn,rz}{.relu}{.satfinite}.{f16,bf16}{x2}.f32 (inline PTX), cvt.rn.bf16.f16 and
// cvt.f32.bf16, cvt.rna.tf32.f32 / cvt.rn.tf32.f32 / cvt.rz.tf32.f32 (+ .satfinite on rna),
// cvt.{rni,rmi,rpi,rzi}.{f32.f32,f64.f64}, cvt.sat.f32.f32, and roundf's software sequence.
// Specs: cvt_float.json
//
// Outputs: out[i * kOuts + k] as u32 (f64 results as two words: lo, hi).

constexpr int kOuts = 40;

#define CVT1(op, r, x) asm(op " %0, %1;" : "=r"(r) : "f"(x))

extern "C" __global__ void cvt_float(const unsigned long long* __restrict__ db,
                                     const unsigned* __restrict__ fb, int n,
                                     unsigned* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double d = __longlong_as_double((long long)db[i]);
  const float f = __uint_as_float(fb[i]);
  const float g = __uint_as_float(fb[i] * 2654435761u);  // a second, unrelated f32
  unsigned* o = out + i * kOuts;
  unsigned r;
  unsigned short h;

  o[0] = __float_as_uint(__double2float_rn(d));
  o[1] = __float_as_uint(__double2float_rz(d));
  o[2] = __float_as_uint(__double2float_rd(d));
  o[3] = __float_as_uint(__double2float_ru(d));
  const double fd = (double)f;  // exact
  o[4] = (unsigned)__double_as_longlong(fd), o[5] = (unsigned)(__double_as_longlong(fd) >> 32);

  // f16 views of the low/high halves of fb[i].
  const unsigned short h0 = (unsigned short)fb[i], h1 = (unsigned short)(fb[i] >> 16);
  float hf;
  asm("cvt.f32.f16 %0, %1;" : "=f"(hf) : "h"(h0));
  o[6] = __float_as_uint(hf);
  double hd;
  asm("cvt.f64.f16 %0, %1;" : "=d"(hd) : "h"(h1));
  o[7] = (unsigned)__double_as_longlong(hd), o[8] = (unsigned)(__double_as_longlong(hd) >> 32);

  // Pairs: d = {hi: cvt(a), lo: cvt(b)} for cvt.*x2.f32 a, b.
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(f), "f"(g));
  o[9] = r;
  asm("cvt.rz.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(f), "f"(g));
  o[10] = r;
  asm("cvt.rn.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(f), "f"(g));
  o[11] = r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(f), "f"(g));
  o[12] = r;
  asm("cvt.rz.relu.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(f), "f"(g));
  o[13] = r;
  asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  o[14] = h;
  asm("cvt.rz.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "f"(g));
  o[15] = h;

  // f16 <-> bf16 and bf16 -> f32.
  asm("cvt.rn.bf16.f16 %0, %1;" : "=h"(h) : "h"(h0));
  o[16] = h;
  asm("cvt.f32.bf16 %0, %1;" : "=f"(hf) : "h"(h1));
  o[17] = __float_as_uint(hf);

  // tf32: 10-bit mantissa kept in an f32 container.
  CVT1("cvt.rna.tf32.f32", r, f);
  o[18] = r;
  CVT1("cvt.rna.satfinite.tf32.f32", r, g);
  o[19] = r;
  CVT1("cvt.rn.tf32.f32", r, f);
  o[20] = r;
  CVT1("cvt.rz.tf32.f32", r, g);
  o[21] = r;
  CVT1("cvt.rn.relu.tf32.f32", r, g);
  o[22] = r;

  // Round to integral, f32 and f64.
  o[23] = __float_as_uint(rintf(f));
  o[24] = __float_as_uint(floorf(f));
  o[25] = __float_as_uint(ceilf(g));
  o[26] = __float_as_uint(truncf(g));
  o[27] = __float_as_uint(roundf(f));  // half away from zero: a software sequence
  o[28] = __float_as_uint(nearbyintf(g));
  o[29] = __float_as_uint(__saturatef(g));
  const double rd = rint(d), fl = floor(d), ce = ceil(d), tr = trunc(d);
  o[30] = (unsigned)__double_as_longlong(rd), o[31] = (unsigned)(__double_as_longlong(rd) >> 32);
  o[32] = (unsigned)__double_as_longlong(fl), o[33] = (unsigned)(__double_as_longlong(fl) >> 32);
  o[34] = (unsigned)__double_as_longlong(ce), o[35] = (unsigned)(__double_as_longlong(ce) >> 32);
  o[36] = (unsigned)__double_as_longlong(tr), o[37] = (unsigned)(__double_as_longlong(tr) >> 32);
  const double rnd = round(d);
  o[38] = (unsigned)__double_as_longlong(rnd), o[39] = (unsigned)(__double_as_longlong(rnd) >> 32);
}
