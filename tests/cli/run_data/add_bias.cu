// Fixture for `tcsim run` and tcsim_add_golden_test: y[i] = x[i] + bias[i % 4], with `bias` a
// __constant__ table initialised through the spec's "symbols".
// Regenerate: nvcc -ptx -arch=sm_90a add_bias.cu -o add_bias.ptx
__constant__ float bias[4];

extern "C" __global__ void add_bias(unsigned n, const float* x, float* y) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + bias[i % 4];
}
