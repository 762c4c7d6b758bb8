// Basics: constant/global tables, recursion, struct return, local arrays, shuffles, votes, atomics, clock.
#include <cstdint>
__constant__ float ctab[16] = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16};
__device__ int gcount;
__device__ int garr[4] = {1,2,3,4};
__device__ __noinline__ int fib(int n){ return n<2?n:fib(n-1)+fib(n-2);}
__device__ __noinline__ float2 twof(float a, double b, int* p){ float2 r; r.x=a*2; r.y=(float)b + p[0]; return r;}
extern __shared__ float dyn[];
__global__ void k(float* out, const float* __restrict__ in, int n, double d, uint64_t m) {
  __shared__ float tile[33][32];
  int i = blockIdx.x*blockDim.x+threadIdx.x;
  float loc[10];
  for (int j=0;j<10;j++) loc[j] = in[(i+j)%n];
  tile[threadIdx.y][threadIdx.x] = loc[i%10] + ctab[i&15];
  dyn[threadIdx.x] = d;
  __syncthreads();
  float v = tile[threadIdx.x][threadIdx.y];
  v += __shfl_down_sync(0xffffffff, v, 1);
  if (__any_sync(0xffffffff, v>0)) v = -v;
  float2 t = twof(v, d, &gcount);
  out[i] = v + fib(i&7) + t.x + t.y + dyn[threadIdx.x^1] + (m>>3) + garr[i&3];
  if (i==0) atomicAdd(&gcount, 1);
  unsigned long long c = clock64();
  if (c == 12345) out[0] = __int_as_float(__popc(i)+__clz(i)+__brev(i));
}
