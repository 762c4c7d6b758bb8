// The tcgen05 probe tile (tcgen05_kernels.cuh) as plain entry points, for tcsim's launch specs
// (tcgen05_tile_*.json beside this file; tcgen05_tile.ptx is generated from this file with
//   nvcc -ptx -gencode arch=compute_100a,code=compute_100a -I<repo> tcgen05_tile.cu).
// Parameters: A (128 x 32 bytes), B (16 x 32 bytes), C and D (128 x 16 words), SA (128 x nsf),
// SB (16 x nsf), idesc, nsf (scale factors per row, 0 = unscaled), reps.
#include "kernels/probes/tcgen05/tcgen05_kernels.cuh"

#define TCGEN05_TILE(NAME, KIND)                                                              \
  extern "C" __global__ void __launch_bounds__(128)                                           \
      NAME(const uint8_t* A, const uint8_t* B, const uint32_t* C, uint32_t* D,                \
           const uint8_t* SA, const uint8_t* SB, uint32_t idesc, int nsf, int reps) {         \
    tc::tile_body<KIND, 0>(A, B, C, D, SA, SB, idesc, nsf, reps);                             \
  }

TCGEN05_TILE(tcgen05_tile_f16, tc::kF16)
TCGEN05_TILE(tcgen05_tile_tf32, tc::kTF32)
TCGEN05_TILE(tcgen05_tile_f8f6f4, tc::kF8F6F4)
TCGEN05_TILE(tcgen05_tile_i8, tc::kI8)
TCGEN05_TILE(tcgen05_tile_mxf8f6f4, tc::kMXF8F6F4)
TCGEN05_TILE(tcgen05_tile_mxf4, tc::kMXF4)
TCGEN05_TILE(tcgen05_tile_mxf4nvf4_4x, tc::kMXF4NVF4_4X)
