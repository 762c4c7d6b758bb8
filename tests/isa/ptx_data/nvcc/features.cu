// Broad-coverage kernel for the PTX front end: control flow, calls, math, atomics, warp ops.
#include <cstdint>
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
typedef int (*binop)(int, int);
__device__ binop table[2] = {op_add, op_mul};
__device__ __noinline__ int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}
__device__ __noinline__ int sel(int x) {
  switch (x & 7) {
    case 0: return 11; case 1: return x * 3; case 2: return x ^ 5; case 3: return x - 9;
    case 4: return x << 2; case 5: return ~x; case 6: return x / 7; default: return -x;
  }
}
__global__ void features(int* out, float* fo, double* dout, __half* h, __nv_bfloat16* b, unsigned long long* u64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cg::thread_block tb = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(tb);
  int v = i;
  for (int k = 0; k < (i % 13); ++k) { if (v > 1000) break; v = v * 3 + (k & 1 ? 1 : -1); if (v & 4) continue; v ^= k; }
  v += table[i & 1](v, 3);
  v += sel(v) + ackermann(1, i & 3);
  int s = cg::reduce(w, v, cg::plus<int>());
  unsigned m = __match_any_sync(0xffffffff, v & 3);
  int all; unsigned p = __match_all_sync(0xffffffff, v, &all);
  int r = __reduce_add_sync(0xffffffff, v) + __reduce_min_sync(0xffffffff, v) + __reduce_or_sync(0xffffffff, (unsigned)v);
  atomicAdd(&out[0], v); atomicMax(&out[1], v); atomicCAS(&out[2], 0, v); atomicExch(&out[3], v);
  atomicInc((unsigned*)&out[4], 17); atomicAnd(&out[5], v); atomicAdd(&fo[0], 1.5f); atomicAdd(&dout[0], 2.5);
  atomicAdd(&u64[0], 3ull); atomicAdd(&h[0], __float2half(1.f)); atomicAdd(&b[0], __float2bfloat16(2.f));
  __half2 hh = __halves2half2(h[i], h[i+1]); hh = __hfma2(hh, hh, hh); h[i] = __low2half(hh) + __high2half(hh);
  __nv_bfloat162 bb = __halves2bfloat162(b[i], b[i+1]); bb = __hmul2(bb, bb); b[i] = __low2bfloat16(bb);
  float f = fo[i]; double d = dout[i];
  f = __fadd_rz(f, 1.f) + __fmul_ru(f, f) + __fdiv_rd(f, 3.f) + __fsqrt_rn(f) + __frcp_rz(f) + fmaf(f, f, f);
  d = __dadd_rn(d, 1.0) + __dmul_rz(d, d) + __ddiv_ru(d, 3.0) + sqrt(d) + __drcp_rn(d) + fma(d, d, d);
  f += sinf(f) + __expf(f) + __logf(f) + tanhf(f) + rsqrtf(f) + exp2f(f);
  int iv = __float2int_rz(f) + __double2int_rd(d) + (int)__float2uint_ru(f) + (int)__double2ll_rn(d);
  unsigned long long ul = __umul64hi((unsigned long long)iv, 0x123456789ull) + __brevll(iv) + __popcll(iv) + __clzll(iv);
  __int128 big = (__int128)ul * (__int128)ul; ul += (unsigned long long)(big >> 64);
  iv += __byte_perm(iv, v, 0x3210) + __funnelshift_l(iv, v, 5) + __funnelshift_rc(iv, v, 40) + __sad(iv, v, 3u) + __dp4a(iv, v, 7) + __dp2a_lo(iv, v, 1);
  iv += __vadd4(iv, v) + __vabsdiffu2(iv, v) + __vmaxs4(iv, v) + __ffs(iv) + __ffsll(ul) + __mul24(iv, v) + __umulhi(iv, v) + __hadd(iv, v) + __rhadd(iv, v);
  unsigned lm; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm));
  unsigned sm; asm("mov.u32 %0, %%smid;" : "=r"(sm));
  unsigned long long gt; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
  if (i < n) {
    out[i] = v + s + m + p + all + r + iv + (int)ul + lm + sm + (int)gt + __activemask() + __ballot_sync(0xffffffff, v > 0) + __shfl_xor_sync(0xffffffff, v, 16) + __shfl_up_sync(0xffff, v, 2, 16);
    fo[i] = f; dout[i] = d;
  }
  __syncwarp(0xffffffff);
  if (tb.thread_rank() == 0) printf("block %d done %f\n", blockIdx.x, f);
  __syncthreads_or(v > 3);
  int c = __syncthreads_count(v & 1);
  if (c == 12345) asm volatile("trap;");
  __nanosleep(100);
  if (v == 77) __trap();
}
