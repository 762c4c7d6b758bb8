// f64_math.cu — double precision in every IEEE rounding mode (CUDA's __dadd_rn ... __dsqrt_ru),
// on special values crossed pairwise and on random bit patterns, plus the f64 helpers real code
// uses (fmin/fmax, copysign, fabs, floor/ceil/trunc/rint, testp).
//
// Families: add/sub/mul/fma/div/rcp/sqrt.{rn,rz,rm,rp}.f64, min/max.f64, copysign.f64, abs/neg.f64,
// cvt.{rni,rmi,rpi,rzi}.f64.f64, testp.*.f64 (inline PTX), setp.*.f64 incl. unordered and
// nan/num, mov.b64 splitting (__double2hiint/__double2loint), ld.global.v2.f64 (double2).
// Specs: f64_math.json
//
// Outputs: out[i * kOuts + k] raw f64 bits. Thread i < 144 crosses special[i / 12], special[i % 12]
// and special[(5 i + 1) % 12]; the others use random bits.

constexpr int kOuts = 40;

__constant__ unsigned long long special[12] = {
    0x0000000000000000ull,  // +0
    0x8000000000000000ull,  // -0
    0x3ff0000000000000ull,  // 1
    0xc008000000000000ull,  // -3
    0x0000000000000001ull,  // smallest subnormal
    0x000fffffffffffffull,  // largest subnormal
    0x7fefffffffffffffull,  // largest finite
    0xffefffffffffffffull,  // -largest finite
    0x7ff0000000000000ull,  // +inf
    0xfff0000000000000ull,  // -inf
    0x7ff8000000000000ull,  // canonical quiet NaN
    0x7ff0000000000abcull,  // signalling NaN with a payload
};

__device__ __forceinline__ unsigned long long u(double d) {
  return (unsigned long long)__double_as_longlong(d);
}

__device__ __forceinline__ unsigned testp_bits(double a) {
  unsigned r;
  asm("{\n\t.reg .pred p0, p1, p2, p3, p4, p5;\n\t.reg .u32 t;\n\t"
      "testp.finite.f64 p0, %1;\n\ttestp.infinite.f64 p1, %1;\n\t"
      "testp.number.f64 p2, %1;\n\ttestp.notanumber.f64 p3, %1;\n\t"
      "testp.normal.f64 p4, %1;\n\ttestp.subnormal.f64 p5, %1;\n\t"
      "selp.u32 %0, 1, 0, p0;\n\t"
      "selp.u32 t, 2, 0, p1;\n\tor.b32 %0, %0, t;\n\t"
      "selp.u32 t, 4, 0, p2;\n\tor.b32 %0, %0, t;\n\t"
      "selp.u32 t, 8, 0, p3;\n\tor.b32 %0, %0, t;\n\t"
      "selp.u32 t, 16, 0, p4;\n\tor.b32 %0, %0, t;\n\t"
      "selp.u32 t, 32, 0, p5;\n\tor.b32 %0, %0, t;\n\t}"
      : "=r"(r)
      : "d"(a));
  return r;
}

extern "C" __global__ void f64_math(const double2* __restrict__ ab, const double* __restrict__ rc,
                                    int n, unsigned long long* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a, b, c;
  if (i < 144) {
    a = __longlong_as_double((long long)special[i / 12]);
    b = __longlong_as_double((long long)special[i % 12]);
    c = __longlong_as_double((long long)special[(5 * i + 1) % 12]);
  } else {
    const double2 p = ab[i];  // one 16-byte load
    a = p.x;
    b = p.y;
    c = rc[i];
  }
  unsigned long long* o = out + i * kOuts;

  o[0] = u(__dadd_rn(a, b)), o[1] = u(__dadd_rz(a, b)), o[2] = u(__dadd_rd(a, b)),
  o[3] = u(__dadd_ru(a, b));
  o[4] = u(__dsub_rn(a, c)), o[5] = u(__dsub_rz(a, c)), o[6] = u(__dsub_rd(a, c)),
  o[7] = u(__dsub_ru(a, c));
  o[8] = u(__dmul_rn(a, b)), o[9] = u(__dmul_rz(a, b)), o[10] = u(__dmul_rd(a, b)),
  o[11] = u(__dmul_ru(a, b));
  o[12] = u(__fma_rn(a, b, c)), o[13] = u(__fma_rz(a, b, c)), o[14] = u(__fma_rd(a, b, c)),
  o[15] = u(__fma_ru(a, b, c));
  o[16] = u(__ddiv_rn(a, b)), o[17] = u(__ddiv_rz(a, b)), o[18] = u(__ddiv_rd(a, b)),
  o[19] = u(__ddiv_ru(a, b));
  o[20] = u(__drcp_rn(c)), o[21] = u(__drcp_rz(c)), o[22] = u(__drcp_rd(c)),
  o[23] = u(__drcp_ru(c));
  o[24] = u(__dsqrt_rn(b)), o[25] = u(__dsqrt_rz(b)), o[26] = u(__dsqrt_rd(b)),
  o[27] = u(__dsqrt_ru(b));
  o[28] = u(fmin(a, b));
  o[29] = u(fmax(a, c));
  o[30] = u(copysign(a, b));
  o[31] = u(fabs(c));
  o[32] = u(-b);
  o[33] = u(floor(a)), o[34] = u(ceil(b)), o[35] = u(trunc(c)), o[36] = u(rint(a));
  o[37] = testp_bits(a) | testp_bits(b) << 8 | testp_bits(c) << 16;
  unsigned cmp = 0;
  cmp |= (a < b) << 0;
  cmp |= (a <= b) << 1;
  cmp |= (a > c) << 2;
  cmp |= (a >= c) << 3;
  cmp |= (a == b) << 4;
  cmp |= (a != b) << 5;
  cmp |= !(a < b) << 6;   // setp.geu
  cmp |= !(a >= c) << 7;  // setp.ltu
  cmp |= (isnan(a) || isnan(b)) << 8;
  o[38] = cmp;
  o[39] = (unsigned long long)(unsigned)__double2hiint(c) << 32 | (unsigned)__double2loint(a);
}
