// cold.cu — what small kernels pay that the pipe tables do not show (second H200 run): kernel-start
// and first-touch costs, stores, local memory, calls, branches and divergent constant reads.
// In-kernel rows (%clock64, one thread unless stated):
//   cold,load_fresh_page.latency  ld.global of a line of a never-touched allocation (new page)
//   cold,load_same_page.latency   the next line of the same page (translation warm, line cold)
//   cold,load_hit.latency         the first line again (L1 hit)
//   cold,load_next_page.latency   a line 2 MiB further (new page)
//   cold,tma_fresh.latency / tma_same_page.latency   a 4 KiB TMA tile load of a never-touched
//                                 tensor, then the next tile of the same page
//   store,st_lines32.per_line     32 warps each storing 32 words to 32 lines per instruction (the
//                                 out[i * 40 + k] pattern): cycles per line per SM
//   store,st_coalesced.per_instr  the same with one line per warp instruction
//   local,ld_local.latency        ld.local chase (per-thread array, L1)
//   local,st_ld_local.latency     st.local then dependent ld.local of it
//   call,recursive.per_call       a recursive .func (fib) with live registers: cycles per call
//   call,leaf.per_call            a non-inlined leaf function called in a loop
//   branch,loop.per_iter          a loop of 1 fma.rn.f32 and a taken backward branch, per iteration
//   branch,divergent.per_iter     the same with an if/else on the lane parity inside (both sides run)
//   const,ld_const_K.per_instr    ld.const by 32 warps with K distinct addresses per warp (K = 1..32)
// Nsight Compute rows (launch_cycles.csv, run_on_device.sh): launch_one_store (1 CTA, one word
// stored), launch_param (one parameter used, nothing stored), launch_store40 (1 CTA of 128
// threads, out[i * 40 + k] for k < 40), launch_store40c (the same coalesced).
#include <cudaTypedefs.h>

#include "kernels/ubench/ubench.cuh"

namespace ub {

__global__ void launch_one_store(uint32_t* p) {
  if (threadIdx.x == 0) p[0] = 1;
}
__global__ void launch_param(uint32_t a, uint32_t* p) {
  uint32_t x = a * 3 + threadIdx.x;
  if (x == 0xffffffffu) p[0] = x;  // never true for the launch below: nothing is stored
}
__global__ void launch_store40(uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 40; ++k) out[i * 40 + k] = i + k;
}
__global__ void launch_store40c(uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 40; ++k) out[k * 128 + i] = i + k;
}

namespace {

__device__ __forceinline__ uint32_t sa(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__global__ void k_first_loads(const uint64_t* fresh, uint64_t* out) {
  uint64_t v, acc = 0, t0, t1;
  auto timed = [&](const uint64_t* p, int slot) {
    t0 = clock64_();
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p + (acc & 0)));
    acc += v;
    asm volatile("add.u64 %0, %0, 1;" : "+l"(acc));
    t1 = clock64_();
    out[slot] = t1 - t0;
  };
  timed(fresh, 0);                       // new page, cold line
  timed(fresh + 16, 1);                  // same page, next line
  timed(fresh, 2);                       // the first line again
  timed(fresh + (2u << 20) / 8, 3);      // 2 MiB further: another page
  out[4] = acc;
}

__global__ void k_tma_fresh(const __grid_constant__ CUtensorMap m, uint64_t* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x) return;
  uint8_t* buf = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem) + 1023) & ~uintptr_t(1023));
  const uint32_t b = sa(&bar);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  for (int i = 0; i < 2; ++i) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" ::"r"(b) : "memory");
    const uint64_t t0 = clock64_();
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            sa(buf)),
        "l"(&m), "r"(0), "r"(32 * i), "r"(b)
        : "memory");
    asm volatile(
        "{\n\t.reg .pred p;\nW:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W;\n\t}" ::"r"(b),
        "r"(i & 1)
        : "memory");
    out[i] = clock64_() - t0;
  }
}

template <bool Lines32>
__global__ void k_stores(uint32_t* out, int iters, uint64_t* t) {
  const uint32_t i = threadIdx.x;
  __syncthreads();
  const uint64_t t0 = clock64_();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      uint32_t* p = Lines32 ? out + i * 40 + (k + it * 16) % 40 : out + ((k + it * 16) % 40) * 1024 + i;
      asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(i + k) : "memory");
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) t[0] = clock64_() - t0;
}

