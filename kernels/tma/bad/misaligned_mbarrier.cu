// misaligned_mbarrier.cu — BROKEN ON PURPOSE: the mbarrier object sits at an address that is 4
// modulo 8 (the kernel carves it out of a byte array by hand, one word too far). mbarrier objects
// are .b64 and must be 8-byte aligned (PTX ISA §9.7.13.15.1).
//
// tcsim must report: an error at the mbarrier.init — the mbarrier address (shared::cta 0x...4) is
// not 8-byte aligned, naming the PTX line and the address; nothing after it runs. On hardware: a
// misaligned-address fault (cudaErrorMisalignedAddress).
// Spec: misaligned_mbarrier.json.
#include "../async_util.cuh"

extern "C" __global__ void misaligned_mbarrier(uint32_t* out) {
  __shared__ alignas(8) uint8_t raw[16];
  uint64_t* bar = reinterpret_cast<uint64_t*>(raw + 4);  // BUG: 4 mod 8
  if (threadIdx.x == 0) ptx::mbarrier_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) ptx::mbarrier_arrive(bar);
  tk::wait_parity(bar, 0);
  if (threadIdx.x == 0) out[0] = 1;
}
