// cvt_nan.cu — what every conversion does with a NaN: 32 payloads x 2 signs per source format (f32,
// f64, f16, bf16), through every narrowing, widening, rounding, saturating and integer cvt form
// the H200 runs, plus the f64 arithmetic that produces NaNs on these paths (a NaN widened from f32,
// through an f64 FMA, converted back: issue 10 item 10). PTX leaves most NaN results unspecified
// (PTX ISA §9.7.9.21 cvt: "NaN input yields unspecified NaN"); this records what the GPU returns.
//
// Families: cvt (every float <-> float pair of f64/f32/f16/bf16/tf32, .rn/.rz/.rm/.rp/.rna,
// .ftz, .sat, .relu, .satfinite, f16x2/bf16x2/e4m3x2/e5m2x2 packs, float -> s8..u64 with
// .rni/.rzi), abs/neg/add/min/max.NaN .f32, add/mul/fma/abs/neg .f64, fma.rn.f16.
// Specs: cvt_nan.json (one block of 64 threads: thread t has payload index t % 32, sign t / 32).
//
// Inputs of thread t (p = t % 32, s = t / 32):
//   x (f32)  = s << 31 | 0x7f800000 | kPay32[p]
//   y (f64)  = s << 63 | 0x7ff0... | kPay64(p)       (kPay32[p] << 29 | kLow[p % 8]; p = 30, 31: see below)
//   h (f16)  = s << 15 | 0x7c00 | (kPay32[p] >> 13, or 1 when that is 0)
//   b (bf16) = s << 15 | 0x7f80 | (kPay32[p] >> 16, or 1 when that is 0)
//   y2       = the f64 NaN of thread t ^ 32 (the same payload, the other sign)
// out[t * kOuts + k] (u32; f64 results as two words lo, hi; 16-bit results zero-extended):
//    0 x   1-2 y   3 h   4 b
//    5-6 cvt.f64.f32 x          7-8 cvt.ftz.f64.f32 x
//    9 cvt.rn.f16.f32 x  10 .rz  11 .rm  12 .rp  13 cvt.rn.relu.f16.f32  14 cvt.rn.satfinite.f16.f32
//   15 cvt.rn.bf16.f32  16 .rz  17 cvt.rn.relu.bf16.f32  18 cvt.rn.satfinite.bf16.f32
//   19 cvt.rn.f16x2.f32 (x, 1.0)  20 (1.0, x)  21 cvt.rn.bf16x2.f32 (x, 1.0)  22 (1.0, x)
//   23 cvt.rna.tf32.f32  24 cvt.rna.satfinite.tf32.f32  25 cvt.rn.tf32.f32  26 cvt.rz.tf32.f32
//   27 cvt.rn.relu.tf32.f32
//   28 cvt.rni.f32.f32  29 cvt.rzi.ftz.f32.f32  30 cvt.sat.f32.f32  31 cvt.ftz.f32.f32
//   32 cvt.rni.s32.f32  33 cvt.rzi.u32.f32  34-35 cvt.rni.s64.f32  36-37 cvt.rzi.u64.f32
//   38 cvt.rni.s16.f32  39 cvt.rzi.u8.f32
//   40 cvt.rn.satfinite.e4m3x2.f32 (x, 1.0)  41 cvt.rn.satfinite.e5m2x2.f32 (x, 1.0)
//   42 abs.f32 x  43 neg.f32 x  44 add.f32 x, 1.0  45 min.f32 x, 1.0  46 max.NaN.f32 x, 1.0
//   47 cvt.rn.f32.f64 y  48 .rz  49 .rm  50 .rp  51 cvt.rn.ftz.f32.f64  52 cvt.rn.sat.f32.f64
//   53-54 cvt.rni.f64.f64 y  55-56 abs.f64 y  57-58 neg.f64 y
//   59 cvt.rn.f16.f64 y  60 cvt.rz.f16.f64  61 cvt.rn.bf16.f64
//   62 cvt.rni.s32.f64  63 cvt.rzi.u32.f64  64-65 cvt.rni.s64.f64  66-67 cvt.rzi.u64.f64
//   68-69 fma.rn.f64 (cvt.f64.f32 x), 1.0, 0.0   70 cvt.rn.f32.f64 of it
//   71-72 add.f64 y, 1.0  73-74 add.f64 1.0, y  75-76 add.f64 y, y2  77-78 mul.f64 y2, y
//   79-80 fma.rn.f64 1.0, 1.0, y  81 cvt.rn.f32.f64 (add.f64 y, 1.0)
//   82 cvt.rn.f32.f64 (neg.f64 (cvt.f64.f32 x))  83 cvt.rn.f32.f64 (add.f64 (cvt.f64.f32 x), y)
//   84 cvt.f32.f16 h  85-86 cvt.f64.f16 h  87 cvt.rn.bf16.f16 h  88 cvt.rni.s32.f16 h
//   89 cvt.f32.bf16 b  90-91 cvt.f64.bf16 b  92 cvt.rn.f16.bf16 b  93 cvt.rni.s32.bf16 b
//   94 fma.rn.f16 h, 1.0, 0.0  95 cvt.rn.f16.f32 (cvt.f32.f16 h)
//   96 cvt.rn.f32.f64 (cvt.f64.f16 h)  97 cvt.rn.f16.f64 (cvt.f64.f32 x)
//   98 cvt.rn.ftz.f32.f64 (fma.rn.f64 (cvt.f64.f32 x), 1.0, 0.0)  99 0
#include <cstdint>

