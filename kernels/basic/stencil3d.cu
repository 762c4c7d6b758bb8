// stencil3d.cu — a 7-point Jacobi step on a 3D volume with a 3D grid of 3D blocks: 6 x 5 x 4 =
// 120 threads per block (not a multiple of 32: warps straddle rows and planes), a volume of
// 29 x 19 x 11 so the last block is partial in every dimension, zero boundary values.
//
// Families: %tid/%ntid/%ctaid .x/.y/.z address arithmetic (mad.lo), three-way bounds checks,
// ld.global.nc.f32 with neighbour offsets, fma.rn.f32 and add.rn.f32 in a fixed order (the
// __fmaf_rn/__fadd_rn intrinsics pin every rounding, so reference.py can replay it exactly).
// Specs: stencil3d.json
//
// out[z][y][x] = fma(c3, sz, fma(c2, sy, fma(c1, sx, c0 * u))), sx = u[x-1] + u[x+1] etc.

__device__ __forceinline__ float at(const float* __restrict__ u, int x, int y, int z, int nx,
                                    int ny, int nz) {
  return (x >= 0 && x < nx && y >= 0 && y < ny && z >= 0 && z < nz) ? u[(z * ny + y) * nx + x]
                                                                    : 0.0f;
}

extern "C" __global__ void stencil3d(const float* __restrict__ u, float* __restrict__ out, int nx,
                                     int ny, int nz, float c0, float c1, float c2, float c3) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;

  const float sx = __fadd_rn(at(u, x - 1, y, z, nx, ny, nz), at(u, x + 1, y, z, nx, ny, nz));
  const float sy = __fadd_rn(at(u, x, y - 1, z, nx, ny, nz), at(u, x, y + 1, z, nx, ny, nz));
  const float sz = __fadd_rn(at(u, x, y, z - 1, nx, ny, nz), at(u, x, y, z + 1, nx, ny, nz));
  float acc = __fmul_rn(c0, u[(z * ny + y) * nx + x]);
  acc = __fmaf_rn(c1, sx, acc);
  acc = __fmaf_rn(c2, sy, acc);
  acc = __fmaf_rn(c3, sz, acc);
  out[(z * ny + y) * nx + x] = acc;
}
