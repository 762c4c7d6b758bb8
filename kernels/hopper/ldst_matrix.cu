// ldmatrix / stmatrix / movmatrix, every form Hopper has for .b16 8x8 matrices (PTX ISA 9.2
// §9.7.14.5.15 ldmatrix, §9.7.14.5.16 stmatrix, §9.7.14.5.17 movmatrix), on random bits.
//
// One warp. Variant v = 0..5 is (x1, x1.trans, x2, x2.trans, x4, x4.trans): nmat = 1, 1, 2, 2, 4, 4.
//   ldmatrix: X (64 x 64 u16) is copied into a shared tile with a 144-byte row pitch (72 u16, the
//     usual bank-conflict padding). Lane l gives the address of row l%8 of matrix l/8: tile row
//     (8*(l/8) + 5*(l%8) + 3v) % 64, columns 8*((l/8 + v) % 8) .. +7. Register j of lane t receives
//     matrix j's row t/4, elements 2(t%4), 2(t%4)+1 (low half first); with .trans the matrix is
//     transposed first (element (2(t%4)+i, t/4)). ld_out[v][t][j] = that register (0 for j >= nmat).
//     Lanes >= 8*nmat also give valid addresses, which the instruction ignores.
//   stmatrix: registers Y[v][t][0..nmat) are stored into a zeroed 32 x 72 u16 tile: lane l gives row
//     (8*(l/8) + 3*(l%8) + v) % 32, columns 8*((2*(l/8) + v) % 8) .. +7 (no two matrices overlap);
//     st_out[v] = the whole tile afterwards.
//   movmatrix.trans: mov_out[t] = the register lane t holds after transposing the 8x8 matrix whose
//     row t/4, elements 2(t%4), +1 are in Z[t].
#include <cstdint>

namespace {

constexpr uint32_t kPitch = 72;  // u16 per shared row (144 bytes: 16-byte aligned rows)

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldmatrix(uint32_t v, uint32_t addr, uint32_t (&r)[4]) {
  switch (v) {
    case 0:
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr) : "memory");
      break;
    case 1:
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr) : "memory");
      break;
    case 2:
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                   : "=r"(r[0]), "=r"(r[1])
                   : "r"(addr)
                   : "memory");
      break;
    case 3:
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                   : "=r"(r[0]), "=r"(r[1])
                   : "r"(addr)
                   : "memory");
      break;
    case 4:
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(addr)
                   : "memory");
      break;
    default:
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(addr)
                   : "memory");
      break;
  }
}

__device__ __forceinline__ void stmatrix(uint32_t v, uint32_t addr, const uint32_t (&r)[4]) {
  switch (v) {
    case 0:
      asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(addr), "r"(r[0]) : "memory");
      break;
    case 1:
      asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(addr), "r"(r[0]) : "memory");
      break;
    case 2:
      asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(r[0]), "r"(r[1])
                   : "memory");
      break;
    case 3:
      asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(r[0]),
                   "r"(r[1])
                   : "memory");
      break;
    case 4:
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r[0]),
                   "r"(r[1]), "r"(r[2]), "r"(r[3])
                   : "memory");
      break;
    default:
      asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r[0]),
                   "r"(r[1]), "r"(r[2]), "r"(r[3])
                   : "memory");
      break;
  }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(32, 1)
    ldst_matrix(const uint16_t* __restrict__ X, const uint32_t* __restrict__ Y, const uint32_t* __restrict__ Z,
                uint32_t* __restrict__ ld_out, uint16_t* __restrict__ st_out, uint32_t* __restrict__ mov_out) {
  __shared__ __align__(16) uint16_t tile[64 * kPitch];
  __shared__ __align__(16) uint16_t stage[32 * kPitch];
  if (blockDim.x != 32 || blockDim.y != 1 || blockDim.z != 1) __trap();
  const uint32_t lane = threadIdx.x, mi = lane / 8, r = lane % 8;

  for (uint32_t i = lane; i < 64 * kPitch; i += 32) {
    const uint32_t row = i / kPitch, col = i % kPitch;
    tile[i] = col < 64 ? X[row * 64 + col] : 0;
  }
  __syncwarp();
  for (uint32_t v = 0; v < 6; ++v) {
    const uint32_t row = (8 * mi + 5 * r + 3 * v) % 64, col = 8 * ((mi + v) % 8);
    uint32_t regs[4] = {0, 0, 0, 0};
    ldmatrix(v, smem_u32(&tile[row * kPitch + col]), regs);
    const uint32_t nmat = 1u << (v / 2);
    for (uint32_t j = 0; j < 4; ++j) ld_out[(v * 32 + lane) * 4 + j] = j < nmat ? regs[j] : 0u;
  }

  for (uint32_t v = 0; v < 6; ++v) {
    for (uint32_t i = lane; i < 32 * kPitch; i += 32) stage[i] = 0;
    __syncwarp();
    const uint32_t row = (8 * mi + 3 * r + v) % 32, col = 8 * ((2 * mi + v) % 8);
    const uint32_t regs[4] = {Y[(v * 32 + lane) * 4 + 0], Y[(v * 32 + lane) * 4 + 1], Y[(v * 32 + lane) * 4 + 2],
                              Y[(v * 32 + lane) * 4 + 3]};
    stmatrix(v, smem_u32(&stage[row * kPitch + col]), regs);
    __syncwarp();
    for (uint32_t i = lane; i < 32 * kPitch; i += 32) st_out[v * 32 * kPitch + i] = stage[i];
    __syncwarp();
  }

  uint32_t m;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(m) : "r"(Z[lane]));
  mov_out[lane] = m;
}
