// tma_reduce.cu — TMA reduce-stores (cp.reduce.async.bulk.tensor): several CTAs reduce their tiles
// into the same global tile, for every reduction operator. The element type of the operation is
// the tensor map's (the instruction names none), so a u32 map and an i32 map give unsigned and
// signed min/max from the same PTX line shape.
//
// Families: cp.reduce.async.bulk.tensor.2d.global.shared::cta.{add,min,max,inc,dec,and,or,xor}
// .tile.bulk_group over u32 / i32 / u64 / i64 / f32 / f16 / bf16 tensor maps; st.shared tile
// build-up, fence.proxy.async.shared::cta, cp.async.bulk.commit_group, cp.async.bulk.wait_group 0;
// cvt.rn.f16.f32 / cvt.rn.bf16.f32 (exact here). PTX ISA §9.7.9.25.5.3, §9.7.9.25.6.
// Specs: tma_reduce_int.json, tma_reduce_float.json (4 CTAs each).
//
// Determinism: every CTA's reduce lands on the same elements in an unspecified order, so the
// kernels only use order-independent combinations: integer add/min/max/and/or/xor (associative and
// commutative); inc and dec with the *same* operand tile in every CTA (n applications of one
// function); float adds of small integers whose every partial sum is exact (|sum| <= 256 for bf16).
//
// tma_reduce_int, for CTA b, tile A_b = src32[b*128 .. b*128+127] (16 x 8 elements, u32 bits),
// C = common32[0..127], D_b = src64[b*64 .. b*64+63] (8 x 8):
//   add_u32 = init + sum_b A_b        min_i32 = min(init, min_b A_b)  (signed)   max_i32 likewise
//   and_u32 = init & all A_b          or_u32 = init | all A_b         xor_u32 = init ^ all A_b
//   inc_u32 = inc^n(init, C)  with inc(x, c) = x >= c ? 0 : x + 1          (n = gridDim.x)
//   dec_u32 = dec^n(init, C)  with dec(x, c) = (x == 0 || x > c) ? c : x - 1
//   add_u64 = init + sum_b D_b (mod 2^64)   min_i64 = min(init, min_b D_b) (signed)
// tma_reduce_float, with v_b[i] = (float)src[b*256 + i] (integers in [-30, 30]):
//   add_f32 (16 x 8) = init + sum_b v_b;   add_f16, add_bf16 (32 x 8) likewise, in their type;
//   min_f16 = min(init, min_b v_b);        max_bf16 = max(init, max_b v_b).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "async_util.cuh"

namespace {

template <class Op>
__device__ __forceinline__ void reduce2d(Op op, const CUtensorMap& tm, const void* tile) {
  const int32_t c[2] = {0, 0};
  ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, op, &tm, c, tile);
}

}  // namespace

extern "C" __global__ void tma_reduce_int(
    const __grid_constant__ CUtensorMap tm_add_u32, const __grid_constant__ CUtensorMap tm_min_i32,
    const __grid_constant__ CUtensorMap tm_max_i32, const __grid_constant__ CUtensorMap tm_and_u32,
    const __grid_constant__ CUtensorMap tm_or_u32, const __grid_constant__ CUtensorMap tm_xor_u32,
    const __grid_constant__ CUtensorMap tm_inc_u32, const __grid_constant__ CUtensorMap tm_dec_u32,
    const __grid_constant__ CUtensorMap tm_add_u64, const __grid_constant__ CUtensorMap tm_min_i64,
    const uint32_t* src32, const uint32_t* common32, const uint64_t* src64) {
  __shared__ alignas(128) uint32_t a[128];
  __shared__ alignas(128) uint32_t c[128];
  __shared__ alignas(128) uint64_t d[64];
  for (uint32_t i = threadIdx.x; i < 128; i += blockDim.x) {
    a[i] = src32[blockIdx.x * 128 + i];
    c[i] = common32[i];
  }
  for (uint32_t i = threadIdx.x; i < 64; i += blockDim.x) d[i] = src64[blockIdx.x * 64 + i];
  ptx::fence_proxy_async(ptx::space_shared);  // generic stores -> async-proxy reads
  __syncthreads();

  if (threadIdx.x == 0) {
    reduce2d(ptx::op_add, tm_add_u32, a);
    reduce2d(ptx::op_min, tm_min_i32, a);
    reduce2d(ptx::op_max, tm_max_i32, a);
    reduce2d(ptx::op_and_op, tm_and_u32, a);
    reduce2d(ptx::op_or_op, tm_or_u32, a);
    reduce2d(ptx::op_xor_op, tm_xor_u32, a);
    reduce2d(ptx::op_inc, tm_inc_u32, c);
    reduce2d(ptx::op_dec, tm_dec_u32, c);
    reduce2d(ptx::op_add, tm_add_u64, d);
    reduce2d(ptx::op_min, tm_min_i64, d);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}

extern "C" __global__ void tma_reduce_float(
    const __grid_constant__ CUtensorMap tm_add_f32, const __grid_constant__ CUtensorMap tm_add_f16,
    const __grid_constant__ CUtensorMap tm_add_bf16, const __grid_constant__ CUtensorMap tm_min_f16,
    const __grid_constant__ CUtensorMap tm_max_bf16, const int32_t* src) {
  __shared__ alignas(128) float f32[128];
  __shared__ alignas(128) __half f16[256];
  __shared__ alignas(128) __nv_bfloat16 bf16[256];
  for (uint32_t i = threadIdx.x; i < 256; i += blockDim.x) {
    const float v = static_cast<float>(src[blockIdx.x * 256 + i]);
    if (i < 128) f32[i] = v;
    f16[i] = __float2half_rn(v);
    bf16[i] = __float2bfloat16_rn(v);
  }
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();

  if (threadIdx.x == 0) {
    reduce2d(ptx::op_add, tm_add_f32, f32);
    reduce2d(ptx::op_add, tm_add_f16, f16);
    reduce2d(ptx::op_add, tm_add_bf16, bf16);
    reduce2d(ptx::op_min, tm_min_f16, f16);
    reduce2d(ptx::op_max, tm_max_bf16, bf16);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}
