// printf_formats.cu — device printf (vprintf) as real kernels use it, and the odd cases whose
// output only a GPU can settle (docs/printf.md). The goldens are the H200's printf output
// (golden/h200/<spec>/printf.txt, captured by tcsim-hw) and the return values the kernels store.
//
//   printf_formats (printf_formats.json: 2 CTAs x 64 threads): every thread prints one line of
//     integer conversions of its own values; lane 0 of each warp prints lines of flags, widths,
//     precisions, floats, strings (constant, shared and local memory) and characters.
//     rets[thread][k] = the k-th printf's return.
//   printf_odd (printf_odd.json: 1 thread): size modifiers applied to out-of-range values, unknown
//     conversions, an unterminated specification, '*' widths, special floats, NULL strings and
//     pointers, 33 arguments, a NULL format, a long %s. rets[k] = each call's return.
//   printf_flood (printf_flood_*.json: 1 thread, a small FIFO): `n` calls of form `mode`; which
//     records survive a full FIFO, and what printf returns then, give the FIFO's record layout.
//     rets[i] = the i-th call's return.
// The unknown conversions and mismatched arguments below are deliberate: nvcc's warnings about them
// are suppressed.
// nvcc-flags: -diag-suppress=226,181
#include <cstdint>
#include <cstdio>

__device__ const char kLong[] =
    "a-300-character-string:0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH"
    "IJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-end";

__global__ void printf_formats(int32_t* rets, const float* vals) {
  __shared__ char sh[8];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int32_t* r = rets + t * 8;
  const float v = vals[t];
  if (threadIdx.x == 0) {
    sh[0] = 's';
    sh[1] = 'h';
    sh[2] = '0' + blockIdx.x;
    sh[3] = 0;
  }
  __syncthreads();
  r[0] = printf("t=%d b=%u w=%x lane=%02d neg=%i oct=%o X=%X v=%.3f\n", t, blockIdx.x, threadIdx.x / 32, lane,
                -t, t * 9, t * 0xabcd, v);
  if (lane != 0) return;
  r[1] = printf("[%+d] [% d] [%05d] [%-5d|] [%#x] [%#o] [%5.3d] [%.0d] [%hd] [%hhu] t%d\n", t, t, t, t, t * 255,
                t * 8, t, 0, -t, 256 + t, t);
  r[2] = printf("f=%f e=%e E=%E g=%g G=%G a=%a A=%A %.10f %12.4e %-10.2f| %#.0f %#g t%d\n", v, v * 1e10,
                v * 1e-10, v, v * 1e20, v, v, v / 3, v * 7, v, v, v, t);
  r[3] = printf("c=%c%c%c s=%s [%8s] [%-8s] [%.3s] %%done%% ll=%lld llu=%llu llx=%llx z=%zu l=%ld t%d\n",
                'A' + lane, 'a' + t % 26, '0' + t % 10, "text", "ab", "ab", "abcdef", -123456789012345ll * (t + 1),
                18446744073709551615ull - t, 0x0123456789abcdefull + t, sizeof(float4) * t, -1l * t, t);
  r[4] = printf("two\nlines t%d\n", t);
  r[5] = printf("no arguments\n");
  volatile char loc[8] = {'l', 'o', 'c', static_cast<char>('a' + threadIdx.x / 32), 0};
  r[6] = printf("strings in shared and local memory: [%s] [%s] t%d\n", sh, const_cast<const char*>(loc), t);
}

__global__ void printf_odd(int32_t* rets, const char* nul_fmt) {
  int k = 0;
  rets[k++] = printf("hh/h: %hd %hhd %hu %hhu %hx %hhx\n", 70000, 300, 70000, 300, -1, -1);
  rets[k++] = printf("z/l/ll: %zd %zx %ld %lx %lld %lli %llo\n", static_cast<size_t>(-5), static_cast<size_t>(255),
                     -7l, 255l, -9ll, -10ll, 8ll);
  rets[k++] = printf("unknown: A%yB %d\n", 5);
  rets[k++] = printf("unknown2: %k|%D|%q|%w %d %d\n", 6, 7);
  rets[k++] = printf("star: [%*d] [%-*d] [%.*f] [%*.*e] %d\n", 6, 42, 6, 42, 2, 3.14159, 12, 3, 2.5, 99);
  rets[k++] = printf("percent: [%%] [%5%] [%-3%] %d\n", 8);
  rets[k++] = printf("floats: %f %f %f %e %g %a %f %e %.3f %g\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, -0.0, 4.9e-324,
                     2.2250738585072014e-308, 1e300, 1e-300, 2.0005, 100000.0);
  rets[k++] = printf("floats2: %.0f %.0f %.0f %.20f %.17g %G %F %A\n", 0.5, 1.5, 2.5, 0.1, 0.1, 1e-5, 1.0 / 0.0,
                     1.0);
  rets[k++] = printf("null: [%s] [%p] [%p] [%10s] [%.3s]\n", static_cast<const char*>(nullptr), nullptr,
                     reinterpret_cast<void*>(0x1234), static_cast<const char*>(nullptr),
                     static_cast<const char*>(nullptr));
  rets[k++] = printf(
      "33: %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 1,
      2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
      32, 33);
  rets[k++] = printf("long: %s|\n", kLong);
  rets[k++] = printf("flags: [%+5s] [%#5c] [%0-5d] [%+ d] [%lf] [%hf] [%-+8.3d]\n", "x", 'y', 12, 13, 1.25, 2.5, 7);
  rets[k++] = printf("j/t/L: %jd %td %Lf\n", static_cast<intmax_t>(-3), static_cast<ptrdiff_t>(4), 5.0);
  rets[k++] = printf(nul_fmt);  // a NULL format (the spec passes 0)
  rets[k++] = printf("end: %d trailing%", 9);
  rets[k++] = printf("\n");
  rets[k++] = printf("end2: %d trailing%5", 10);
  rets[k++] = printf("\n");
  rets[k++] = printf("");
  rets[k++] = printf("chars: [%c] [%5c] [%-3c] [%c]\n", 0, 'q', 'r', 0x141);
  rets[k++] = printf("ints: %x %u %#x %#o %.3d %+.0e %e %.3a %i\n", -1, -2, 0, 0, -7, 12345.0, 1e-310, 1.0 / 3,
                     0x7fffffff);
  rets[k++] = printf("last\n");
}

// mode 0: printf("%d\n", i); 1: printf("x\n"); 2: four arguments (4 + 4 + 8 + 8 bytes);
// 3: a 40-character %s; 4: a 120-character format, one int; 5: "%s" of a 2-character string.
__global__ void printf_flood(int32_t* rets, uint32_t mode, uint32_t n) {
  const char* s40 = "0123456789012345678901234567890123456789";
  for (uint32_t i = 0; i < n; ++i) {
    int32_t r;
    switch (mode) {
      case 0: r = printf("%d\n", i); break;
      case 1: r = printf("x\n"); break;
      case 2: r = printf("%d %u %lld %f\n", i, i * 3, -1ll * i, 0.5 * i); break;
      case 3: r = printf("%u %s\n", i, s40); break;
      case 4:
        r = printf("a 120-character format string, padded with words until it is long enough: "
                   "one two three four five six seven %d\n", i);
        break;
      default: r = printf("%u %s\n", i, "ab"); break;
    }
    rets[i] = r;
  }
}