constexpr int kOuts = 100;

// f32 payloads (23 bits, never 0): quiet and signalling, high-only, low-only, patterns.
__constant__ uint32_t kPay32[32] = {
    0x400000, 0x7fffff, 0x000001, 0x200000, 0x400001, 0x600000, 0x3fffff, 0x555555,
    0x2aaaaa, 0x7fe000, 0x001000, 0x000fff, 0x7ff000, 0x401234, 0x123456, 0x000800,
    0x002000, 0x7fc000, 0x100000, 0x080000, 0x040000, 0x020000, 0x010000, 0x008000,
    0x004000, 0x7f0000, 0x3c0000, 0x7fe001, 0x401fff, 0x402000, 0x400800, 0x7fffe0};
// Low 29 bits of the f64 payloads (below what an f32 keeps).
__constant__ uint32_t kLow[8] = {0, 1, 0x1fffffff, 0x10000000, 0x0fffffff, 0xfff, 0x12345678 & 0x1fffffff, 0x1000};

__device__ __forceinline__ uint64_t pay64(int p) {
  if (p == 30) return 0x0000000000001ull;  // signalling, only the lowest bit: f32 keeps nothing
  if (p == 31) return 0x000001fffffffull;  // signalling, only the low 29 bits
  return uint64_t{kPay32[p]} << 29 | kLow[p % 8];
}

#define CVT_RF(op, d, a) asm(op " %0, %1;" : "=r"(d) : "f"(a))
#define CVT_HF(op, d, a) asm(op " %0, %1;" : "=h"(d) : "f"(a))
#define CVT_FF(op, d, a) asm(op " %0, %1;" : "=f"(d) : "f"(a))
#define CVT_LF(op, d, a) asm(op " %0, %1;" : "=l"(d) : "f"(a))
#define CVT_DF(op, d, a) asm(op " %0, %1;" : "=d"(d) : "f"(a))
#define CVT_FD(op, d, a) asm(op " %0, %1;" : "=f"(d) : "d"(a))
#define CVT_DD(op, d, a) asm(op " %0, %1;" : "=d"(d) : "d"(a))
#define CVT_HD(op, d, a) asm(op " %0, %1;" : "=h"(d) : "d"(a))
#define CVT_RD(op, d, a) asm(op " %0, %1;" : "=r"(d) : "d"(a))
#define CVT_LD(op, d, a) asm(op " %0, %1;" : "=l"(d) : "d"(a))

__device__ __forceinline__ uint32_t fb(float f) { return __float_as_uint(f); }
__device__ __forceinline__ void put64(uint32_t* o, double d) {
  const uint64_t u = static_cast<uint64_t>(__double_as_longlong(d));
  o[0] = static_cast<uint32_t>(u);
  o[1] = static_cast<uint32_t>(u >> 32);
}
__device__ __forceinline__ void put64u(uint32_t* o, uint64_t u) {
  o[0] = static_cast<uint32_t>(u);
  o[1] = static_cast<uint32_t>(u >> 32);
}

