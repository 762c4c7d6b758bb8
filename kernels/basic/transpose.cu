// transpose.cu — out-of-place matrix transpose through a padded shared-memory tile (TILE x TILE+1,
// so column reads hit 32 different banks), TILE x 8 threads per block, each thread moving
// TILE/8 elements. Templated on the element type: float (4-byte) and double (8-byte) entries.
//
// Families: 2D grid/block (%ctaid.y, %tid.y), ld/st.global with 2D indexing, ld/st.shared with
// padded strides, bar.sync, bounds checks on both dimensions (matrix 100 x 75: partial tiles on
// both edges), mad.lo / mul.wide address arithmetic, 32- and 64-bit loads/stores.
// Specs: transpose_f32.json, transpose_f64.json
//
// out[c * rows + r] = in[r * cols + c]  (bit copy: exact for any input bits).

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

template <typename T>
__global__ void transpose(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
  __shared__ T tile[kTile][kTile + 1];
  const int c = blockIdx.x * kTile + threadIdx.x;   // input column
  const int r0 = blockIdx.y * kTile + threadIdx.y;  // first input row of this thread

  for (int j = 0; j < kTile; j += kRowsPerPass) {
    const int r = r0 + j;
    if (r < rows && c < cols) tile[threadIdx.y + j][threadIdx.x] = in[r * cols + c];
  }
  __syncthreads();

  const int oc = blockIdx.y * kTile + threadIdx.x;   // output column = input row
  const int or0 = blockIdx.x * kTile + threadIdx.y;  // output row = input column
  for (int j = 0; j < kTile; j += kRowsPerPass) {
    const int orow = or0 + j;
    if (orow < cols && oc < rows) out[orow * rows + oc] = tile[threadIdx.x][threadIdx.y + j];
  }
}

template __global__ void transpose<float>(const float* __restrict__, float* __restrict__, int, int);
template __global__ void transpose<double>(const double* __restrict__, double* __restrict__, int,
                                           int);
