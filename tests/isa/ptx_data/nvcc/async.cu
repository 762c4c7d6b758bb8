// Hopper/Blackwell async features: cp.async, cuda::barrier + memcpy_async, clusters, wgmma/mma inline.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <mma.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;
using namespace nvcuda;
__global__ void __cluster_dims__(2, 1, 1) clusterk(float* out, const float* in) {
  __shared__ float buf[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(buf), bar);
  bar.arrive_and_wait();
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  float* peer = cluster.map_shared_rank(buf, (cluster.block_rank() + 1) % 2);
  float x = peer[threadIdx.x];
  cluster.sync();
  out[blockIdx.x * 256 + threadIdx.x] = x + cluster.block_rank() + cluster.num_blocks();
}
__global__ void pipe(float* out, const float* in) {
  __shared__ float s[2][128];
  auto pipe = cuda::make_pipeline();
  for (int st = 0; st < 2; ++st) {
    pipe.producer_acquire();
    cuda::memcpy_async(&s[st][threadIdx.x], &in[st * 128 + threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
  }
  pipe.consumer_wait();
  out[threadIdx.x] = s[0][threadIdx.x] + s[1][threadIdx.x];
  pipe.consumer_release();
}
__global__ void wmmak(const half* a, const half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.f);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void mmak(const unsigned* a, const unsigned* b, float* c) {
  float d[4] = {0, 0, 0, 0};
  unsigned ra[4] = {a[0], a[1], a[2], a[3]}, rb[2] = {b[0], b[1]};
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
  __shared__ unsigned sm[64];
  sm[threadIdx.x] = a[threadIdx.x];
  __syncwarp();
  unsigned x0, x1, x2, x3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"((unsigned)__cvta_generic_to_shared(&sm[(threadIdx.x % 8) * 4])));
  for (int i = 0; i < 4; ++i) c[threadIdx.x * 4 + i] = d[i] + x0 + x1 + x2 + x3;
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900
__global__ void wgmmak(float* c, unsigned long long da, unsigned long long db) {
  float d[8] = {0};
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %10, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1, 0, 0;\n}"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) : "l"(da), "l"(db), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  for (int i = 0; i < 8; ++i) c[threadIdx.x * 8 + i] = d[i];
}
#endif