extern "C" __global__ void cvt_nan(uint32_t* __restrict__ out) {
  const int t = threadIdx.x, p = t % 32, s = (t / 32) & 1;
  const uint32_t xb = uint32_t(s) << 31 | 0x7f800000u | kPay32[p];
  const uint64_t yb = uint64_t(s) << 63 | 0x7ff0000000000000ull | pay64(p);
  const uint64_t y2b = uint64_t(s ^ 1) << 63 | 0x7ff0000000000000ull | pay64(p);
  const uint16_t hp = static_cast<uint16_t>(kPay32[p] >> 13), bp = static_cast<uint16_t>(kPay32[p] >> 16);
  const uint16_t hb = static_cast<uint16_t>(s << 15 | 0x7c00 | (hp ? hp : 1));
  const uint16_t bb = static_cast<uint16_t>(s << 15 | 0x7f80 | (bp ? bp : 1));
  const float x = __uint_as_float(xb), one = 1.0f;
  const double y = __longlong_as_double(static_cast<long long>(yb));
  const double y2 = __longlong_as_double(static_cast<long long>(y2b));
  const double done = 1.0, dzero = 0.0;
  uint32_t* o = out + t * kOuts;
  uint32_t r;
  uint16_t h;
  float f;
  double d;
  uint64_t l;

  o[0] = xb;
  put64u(o + 1, yb);
  o[3] = hb;
  o[4] = bb;

  CVT_DF("cvt.f64.f32", d, x);
  put64(o + 5, d);
  CVT_DF("cvt.ftz.f64.f32", d, x);
  put64(o + 7, d);
  CVT_HF("cvt.rn.f16.f32", h, x);
  o[9] = h;
  CVT_HF("cvt.rz.f16.f32", h, x);
  o[10] = h;
  CVT_HF("cvt.rm.f16.f32", h, x);
  o[11] = h;
  CVT_HF("cvt.rp.f16.f32", h, x);
  o[12] = h;
  CVT_HF("cvt.rn.relu.f16.f32", h, x);
  o[13] = h;
  CVT_HF("cvt.rn.satfinite.f16.f32", h, x);
  o[14] = h;
  CVT_HF("cvt.rn.bf16.f32", h, x);
  o[15] = h;
  CVT_HF("cvt.rz.bf16.f32", h, x);
  o[16] = h;
  CVT_HF("cvt.rn.relu.bf16.f32", h, x);
  o[17] = h;
  CVT_HF("cvt.rn.satfinite.bf16.f32", h, x);
  o[18] = h;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x), "f"(one));
  o[19] = r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(x));
  o[20] = r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x), "f"(one));
  o[21] = r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(x));
  o[22] = r;
  CVT_RF("cvt.rna.tf32.f32", r, x);
  o[23] = r;
  CVT_RF("cvt.rna.satfinite.tf32.f32", r, x);
  o[24] = r;
  CVT_RF("cvt.rn.tf32.f32", r, x);
  o[25] = r;
  CVT_RF("cvt.rz.tf32.f32", r, x);
  o[26] = r;
  CVT_RF("cvt.rn.relu.tf32.f32", r, x);
  o[27] = r;
  CVT_FF("cvt.rni.f32.f32", f, x);
  o[28] = fb(f);
  CVT_FF("cvt.rzi.ftz.f32.f32", f, x);
  o[29] = fb(f);
  CVT_FF("cvt.sat.f32.f32", f, x);
  o[30] = fb(f);
  CVT_FF("cvt.ftz.f32.f32", f, x);
  o[31] = fb(f);
  CVT_RF("cvt.rni.s32.f32", r, x);
  o[32] = r;
  CVT_RF("cvt.rzi.u32.f32", r, x);
  o[33] = r;
  CVT_LF("cvt.rni.s64.f32", l, x);
  put64u(o + 34, l);
  CVT_LF("cvt.rzi.u64.f32", l, x);
  put64u(o + 36, l);
  CVT_HF("cvt.rni.s16.f32", h, x);
  o[38] = h;
  CVT_HF("cvt.rzi.u8.f32", h, x);
  o[39] = h;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "f"(x), "f"(one));
  o[40] = h;
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(h) : "f"(x), "f"(one));
  o[41] = h;
  CVT_FF("abs.f32", f, x);
  o[42] = fb(f);
  CVT_FF("neg.f32", f, x);
  o[43] = fb(f);
  asm("add.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(one));
  o[44] = fb(f);
  asm("min.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(one));
  o[45] = fb(f);
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(one));
  o[46] = fb(f);

  CVT_FD("cvt.rn.f32.f64", f, y);
  o[47] = fb(f);
  CVT_FD("cvt.rz.f32.f64", f, y);
  o[48] = fb(f);
  CVT_FD("cvt.rm.f32.f64", f, y);
  o[49] = fb(f);
  CVT_FD("cvt.rp.f32.f64", f, y);
  o[50] = fb(f);
  CVT_FD("cvt.rn.ftz.f32.f64", f, y);
  o[51] = fb(f);
  CVT_FD("cvt.rn.sat.f32.f64", f, y);
  o[52] = fb(f);
  CVT_DD("cvt.rni.f64.f64", d, y);
  put64(o + 53, d);
  CVT_DD("abs.f64", d, y);
  put64(o + 55, d);
  CVT_DD("neg.f64", d, y);
  put64(o + 57, d);
  CVT_HD("cvt.rn.f16.f64", h, y);
  o[59] = h;
  CVT_HD("cvt.rz.f16.f64", h, y);
  o[60] = h;
  CVT_HD("cvt.rn.bf16.f64", h, y);
  o[61] = h;
  CVT_RD("cvt.rni.s32.f64", r, y);
  o[62] = r;
  CVT_RD("cvt.rzi.u32.f64", r, y);
  o[63] = r;
  CVT_LD("cvt.rni.s64.f64", l, y);
  put64u(o + 64, l);
  CVT_LD("cvt.rzi.u64.f64", l, y);
  put64u(o + 66, l);

  double w;
  CVT_DF("cvt.f64.f32", w, x);
  asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(d) : "d"(w), "d"(done), "d"(dzero));
  put64(o + 68, d);
  CVT_FD("cvt.rn.f32.f64", f, d);
  o[70] = fb(f);
  CVT_FD("cvt.rn.ftz.f32.f64", f, d);
  o[98] = fb(f);
  asm("add.f64 %0, %1, %2;" : "=d"(d) : "d"(y), "d"(done));
  put64(o + 71, d);
  CVT_FD("cvt.rn.f32.f64", f, d);
  o[81] = fb(f);
  asm("add.f64 %0, %1, %2;" : "=d"(d) : "d"(done), "d"(y));
  put64(o + 73, d);
  asm("add.f64 %0, %1, %2;" : "=d"(d) : "d"(y), "d"(y2));
  put64(o + 75, d);
  asm("mul.f64 %0, %1, %2;" : "=d"(d) : "d"(y2), "d"(y));
  put64(o + 77, d);
  asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(d) : "d"(done), "d"(done), "d"(y));
  put64(o + 79, d);
  CVT_DD("neg.f64", d, w);
  CVT_FD("cvt.rn.f32.f64", f, d);
  o[82] = fb(f);
  asm("add.f64 %0, %1, %2;" : "=d"(d) : "d"(w), "d"(y));
  CVT_FD("cvt.rn.f32.f64", f, d);
  o[83] = fb(f);
  CVT_HD("cvt.rn.f16.f64", h, w);
  o[97] = h;

  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(hb));
  o[84] = fb(f);
  CVT_HF("cvt.rn.f16.f32", h, f);
  o[95] = h;
  asm("cvt.f64.f16 %0, %1;" : "=d"(d) : "h"(hb));
  put64(o + 85, d);
  CVT_FD("cvt.rn.f32.f64", f, d);
  o[96] = fb(f);
  asm("cvt.rn.bf16.f16 %0, %1;" : "=h"(h) : "h"(hb));
  o[87] = h;
  asm("cvt.rni.s32.f16 %0, %1;" : "=r"(r) : "h"(hb));
  o[88] = r;
  asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(bb));
  o[89] = fb(f);
  asm("cvt.f64.bf16 %0, %1;" : "=d"(d) : "h"(bb));
  put64(o + 90, d);
  asm("cvt.rn.f16.bf16 %0, %1;" : "=h"(h) : "h"(bb));
  o[92] = h;
  asm("cvt.rni.s32.bf16 %0, %1;" : "=r"(r) : "h"(bb));
  o[93] = r;
  asm("{\n\t.reg .f16 one, zero;\n\tmov.b16 one, 0x3c00;\n\tmov.b16 zero, 0;\n\tfma.rn.f16 %0, %1, one, zero;\n\t}"
      : "=h"(h)
      : "h"(hb));
  o[94] = h;
  o[99] = 0;
}
