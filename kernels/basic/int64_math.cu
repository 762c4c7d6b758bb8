// int64_math.cu — 64-bit and 128-bit integer arithmetic: what nvcc emits for long long and
// unsigned __int128 (carry chains), plus the 64-bit bit-manipulation intrinsics.
//
// Families: add/sub/mul.lo.{s64,u64}, mul.hi.{s64,u64} (__mul64hi/__umul64hi), add.cc/addc.cc and
// sub.cc/subc.cc carry chains (unsigned __int128 add/sub; its multiply is mul.lo/mul.hi + add),
// shl/shr.{b64,u64,s64},
// and/or/xor/not.b64, min/max.{s64,u64}, abs.s64, neg.s64, popc.b64, clz.b64, brev.b64,
// bfind.u64/.s64 (inline PTX), bfe.{u64,s64} and bfi.b64 (inline PTX), __ffsll, cvt between
// 32- and 64-bit integers (cvt.u64.u32, cvt.s64.s32, cvt.u32.u64), mov.b64 {lo,hi} pack/unpack.
// Specs: int64_math.json

constexpr int kOuts = 24;

extern "C" __global__ void int64_math(const unsigned long long* __restrict__ ra,
                                      const unsigned long long* __restrict__ rb, int n,
                                      unsigned long long* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned long long a = ra[i], b = rb[i];
  const long long sa = (long long)a, sb = (long long)b;
  unsigned long long* o = out + i * kOuts;
  unsigned long long r;

  o[0] = a + b;
  o[1] = a - b;
  o[2] = a * b;
  o[3] = (unsigned long long)__mul64hi(sa, sb);
  o[4] = __umul64hi(a, b);
  o[5] = (a << (b & 63u)) ^ (a >> (b >> 58)) ^ (unsigned long long)(sa >> (a & 63u));
  o[6] = (a & b) | (~a & 0x00ff00ff00ff00ffull);
  o[7] = (unsigned long long)min(sa, sb) ^ max(a, b);
  o[8] = (unsigned long long)max(sa, sb) + min(a, b);
  o[9] = (unsigned long long)llabs(sa) ^ (unsigned long long)(-sb);
  o[10] = (unsigned long long)__popcll(a) | (unsigned long long)__clzll(b) << 8 |
          (unsigned long long)__ffsll((long long)(a & b)) << 16;
  o[11] = __brevll(a);
  asm("{.reg .u32 t; bfind.u64 t, %1; cvt.u64.u32 %0, t;}" : "=l"(r) : "l"(a >> (b & 63u)));
  o[12] = r;
  asm("{.reg .u32 t; bfind.s64 t, %1; cvt.u64.u32 %0, t;}" : "=l"(r) : "l"(b));
  o[13] = r;
  asm("bfe.u64 %0, %1, %2, %3;"
      : "=l"(r)
      : "l"(a), "r"((unsigned)b & 127u), "r"((unsigned)(b >> 8) & 127u));
  o[14] = r;
  asm("bfe.s64 %0, %1, %2, %3;"
      : "=l"(r)
      : "l"(b), "r"((unsigned)a & 63u), "r"((unsigned)(a >> 8) & 63u));
  o[15] = r;
  asm("bfi.b64 %0, %1, %2, %3, %4;"
      : "=l"(r)
      : "l"(a), "l"(b), "r"((unsigned)(a >> 16) & 127u), "r"((unsigned)(b >> 16) & 127u));
  o[16] = r;

  // 128-bit: x = a:b, y = b:a (hi:lo)
  const unsigned __int128 x = (unsigned __int128)a << 64 | b;
  const unsigned __int128 y = (unsigned __int128)b << 64 | a;
  const unsigned __int128 s = x + y;  // add.cc / addc
  const unsigned __int128 d = x - y;  // sub.cc / subc
  const unsigned __int128 p = x * y;  // mul.lo/hi + mad.lo.cc/madc chains
  o[17] = (unsigned long long)s, o[18] = (unsigned long long)(s >> 64);
  o[19] = (unsigned long long)d, o[20] = (unsigned long long)(d >> 64);
  o[21] = (unsigned long long)p, o[22] = (unsigned long long)(p >> 64);
  // 32 <-> 64 conversions
  const unsigned lo = (unsigned)a;
  const int shi = (int)(b >> 32);
  o[23] = (unsigned long long)lo * 3u + (unsigned long long)(long long)shi;
}
