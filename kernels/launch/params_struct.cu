// params_struct.cu — a kernel that takes its arguments the way CUTLASS kernels do: one by-value
// `Params` aggregate (`const __grid_constant__`) holding two device pointers, a nested struct, a
// char array, scalars of every width and a whole tensor map at offset 64, plus scalars after it;
// and a __constant__ table (nvcc declares it `.const .align 4 .b8 kTable[128]`) that the launch
// spec initialises from a .npy file of float32 (matched by bytes, LAUNCH_SPEC.md "symbols").
// Spec: params_struct.json (the `struct`, `bytes` and nested forms of LAUNCH_SPEC.md "args").
//
// Families: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes through
// the parameter's tensor map (its generic address: a __grid_constant__ parameter's address is
// legal, PTX ISA §5.5.8 "Tensor-map" / §9.7.9.25.5.2), mbarrier.init / arrive.expect_tx /
// try_wait.parity, ld.param of every field, ld.const of the table, ld/st.global through the
// struct's pointers.
//
// Each CTA b loads the 16 x 32 f32 box at rows [16b, 16b+16) of A through p.tmap, then thread t
// writes, for its four elements e = t + 128k (row r = e / 32, column c = e % 32):
//   dst[16b·32 + e] = tile[r][c] · p.scale + src[16b·32 + e] + kTable[c] + p.bias + p.flag
//                     + (p.seq & 0xff) + p.shape.cols − p.shape.rows + p.tail + iters
// (p.src = X + 256 bytes: the spec's offset_bytes), and thread 0 of CTA 0 copies every scalar
// field as it sees it into info[0..9): shape.rows, shape.cols, scale's bits, bias, flag, the 8
// tag bytes, seq, tail | iters << 32, and the by-value Shape `pad` (a `.param .align 4 .b8 [8]`
// parameter: a u64 scalar does not fit its alignment, bad/struct_param_u64.json).
#include <cuda/ptx>
#include <cstddef>
#include <cstdint>

namespace ptx = cuda::ptx;

// The 128-byte tensor map as CUDA 12's cuda.h declares CUtensorMap (alignas(64), the alignment the
// TMA needs); CUDA 13's cuda.h over-aligns it to 128, which would move it to offset 128 here.
struct alignas(64) TensorMap64 {
  uint64_t opaque[16];
};

struct Shape {
  uint32_t rows;  // 0
  uint32_t cols;  // 4
};

struct Params {
  const float* src;  // 0
  float* dst;        // 8
  Shape shape;       // 16
  float scale;       // 24
  int16_t bias;      // 28
  uint8_t flag;      // 30
  char tag[8];       // 31 .. 38
  uint64_t seq;      // 40
  TensorMap64 tmap;  // 64 .. 191
  uint32_t tail;     // 192
};                   // 256 bytes, 64-byte aligned (the tensor map's alignment)

static_assert(sizeof(Params) == 256 && alignof(Params) == 64, "the layout params_struct.json describes");
static_assert(offsetof(Params, tag) == 31 && offsetof(Params, seq) == 40 && offsetof(Params, tmap) == 64 &&
                  offsetof(Params, tail) == 192,
              "the offsets params_struct.json gives");

__constant__ float kTable[32];

constexpr int kRows = 16, kCols = 32;

__global__ void __launch_bounds__(128) params_struct(const __grid_constant__ Params p, uint32_t iters,
                                                     Shape pad, uint64_t* info) {
  __shared__ alignas(128) float tile[kRows][kCols];
  __shared__ alignas(8) uint64_t full;
  const int t = threadIdx.x;
  if (t == 0) {
    ptx::mbarrier_init(&full, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (t == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof tile);
    const int32_t c[2] = {0, static_cast<int32_t>(blockIdx.x) * kRows};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, &tile[0][0], &p.tmap, c, &full);
  }
  while (!ptx::mbarrier_try_wait_parity(&full, 0)) {
  }
  const float extra = static_cast<float>(p.bias) + static_cast<float>(p.flag) + static_cast<float>(p.seq & 0xff) +
                      static_cast<float>(static_cast<int32_t>(p.shape.cols) - static_cast<int32_t>(p.shape.rows)) +
                      static_cast<float>(p.tail) + static_cast<float>(iters);
  const uint32_t base = blockIdx.x * kRows * kCols;
  for (int k = 0; k < 4; ++k) {
    const int e = t + 128 * k, r = e / kCols, col = e % kCols;
    p.dst[base + e] = tile[r][col] * p.scale + p.src[base + e] + kTable[col] + extra;
  }
  if (blockIdx.x == 0 && t == 0) {
    uint64_t tag = 0;
    for (int i = 0; i < 8; ++i) tag |= static_cast<uint64_t>(static_cast<uint8_t>(p.tag[i])) << (8 * i);
    info[0] = p.shape.rows;
    info[1] = p.shape.cols;
    info[2] = __float_as_uint(p.scale);
    info[3] = static_cast<uint64_t>(static_cast<int64_t>(p.bias));
    info[4] = p.flag;
    info[5] = tag;
    info[6] = p.seq;
    info[7] = (static_cast<uint64_t>(iters) << 32) | p.tail;
    info[8] = (static_cast<uint64_t>(pad.cols) << 32) | pad.rows;
  }
}
