// cp.async (the non-bulk, per-thread asynchronous copy, PTX ISA 9.2 §9.7.9.25.3): every copy size
// and cache mode, partial copies that zero-fill, the ignore-src predicate, the L2 prefetch hint,
// commit_group / wait_group N / wait_all ordering, and cp.async.mbarrier.arrive.noinc.
//
// 128 threads, four shared regions R0..R3 of 2048 bytes, src = 8192 random bytes. Thread t:
//   group 0  cp.async.cg 16 B:        R0[16t, +16)      <- src[16t, +16)
//   group 1  cp.async.ca 8 B twice:   R1[16t, +8)       <- src[2048 + 16t + 8, +8)
//                                     R1[16t + 8, +8)   <- src[2048 + 16t, +8)       (halves swapped)
//   group 2  cp.async.ca 4 B x 4:     R2[16t + 4i, +4)  <- src[4096 + 16((7t) % 128) + 4(3 - i), +4)
//   group 3  cp.async.cg 16 B with src-size = t % 17 (bytes past it are zero-filled), except
//            t % 5 == 0: cp.async.ca 16 B with ignore-src true (all 16 bytes zero)
//                                     R3[16t, +16)      <- src[6144 + 16t, ...)
//   wait_group 3 -> out[0] = R0;  wait_group 2 -> out[1] = R1
//   group 4  cp.async.ca.L2::128B 16: R0[16t, +16)      <- src[16((t + 1) % 128), +16)
//   wait_group 1 -> out[2] = R2, out[3] = R3;  wait_all -> out[4] = R0
//   then, tracked by an mbarrier (cp.async.mbarrier.arrive.noinc, count 128, wait parity 0):
//            cp.async.ca 16 B:        R1[16t, +16)      <- src[2048 + 16(127 - t), +16)
//   out[5] = R1
// Each thread's wait covers only its own copies, so every read of a region written by other
// threads sits behind a bar.sync after the waits (§9.7.9.25.3.2).
#include <cstdint>

namespace {

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void copy_region(const uint8_t* region, uint8_t* out, uint32_t t) {
  for (uint32_t i = t; i < 2048 / 4; i += 128)
    reinterpret_cast<uint32_t*>(out)[i] = reinterpret_cast<const uint32_t*>(region)[i];
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128, 1)
    cp_async_groups(const uint8_t* __restrict__ src, uint8_t* __restrict__ out) {
  __shared__ __align__(16) uint8_t R[4][2048];
  __shared__ __align__(8) uint64_t bar;
  if (blockDim.x != 128 || blockDim.y != 1 || blockDim.z != 1) __trap();
  const uint32_t t = threadIdx.x;
  for (uint32_t i = t; i < 4 * 2048 / 4; i += 128) reinterpret_cast<uint32_t*>(&R[0][0])[i] = 0;
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 128;" ::"r"(smem_u32(&bar)) : "memory");
  __syncthreads();

  // group 0
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_u32(&R[0][16 * t])), "l"(src + 16 * t)
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  // group 1
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(smem_u32(&R[1][16 * t])),
               "l"(src + 2048 + 16 * t + 8)
               : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(smem_u32(&R[1][16 * t + 8])),
               "l"(src + 2048 + 16 * t)
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  // group 2
  for (uint32_t i = 0; i < 4; ++i)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_u32(&R[2][16 * t + 4 * i])),
                 "l"(src + 4096 + 16 * ((7 * t) % 128) + 4 * (3 - i))
                 : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  // group 3
  if (t % 5 == 0) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.eq.u32 p, %2, 0;\n"
        "cp.async.ca.shared.global [%0], [%1], 16, p;\n}\n" ::"r"(smem_u32(&R[3][16 * t])),
        "l"(src + 6144 + 16 * t), "r"(t % 5)
        : "memory");
  } else {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_u32(&R[3][16 * t])),
                 "l"(src + 6144 + 16 * t), "r"(t % 17)
                 : "memory");
  }
  asm volatile("cp.async.commit_group;" ::: "memory");

  asm volatile("cp.async.wait_group 3;" ::: "memory");
  __syncthreads();
  copy_region(R[0], out + 0 * 2048, t);
  asm volatile("cp.async.wait_group 2;" ::: "memory");
  __syncthreads();  // also: everyone has finished reading R0 before group 4 rewrites it
  copy_region(R[1], out + 1 * 2048, t);

  // group 4, into R0 again
  asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 16;" ::"r"(smem_u32(&R[0][16 * t])),
               "l"(src + 16 * ((t + 1) % 128))
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 1;" ::: "memory");
  __syncthreads();  // also: everyone has finished reading R1 before it is rewritten below
  copy_region(R[2], out + 2 * 2048, t);
  copy_region(R[3], out + 3 * 2048, t);
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  copy_region(R[0], out + 4 * 2048, t);

  // mbarrier-tracked completion: the arrive happens when this thread's prior cp.async are done;
  // .noinc: the arrival is one of the 128 the barrier was initialised with.
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem_u32(&R[1][16 * t])),
               "l"(src + 2048 + 16 * (127 - t))
               : "memory");
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(smem_u32(&bar)) : "memory");
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_u32(&bar))
        : "memory");
  copy_region(R[1], out + 5 * 2048, t);
}
