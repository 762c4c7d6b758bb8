// misaligned.cu — BAD INPUT: a 4-byte load from an address that is not a multiple of 4 (a
// reinterpret_cast of a byte pointer). On a GPU this is a "misaligned address" fault.
// Expected: tcsim run reports a misaligned global load: kernel, PTX line, CTA, warp, lane,
// address and the required alignment (4); exit code 2.

extern "C" __global__ void misaligned(const unsigned char* bytes, unsigned* out) {
  const unsigned* p = reinterpret_cast<const unsigned*>(bytes + 1 + 4 * threadIdx.x);
  out[threadIdx.x] = *p;
}
