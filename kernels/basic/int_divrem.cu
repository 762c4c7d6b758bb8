// int_divrem.cu — integer division and remainder: by run-time divisors (div/rem instructions;
// ptxas expands them into long sequences, the PTX result is exact) and by constants (nvcc turns
// those into mul.hi + shifts), signed and unsigned, 32 and 64 bits, with negative operands.
//
// Families: div.{s32,u32,s64,u64}, rem.{s32,u32,s64,u64}, mul.hi.{s32,u32,u64} + shr from constant
// divisors, C rounding toward zero and the sign of the remainder following the dividend.
// Specs: int_divrem.json
//
// Divisors are never zero (d | 1 or d + 1 with d >= 0) and INT_MIN / -1 is avoided (the dividend
// is cleared of its top bit when the divisor is -1): PTX leaves both undefined.

extern "C" __global__ void int_divrem(const unsigned* __restrict__ ra,
                                      const unsigned* __restrict__ rb, int n,
                                      int* __restrict__ out32, long long* __restrict__ out64) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned ua = ra[i], ub = rb[i];
  // Divisor magnitudes spread over 1 .. 2^31: shift a random value right by a random amount.
  const unsigned ud = ((ub >> (ub & 31u)) | 1u);
  int a = (int)ua;
  const int d = (ub & 0x80000000u) ? -(int)(ud & 0x7fffffffu) : (int)(ud & 0x7fffffffu);
  const int dd = d == 0 ? 1 : d;
  if (dd == -1 && a == (int)0x80000000) a = 0x7fffffff;

  int* o = out32 + i * 14;
  o[0] = a / dd;
  o[1] = a % dd;
  o[2] = (int)(ua / ud);
  o[3] = (int)(ua % ud);
  o[4] = a / 7;
  o[5] = a % 7;
  o[6] = (int)(ua / 1000u);
  o[7] = (int)(ua % 1000u);
  o[8] = a / -3;
  o[9] = (int)(ua / 641u + ua % 65537u);
  o[10] = (int)((ua & 0xffffu) / (ub & 0xffu | 1u));  // small operands
  o[11] = (int)((short)ua / (short)(ub | 1u));        // 16-bit operands (promoted)
  // Remainders alone (nvcc emits rem only when the quotient is not also needed).
  o[12] = a % (int)((ud >> 1) | 1u);
  o[13] = (int)(ub % (ua | 3u));

  // 64-bit: dividend from two words, divisor of varying width.
  const unsigned long long ul = (unsigned long long)ua << 32 | ub;
  const unsigned long long udl = (ul >> ((ua >> 3) & 63u)) | 1ull;
  long long sl = (long long)ul;
  const long long sd = (ua & 1u) ? -(long long)(udl >> 1 | 1ull) : (long long)(udl >> 1 | 1ull);
  long long* p = out64 + i * 8;
  p[0] = sl / sd;
  p[1] = sl % sd;
  p[2] = (long long)(ul / udl);
  p[3] = (long long)(ul % udl);
  p[4] = sl / 10;
  p[5] = (long long)(ul % 1000000007ull);
  p[6] = sl % (long long)((udl >> 2) | 3ull);
  p[7] = (long long)((ul ^ 0x5555555555555555ull) % (udl | 5ull));
}
