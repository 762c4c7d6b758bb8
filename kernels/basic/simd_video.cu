// simd_video.cu — packed-byte and packed-halfword integer arithmetic: the CUDA SIMD intrinsics
// (__vadd2, __vabsdiffu4, __vcmpgts2, ...) as nvcc 13 lowers them (the sm_90 .u16x2/.s16x2 ALU
// forms, vabsdiff4 and bit tricks), and the PTX video instructions themselves (inline PTX:
// vadd2/vsub2/vavrg2/vabsdiff2/vmin2/vmax2/vset2, the 4-byte forms, with .add accumulation and
// .sat, and the scalar video ops vadd/vsub/vabsdiff/vmin/vmax/vshl/vshr/vmad/vset with byte and
// halfword operand selectors and secondary operations).
//
// Families: add/min/max.{u16x2,s16x2} (sm_90), neg.s16, lop3.b32 (inside cuda headers), vabsdiff4,
// vadd2/vadd4/vsub2/vsub4/vavrg2/ vavrg4/vabsdiff2/vmin2/vmin4/vmax2/vmax4/vset2/vset4,
// vadd/vsub/vabsdiff/vmin/vmax with .sat and secondary .add/.min/.max, vshl/vshr with .clamp/.wrap,
// vmad with .sat and .shr7/.shr15, vset. Specs: simd_video.json

constexpr int kOuts = 48;

#define V3(op, r, a, b, c) asm(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c))
#define V2(op, r, a, b) asm(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0u))

extern "C" __global__ void simd_video(const unsigned* __restrict__ ra,
                                      const unsigned* __restrict__ rb,
                                      const unsigned* __restrict__ rc, int n,
                                      unsigned* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = ra[i], b = rb[i], c = rc[i];
  unsigned* o = out + i * kOuts;
  unsigned r;

  // CUDA SIMD intrinsics (halfword and byte lanes).
  o[0] = __vadd2(a, b);
  o[1] = __vsub2(a, b);
  o[2] = __vaddss2(a, b);  // signed saturating
  o[3] = __vaddus2(a, b);  // unsigned saturating
  o[4] = __vmaxs2(a, b);
  o[5] = __vminu2(a, b);
  o[6] = __vabsdiffs2(a, b);
  o[7] = __vavgu2(a, b);
  o[8] = __vcmpgts2(a, b);
  o[9] = __vseteq2(a, b);
  o[10] = __vneg2(a);
  o[11] = __vadd4(a, b);
  o[12] = __vsub4(a, b);
  o[13] = __vabsdiffu4(a, b);
  o[14] = __vmaxu4(a, b);
  o[15] = __vmins4(a, b);
  o[16] = __vavgu4(a, b);
  o[17] = __vcmpltu4(a, b);
  o[18] = __vsadu4(a, b);
  o[19] = __vhaddu4(a, b);
  o[20] = __vabs4(a);

  // Video instructions, SIMD forms: d = op(a, b) per lane, then .add accumulates into c.
  V2("vadd2.u32.u32.u32", r, a, b);
  o[21] = r;
  V3("vadd2.s32.s32.s32.add", r, a, b, c);
  o[22] = r;
  V2("vsub2.s32.s32.s32.sat", r, a, b);
  o[23] = r;
  V2("vavrg2.u32.u32.u32", r, a, b);
  o[24] = r;
  V3("vabsdiff2.s32.s32.s32.add", r, a, b, c);
  o[25] = r;
  V2("vmin2.s32.s32.s32", r, a, b);
  o[26] = r;
  V2("vmax2.u32.u32.u32", r, a, b);
  o[27] = r;
  V2("vset2.u32.u32.lt", r, a, b);
  o[28] = r;
  V2("vadd4.u32.u32.u32.sat", r, a, b);
  o[29] = r;
  V2("vsub4.s32.s32.s32", r, a, b);
  o[30] = r;
  V3("vavrg4.u32.u32.u32.add", r, a, b, c);
  o[31] = r;
  V3("vabsdiff4.u32.u32.u32.add", r, a, b, c);
  o[32] = r;
  V2("vmin4.u32.u32.u32", r, a, b);
  o[33] = r;
  V2("vmax4.s32.s32.s32", r, a, b);
  o[34] = r;
  V3("vset4.s32.s32.ge.add", r, a, b, c);
  o[35] = r;

  // Scalar video instructions: operands are a selected byte/halfword (sign- or zero-extended),
  // the result optionally saturated, then combined with c by a secondary op.
  asm("vadd.s32.u32.s32.sat %0, %1.b1, %2.h0, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[36] = r;
  asm("vsub.u32.s32.s32.sat.min %0, %1.h1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[37] = r;
  asm("vabsdiff.s32.s32.s32.add %0, %1.b3, %2.b0, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[38] = r;
  asm("vmin.s32.s32.s32.max %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[39] = r;
  asm("vmax.u32.u32.u32 %0, %1.b2, %2.b2;" : "=r"(r) : "r"(a), "r"(b));
  o[40] = r;
  asm("vshl.u32.u32.u32.clamp %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b & 63u));
  o[41] = r;
  asm("vshr.s32.s32.u32.wrap %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[42] = r;
  asm("vshl.u32.u32.u32.clamp.add %0, %1.b0, %2, %3;" : "=r"(r) : "r"(a), "r"(b & 15u), "r"(c));
  o[43] = r;
  asm("vmad.s32.s32.s32 %0, %1.h0, %2.h1, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[44] = r;
  asm("vmad.u32.u32.u32.sat.shr15 %0, %1.h1, %2.h0, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[45] = r;
  asm("vset.s32.u32.gt %0, %1.b1, %2.b3;" : "=r"(r) : "r"(a), "r"(b));
  o[46] = r;
  asm("vset.u32.u32.ne.add %0, %1.h0, %2.h0, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[47] = r;
}
