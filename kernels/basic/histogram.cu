// histogram.cu — histograms with atomics, two classic shapes.
//  histogram256:    256-bin byte histogram: per-block privatised bins in shared memory
//                   (atom.shared.add.u32), the bulk read as uchar4 vectors in a grid-stride loop,
//                   the <4-byte tail byte by byte, then one global atomic per non-empty bin.
//  histogram_match: 64-bin histogram of u32 keys with warp-aggregated atomics: lanes holding the
//                   same bin find each other with __match_any_sync, the lowest of them adds the
//                   popcount of the group (the "match.any" trick for heavily repeated keys).
//
// Families: atom.shared.add.u32, atom.global.add.u32, ld.global.nc.v4.u8 (uchar4), grid-stride
// loops, match.any.sync.b32, popc, bfind/clz via __ffs, %lanemask-free leader election,
// bar.sync, non-multiple-of-32 blocks (histogram_match: 100 threads, last warp partial).
// Specs: histogram256.json, histogram_match.json
//
// Integer atomics only: the final counts do not depend on the order of the updates.

extern "C" __global__ void histogram256(const unsigned char* __restrict__ data, int n,
                                        unsigned* __restrict__ hist) {
  __shared__ unsigned bins[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
  __syncthreads();

  const int stride = gridDim.x * blockDim.x;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int n4 = n / 4;
  const uchar4* data4 = reinterpret_cast<const uchar4*>(data);  // buffers are 256-byte aligned
  for (int i = first; i < n4; i += stride) {
    const uchar4 v = data4[i];
    atomicAdd(&bins[v.x], 1u);
    atomicAdd(&bins[v.y], 1u);
    atomicAdd(&bins[v.z], 1u);
    atomicAdd(&bins[v.w], 1u);
  }
  for (int i = 4 * n4 + first; i < n; i += stride) atomicAdd(&bins[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    const unsigned c = bins[b];
    if (c != 0) atomicAdd(&hist[b], c);
  }
}

extern "C" __global__ void histogram_match(const unsigned* __restrict__ keys, int n,
                                           unsigned* __restrict__ hist) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The lanes of this warp that exist in the block (the last warp of a 100-thread block has 4).
  const unsigned lane = threadIdx.x & 31;
  const unsigned warp_base = threadIdx.x & ~31u;
  const unsigned lanes_here = min(32u, blockDim.x - warp_base);
  const unsigned member = lanes_here == 32 ? 0xffffffffu : (1u << lanes_here) - 1;

  // Out-of-range threads take part with an impossible bin so the warp stays converged.
  // bin = AND of two random 6-bit fields: skewed towards few bins, so lanes often share one.
  const unsigned bin = i < n ? (keys[i] >> 26) & (keys[i] >> 13) & 63u : 0xffffffffu;
  const unsigned peers = __match_any_sync(member, bin);
  const int leader = __ffs(peers) - 1;
  if (bin != 0xffffffffu && (int)lane == leader) atomicAdd(&hist[bin], (unsigned)__popc(peers));
}
