// global_tiles.cu — every CTA writes its own output tile of global memory (the clean kernel of the
// global race detector's cross-CTA check, docs/checker.md "global-data-race"). The tile a CTA
// writes is blockIdx.x & mask: the clean spec passes mask = ~0 (one tile per CTA);
// kernels/bugs/gt_overlapping_tiles passes a mask that gives two CTAs the same tile (the
// overlapping-output-tile bug of a wrong tile index), which the checker must report.
// PTX: nvcc -ptx -arch=sm_90a -O3 -lineinfo global_tiles.cu -o global_tiles.ptx (CUDA 13.0).
// Spec: global_tiles.json (4 blocks of 128 threads: out[b*128 + i] = 3 * in[b*128 + i] + b).

extern "C" __global__ void global_tiles(const unsigned* __restrict__ in, unsigned* __restrict__ out, unsigned mask) {
  const unsigned tile = blockIdx.x & mask;
  const unsigned i = tile * blockDim.x + threadIdx.x;
  out[i] = 3u * in[i] + blockIdx.x;
}
