// oob_store.cu — BAD INPUT: the kernel writes one element per thread, but the spec's buffer has
// fewer elements than threads (and the kernel has no bounds check). Not for a GPU: past the
// allocation the store may silently land in another buffer.
// Expected: tcsim run reports an out-of-bounds global store: kernel, PTX line, CTA, warp, lane,
// the address and the nearest buffer ("out", its base and size); exit code 2.

extern "C" __global__ void oob_store(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i % 64] * 2u;
}
