// reduce_sum.cu — block tree reduction, the classic "first add during load, shared-memory tree,
// warp-synchronous finish with shuffles" shape, templated on the block size (mangled entry name).
//
// Families: ld.global.nc (const __restrict__), ld/st.shared, bar.sync, shfl.sync.down (32- and
// 64-bit values), atom.global.add.u64, add.f32 (fixed order: deterministic), mul.wide, setp/selp,
// partial last block with bounds checks.
// Specs: reduce_sum.json
//
// Outputs: partial[b] = f32 sum of block b's 2*BLOCK elements, in exactly the order below
// (reference.py replays it); total = u64 sum of all `bits` (integer atomics: order-free).
template <int BLOCK>
__global__ void reduce_sum(const float* __restrict__ in, const unsigned* __restrict__ bits, int n,
                           float* __restrict__ partial, unsigned long long* __restrict__ total) {
  static_assert(BLOCK >= 64 && (BLOCK & (BLOCK - 1)) == 0, "power-of-two block of >= 2 warps");
  __shared__ float s[BLOCK];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * (BLOCK * 2) + tid;

  float v = 0.0f;
  unsigned long long b = 0;
  if (i < n) {
    v = in[i];
    b = bits[i];
  }
  if (i + BLOCK < n) {
    v += in[i + BLOCK];
    b += bits[i + BLOCK];
  }
  s[tid] = v;
  __syncthreads();

  // Shared-memory tree down to one warp: s[t] += s[t + stride].
  for (int stride = BLOCK / 2; stride >= 32; stride >>= 1) {
    if (tid < stride) s[tid] = v = v + s[tid + stride];
    __syncthreads();
  }

  // Last warp: shuffles. Lane t adds lane t+off (lanes past 31 read their own value; only lane 0's
  // result is used, and it only depends on lanes 0..31).
  if (tid < 32) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (tid == 0) partial[blockIdx.x] = v;
  }

  // Integer sum: reduce each warp's 64-bit values with shuffles, one atomic per warp.
  for (int off = 16; off > 0; off >>= 1) b += __shfl_down_sync(0xffffffffu, b, off);
  if ((tid & 31) == 0) atomicAdd(total, b);
}

template __global__ void reduce_sum<256>(const float* __restrict__, const unsigned* __restrict__,
                                         int, float* __restrict__,
                                         unsigned long long* __restrict__);
