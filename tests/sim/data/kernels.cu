// CUDA kernels for the simulator's end-to-end tests (tests/sim/kernels_test.cc computes each
// expected result on the host). Compiled by regen.sh into kernels_sm_100a.ptx / kernels_sm_90a.ptx.
#include <cstdint>

__constant__ int ctable[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__device__ int gbias = 7;

// Block reduction: shared memory tree + warp shuffles (divergent __syncthreads-free tail).
__global__ void reduce_sum(const int* in, int* out, int n) {
  __shared__ int s[32];
  int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  int v = 0;
  for (int k = i; k < n; k += gridDim.x * blockDim.x) v += in[k];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((tid & 31) == 0) s[tid >> 5] = v;
  __syncthreads();
  if (tid < 32) {
    v = tid < (blockDim.x + 31) / 32 ? s[tid] : 0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    if (tid == 0) out[blockIdx.x] = v;
  }
}

// Inclusive warp scan with __shfl_up_sync, then block-level carry through shared memory.
__global__ void block_scan(const unsigned* in, unsigned* out) {
  __shared__ unsigned warp_sums[32];
  unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int off = 1; off < 32; off <<= 1) {
    unsigned t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  if (lane == 31) warp_sums[w] = v;
  __syncthreads();
  if (w == 0) {
    unsigned s = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    for (int off = 1; off < 32; off <<= 1) {
      unsigned t = __shfl_up_sync(0xffffffffu, s, off);
      if (lane >= off) s += t;
    }
    warp_sums[lane] = s;
  }
  __syncthreads();
  if (w > 0) v += warp_sums[w - 1];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Transpose through padded shared memory, 2D grid and block.
__global__ void transpose(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Divergent loops with data-dependent exits (Collatz steps), break and continue.
__global__ void collatz(const unsigned* in, unsigned* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = in[i];
  unsigned s = 0;
  while (x != 1) {
    if (s > 1000) break;
    if (x & 1) { x = 3 * x + 1; ++s; continue; }
    x >>= 1;
    ++s;
  }
  steps[i] = s;
}

// Recursion through the ABI (.local stack), struct return, local arrays, constant tables.
struct Pair { int a; long long b; };
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ Pair combine(int x, long long y) { Pair p; p.a = x * 3 + ctable[x & 15]; p.b = y * y - x; return p; }
__device__ __noinline__ int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}
__global__ void calls(int* out, long long* out64) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int loc[12];
  for (int k = 0; k < 12; ++k) loc[k] = (i * 7 + k * 13) % 23;
  int f = fib(i % 15);
  Pair p = combine(i, (long long)i * 100000);
  int a = ackermann(i % 3, i % 4);
  out[i] = f + p.a + loc[i % 12] + a + gbias;
  out64[i] = p.b;
}

// Function pointers (indirect calls) and a switch.
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_xor(int a, int b) { return a ^ b; }
typedef int (*BinOp)(int, int);
__device__ BinOp ops[4] = {op_add, op_sub, op_mul, op_xor};
__global__ void indirect(const int* a, const int* b, int* out) {
  int i = threadIdx.x;
  int r = ops[i & 3](a[i], b[i]);
  switch (i % 7) {
    case 0: r += 1; break;
    case 1: r *= 3; break;
    case 2: r ^= 0x55; break;
    case 3: r -= 100; break;
    case 4: r = r >> 2; break;
    case 5: r = ~r; break;
    default: r = -r; break;
  }
  out[i] = r;
}

// 64-bit and f64 math, conversions, 3D grid.
__global__ void math64(const double* x, double* y, unsigned long long* u, int* iv) {
  int i = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  i = i * blockDim.x + threadIdx.x;
  double v = x[i];
  y[i] = __dadd_rn(__dadd_rn(__dsub_rn(__dadd_rn(__dmul_rn(v, v), __dmul_rn(3.0, v)), __ddiv_rn(1.0, __dadd_rn(v, 2.0))),
                          __dsqrt_rn(fabs(v))), __fma_rn(v, 0.5, -v));
  unsigned long long a = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
  u[i] = (a >> 17) ^ (a << 5) ^ __umul64hi(a, 0x1234567890abcdefull) ^ __brevll(a) ^ (unsigned long long)__popcll(a) ^ (unsigned long long)__clzll(a);
  iv[i] = (int)(v * 1000.0) + __float2int_rn((float)v * 3.7f) + (int)__double2ll_rz(v * -1e3);
}

// Named barriers: warp 0 produces, warps 1..3 consume (bar.sync 1, 128 / bar.arrive).
__global__ void producer_consumer(int* out, int iters) {
  __shared__ int buf[32];
  int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
  int acc = 0;
  for (int it = 0; it < iters; ++it) {
    if (w == 0) {
      buf[lane] = it * 32 + lane;
      asm volatile("bar.arrive 1, 128;");  // publish
      asm volatile("bar.sync 2, 128;");    // wait until consumed
    } else {
      asm volatile("bar.sync 1, 128;");
      acc += buf[(lane + w) & 31];
      asm volatile("bar.arrive 2, 128;");
    }
  }
  out[threadIdx.x] = acc;
}

// Early exit before __syncthreads (exited threads do not block the barrier), and a divergent
// __syncwarp with a partial mask.
__global__ void early_exit(int* out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t >= n) return;
  s[t] = t * t;
  __syncthreads();
  int v = s[(t + 1) % n];
  if (t & 1) {
    __syncwarp(0xaaaaaaaau);
    v += 1;
  }
  out[t] = v;
}
