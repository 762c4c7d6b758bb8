// calls.cu — the PTX calling convention as nvcc uses it, and indirect control flow.
//
// Families: call.uni / call (divergent) to __noinline__ .func with .param scalars of every width
// (u8/s16/u32/s64/f32/f64), struct arguments passed by value (.param .align .b8 arrays) and struct
// results, pointer arguments into shared memory (generic, cvta.shared), indirect calls through a
// function-pointer table initialised in __device__ memory (call with a .callprototype; the .global
// initialiser holds function addresses), brx.idx over a .branchtargets table (inline PTX: nvcc 13
// lowers switch statements to compare chains, never to brx.idx), the switch itself, ret, exit.
// Specs: calls.json

struct Vec3 {
  float x, y, z;
};
struct Packed {
  unsigned char tag;
  short delta;
  long long wide;
  double scale;
};

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) {
  return {__fsub_rn(__fmul_rn(a.y, b.z), __fmul_rn(a.z, b.y)),
          __fsub_rn(__fmul_rn(a.z, b.x), __fmul_rn(a.x, b.z)),
          __fsub_rn(__fmul_rn(a.x, b.y), __fmul_rn(a.y, b.x))};
}

// Mixed-width scalar parameters (u8 and s16 travel as .b32 params, widened by the callee).
__device__ __noinline__ long long mix(unsigned char tag, short delta, unsigned u, long long w,
                                      float f, double d) {
  return (long long)tag * 1000003 + delta * 17 + (long long)u + w + (long long)f + (long long)d;
}

__device__ __noinline__ Packed adjust(Packed p, int k) {
  p.tag = (unsigned char)(p.tag + k);
  p.delta = (short)(p.delta - k * 3);
  p.wide ^= (long long)k << 40;  // k >= 0
  p.scale = __dmul_rn(p.scale, 2.0);
  return p;
}

// Adds into a shared-memory slot through a generic pointer.
__device__ __noinline__ void bump(unsigned* slot, unsigned by) {
  atomicAdd(slot, by);
}

// Function-pointer table in __device__ memory, initialised statically.
// (Arithmetic that may wrap is done in unsigned: no signed-overflow UB in the C++.)
__device__ __noinline__ int op_add(int a, int b) {
  return (int)((unsigned)a + (unsigned)b);
}
__device__ __noinline__ int op_sub(int a, int b) {
  return (int)((unsigned)a - (unsigned)b);
}
__device__ __noinline__ int op_mul(int a, int b) {
  return (int)((unsigned)a * (unsigned)b);
}
__device__ __noinline__ int op_xor_rot(int a, int b) {
  const unsigned x = (unsigned)(a ^ b);
  return (int)(x << 3 | x >> 29);
}
typedef int (*BinOp)(int, int);
__device__ BinOp g_ops[4] = {op_add, op_sub, op_mul, op_xor_rot};

// brx.idx: an indexed branch through a table of labels.
__device__ __noinline__ int jump_table(unsigned sel, int x) {
  int r;
  asm("{\n\t"
      ".reg .u32 idx;\n\t"
      "and.b32 idx, %1, 3;\n\t"
      "jt: .branchtargets JT_0, JT_1, JT_2, JT_3;\n\t"
      "brx.idx idx, jt;\n"
      "JT_0:\n\t"
      "mul.lo.s32 %0, %2, 3;\n\t"
      "bra.uni JT_END;\n"
      "JT_1:\n\t"
      "add.s32 %0, %2, 1000;\n\t"
      "bra.uni JT_END;\n"
      "JT_2:\n\t"
      "not.b32 %0, %2;\n\t"
      "bra.uni JT_END;\n"
      "JT_3:\n\t"
      "shr.s32 %0, %2, 4;\n"
      "JT_END:\n\t"
      "}"
      : "=r"(r)
      : "r"(sel), "r"(x));
  return r;
}

// A dense switch, as written in real code (nvcc emits a compare tree).
__device__ int classify(int x) {
  const unsigned u = (unsigned)x;
  switch (x & 15) {
    case 0:
      return (int)(u * 7u + 1u);
    case 1:
      return x ^ 0x5a5a;
    case 2:
      return (int)(u + 9000u);
    case 3:
      return (int)(u - 11u);
    case 4:
      return (int)(u << 3);
    case 5:
      return x >> 2;  // arithmetic shift
    case 6:
      return ~x;
    case 7:
      return (int)(u * u);
    case 8:
      return x | 0x100;
    case 9:
      return x & 0xfff;
    case 10:
      return x / 3;  // signed division, rounds toward zero
    case 11:
      return x % 1000;
    default:
      return (int)(u + 1u);
  }
}

extern "C" __global__ void calls(const int* __restrict__ in, int n, float* __restrict__ vout,
                                 long long* __restrict__ lout, int* __restrict__ iout,
                                 unsigned* __restrict__ shared_out) {
  __shared__ unsigned counters[4];
  if (threadIdx.x < 4) counters[threadIdx.x] = 0;
  __syncthreads();

  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int v = in[i];
    const Vec3 a = {(float)(v & 255) * 0.5f, (float)(v >> 8 & 255), -1.25f};
    const Vec3 b = {3.0f, (float)(v >> 16 & 63) * 0.25f, (float)(v >> 24)};
    const Vec3 c = cross(a, b);
    vout[3 * i + 0] = c.x;
    vout[3 * i + 1] = c.y;
    vout[3 * i + 2] = c.z;

    lout[2 * i] = mix((unsigned char)v, (short)(v >> 8), (unsigned)v * 3u, (long long)v * 1048576,
                      (float)(v & 1023) * 0.75f, (double)(v >> 12));
    Packed p = {(unsigned char)(v >> 3), (short)v, (long long)v * 977, (double)(v & 4095)};
    p = adjust(p, v & 7);
    lout[2 * i + 1] = p.tag + p.delta + p.wide + (long long)p.scale;

    // Divergent indirect call: each lane picks an operation.
    const BinOp op = g_ops[(v >> 4) & 3];
    iout[3 * i + 0] = op(v, i);
    iout[3 * i + 1] = jump_table((unsigned)v >> 7, v);
    iout[3 * i + 2] = classify(v);

    bump(&counters[v & 3], 1u + ((unsigned)v >> 30));
  }
  __syncthreads();
  if (threadIdx.x < 4) shared_out[blockIdx.x * 4 + threadIdx.x] = counters[threadIdx.x];
}
