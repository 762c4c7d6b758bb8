// special_regs.cu — the special registers, in a 3D grid of 3D blocks whose size (7 x 5 x 3 = 105
// threads) is not a multiple of 32, with dynamic shared memory. Registers whose values depend on
// the machine or on timing (%smid, %warpid, %clock, %globaltimer, ...) are only output as
// invariants that hold on any GPU and in the simulator.
//
// Families: mov.u32 from %tid.{x,y,z}, %ntid.*, %ctaid.*, %nctaid.*, %laneid, %warpid, %nwarpid,
// %smid, %nsmid, %lanemask_eq, %clock, %clock64, %globaltimer (inline PTX where CUDA has no
// intrinsic), %dynamic_smem_size, %total_smem_size; extern (dynamic) .shared arrays, static
// .shared. Specs: special_regs.json
//
// out[linear_thread * 10 + k]:
//   0 tid (x | y << 8 | z << 16)   1 ntid   2 ctaid   3 nctaid   4 laneid   5 invariant flags
//   6 %dynamic_smem_size   7 %total_smem_size (raw: a hardware fact, see README)
//   8 %lanemask_eq   9 a value passed through dynamic shared memory
// Flags (bit: meaning): 0 warpid < nwarpid, 1 smid < nsmid, 2 clock64 increased, 3 clock changed,
//   4 globaltimer did not go backwards, 5 laneid == linear tid % 32, 6 total >= dynamic + static.

__device__ __forceinline__ unsigned sreg_warpid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sreg_nwarpid() {
  unsigned r;
  asm("mov.u32 %0, %%nwarpid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sreg_smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sreg_nsmid() {
  unsigned r;
  asm("mov.u32 %0, %%nsmid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sreg_laneid() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sreg_lanemask_eq() {
  unsigned r;
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sreg_dynamic_smem_size() {
  unsigned r;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sreg_total_smem_size() {
  unsigned r;
  asm("mov.u32 %0, %%total_smem_size;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sreg_clock() {
  unsigned r;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned long long sreg_globaltimer() {
  unsigned long long r;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
  return r;
}

constexpr unsigned kStaticSmemBytes = 64 * 4;

extern "C" __global__ void special_regs(const unsigned* __restrict__ in,
                                        unsigned* __restrict__ out) {
  extern __shared__ unsigned dyn[];  // one word per thread (spec: 105 * 4 = 420 bytes)
  __shared__ unsigned stat[kStaticSmemBytes / 4];

  const unsigned long long t0 = sreg_globaltimer();
  const long long c0 = clock64();
  const unsigned k0 = sreg_clock();

  const unsigned lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned gid = block * nthreads + lin;

  dyn[lin] = in[gid] ^ lin;
  if (lin < 64) stat[lin] = lin * 3u;
  // Some dependent work so that the clocks must advance.
  unsigned acc = in[gid];
  for (int k = 0; k < 16 + (int)(acc & 15u); ++k) acc = acc * 1664525u + 1013904223u;
  __syncthreads();

  const long long c1 = clock64();
  const unsigned k1 = sreg_clock();
  const unsigned long long t1 = sreg_globaltimer();

  unsigned* o = out + gid * 10;
  o[0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
  o[1] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
  o[2] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
  o[3] = gridDim.x | gridDim.y << 8 | gridDim.z << 16;
  const unsigned lane = sreg_laneid();
  o[4] = lane;
  const unsigned dsz = sreg_dynamic_smem_size(), tsz = sreg_total_smem_size();
  o[5] = (sreg_warpid() < sreg_nwarpid()) | (sreg_smid() < sreg_nsmid()) << 1 | (c1 > c0) << 2 |
         (k1 != k0) << 3 | (t1 >= t0) << 4 | (lane == lin % 32u) << 5 |
         (tsz >= dsz + kStaticSmemBytes) << 6 |
         (acc == 0x12345678u) << 31;  // bit 31: keeps acc live
  o[6] = dsz;
  o[7] = tsz;
  o[8] = sreg_lanemask_eq();
  o[9] = dyn[(lin + 1) % nthreads] + stat[lin % 64u];
}
