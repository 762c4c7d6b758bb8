// int_bits.cu — bit manipulation: logic (and nvcc's lop3 fusion of it), shifts with out-of-range
// amounts, funnel shifts, bit-field extract/insert, byte permute in every mode, population count,
// leading zeros, bit reverse, find-first/last-set, nth-set-bit, bmsk and szext.
//
// Families: and/or/xor/not.b32, cnot.b32 and lop3.b32 (inline PTX: nvcc leaves lop3 fusion to
// ptxas), shl.b32 / shr.{u32,s32} with amounts >= 32 (inline PTX: PTX clamps, C++ would be UB),
// shf.{l,r}.{wrap,clamp}.b32 (__funnelshift_l/_lc/_r/_rc), bfe.{u32,s32} and bfi.b32 (inline PTX,
// with start/len past the word), prmt.b32 default mode (__byte_perm) and .f4e/.b4e/.rc8/.ecl/.ecr/
// .rc16 (inline PTX), popc.b32, clz.b32, brev.b32, bfind.{u32,s32} and bfind.shiftamt (inline),
// __ffs (brev + bfind.shiftamt), fns.b32 (__fns), bmsk.{clamp,wrap}.b32, szext.clamp.s32 and
// szext.wrap.u32 (inline PTX).
// Specs: int_bits.json

constexpr int kOuts = 40;

#define ASM2(op, r, a, b) asm(op " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b))
#define ASM3(op, r, a, b, c) asm(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c))

extern "C" __global__ void int_bits(const unsigned* __restrict__ ra,
                                    const unsigned* __restrict__ rb,
                                    const unsigned* __restrict__ rc, int n,
                                    unsigned* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = ra[i], b = rb[i], c = rc[i];
  const unsigned sh = b & 63u;  // shift amounts 0..63: half of them out of range
  unsigned* o = out + i * kOuts;
  unsigned r;

  o[0] = (a & b) | (~a & c);  // bit select (and/not/or in PTX; ptxas fuses to LOP3)
  o[1] = a ^ b ^ c;
  o[2] = (a | b) & ~(b ^ c);
  o[3] = ~(a & c);
  asm("cnot.b32 %0, %1;" : "=r"(r) : "r"(a & 0x3u));  // 1 if zero else 0
  o[4] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));  // majority
  o[5] = r;

  ASM2("shl.b32", r, a, sh);
  o[6] = r;  // 0 when sh >= 32
  ASM2("shr.u32", r, a, sh);
  o[7] = r;
  ASM2("shr.s32", r, a, sh);
  o[8] = r;  // sign fill when sh >= 32
  o[9] = a << (b & 31u) ^ (int)a >> (c & 31u);

  o[10] = __funnelshift_l(a, b, c);
  o[11] = __funnelshift_lc(a, b, c);
  o[12] = __funnelshift_r(a, b, c);
  o[13] = __funnelshift_rc(a, b, c);

  ASM3("bfe.u32", r, a, b & 31u, (c >> 8) & 31u);
  o[14] = r;
  ASM3("bfe.s32", r, a, (b >> 8) & 63u, c & 63u);  // start/len beyond 32: defined clamps
  o[15] = r;
  o[16] = (a >> 7) & 0x1fffu;  // nvcc's own extract
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 63u), "r"((c >> 6) & 63u));
  o[17] = r;

  o[18] = __byte_perm(a, b, c);  // prmt default mode, selector from data (only low 16 bits used)
  ASM3("prmt.b32.f4e", r, a, b, c);
  o[19] = r;
  ASM3("prmt.b32.b4e", r, a, b, c);
  o[20] = r;
  ASM3("prmt.b32.rc8", r, a, b, c);
  o[21] = r;
  ASM3("prmt.b32.ecl", r, a, b, c);
  o[22] = r;
  ASM3("prmt.b32.ecr", r, a, b, c);
  o[23] = r;
  ASM3("prmt.b32.rc16", r, a, b, c);
  o[24] = r;
  o[25] = __byte_perm(a, 0u, 0x0123u);  // byte swap

  o[26] = __popc(a);
  o[27] = __clz(b);
  o[28] = __brev(c);
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a >> (b & 31u)));
  o[29] = r;  // 0xffffffff for 0
  asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(c));
  o[30] = r;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(b));
  o[31] = r;
  o[32] = __ffs(a & c);
  o[33] = __fns(a, b & 31u, (int)(c & 7u) - 3);
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(a & 63u), "r"(b & 63u));
  o[34] = r;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(a & 63u), "r"(b & 63u));
  o[35] = r;
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c & 63u));
  o[36] = r;
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c & 63u));
  o[37] = r;
  o[38] = __popc(a ^ b) + __clz(a & b);
  o[39] = __brev(a) ^ __byte_perm(b, c, 0x7531u);
}
