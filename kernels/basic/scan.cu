// scan.cu — prefix sums, two ways.
//  scan_blelloch:   work-efficient exclusive scan of 2*BLOCK u32 per block (up-sweep/down-sweep
//                   in shared memory, padded by one word per 32 to avoid bank conflicts, the GPU
//                   Gems 3 ch. 39 layout), block totals written out for a second pass.
//  scan_warp_shfl:  inclusive scan per block with warp shuffles (shfl.sync.up) and a shared
//                   array of warp totals; block size not a power of two (160 threads = 5 warps).
//
// Families: ld/st.shared with computed (padded) addresses, bar.sync in loops, shfl.sync.up,
// shr/shl/add.u32 wrap-around arithmetic, partial last block with bounds checks.
// Specs: scan_blelloch.json, scan_warp_shfl.json
//
// All sums are u32 with wrap-around (defined for unsigned), so any input is valid.

constexpr int kScanBlock = 256;            // threads per block for scan_blelloch
constexpr int kScanTile = 2 * kScanBlock;  // elements per block
constexpr int kLogBanks = 5;

__device__ __forceinline__ int padded(int i) {
  return i + (i >> kLogBanks);
}

extern "C" __global__ void scan_blelloch(const unsigned* __restrict__ in,
                                         unsigned* __restrict__ out,
                                         unsigned* __restrict__ block_sums, int n) {
  __shared__ unsigned temp[kScanTile + (kScanTile >> kLogBanks)];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * kScanTile;

  const int ai = tid, bi = tid + kScanBlock;
  temp[padded(ai)] = base + ai < n ? in[base + ai] : 0u;
  temp[padded(bi)] = base + bi < n ? in[base + bi] : 0u;

  // Up-sweep (reduce) phase.
  int offset = 1;
  for (int d = kScanTile >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      const int a = offset * (2 * tid + 1) - 1;
      const int b = offset * (2 * tid + 2) - 1;
      temp[padded(b)] += temp[padded(a)];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    block_sums[blockIdx.x] = temp[padded(kScanTile - 1)];
    temp[padded(kScanTile - 1)] = 0;
  }

  // Down-sweep phase.
  for (int d = 1; d < kScanTile; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const int a = offset * (2 * tid + 1) - 1;
      const int b = offset * (2 * tid + 2) - 1;
      const unsigned t = temp[padded(a)];
      temp[padded(a)] = temp[padded(b)];
      temp[padded(b)] += t;
    }
  }
  __syncthreads();

  if (base + ai < n) out[base + ai] = temp[padded(ai)];
  if (base + bi < n) out[base + bi] = temp[padded(bi)];
}

// Inclusive scan of one block's blockDim.x elements (any multiple of 32 up to 1024).
extern "C" __global__ void scan_warp_shfl(const unsigned* __restrict__ in,
                                          unsigned* __restrict__ out, int n) {
  __shared__ unsigned warp_total[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int nwarps = blockDim.x >> 5;

  unsigned v = i < n ? in[i] : 0u;
  // Kogge-Stone inside the warp: lanes below `off` keep their value (shfl.up clamps at lane 0).
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned up = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += up;
  }
  if (lane == 31) warp_total[warp] = v;
  __syncthreads();

  // The first warp scans the warp totals.
  if (warp == 0) {
    unsigned t = lane < nwarps ? warp_total[lane] : 0u;
    for (int off = 1; off < 32; off <<= 1) {
      const unsigned up = __shfl_up_sync(0xffffffffu, t, off);
      if (lane >= off) t += up;
    }
    if (lane < nwarps) warp_total[lane] = t;
  }
  __syncthreads();

  if (warp > 0) v += warp_total[warp - 1];
  if (i < n) out[i] = v;
}
