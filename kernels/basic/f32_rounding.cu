// f32_rounding.cu — single-precision arithmetic in every IEEE rounding mode, through the CUDA
// rounding intrinsics, on a table of special values (zeros, subnormals, extremes, infinities,
// quiet and signalling NaNs with payloads) crossed pairwise, then on random bit patterns.
//
// Families: add/sub/mul/fma/div/rcp/sqrt.{rn,rz,rm,rp}.f32 (__fadd_rn ... __fsqrt_rd),
// min/max.f32 (fminf/fmaxf: NaN-ignoring; -0 < +0), max.NaN.f32 and min.xorsign.abs.f32 and
// add.sat.f32 / fma.rn.sat.f32 (inline PTX), copysign.f32, abs.f32, neg.f32, cvt.sat.f32.f32
// (__saturatef), testp.{finite,infinite,number,notanumber,normal,subnormal}.f32 (inline PTX),
// ld.const from a statically initialised table.
// Specs: f32_rounding.json
//
// Outputs: out[i * kOuts + k] raw f32 bits. Thread i < 256 uses special[i / 16], special[i % 16]
// and special[(7 i + 3) % 16]; the others take a, b, c from the random inputs.

constexpr int kOuts = 40;

__constant__ unsigned special[16] = {
    0x00000000u,  // +0
    0x80000000u,  // -0
    0x3f800000u,  // 1
    0xbfc00000u,  // -1.5
    0x00000001u,  // smallest subnormal
    0x807fffffu,  // -largest subnormal
    0x00800000u,  // smallest normal
    0x7f7fffffu,  // largest finite
    0xff7fffffu,  // -largest finite
    0x7f800000u,  // +inf
    0xff800000u,  // -inf
    0x7fc00000u,  // canonical quiet NaN
    0x7f800001u,  // signalling NaN with payload 1
    0xffc12345u,  // negative quiet NaN with a payload
    0x33800000u,  // 2^-24
    0x4b800001u,  // 2^24 + 2 (odd last bit at 2^24 scale)
};

__device__ __forceinline__ unsigned u(float f) {
  return __float_as_uint(f);
}

__device__ __forceinline__ unsigned testp_bits(float a) {
  unsigned r;
  asm("{\n\t.reg .pred p0, p1, p2, p3, p4, p5;\n\t"
      "testp.finite.f32 p0, %1;\n\t"
      "testp.infinite.f32 p1, %1;\n\t"
      "testp.number.f32 p2, %1;\n\t"
      "testp.notanumber.f32 p3, %1;\n\t"
      "testp.normal.f32 p4, %1;\n\t"
      "testp.subnormal.f32 p5, %1;\n\t"
      ".reg .u32 t;\n\t"
      "selp.u32 %0, 1, 0, p0;\n\t"
      "selp.u32 t, 2, 0, p1;\n\tor.b32 %0, %0, t;\n\t"
      "selp.u32 t, 4, 0, p2;\n\tor.b32 %0, %0, t;\n\t"
      "selp.u32 t, 8, 0, p3;\n\tor.b32 %0, %0, t;\n\t"
      "selp.u32 t, 16, 0, p4;\n\tor.b32 %0, %0, t;\n\t"
      "selp.u32 t, 32, 0, p5;\n\tor.b32 %0, %0, t;\n\t}"
      : "=r"(r)
      : "f"(a));
  return r;
}

extern "C" __global__ void f32_rounding(const unsigned* __restrict__ ra,
                                        const unsigned* __restrict__ rb,
                                        const unsigned* __restrict__ rc, int n,
                                        unsigned* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a, b, c;
  if (i < 256) {
    a = __uint_as_float(special[i / 16]);
    b = __uint_as_float(special[i % 16]);
    c = __uint_as_float(special[(7 * i + 3) % 16]);
  } else {
    a = __uint_as_float(ra[i]);
    b = __uint_as_float(rb[i]);
    c = __uint_as_float(rc[i]);
  }
  unsigned* o = out + i * kOuts;

  o[0] = u(__fadd_rn(a, b)), o[1] = u(__fadd_rz(a, b)), o[2] = u(__fadd_rd(a, b)),
  o[3] = u(__fadd_ru(a, b));
  o[4] = u(__fsub_rn(a, c)), o[5] = u(__fsub_rz(a, c)), o[6] = u(__fsub_rd(a, c)),
  o[7] = u(__fsub_ru(a, c));
  o[8] = u(__fmul_rn(a, b)), o[9] = u(__fmul_rz(a, b)), o[10] = u(__fmul_rd(a, b)),
  o[11] = u(__fmul_ru(a, b));
  o[12] = u(__fmaf_rn(a, b, c)), o[13] = u(__fmaf_rz(a, b, c));
  o[14] = u(__fmaf_rd(a, b, c)), o[15] = u(__fmaf_ru(a, b, c));
  o[16] = u(__fdiv_rn(a, b)), o[17] = u(__fdiv_rz(a, b)), o[18] = u(__fdiv_rd(a, b)),
  o[19] = u(__fdiv_ru(a, b));
  o[20] = u(__frcp_rn(c)), o[21] = u(__frcp_rz(c)), o[22] = u(__frcp_rd(c)),
  o[23] = u(__frcp_ru(c));
  o[24] = u(__fsqrt_rn(b)), o[25] = u(__fsqrt_rz(b)), o[26] = u(__fsqrt_rd(b)),
  o[27] = u(__fsqrt_ru(b));

  o[28] = u(fminf(a, b));
  o[29] = u(fmaxf(a, c));
  o[30] = u(copysignf(a, b));
  o[31] = u(fabsf(c));
  o[32] = u(-b);
  o[33] = u(__saturatef(a));
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  o[34] = u(r);
  asm("min.xorsign.abs.f32 %0, %1, %2;" : "=f"(r) : "f"(b), "f"(c));
  o[35] = u(r);
  asm("add.rz.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(c));
  o[36] = u(r);
  asm("fma.rn.sat.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(c), "f"(a), "f"(b));
  o[37] = u(r);
  o[38] = testp_bits(a) | testp_bits(b) << 8 | testp_bits(c) << 16;
  o[39] = u(a * b + c);  // plain C: nvcc contracts this into one fma.rn.f32
}
