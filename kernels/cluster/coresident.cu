// coresident.cu — how many clusters the GPU runs at once. Every CTA (thread 0) arrives on a global
// counter and polls it, sleeping 1 us between polls (nanosleep, PTX ISA §9.7.13.11), until all
// `total` CTAs of the grid have arrived or `timeout_ns` of %globaltimer passed (PTX ISA §10.18
// %globaltimer). A grid the machine holds at once: every CTA sees every other. A grid of one
// cluster more: the first wave times out seeing only itself, then the last cluster runs alone and
// sees the full count.
//
// Families: atom.global.add.u32, ld.relaxed.gpu via atom.add 0, nanosleep, %globaltimer.
// Specs: coresident_c<k>_<fit|over>.json (cluster k x 1 x 1; dynamic shared memory sized so that
// one CTA fits on an SM; grid = the H200's cudaOccupancyMaxActiveClusters(k) clusters, or one
// more). Outputs: seen[cta] = 1 when that CTA saw all `total` arrivals, else 0; count = total.
#include <cstdint>

extern "C" __global__ void coresident(uint32_t* __restrict__ counter, uint32_t* __restrict__ seen, uint32_t total,
                                      uint64_t timeout_ns) {
  extern __shared__ uint8_t dyn[];
  if (threadIdx.x != 0) return;
  dyn[0] = 1;
  atomicAdd(counter, 1u);
  uint64_t t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  uint32_t v;
  for (;;) {
    v = atomicAdd(counter, 0u);
    if (v >= total) break;
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > timeout_ns) break;
    __nanosleep(1000);
  }
  seen[blockIdx.x] = v >= total ? 1u : 0u;
}
