// int_arith.cu — 32-bit integer arithmetic: every multiply shape (lo/hi/wide, 24-bit), the fused
// multiply-adds, saturating add/sub, sum of absolute differences, min/max/abs/neg, averages and
// the dot-product instructions, on random bit patterns (overflow and wrap-around included).
//
// Families: add/sub.s32/u32, add.sat.s32 / sub.sat.s32 (inline PTX), mul.lo/mul.hi.{s32,u32}
// (__mulhi/__umulhi), mul.wide.{s32,u32}, mad.lo.s32, mad.hi.{s32,u32} and mad.hi.sat.s32
// (inline PTX), mad.wide.{s32,u32} (inline PTX), __mul24/__umul24 (nvcc expands them to mul.lo),
// mul24.lo/hi and mad24.lo/hi (inline PTX), sad.{s32,u32} (__sad/__usad), min() / max() (min.s32,
// or setp+selp), abs.s32, neg.s32,
// __hadd/__rhadd/__uhadd/__urhadd (signed/unsigned halving adds), dp4a.{s32,u32}.{s32,u32}
// (__dp4a; mixed signedness through inline PTX) and dp2a.lo/hi (__dp2a_lo/__dp2a_hi).
// Specs: int_arith.json
//
// out[i * kOuts + k] as u32. All arithmetic is on unsigned C++ types or intrinsics, so there is no
// signed-overflow UB in the source; the PTX semantics (wrap, saturate) are what is tested.

constexpr int kOuts = 40;

__device__ __forceinline__ int sat_add(int a, int b) {
  int r;
  asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ int sat_sub(int a, int b) {
  int r;
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

extern "C" __global__ void int_arith(const unsigned* __restrict__ ra,
                                     const unsigned* __restrict__ rb,
                                     const unsigned* __restrict__ rc, int n,
                                     unsigned* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned ua = ra[i], ub = rb[i], uc = rc[i];
  // A few fixed extremes in the first threads (INT_MIN, INT_MAX, -1, 0, 1).
  const unsigned edge[5] = {0x80000000u, 0x7fffffffu, 0xffffffffu, 0u, 1u};
  if (i < 25) {
    ua = edge[i / 5];
    ub = edge[i % 5];
  }
  const int a = (int)ua, b = (int)ub, c = (int)uc;
  unsigned* o = out + i * kOuts;

  o[0] = ua + ub;
  o[1] = ua - ub;
  o[2] = (unsigned)sat_add(a, b);
  o[3] = (unsigned)sat_sub(a, b);
  o[4] = ua * ub;
  o[5] = (unsigned)__mulhi(a, b);
  o[6] = __umulhi(ua, ub);
  const long long w = (long long)a * (long long)b;  // mul.wide.s32
  o[7] = (unsigned)w, o[8] = (unsigned)(w >> 32);
  const unsigned long long uw = (unsigned long long)ua * ub;  // mul.wide.u32
  o[9] = (unsigned)(uw >> 32);
  o[10] = ua * ub + uc;  // mad.lo
  unsigned r;
  asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[11] = r;
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(ua), "r"(ub), "r"(uc));
  o[12] = r;
  asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[13] = r;
  // a * b + c at 64 bits: nvcc emits mul.wide + add; mad.wide itself through inline PTX.
  long long mw;
  asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(mw) : "r"(a), "r"(b), "l"((long long)c * 1048576));
  o[14] = (unsigned)(mw >> 32) ^ (unsigned)mw;
  unsigned long long umw;
  asm("mad.wide.u32 %0, %1, %2, %3;"
      : "=l"(umw)
      : "r"(ua), "r"(ub), "l"((unsigned long long)uc * 977u));
  o[15] = (unsigned)(umw >> 32) ^ (unsigned)umw;

  o[16] = (unsigned)__mul24(a, b);
  asm("mul24.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(ua), "r"(ub));  // nvcc expands __umul24
  o[17] = r + __umul24(ub, uc);
  asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[18] = r;
  asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(ua), "r"(ub));
  o[19] = r;
  asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[20] = r;
  asm("mad24.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(ua), "r"(ub), "r"(uc));
  o[21] = r;

  o[22] = __sad(a, b, uc);
  o[23] = __usad(ua, ub, uc);
  o[24] = (unsigned)min(a, b);
  o[25] = (unsigned)max(a, c);
  o[26] = min(ua, uc);
  o[27] = max(ub, uc);
  o[28] = (unsigned)abs(a);  // abs(INT_MIN) = INT_MIN in PTX (abs.s32 wraps)
  o[29] = 0u - ub;           // neg
  o[30] = (unsigned)__hadd(a, b);
  o[31] = (unsigned)__rhadd(a, c);
  o[32] = __uhadd(ua, ub);
  o[33] = __urhadd(ub, uc);

  o[34] = (unsigned)__dp4a(a, b, c);
  o[35] = __dp4a(ua, ub, uc);
  unsigned m;
  asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(m) : "r"(a), "r"(ub), "r"(c));  // mixed signedness
  o[36] = m;
  o[37] = (unsigned)__dp2a_lo(a, b, c);
  o[38] = __dp2a_hi(ua, ub, uc);
  asm("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(m) : "r"(ua), "r"(b), "r"(c));
  o[39] = m;
}
