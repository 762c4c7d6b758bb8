// sass_addr.cu — small kernels whose SASS (cuobjdump -sass, ptxas 13.0) shows how shared-memory
// addresses are formed and which bits of an address operand each instruction uses. Built by
// sass_addr.sh for sm_90a and sm_100a (no GPU needed); the listing is committed beside the results
// (kernels/probes/results/h200-2026-12-01-machine/sass_addr.txt). Facts: docs/shared_memory.md.
//   shared_var_addr   the 32-bit shared address and the generic address of static and dynamic
//                     __shared__ variables (S2R SR_CgaCtaId, LEA ... 0x18; SR_SWINHI)
//   mbar_generic      mbarrier.init / arrive / try_wait given a generic address (no state space)
//   tc_alloc_generic  tcgen05.alloc / dealloc / commit given a generic address (sm_100a only)
#include <cstdint>

__shared__ uint32_t s_a[4];
extern __shared__ __align__(16) uint32_t dyn[];

extern "C" __global__ void shared_var_addr(uint32_t* out) {
  __shared__ uint32_t s_b[8];
  out[0] = static_cast<uint32_t>(__cvta_generic_to_shared(s_a));
  out[1] = static_cast<uint32_t>(__cvta_generic_to_shared(s_b));
  out[2] = static_cast<uint32_t>(__cvta_generic_to_shared(dyn));
  const uint64_t g = reinterpret_cast<uint64_t>(&s_b[1]);
  out[3] = static_cast<uint32_t>(g);
  out[4] = static_cast<uint32_t>(g >> 32);
  s_a[threadIdx.x] = 1;
  s_b[threadIdx.x] = 2;
  dyn[threadIdx.x] = 3;
}

// The generic pointers below come from global memory (`where`), so ptxas cannot tell that they point
// to shared memory and must emit whatever the instruction does with a generic address.
extern "C" __global__ void mbar_generic(uint32_t* out, uint64_t* const* where) {
  uint64_t* p = where[0];
  asm volatile("mbarrier.init.b64 [%0], 1;" ::"l"(p) : "memory");
  asm volatile("mbarrier.arrive.b64 _, [%0];" ::"l"(p) : "memory");
  uint32_t done;
  asm volatile("{\n\t.reg .pred q;\n\tmbarrier.try_wait.parity.b64 q, [%1], 0;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(done)
               : "l"(p)
               : "memory");
  out[0] = done;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
extern "C" __global__ void tc_alloc_generic(uint32_t* out, void* const* where) {
  uint32_t* ps = static_cast<uint32_t*>(where[0]);
  uint64_t* pb = static_cast<uint64_t*>(where[1]);
  if (threadIdx.x < 32) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.b32 [%0], 32;" ::"l"(ps) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.b64 [%0], 1;" ::"l"(pb) : "memory");
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%0];" ::"l"(pb) : "memory");
  }
  __syncthreads();
  const uint32_t slot = *ps;
  out[0] = slot;
  if (threadIdx.x < 32) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;" ::"r"(slot) : "memory");
}
#endif