template <int N>
__global__ void k_local(int start, int zero, uint64_t* out, uint32_t* sinkp) {
  volatile uint32_t arr[64];
  for (int i = 0; i < 64; ++i) arr[i] = (i * 7 + 3) % 64;
  uint32_t x = start;
  uint64_t best = ~0ull;
  for (int r = 0; r < 3; ++r) {
    const uint64_t t0 = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) x = arr[x];
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  // st.local then dependent ld.local
  uint64_t t2 = clock64_();
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    arr[(x + zero) & 63] = x + 1;
    x = arr[(x + zero) & 63];
  }
  const uint64_t t3 = clock64_();
  out[0] = best;
  out[1] = t3 - t2;
  *sinkp = x;
}

__device__ __noinline__ uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ uint32_t leaf(uint32_t x, uint32_t y) { return x * y + 1; }

__global__ void k_calls(uint32_t n, int iters, uint64_t* out, uint32_t* sinkp) {
  uint64_t t0 = clock64_();
  const uint32_t f = fib(n);
  uint64_t t1 = clock64_();
  uint32_t x = n;
  for (int i = 0; i < iters; ++i) x = leaf(x, n);
  uint64_t t2 = clock64_();
  out[0] = t1 - t0;
  out[1] = t2 - t1;
  *sinkp = f + x;
}

__global__ void k_branch(float a, int iters, uint64_t* out, float* sinkp) {
  float x = a + threadIdx.x;
  const uint64_t t0 = clock64_();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(a));
  const uint64_t t1 = clock64_();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
    if (threadIdx.x & 1) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(a));
    else asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(a));
  }
  const uint64_t t2 = clock64_();
  if (threadIdx.x == 0) {
    out[0] = t1 - t0;
    out[1] = t2 - t1;
  }
  sink(x, 12345.f, sinkp);
}

__constant__ uint32_t c_table[1024];

template <int K>
__global__ void k_const(int iters, uint32_t zero, uint64_t* out, uint32_t* sinkp) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t idx = (lane % K) * 17;
  uint32_t acc = 0;
  __syncthreads();
  const uint64_t t0 = clock64_();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      uint32_t v;
      asm volatile("ld.const.u32 %0, [%1];" : "=r"(v) : "l"(&c_table[(idx + i + (acc & zero)) & 1023]));
      acc += v;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = clock64_() - t0;
  sink(acc, 0xdeadbeefu, sinkp);
}

template <int K>
void const_row(uint64_t* d, uint32_t* sinkp) {
  std::vector<double> v;
  for (int rep = 0; rep < 3; ++rep) {
    k_const<K><<<1, 1024>>>(16, 0, d, sinkp);
    sync_check("const");
    uint64_t c;
    UB_CHECK(cudaMemcpy(&c, d, 8, cudaMemcpyDeviceToHost));
    v.push_back(double(c) / (32.0 * 16 * 16));
  }
  row("const", "ld_const_" + std::to_string(K) + ".per_instr", median(v), "cycles per warp-instr per SM",
      "ld.const, " + std::to_string(K) + " distinct addresses per warp, 32 warps");
}

PFN_cuTensorMapEncodeTiled_v12000 encode() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  UB_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

}  // namespace

