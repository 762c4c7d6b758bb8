// smem.cu — shared memory (PTX ISA §9.7.9.8 ld, §9.7.9.9 st, §9.7.13.5 atom on .shared):
//   smem,ld_u32.latency          one thread, pointer chase through shared memory
//   smem,ld_u32_strideS.warp_per_clk   1024 threads (ld.volatile: ptxas keeps every load), each warp reads 32 words at lane*S*4: the
//                                 bank-conflict degree is gcd-limited (S=1: none, S=32: 32-way)
//   smem,ld_v4.warp_per_clk      ld.shared.v4.u32 (512 B per warp: 4 x 128 B wavefronts)
//   smem,st_u32_strideS.warp_per_clk
//   smem,atom_add.latency        atom.shared.add.u32 chain on one word
//   smem,atom_add_distinct.warp_per_clk / atom_add_same.warp_per_clk
#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

template <int N>
__global__ void k_chase(uint32_t start, uint64_t* out, uint32_t* sinkp) {
  __shared__ uint32_t s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = ((i * 97 + 13) % 1024) * 4;  // byte offsets
  __syncthreads();
  if (threadIdx.x) return;
  const uint32_t base = smem_addr(s);
  uint32_t x = start * 4;
  uint64_t best = ~0ull;
  for (int r = 0; r < 4; ++r) {
    const uint64_t t0 = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(base + x));
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  out[0] = best;
  *sinkp = x;
}

// op: 0 ld.u32, 1 ld.v4, 2 st.u32, 3 atom.add distinct, 4 atom.add same word
template <int OP>
__global__ void k_tput(uint32_t stride, int iters, uint64_t* out, uint32_t* sinkp) {
  __shared__ __align__(16) uint32_t s[32 * 32 * 4];
  for (int i = threadIdx.x; i < 32 * 32 * 4; i += blockDim.x) s[i] = i;
  __syncthreads();
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t base = smem_addr(s);
  const uint32_t a = OP == 1 ? base + lane * 16 : OP == 4 ? base : base + ((lane * stride) % 1024) * 4;
  uint32_t acc = 0;
  const uint64_t t0 = clock64_();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      uint32_t v = 0, v1 = 0, v2 = 0, v3 = 0;
      if (OP == 0) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));
      if (OP == 1) asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a));
      if (OP == 2) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(acc) : "memory");
      if (OP == 3 || OP == 4) asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(a) : "memory");
      acc += v ^ v1 ^ v2 ^ v3;
    }
  }
  __syncthreads();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  sink(acc, 0xdeadbeefu, sinkp);
}

template <int OP>
double tput(uint32_t stride, int iters, uint64_t* d, uint32_t* sinkp) {
  std::vector<double> v;
  for (int rep = 0; rep < 5; ++rep) {
    k_tput<OP><<<1, 1024>>>(stride, iters, d, sinkp);
    sync_check("smem tput");
    uint64_t c;
    UB_CHECK(cudaMemcpy(&c, d, 8, cudaMemcpyDeviceToHost));
    v.push_back(32.0 * iters * 16 / double(c));  // warp-instructions per SM per clock
  }
  return median(v);
}

template <int N>
__global__ void k_atom_lat(uint32_t zero, uint64_t* out, uint32_t* sinkp) {
  __shared__ uint32_t s[32];
  if (threadIdx.x < 32) s[threadIdx.x] = 0;
  __syncthreads();
  if (threadIdx.x) return;
  const uint32_t base = smem_addr(s);
  uint32_t x = 0;
  uint64_t best = ~0ull;
  for (int r = 0; r < 4; ++r) {
    const uint64_t t0 = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(x) : "r"(base + (x & zero)) : "memory");
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  out[0] = best;
  *sinkp = x;
}

}  // namespace

void run_smem() {
  Clocks clk(2);
  uint32_t* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      k_chase<64><<<1, 32>>>(1, clk.d, sinkp);
      k_chase<128><<<1, 32>>>(1, clk.d + 1, sinkp);
      sync_check("smem chase");
      const auto h = clk.get();
      v.push_back((double(h[1]) - double(h[0])) / 64.0);
    }
    row("smem", "ld_u32.latency", median(v), "cycles", "ld.shared.u32 pointer chase, one thread");
  }
  for (uint32_t s : {1u, 2u, 4u, 8u, 16u, 32u})
    row("smem", "ld_u32_stride" + std::to_string(s) + ".warp_per_clk", tput<0>(s, 64, clk.d, sinkp),
        "warp-instr/clk/SM", "ld.shared.u32 at lane*stride words, 32 warps");
  row("smem", "ld_v4.warp_per_clk", tput<1>(1, 64, clk.d, sinkp), "warp-instr/clk/SM",
      "ld.shared.v4.u32 contiguous (512 B per warp), 32 warps");
  for (uint32_t s : {1u, 32u})
    row("smem", "st_u32_stride" + std::to_string(s) + ".warp_per_clk", tput<2>(s, 64, clk.d, sinkp),
        "warp-instr/clk/SM", "st.shared.u32 at lane*stride words, 32 warps");
  row("smem", "atom_add_distinct.warp_per_clk", tput<3>(1, 16, clk.d, sinkp), "warp-instr/clk/SM",
      "atom.shared.add.u32, 32 distinct words per warp, 32 warps");
  row("smem", "atom_add_same.warp_per_clk", tput<4>(1, 4, clk.d, sinkp), "warp-instr/clk/SM",
      "atom.shared.add.u32, one word for every lane, 32 warps");
  {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      k_atom_lat<32><<<1, 32>>>(0, clk.d, sinkp);
      k_atom_lat<64><<<1, 32>>>(0, clk.d + 1, sinkp);
      sync_check("smem atom lat");
      const auto h = clk.get();
      v.push_back((double(h[1]) - double(h[0])) / 32.0);
    }
    row("smem", "atom_add.latency", median(v), "cycles", "atom.shared.add.u32 dependent chain, one thread");
  }
  cudaFree(sinkp);
}

}  // namespace ub
