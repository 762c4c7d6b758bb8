// bulk_reduce.cu — cp.reduce.async.bulk (non-tensor) from shared memory into global accumulators,
// every operator and element type of the .global.shared::cta.bulk_group form, several CTAs
// reducing onto the same words.
//
// Families: cp.reduce.async.bulk.global.shared::cta.bulk_group.{add.u32, min.u32, max.s32,
// and.b32, or.b32, xor.b32, inc.u32, dec.u32, add.u64, min.s64, add.u64 (s64 data), add.f32,
// add.f64, add.noftz.f16, add.noftz.bf16, min.f16, max.bf16}; commit_group; wait_group 0;
// fence.proxy.async.shared::cta; cvt to f16/bf16/f64. PTX ISA §9.7.9.25.4.2 (cp.reduce.async.bulk).
// Spec: bulk_reduce.json (4 CTAs, 64 elements per accumulator).
//
// Determinism as in tma_reduce.cu: integer operators are order-independent; inc/dec use the same
// operand `common` in every CTA; float sums are of integers in [-30, 30] and exact.
// Expected outputs (n = gridDim.x, a_b = src32[b][:], d_b = src64[b][:], v_b = (float)srci[b][:],
// init = the accumulator's initial contents, all elementwise):
//   add_u32 = init + sum a_b   min_u32 = min(init, a_b...) unsigned   max_s32 = max(...) signed
//   and/or/xor_b32 = init op a_0 op ... op a_{n-1}
//   inc_u32 = inc^n(init, common), inc(x, c) = x >= c ? 0 : x + 1
//   dec_u32 = dec^n(init, common), dec(x, c) = (x == 0 || x > c) ? c : x - 1
//   add_u64 = init + sum d_b   min_s64 = min(init, d_b...) signed   add_s64 = init + sum d_b
//   add_f32, add_f64, add_f16, add_bf16 = init + sum v_b (exact)
//   min_f16 = min(init, v_b...)   max_bf16 = max(init, v_b...)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "async_util.cuh"

namespace {
constexpr uint32_t kN = 64;  // elements per accumulator
}

extern "C" __global__ void bulk_reduce(const uint32_t* src32, const uint32_t* common, const uint64_t* src64,
                                       const int32_t* srci, uint32_t* add_u32, uint32_t* min_u32,
                                       int32_t* max_s32, uint32_t* and_b32, uint32_t* or_b32,
                                       uint32_t* xor_b32, uint32_t* inc_u32, uint32_t* dec_u32,
                                       uint64_t* add_u64, int64_t* min_s64, int64_t* add_s64, float* add_f32,
                                       double* add_f64, __half* add_f16, __nv_bfloat16* add_bf16,
                                       __half* min_f16, __nv_bfloat16* max_bf16) {
  __shared__ alignas(16) uint32_t a[kN];
  __shared__ alignas(16) uint32_t c[kN];
  __shared__ alignas(16) uint64_t d[kN];
  __shared__ alignas(16) float f32[kN];
  __shared__ alignas(16) double f64[kN];
  __shared__ alignas(16) __half f16[kN];
  __shared__ alignas(16) __nv_bfloat16 bf16[kN];
  for (uint32_t i = threadIdx.x; i < kN; i += blockDim.x) {
    a[i] = src32[blockIdx.x * kN + i];
    c[i] = common[i];
    d[i] = src64[blockIdx.x * kN + i];
    const int32_t v = srci[blockIdx.x * kN + i];
    f32[i] = static_cast<float>(v);
    f64[i] = static_cast<double>(v);
    f16[i] = __int2half_rn(v);
    bf16[i] = __int2bfloat16_rn(v);
  }
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();

  if (threadIdx.x == 0) {
    using ptx::space_global;
    using ptx::space_shared;
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_add, add_u32, a, 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_min, min_u32, a, 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_max, max_s32, reinterpret_cast<const int32_t*>(a), 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_and_op, and_b32, a, 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_or_op, or_b32, a, 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_xor_op, xor_b32, a, 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_inc, inc_u32, c, 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_dec, dec_u32, c, 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_add, add_u64, d, 8 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_min, min_s64, reinterpret_cast<const int64_t*>(d), 8 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_add, add_s64, reinterpret_cast<const int64_t*>(d), 8 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_add, add_f32, f32, 4 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_add, add_f64, f64, 8 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_add, add_f16, f16, 2 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_add, add_bf16, bf16, 2 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_min, min_f16, f16, 2 * kN);
    ptx::cp_reduce_async_bulk(space_global, space_shared, ptx::op_max, max_bf16, bf16, 2 * kN);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}