void run_cold() {
  Clocks clk(8);
  uint32_t* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  {
    std::vector<double> f0, f1, f2, f3;
    for (int rep = 0; rep < 3; ++rep) {
      uint64_t* fresh;
      UB_CHECK(cudaMalloc(&fresh, 8u << 20));  // never written: its pages and lines are cold
      k_first_loads<<<1, 1>>>(fresh, clk.d);
      sync_check("first loads");
      const auto h = clk.get();
      f0.push_back(double(h[0]));
      f1.push_back(double(h[1]));
      f2.push_back(double(h[2]));
      f3.push_back(double(h[3]));  // not freed: the next rep gets new memory
    }
    row("cold", "load_fresh_page.latency", median(f0), "cycles", "ld.global of a never-touched allocation (+ an add)");
    row("cold", "load_same_page.latency", median(f1), "cycles", "the next line of that page");
    row("cold", "load_hit.latency", median(f2), "cycles", "the first line again");
    row("cold", "load_next_page.latency", median(f3), "cycles", "a line 2 MiB further (another page)");
  }
  {
    UB_CHECK(cudaFuncSetAttribute(k_tma_fresh, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192));
    std::vector<double> a, b;
    for (int rep = 0; rep < 3; ++rep) {
      void* t;
      UB_CHECK(cudaMalloc(&t, 8u << 20));
      CUtensorMap m;
      const cuuint64_t dims[2] = {64, 65536};
      const cuuint64_t strides[1] = {128};
      const cuuint32_t box[2] = {64, 32};
      const cuuint32_t es[2] = {1, 1};
      if (encode()(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, t, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) !=
          CUDA_SUCCESS) {
        std::fprintf(stderr, "tensor map\n");
        std::exit(2);
      }
      k_tma_fresh<<<1, 32, 8192>>>(m, clk.d);
      sync_check("tma fresh");
      const auto h = clk.get();
      a.push_back(double(h[0]));
      b.push_back(double(h[1]));  // not freed: the next rep gets new memory
    }
    row("cold", "tma_fresh.latency", median(a), "cycles", "4 KiB TMA tile of a never-touched tensor");
    row("cold", "tma_same_page.latency", median(b), "cycles", "the next 4 KiB tile of the same page");
  }
  {
    uint32_t* out;
    UB_CHECK(cudaMalloc(&out, 1 << 20));
    UB_CHECK(cudaMemset(out, 0, 1 << 20));
    std::vector<double> a, b;
    for (int rep = 0; rep < 3; ++rep) {
      k_stores<true><<<1, 1024>>>(out, 8, clk.d);
      sync_check("stores");
      a.push_back(double(clk.get()[0]) / (32.0 * 8 * 16 * 32));
      k_stores<false><<<1, 1024>>>(out, 8, clk.d);
      sync_check("stores");
      b.push_back(double(clk.get()[0]) / (32.0 * 8 * 16));
    }
    row("store", "st_lines32.per_line", median(a), "cycles per line per SM",
        "st.global.u32 at out[i * 40 + k]: 32 lines per warp instruction, 32 warps");
    row("store", "st_coalesced.per_instr", median(b), "cycles per warp-instr per SM",
        "st.global.u32, one line per warp instruction, 32 warps");
    cudaFree(out);
  }
  {
    std::vector<double> a, b;
    for (int rep = 0; rep < 3; ++rep) {
      k_local<32><<<1, 1>>>(1, 0, clk.d, sinkp);
      k_local<64><<<1, 1>>>(1, 0, clk.d + 2, sinkp);
      sync_check("local");
      const auto h = clk.get();
      a.push_back((double(h[2]) - double(h[0])) / 32.0);
      b.push_back(double(h[1]) / 16.0);
    }
    row("local", "ld_local.latency", median(a), "cycles", "ld.local chase through a 64-word per-thread array");
    row("local", "st_ld_local.latency", median(b), "cycles", "st.local + dependent ld.local of it, per pair");
  }
  {
    std::vector<double> a, b;
    for (int rep = 0; rep < 3; ++rep) {
      k_calls<<<1, 1>>>(16, 1000, clk.d, sinkp);
      sync_check("calls");
      const auto h = clk.get();
      a.push_back(double(h[0]) / 3193.0);  // fib(16) makes 3193 calls
      b.push_back(double(h[1]) / 1000.0);
    }
    row("call", "recursive.per_call", median(a), "cycles", "fib(16) as a recursive __noinline__ function, per call");
    row("call", "leaf.per_call", median(b), "cycles", "a __noinline__ leaf x * y + 1 called in a loop, per call");
  }
  {
    float* fs;
    UB_CHECK(cudaMalloc(&fs, 64));
    std::vector<double> a, b;
    for (int rep = 0; rep < 3; ++rep) {
      k_branch<<<1, 32>>>(1.0001f, 1000, clk.d, fs);
      sync_check("branch");
      const auto h = clk.get();
      a.push_back(double(h[0]) / 1000.0);
      b.push_back(double(h[1]) / 1000.0);
    }
    row("branch", "loop.per_iter", median(a), "cycles", "loop of one fma.rn.f32 + taken branch, one warp");
    row("branch", "divergent.per_iter", median(b), "cycles", "loop with an if/else on the lane parity, one warp");
    cudaFree(fs);
  }
  const_row<1>(clk.d, sinkp);
  const_row<2>(clk.d, sinkp);
  const_row<4>(clk.d, sinkp);
  const_row<8>(clk.d, sinkp);
  const_row<32>(clk.d, sinkp);
  // The Nsight Compute launches (launch_cycles.csv: after launch.cu's, in this order).
  uint32_t* p;
  UB_CHECK(cudaMalloc(&p, 1 << 20));
  launch_one_store<<<1, 128>>>(p);
  launch_param<<<1, 128>>>(7u, p);
  launch_store40<<<1, 128>>>(p);
  launch_store40c<<<1, 128>>>(p);
  sync_check("cold launches");
  cudaFree(p);
  cudaFree(sinkp);
}

}  // namespace ub
