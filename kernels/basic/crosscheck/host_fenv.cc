// host_fenv.cc — IEEE 754 arithmetic of the host CPU (x86-64 SSE / the C library), in the four
// rounding modes, for crosscheck_fenv.py: an independent check of reference.py's exact
// add/sub/mul/div/sqrt/fma in f32 and f64. Reads lines "OP MODE TYPE A B C" (A, B, C as hex bit
// patterns; OP in add sub mul div sqrt fma; MODE in rn rz rm rp; TYPE in f32 f64) and prints the
// result bits in hex. NaN inputs are not sent (hosts keep NaN payloads, the GPU does not).
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

// (GCC ignores "#pragma STDC FENV_ACCESS"; the build uses -frounding-math and volatiles instead.)

namespace {
int mode_of(const char* m) {
  if (!std::strcmp(m, "rz")) return FE_TOWARDZERO;
  if (!std::strcmp(m, "rm")) return FE_DOWNWARD;
  if (!std::strcmp(m, "rp")) return FE_UPWARD;
  return FE_TONEAREST;
}

template <typename T, typename U>
U run(const char* op, U ua, U ub, U uc) {
  volatile T a, b, c, r;
  T ta, tb, tc;
  std::memcpy(&ta, &ua, sizeof(T));
  std::memcpy(&tb, &ub, sizeof(T));
  std::memcpy(&tc, &uc, sizeof(T));
  a = ta;
  b = tb;
  c = tc;
  if (!std::strcmp(op, "add")) r = a + b;
  else if (!std::strcmp(op, "sub")) r = a - b;
  else if (!std::strcmp(op, "mul")) r = a * b;
  else if (!std::strcmp(op, "div")) r = a / b;
  else if (!std::strcmp(op, "sqrt")) r = std::sqrt(static_cast<T>(a));
  else r = std::fma(static_cast<T>(a), static_cast<T>(b), static_cast<T>(c));
  const T tr = r;
  U out;
  std::memcpy(&out, &tr, sizeof(T));
  return out;
}
}  // namespace

int main() {
  char op[8], mode[8], type[8];
  unsigned long long a, b, c;
  while (std::scanf("%7s %7s %7s %llx %llx %llx", op, mode, type, &a, &b, &c) == 6) {
    std::fesetround(mode_of(mode));
    unsigned long long r;
    if (!std::strcmp(type, "f32")) {
      r = run<float, uint32_t>(op, static_cast<uint32_t>(a), static_cast<uint32_t>(b),
                               static_cast<uint32_t>(c));
    } else {
      r = run<double, uint64_t>(op, a, b, c);
    }
    std::fesetround(FE_TONEAREST);
    std::printf("%llx\n", r);
  }
  return 0;
}
