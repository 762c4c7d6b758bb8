// const_tables.cu — constant tables and module-scope variables, initialised three ways: by the
// launch spec's `symbols` (from a .npy file or a fill), and statically in the source (PTX
// initialisers), for both .const (__constant__) and .global (__device__) variables.
//
// Families: .const variables (ld.const with per-thread, divergent indices; .const with an
// initialiser list), .global variables with initialisers (ld.global of a module-scope symbol,
// mov of a symbol address), spec `symbols` for .const and .global, table-driven CRC-32 (bytes read
// as u8, xor/shr), Horner polynomial with fma.rn.f32 on constant coefficients, ld.const.f64.
// Specs: const_tables.json
//
// crc_table (symbols: data/crc32_table.npy, 1024 raw bytes) is the standard reflected CRC-32
// table (polynomial 0xEDB88320), so crc[i] equals zlib.crc32 of chunk i (reference.py checks it).
// poly_coef (symbols: data/poly_coef.npy) holds 8 f32 coefficients, highest degree first.

__constant__ unsigned crc_table[256];
__constant__ float poly_coef[8];
__constant__ double scale_f64;  // symbols: fill
__constant__ int small_primes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
__device__ unsigned long long g_mix = 0x9E3779B97F4A7C15ull;  // static .global initialiser
__device__ int g_bias[4];                                     // symbols: data/g_bias.npy

constexpr int kChunk = 64;

extern "C" __global__ void const_tables(const unsigned char* __restrict__ bytes,
                                        const float* __restrict__ xs, int n,
                                        unsigned* __restrict__ crc, float* __restrict__ poly,
                                        double* __restrict__ scaled, unsigned* __restrict__ misc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;

  // CRC-32 of chunk i: every thread walks the 256-entry table with its own data-dependent index.
  unsigned c = 0xffffffffu;
  const unsigned char* p = bytes + i * kChunk;
  for (int k = 0; k < kChunk; ++k) c = crc_table[(c ^ p[k]) & 0xffu] ^ (c >> 8);
  crc[i] = c ^ 0xffffffffu;

  // Horner: p(x) = ((c0 x + c1) x + c2) ... with one rounding per step (fma).
  const float x = xs[i];
  float acc = poly_coef[0];
  for (int k = 1; k < 8; ++k) acc = __fmaf_rn(acc, x, poly_coef[k]);
  poly[i] = acc;

  scaled[i] = __dmul_rn((double)x, scale_f64);

  // Static .const initialiser and .global variables.
  const int prime = small_primes[(c >> 3) & 15u];
  const unsigned long long mixed = (unsigned long long)c * g_mix;
  misc[2 * i] = (unsigned)prime * 1000u + (unsigned)(g_bias[c & 3u] & 0xffff);
  misc[2 * i + 1] = (unsigned)(mixed >> 32) ^ (unsigned)mixed;
}
