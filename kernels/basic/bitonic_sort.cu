// bitonic_sort.cu — in-block bitonic sort of 1024 (key, value) pairs in shared memory, 512
// threads each owning one compare-exchange per step: the sorting network behind many GPU
// top-k and sort kernels. Ties are broken by the value (the original index), so the output
// order is unique whatever the input.
//
// Families: ld/st.shared of u32 pairs, bar.sync inside doubly nested loops (55 barriers),
// xor-partner index arithmetic, setp + selp / branches for the compare-exchange, 64-bit key
// comparison (key << 32 | index), partial last block (padding with 0xffffffff keys).
// Specs: bitonic_sort.json

constexpr int kSortN = 1024;

extern "C" __global__ void bitonic_sort(const unsigned* __restrict__ keys, int n,
                                        unsigned* __restrict__ sorted_keys,
                                        unsigned* __restrict__ sorted_idx) {
  __shared__ unsigned long long s[kSortN];
  const int base = blockIdx.x * kSortN;
  for (int k = threadIdx.x; k < kSortN; k += blockDim.x) {
    const int g = base + k;
    // Padding sorts last: key 0xffffffff and an index past every real one.
    s[k] = g < n ? ((unsigned long long)keys[g] << 32 | (unsigned)k) : ~0ull;
  }
  __syncthreads();

  for (int size = 2; size <= kSortN; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      // Thread t handles the pair (i, i + stride) with i = the t-th index whose `stride` bit is 0.
      const int t = threadIdx.x;
      const int i = 2 * t - (t & (stride - 1));
      const int j = i + stride;
      const bool ascending = (i & size) == 0;
      const unsigned long long a = s[i], b = s[j];
      if ((a > b) == ascending) {
        s[i] = b;
        s[j] = a;
      }
      __syncthreads();
    }
  }

  for (int k = threadIdx.x; k < kSortN; k += blockDim.x) {
    const int g = base + k;
    if (g < n) {
      sorted_keys[g] = (unsigned)(s[k] >> 32);
      sorted_idx[g] = (unsigned)s[k];
    }
  }
}
