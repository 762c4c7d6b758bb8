// compare_select.cu — comparisons and selections: setp with every comparison operator for signed,
// unsigned, bit and floating types (ordered and unordered, num/nan), setp's two-destination form
// combined with a predicate (.and/.or/.xor), set (comparison to a 0/-1 integer or 0.0/1.0 float
// mask), selp, slct (select on the sign of a third operand), and the selects nvcc makes of && / ||.
//
// Families: setp.{eq,ne,lt,le,gt,ge}.{s32,u32,s64,u64,b32,f32,f64}, setp.{lo,ls,hi,hs}.u32 (inline
// PTX), setp.{equ,neu,ltu,leu,gtu,geu,num,nan}.f32 (C negations and inline), setp.*.and/or/xor with
// p|q destinations (inline PTX), set.{lt,ge,ne}.{u32,s32,f32}.{s32,f32} with .and/.or (inline PTX),
// selp.{b32,b64,u32,u16}, slct.{u32,f32}.{s32,f32} incl. slct.ftz (inline PTX).
// Specs: compare_select.json

extern "C" __global__ void compare_select(const unsigned* __restrict__ ra,
                                          const unsigned* __restrict__ rb, int n,
                                          unsigned* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned ua = ra[i], ub = rb[i];
  if (i % 3 == 0) ub = ua;                // equal operands for a third of the threads
  if (i % 5 == 1) ub = ua ^ 0x80000000u;  // same magnitude, other sign (+0 vs -0 among them)
  const int a = (int)ua, b = (int)ub;
  const float fa = __uint_as_float(ua), fb = __uint_as_float(ub);
  const long long la = (long long)a * 3 - b, lb = (long long)b * 5;
  unsigned* o = out + i * 16;

  // Integer comparisons.
  o[0] = (a == b) | (a != b) << 1 | (a < b) << 2 | (a <= b) << 3 | (a > b) << 4 | (a >= b) << 5 |
         (ua < ub) << 6 | (ua <= ub) << 7 | (ua > ub) << 8 | (ua >= ub) << 9 | (la < lb) << 10 |
         (la >= lb) << 11 | ((unsigned long long)la > (unsigned long long)lb) << 12 |
         ((a & 0xff) == 0x3c) << 13;
  unsigned r;
  asm("{.reg .pred p0, p1, p2, p3; .reg .u32 t;\n\t"
      "setp.lo.u32 p0, %1, %2; setp.ls.u32 p1, %1, %2;\n\t"
      "setp.hi.u32 p2, %1, %2; setp.hs.u32 p3, %1, %2;\n\t"
      "selp.u32 %0, 1, 0, p0; selp.u32 t, 2, 0, p1; or.b32 %0, %0, t;\n\t"
      "selp.u32 t, 4, 0, p2; or.b32 %0, %0, t; selp.u32 t, 8, 0, p3; or.b32 %0, %0, t;}"
      : "=r"(r)
      : "r"(ua), "r"(ub));
  o[1] = r;

  // Float comparisons, ordered and unordered (NaN inputs occur: random bits).
  o[2] = (fa == fb) | (fa != fb) << 1 | (fa < fb) << 2 | (fa <= fb) << 3 | (fa > fb) << 4 |
         (fa >= fb) << 5 | !(fa < fb) << 6 | !(fa <= fb) << 7 | !(fa > fb) << 8 | !(fa >= fb) << 9 |
         !(fa == fb) << 10 | !(fa != fb) << 11 | (fa != fa) << 12 | (fa == fa && fb == fb) << 13;
  asm("{.reg .pred p, q; .reg .u32 t;\n\t"
      "setp.num.f32 p, %1, %2; setp.nan.f32 q, %1, %2;\n\t"
      "selp.u32 %0, 1, 0, p; selp.u32 t, 2, 0, q; or.b32 %0, %0, t;}"
      : "=r"(r)
      : "f"(fa), "f"(fb));
  o[3] = r | (fa < fb || fa > fb) << 2;  // ordered not-equal: setp.ne.f32

  // setp with two destinations and a combining predicate: p = (a < b) AND c, q = !(a < b) AND c.
  asm("{.reg .pred c, p, q; .reg .u32 t;\n\t"
      "setp.ne.u32 c, %3, 0;\n\t"
      "setp.lt.and.s32 p|q, %1, %2, c;\n\t"
      "selp.u32 %0, 1, 0, p; selp.u32 t, 2, 0, q; or.b32 %0, %0, t;\n\t"
      "setp.gtu.or.f32 p|q, %4, %5, !c;\n\t"
      "selp.u32 t, 4, 0, p; or.b32 %0, %0, t; selp.u32 t, 8, 0, q; or.b32 %0, %0, t;\n\t"
      "setp.eq.xor.b32 p|q, %1, %2, c;\n\t"
      "selp.u32 t, 16, 0, p; or.b32 %0, %0, t; selp.u32 t, 32, 0, q; or.b32 %0, %0, t;}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(ua & 4u), "f"(fa), "f"(fb));
  o[4] = r;

  // set: comparison results as integer masks or floats.
  asm("set.lt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[5] = r;
  asm("set.ge.s32.f32 %0, %1, %2;" : "=r"(r) : "f"(fa), "f"(fb));
  o[6] = r;
  float fr;
  asm("set.ne.f32.s32 %0, %1, %2;" : "=f"(fr) : "r"(a), "r"(b));
  o[7] = __float_as_uint(fr);
  asm("{.reg .pred c; setp.gt.s32 c, %1, 0; set.ltu.and.u32.f32 %0, %2, %3, c;}"
      : "=r"(r)
      : "r"(a), "f"(fa), "f"(fb));
  o[8] = r;
  asm("{.reg .pred c; setp.ne.u32 c, %1, 7; set.eq.or.f32.u32 %0, %1, %2, !c;}"
      : "=f"(fr)
      : "r"(ua & 15u), "r"(ub & 15u));
  o[9] = __float_as_uint(fr);

  // Selections.
  o[10] = (a < b) ? ua * 3u : ub;  // selp.b32 (or a branch)
  const unsigned long long wide =
      (fa > 1.0f) ? (unsigned long long)ua << 32 : (unsigned long long)ub;
  o[11] = (unsigned)(wide >> 32) ^ (unsigned)wide;
  asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(ua), "r"(ub), "r"(a ^ b));
  o[12] = r;
  asm("slct.f32.f32 %0, %1, %2, %3;" : "=f"(fr) : "f"(fa), "f"(fb), "f"(fa));  // NaN c: see PTX
  o[13] = __float_as_uint(fr);
  asm("slct.ftz.s32.f32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "f"(fb));
  o[14] = r;
  // && and || of comparisons (and/or/not on predicates, or branches).
  o[15] = ((a > 0 && fb < 0.5f) || (ua & 1u)) | ((!(fa > fb) && b != 0) << 1) |
          (((a < 0) ^ (b < 0)) << 2);
}
