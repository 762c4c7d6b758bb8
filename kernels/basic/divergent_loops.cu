// divergent_loops.cu — control flow whose shape depends on each thread's data: loops with
// data-dependent trip counts and divergent exits (break, continue, early return), nested loops,
// a do-while, and threads leaving the kernel early, in a 1D grid with a partial last block.
//
// Families: bra / bra.uni, setp + predicated branches (@p / @!p), loops whose exits reconverge
// at different points, exit (early return of some threads while others continue), 64-bit
// integer loop state (Collatz on u64: mul.lo.s64/shr.u64/and.b64), rem/div by constants, max.u64,
// exit (cuda::ptx::exit) in divergent code, ret.
// Specs: divergent_loops.json
//
// Outputs per element i < n:
//   steps[i]  Collatz steps of x = in[i] % 10000 + 1 (<= 261 for x <= 10000)
//   peak[i]   the largest value reached (u64)
//   misc[i]   see the code: primes counted by trial division with break/continue, then a
//             digit-sum do-while; threads with in[i] % 7 == 0 exit early with -1.

#include <cuda/ptx>

extern "C" __global__ void divergent_loops(const unsigned* __restrict__ in, int n,
                                           unsigned* __restrict__ steps,
                                           unsigned long long* __restrict__ peak,
                                           int* __restrict__ misc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // partial last block

  // 1. Collatz: a while loop with a data-dependent trip count and a divergent body.
  unsigned long long x = in[i] % 10000u + 1u;
  unsigned long long top = x;
  unsigned s = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    top = max(top, x);
    ++s;
  }
  steps[i] = s;
  peak[i] = top;

  // 2. Early exit for some threads; the rest continue to more loops.
  if (in[i] % 7u == 0) {
    misc[i] = -1;
    cuda::ptx::exit();  // PTX exit: this thread is done, the rest of its warp carries on
  }

  // 3. Nested loops with break and continue: count primes in [lo, lo + span).
  const unsigned lo = (in[i] >> 8) % 500u;
  const unsigned span = 8u + (in[i] & 31u);
  int primes = 0;
  for (unsigned m = lo; m < lo + span; ++m) {
    if (m < 2) continue;
    bool prime = true;
    for (unsigned d = 2; d * d <= m; ++d) {
      if (m % d == 0) {
        prime = false;
        break;
      }
    }
    if (!prime) continue;
    ++primes;
    if (primes == 5) break;  // stop early once five are found
  }

  // 4. do-while: digit sum of a value until it is a single digit (the digital root, iterated).
  unsigned r = in[i];
  int rounds = 0;
  do {
    unsigned sum = 0;
    while (r != 0) {
      sum += r % 10u;
      r /= 10u;
    }
    r = sum;
    ++rounds;
  } while (r >= 10);

  misc[i] = primes * 1000 + rounds * 10 + (int)r;
}
