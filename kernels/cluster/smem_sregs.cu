// smem_sregs.cu — the shared-memory special registers (PTX ISA §10.29-10.33 %dynamic_smem_size,
// %total_smem_size, %aggr_smem_size, %reserved_smem_offset_{begin,end,cap,<2>}) and the addresses
// of a static and a dynamic shared array, for several static sizes (one kernel each, 0 to 3000
// bytes), dynamic sizes (spec) and launches with and without a cluster. The H200's answers are
// the source of tcsim's shared-memory layout (docs/shared_memory.md).
// Specs: smem_sregs_s<static>_d<dynamic>{_c2}.json. out[cta * 16 + k], thread 0:
//   0 %dynamic_smem_size  1 %total_smem_size  2 %aggr_smem_size  3 %reserved_smem_offset_begin
//   4 _end  5 _cap  6 _0  7 _1  8 &pad[0] (0 without static array)  9 &dyn[0]  10 %cluster_nctarank
//   11..15 0
#include <cstdint>

#define SREG(name, r) asm volatile("mov.u32 %0, %%" name ";" : "=r"(r))

template <int S>
__device__ __forceinline__ void body(uint32_t* out, uint8_t* pad) {
  extern __shared__ __align__(16) uint8_t dyn[];
  const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  uint32_t* o = out + cta * 16;
  if (threadIdx.x != 0) return;
  uint32_t v;
  SREG("dynamic_smem_size", v);
  o[0] = v;
  SREG("total_smem_size", v);
  o[1] = v;
  SREG("aggr_smem_size", v);
  o[2] = v;
  SREG("reserved_smem_offset_begin", v);
  o[3] = v;
  SREG("reserved_smem_offset_end", v);
  o[4] = v;
  SREG("reserved_smem_offset_cap", v);
  o[5] = v;
  SREG("reserved_smem_offset_0", v);
  o[6] = v;
  SREG("reserved_smem_offset_1", v);
  o[7] = v;
  if (S) {
    pad[threadIdx.x] = 1;
    o[8] = static_cast<uint32_t>(__cvta_generic_to_shared(pad));
  }
  dyn[0] = 1;
  o[9] = static_cast<uint32_t>(__cvta_generic_to_shared(dyn));
  SREG("cluster_nctarank", v);
  o[10] = v;
}

extern "C" __global__ void smem_sregs_s0(uint32_t* out) { body<0>(out, nullptr); }
extern "C" __global__ void smem_sregs_s224(uint32_t* out) {
  __shared__ uint8_t pad[224];
  body<224>(out, pad);
}
extern "C" __global__ void smem_sregs_s1000(uint32_t* out) {
  __shared__ uint8_t pad[1000];
  body<1000>(out, pad);
}
extern "C" __global__ void smem_sregs_s1100(uint32_t* out) {
  __shared__ uint8_t pad[1100];
  body<1100>(out, pad);
}
extern "C" __global__ void smem_sregs_s3000(uint32_t* out) {
  __shared__ uint8_t pad[3000];
  body<3000>(out, pad);
}
