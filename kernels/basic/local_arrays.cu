// local_arrays.cu — per-thread arrays indexed at run time, which nvcc must place in .local memory
// (registers cannot be indexed): an insertion sort, a sieve over a bool array, a small histogram,
// a 4x4 integer matrix product through an array of structs, and 16-byte vector accesses.
//
// Families: .local declarations (__local_depot), ld.local/st.local of u8/u16/u32/v4, address
// arithmetic on %SPL, loops with data-dependent local indices, cvt.u8/u16 narrowing stores.
// Specs: local_arrays.json

constexpr int kN = 24;

struct Cell {
  short a;
  unsigned char b;
  int c;
};

extern "C" __global__ void local_arrays(const unsigned* __restrict__ in, int n,
                                        unsigned* __restrict__ sorted, unsigned* __restrict__ stats,
                                        int* __restrict__ matrix) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;

  // 1. Insertion sort of kN values gathered from the input (data-dependent local indices).
  unsigned a[kN];
  for (int k = 0; k < kN; ++k) a[k] = in[(i * 5 + k * 11) % n] % 1000u;
  for (int k = 1; k < kN; ++k) {
    const unsigned key = a[k];
    int j = k - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = key;
  }
  for (int k = 0; k < kN; ++k) sorted[i * kN + k] = a[k];

  // 2. Sieve of Eratosthenes on a bool array, bound chosen per thread.
  bool composite[128];
  const int limit = 32 + (int)(in[i] & 63u);
  for (int k = 0; k < limit; ++k) composite[k] = false;
  int primes = 0;
  unsigned last = 0;
  for (int p = 2; p < limit; ++p) {
    if (composite[p]) continue;
    ++primes;
    last = p;
    for (int q = p * p; q < limit; q += p) composite[q] = true;
  }

  // 3. Histogram of nibbles into a local array, indexed by data.
  unsigned short hist[16];
  for (int k = 0; k < 16; ++k) hist[k] = 0;
  for (int k = 0; k < 8; ++k) hist[(in[(i + k) % n] >> (4 * k)) & 15u]++;
  unsigned hsig = 0;
  for (int k = 0; k < 16; ++k) hsig = hsig * 3u + hist[k];

  stats[3 * i + 0] = primes;
  stats[3 * i + 1] = last;
  stats[3 * i + 2] = hsig;

  // 4. Array of structs and 16-byte aligned vectors: a 4x4 integer matrix product.
  Cell cells[4];
  alignas(16) int m[4][4];
  alignas(16) int r[4][4];
  for (int k = 0; k < 4; ++k) {
    const unsigned w = in[(i + 3 * k) % n];
    cells[k] = {(short)(w & 0x7fff), (unsigned char)(w >> 16), (int)(w >> 24) - 128};
    const int4 row = make_int4((int)(w & 15), (int)(w >> 4 & 15), (int)(w >> 8 & 15) - 8,
                               (int)(w >> 12 & 15) - 8);
    *reinterpret_cast<int4*>(m[k]) = row;  // st.local.v4
  }
  const int sel = in[i] & 3;
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) {
      int acc = cells[(row + sel) & 3].c;
      for (int k = 0; k < 4; ++k) acc += m[row][k] * m[k][col];
      r[row][col] = acc + cells[col].a % 7 + cells[row].b;
    }
  }
  const int pick = (int)(in[i] >> 2 & 3);
  for (int col = 0; col < 4; ++col) matrix[i * 8 + col] = r[pick][col];
  const int4 v = *reinterpret_cast<const int4*>(r[(pick + 1) & 3]);  // ld.local.v4
  matrix[i * 8 + 4] = v.x;
  matrix[i * 8 + 5] = v.y;
  matrix[i * 8 + 6] = v.z;
  matrix[i * 8 + 7] = v.w;
}
