// One-tile MMA kernels for every tensor-core instruction path of sm_90a (H100/H200):
//   mma.sync.aligned.m16n8kK  (PTX ISA §9.7.14.5: f16/bf16 k16, tf32 k8, e4m3/e5m2 k32, s8/u8 k32)
//   wgmma.mma_async m64n64kK  (PTX ISA §9.7.15: A from shared memory ("SS") or registers ("RS"))
// Each thread block computes one tile per blockIdx.x: D = A*B + C, applied `reps` times (D fed
// back as C: the chaining of successive MMAs). A is M x K row-major, B is K x N stored column by
// column (column n's K elements contiguous), elements packed at their storage width (1, 2 or 4
// bytes: fp8/s8/u8, f16/bf16, tf32 as an fp32 word); C and D are M x N row-major 32-bit words
// (f32 / s32 bits, or an f16 code in the low half).
//
// Register fragments (PTX ISA §9.7.14.5.7/8/10; docs/mma_fragments.md), g = lane/4,
// q = lane%4, w = warp in the warpgroup:
//   A 16-bit k16: a_i (i=0..7), reg i/2 half i%2: row g + 8((i>>1)&1), k 2q + (i&1) + 8(i>>2)
//   A 32-bit k8 : a_i (i=0..3), reg i:             row g + 8(i&1),      k q + 4(i>>1)
//   A 8-bit k32 : a_i (i=0..15), reg i/4 byte i%4: row g + 8((i>>2)&1), k 4q + (i&3) + 16(i>>3)
//   B 16-bit k16: b_i (i=0..3), reg i/2 half i%2: k 2q + (i&1) + 8(i>>1), col g
//   B 32-bit k8 : b_i (i=0..1), reg i:             k q + 4i,              col g
//   B 8-bit k32 : b_i (i=0..7), reg i/4 byte i%4: k 4q + (i&3) + 16(i>>2), col g
//   C/D m16n8   : c_i (i=0..3): row g + 8(i>>1), col 2q + (i&1)  (f16: reg i/2 half i%2)
//   wgmma A(RS) : the m16 A fragment of warp w, rows 16w..16w+15
//   wgmma D m64nN: d_i (i=0..N/2-1): row 16w + g + 8((i>>1)&1), col 8(i>>2) + 2q + (i&1)
// Shared memory for wgmma SS: K-major, no swizzle (PTX ISA §9.7.15.5.1.2.1 canonical layouts;
// docs/smem_layouts.md §2): core matrices of 8 rows x 16 bytes; byte offset of (row r, byte kb)
// = (r/8)*256 + (kb/16)*128 + (r%8)*16 + kb%16, so LBO (next core matrix along K) = 128 B and
// SBO (next 8 rows) = 256 B. Every operand here has 32 bytes of K per row.
#pragma once
#include <cstdint>
#include <type_traits>

namespace probes {

template <int kBytes>
__device__ __forceinline__ uint32_t ld_elem(const uint8_t* p, int idx) {
  if constexpr (kBytes == 1) return p[idx];
  if constexpr (kBytes == 2) return reinterpret_cast<const uint16_t*>(p)[idx];
  return reinterpret_cast<const uint32_t*>(p)[idx];
}

// The A fragment of one 16-row slab (rows row0..row0+15) of the row-major M x K tile.
template <int kBytes>
__device__ __forceinline__ void load_a_frag(const uint8_t* A, int K, int row0, uint32_t (&a)[4]) {
  const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  for (int r = 0; r < 4; ++r) a[r] = 0;
  if constexpr (kBytes == 2) {
    for (int i = 0; i < 8; ++i) {
      const int row = row0 + g + 8 * ((i >> 1) & 1), k = 2 * q + (i & 1) + 8 * (i >> 2);
      a[i / 2] |= ld_elem<2>(A, row * K + k) << (16 * (i % 2));
    }
  } else if constexpr (kBytes == 4) {
    for (int i = 0; i < 4; ++i) {
      const int row = row0 + g + 8 * (i & 1), k = q + 4 * (i >> 1);
      a[i] = ld_elem<4>(A, row * K + k);
    }
  } else {
    for (int i = 0; i < 16; ++i) {
      const int row = row0 + g + 8 * ((i >> 2) & 1), k = 4 * q + (i & 3) + 16 * (i >> 3);
      a[i / 4] |= ld_elem<1>(A, row * K + k) << (8 * (i % 4));
    }
  }
}

// The B fragment of mma.sync m16n8 (column g of the 8 columns).
template <int kBytes>
__device__ __forceinline__ void load_b_frag(const uint8_t* B, int K, uint32_t (&b)[2]) {
  const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  b[0] = b[1] = 0;
  if constexpr (kBytes == 2) {
    for (int i = 0; i < 4; ++i) {
      const int k = 2 * q + (i & 1) + 8 * (i >> 1);
      b[i / 2] |= ld_elem<2>(B, g * K + k) << (16 * (i % 2));
    }
  } else if constexpr (kBytes == 4) {
    for (int i = 0; i < 2; ++i) b[i] = ld_elem<4>(B, g * K + q + 4 * i);
  } else {
    for (int i = 0; i < 8; ++i) {
      const int k = 4 * q + (i & 3) + 16 * (i >> 2);
      b[i / 4] |= ld_elem<1>(B, g * K + k) << (8 * (i % 4));
    }
  }
}

// ------------------------------------------------------------------------------ mma.sync
// D registers: 4 x 32-bit (f32 as float, s32) or 2 x f16x2.
#define PROBES_MMA4F(NAME, INSTR)                                                            \
  struct NAME {                                                                               \
    static constexpr int kDRegs = 4;                                                          \
    static __device__ __forceinline__ void run(uint32_t (&d)[4], const uint32_t (&a)[4],      \
                                               const uint32_t (&b)[2]) {                      \
      float f0 = __uint_as_float(d[0]), f1 = __uint_as_float(d[1]),                           \
            f2 = __uint_as_float(d[2]), f3 = __uint_as_float(d[3]);                           \
      asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"           \
                   : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3)                                   \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));       \
      d[0] = __float_as_uint(f0), d[1] = __float_as_uint(f1);                                 \
      d[2] = __float_as_uint(f2), d[3] = __float_as_uint(f3);                                 \
    }                                                                                         \
  };
#define PROBES_MMA4I(NAME, INSTR)                                                            \
  struct NAME {                                                                               \
    static constexpr int kDRegs = 4;                                                          \
    static __device__ __forceinline__ void run(uint32_t (&d)[4], const uint32_t (&a)[4],      \
                                               const uint32_t (&b)[2]) {                      \
      asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"           \
                   : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                           \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));       \
    }                                                                                         \
  };
#define PROBES_MMA2H(NAME, INSTR)                                                            \
  struct NAME {                                                                               \
    static constexpr int kDRegs = 2;                                                          \
    static __device__ __forceinline__ void run(uint32_t (&d)[4], const uint32_t (&a)[4],      \
                                               const uint32_t (&b)[2]) {                      \
      asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};\n"                       \
                   : "+r"(d[0]), "+r"(d[1])                                                   \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));       \
    }                                                                                         \
  };

#define PROBES_MMA "mma.sync.aligned.m16n8k"
PROBES_MMA4F(MmaF16F32, PROBES_MMA "16.row.col.f32.f16.f16.f32")
PROBES_MMA2H(MmaF16F16, PROBES_MMA "16.row.col.f16.f16.f16.f16")
PROBES_MMA4F(MmaBF16F32, PROBES_MMA "16.row.col.f32.bf16.bf16.f32")
PROBES_MMA4F(MmaTF32F32, PROBES_MMA "8.row.col.f32.tf32.tf32.f32")
PROBES_MMA4F(MmaE4E4F32, PROBES_MMA "32.row.col.f32.e4m3.e4m3.f32")
PROBES_MMA4F(MmaE4E5F32, PROBES_MMA "32.row.col.f32.e4m3.e5m2.f32")
PROBES_MMA4F(MmaE5E4F32, PROBES_MMA "32.row.col.f32.e5m2.e4m3.f32")
PROBES_MMA4F(MmaE5E5F32, PROBES_MMA "32.row.col.f32.e5m2.e5m2.f32")
PROBES_MMA2H(MmaE4E4F16, PROBES_MMA "32.row.col.f16.e4m3.e4m3.f16")
PROBES_MMA2H(MmaE4E5F16, PROBES_MMA "32.row.col.f16.e4m3.e5m2.f16")
PROBES_MMA2H(MmaE5E4F16, PROBES_MMA "32.row.col.f16.e5m2.e4m3.f16")
PROBES_MMA2H(MmaE5E5F16, PROBES_MMA "32.row.col.f16.e5m2.e5m2.f16")
PROBES_MMA4I(MmaS8S8, PROBES_MMA "32.row.col.s32.s8.s8.s32")
PROBES_MMA4I(MmaS8U8, PROBES_MMA "32.row.col.s32.s8.u8.s32")
PROBES_MMA4I(MmaU8S8, PROBES_MMA "32.row.col.s32.u8.s8.s32")
PROBES_MMA4I(MmaU8U8, PROBES_MMA "32.row.col.s32.u8.u8.s32")
PROBES_MMA4I(MmaS8S8Sat, PROBES_MMA "32.row.col.satfinite.s32.s8.s8.s32")
PROBES_MMA4I(MmaS8U8Sat, PROBES_MMA "32.row.col.satfinite.s32.s8.u8.s32")
PROBES_MMA4I(MmaU8S8Sat, PROBES_MMA "32.row.col.satfinite.s32.u8.s8.s32")
PROBES_MMA4I(MmaU8U8Sat, PROBES_MMA "32.row.col.satfinite.s32.u8.u8.s32")

// One warp per tile (M=16, N=8).
template <class Op, int kBytes, int K>
__global__ void mma_sync_tiles(const uint8_t* A, const uint8_t* B, const uint32_t* C,
                               uint32_t* D, int reps) {
  constexpr int M = 16, N = 8;
  const int t = blockIdx.x;
  const uint8_t* At = A + static_cast<size_t>(t) * M * K * kBytes;
  const uint8_t* Bt = B + static_cast<size_t>(t) * N * K * kBytes;
  const uint32_t* Ct = C + static_cast<size_t>(t) * M * N;
  uint32_t* Dt = D + static_cast<size_t>(t) * M * N;
  const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  uint32_t a[4], b[2], d[4] = {0, 0, 0, 0};
  load_a_frag<kBytes>(At, K, 0, a);
  load_b_frag<kBytes>(Bt, K, b);
  for (int i = 0; i < 4; ++i) {
    const uint32_t c = Ct[(g + 8 * (i >> 1)) * N + 2 * q + (i & 1)];
    if (Op::kDRegs == 4) d[i] = c;
    else d[i / 2] |= (c & 0xffffu) << (16 * (i % 2));
  }
  for (int r = 0; r < reps; ++r) Op::run(d, a, b);
  for (int i = 0; i < 4; ++i) {
    const uint32_t v = Op::kDRegs == 4 ? d[i] : (d[i / 2] >> (16 * (i % 2))) & 0xffffu;
    Dt[(g + 8 * (i >> 1)) * N + 2 * q + (i & 1)] = v;
  }
}

// ---------------------------------------------------------------------------------- wgmma
#define PROBES_ACC32                                                                          \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "  \
  "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define PROBES_ACC16 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define PROBES_D32(C, d)                                                                      \
  "+" C(d[0]), "+" C(d[1]), "+" C(d[2]), "+" C(d[3]), "+" C(d[4]), "+" C(d[5]), "+" C(d[6]),   \
      "+" C(d[7]), "+" C(d[8]), "+" C(d[9]), "+" C(d[10]), "+" C(d[11]), "+" C(d[12]),         \
      "+" C(d[13]), "+" C(d[14]), "+" C(d[15]), "+" C(d[16]), "+" C(d[17]), "+" C(d[18]),      \
      "+" C(d[19]), "+" C(d[20]), "+" C(d[21]), "+" C(d[22]), "+" C(d[23]), "+" C(d[24]),      \
      "+" C(d[25]), "+" C(d[26]), "+" C(d[27]), "+" C(d[28]), "+" C(d[29]), "+" C(d[30]),      \
      "+" C(d[31])
#define PROBES_D16(C, d)                                                                      \
  "+" C(d[0]), "+" C(d[1]), "+" C(d[2]), "+" C(d[3]), "+" C(d[4]), "+" C(d[5]), "+" C(d[6]),   \
      "+" C(d[7]), "+" C(d[8]), "+" C(d[9]), "+" C(d[10]), "+" C(d[11]), "+" C(d[12]),         \
      "+" C(d[13]), "+" C(d[14]), "+" C(d[15])
#define PROBES_F "f"
#define PROBES_R "r"

// Accumulators: 32 floats (f32 D), 32 s32, or 16 f16x2 (f16 D). Operand numbering after the
// accumulators (PTX ISA §9.7.15.5.2 syntax):
//   SS, 32 regs: a-desc %32, b-desc %33, scale-d %34, imm-scale-a %35
//   SS, 16 regs: a-desc %16, b-desc %17, scale-d %18, imm-scale-a %19
//   RS, 32 regs: a %32..%35, b-desc %36, scale-d %37, imm-scale-a %38
//   RS, 16 regs: a %16..%19, b-desc %20, scale-d %21, imm-scale-a %22
// TAIL: imm-scale-a, imm-scale-b (and imm-trans-a/b for f16/bf16); empty for s8/u8.
#define PROBES_WG(NAME, RS, REGS, CT, ACC, DLIST, SETP, OPERANDS, INSTR, TAIL, INPUTS)         \
  struct NAME {                                                                               \
    static constexpr int kDRegs = REGS;                                                       \
    static constexpr bool kRS = RS;                                                           \
    using Acc = CT;                                                                           \
    template <int SA>                                                                         \
    static __device__ __forceinline__ void run(CT (&d)[32], uint64_t da,                      \
                                               const uint32_t (&a)[4], uint64_t db) {         \
      (void)da;                                                                               \
      (void)a;                                                                                \
      asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " SETP ", 0;\n" INSTR " " ACC OPERANDS   \
                   ", p" TAIL ";\n}\n"                                                        \
                   : DLIST                                                                    \
                   : INPUTS);                                                                 \
    }                                                                                         \
  };
#define PROBES_IN_SS "l"(da), "l"(db), "r"(1), "n"(SA)
#define PROBES_IN_RS "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1), "n"(SA)
#define PROBES_WG_SS32F(NAME, INSTR, TAIL)                                                    \
  PROBES_WG(NAME, false, 32, float, PROBES_ACC32, PROBES_D32(PROBES_F, d), "%34",            \
            ", %32, %33", INSTR, TAIL, PROBES_IN_SS)
#define PROBES_WG_SS32I(NAME, INSTR, TAIL)                                                    \
  PROBES_WG(NAME, false, 32, uint32_t, PROBES_ACC32, PROBES_D32(PROBES_R, d), "%34",         \
            ", %32, %33", INSTR, TAIL, PROBES_IN_SS)
#define PROBES_WG_SS16H(NAME, INSTR, TAIL)                                                    \
  PROBES_WG(NAME, false, 16, uint32_t, PROBES_ACC16, PROBES_D16(PROBES_R, d), "%18",         \
            ", %16, %17", INSTR, TAIL, PROBES_IN_SS)
#define PROBES_WG_RS32F(NAME, INSTR, TAIL)                                                    \
  PROBES_WG(NAME, true, 32, float, PROBES_ACC32, PROBES_D32(PROBES_F, d), "%37",             \
            ", {%32, %33, %34, %35}, %36", INSTR, TAIL, PROBES_IN_RS)
#define PROBES_WG_RS32I(NAME, INSTR, TAIL)                                                    \
  PROBES_WG(NAME, true, 32, uint32_t, PROBES_ACC32, PROBES_D32(PROBES_R, d), "%37",          \
            ", {%32, %33, %34, %35}, %36", INSTR, TAIL, PROBES_IN_RS)
#define PROBES_WG_RS16H(NAME, INSTR, TAIL)                                                    \
  PROBES_WG(NAME, true, 16, uint32_t, PROBES_ACC16, PROBES_D16(PROBES_R, d), "%21",          \
            ", {%16, %17, %18, %19}, %20", INSTR, TAIL, PROBES_IN_RS)

#define PROBES_WGI "wgmma.mma_async.sync.aligned.m64n64k"
// f16/bf16: imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b (SS only; RS has no trans-a)
#define PROBES_T_SS32 ", %35, 1, 0, 0"
#define PROBES_T_SS16 ", %19, 1, 0, 0"
#define PROBES_T_RS32 ", %38, 1, 0"
#define PROBES_T_RS16 ", %22, 1, 0"
// tf32/fp8: imm-scale-a, imm-scale-b (no transpose)
#define PROBES_S_SS32 ", %35, 1"
#define PROBES_S_SS16 ", %19, 1"
#define PROBES_S_RS32 ", %38, 1"
#define PROBES_S_RS16 ", %22, 1"

PROBES_WG_SS32F(WgSsF16F32, PROBES_WGI "16.f32.f16.f16", PROBES_T_SS32)
PROBES_WG_SS16H(WgSsF16F16, PROBES_WGI "16.f16.f16.f16", PROBES_T_SS16)
PROBES_WG_SS32F(WgSsBF16F32, PROBES_WGI "16.f32.bf16.bf16", PROBES_T_SS32)
PROBES_WG_SS32F(WgSsTF32F32, PROBES_WGI "8.f32.tf32.tf32", PROBES_S_SS32)
PROBES_WG_SS32F(WgSsE4E4F32, PROBES_WGI "32.f32.e4m3.e4m3", PROBES_S_SS32)
PROBES_WG_SS32F(WgSsE4E5F32, PROBES_WGI "32.f32.e4m3.e5m2", PROBES_S_SS32)
PROBES_WG_SS32F(WgSsE5E4F32, PROBES_WGI "32.f32.e5m2.e4m3", PROBES_S_SS32)
PROBES_WG_SS32F(WgSsE5E5F32, PROBES_WGI "32.f32.e5m2.e5m2", PROBES_S_SS32)
PROBES_WG_SS16H(WgSsE4E4F16, PROBES_WGI "32.f16.e4m3.e4m3", PROBES_S_SS16)
PROBES_WG_SS16H(WgSsE4E5F16, PROBES_WGI "32.f16.e4m3.e5m2", PROBES_S_SS16)
PROBES_WG_SS16H(WgSsE5E4F16, PROBES_WGI "32.f16.e5m2.e4m3", PROBES_S_SS16)
PROBES_WG_SS16H(WgSsE5E5F16, PROBES_WGI "32.f16.e5m2.e5m2", PROBES_S_SS16)
PROBES_WG_SS32I(WgSsS8S8, PROBES_WGI "32.s32.s8.s8", "")
PROBES_WG_SS32I(WgSsS8U8, PROBES_WGI "32.s32.s8.u8", "")
PROBES_WG_SS32I(WgSsU8S8, PROBES_WGI "32.s32.u8.s8", "")
PROBES_WG_SS32I(WgSsU8U8, PROBES_WGI "32.s32.u8.u8", "")
PROBES_WG_SS32I(WgSsS8S8Sat, PROBES_WGI "32.satfinite.s32.s8.s8", "")
PROBES_WG_SS32I(WgSsU8U8Sat, PROBES_WGI "32.satfinite.s32.u8.u8", "")

PROBES_WG_RS32F(WgRsF16F32, PROBES_WGI "16.f32.f16.f16", PROBES_T_RS32)
PROBES_WG_RS16H(WgRsF16F16, PROBES_WGI "16.f16.f16.f16", PROBES_T_RS16)
PROBES_WG_RS32F(WgRsBF16F32, PROBES_WGI "16.f32.bf16.bf16", PROBES_T_RS32)
PROBES_WG_RS32F(WgRsTF32F32, PROBES_WGI "8.f32.tf32.tf32", PROBES_S_RS32)
PROBES_WG_RS32F(WgRsE4E4F32, PROBES_WGI "32.f32.e4m3.e4m3", PROBES_S_RS32)
PROBES_WG_RS32F(WgRsE4E5F32, PROBES_WGI "32.f32.e4m3.e5m2", PROBES_S_RS32)
PROBES_WG_RS32F(WgRsE5E4F32, PROBES_WGI "32.f32.e5m2.e4m3", PROBES_S_RS32)
PROBES_WG_RS32F(WgRsE5E5F32, PROBES_WGI "32.f32.e5m2.e5m2", PROBES_S_RS32)
PROBES_WG_RS16H(WgRsE4E4F16, PROBES_WGI "32.f16.e4m3.e4m3", PROBES_S_RS16)
PROBES_WG_RS16H(WgRsE4E5F16, PROBES_WGI "32.f16.e4m3.e5m2", PROBES_S_RS16)
PROBES_WG_RS16H(WgRsE5E4F16, PROBES_WGI "32.f16.e5m2.e4m3", PROBES_S_RS16)
PROBES_WG_RS16H(WgRsE5E5F16, PROBES_WGI "32.f16.e5m2.e5m2", PROBES_S_RS16)
PROBES_WG_RS32I(WgRsS8S8, PROBES_WGI "32.s32.s8.s8", "")
PROBES_WG_RS32I(WgRsS8U8, PROBES_WGI "32.s32.s8.u8", "")
PROBES_WG_RS32I(WgRsU8S8, PROBES_WGI "32.s32.u8.s8", "")
PROBES_WG_RS32I(WgRsU8U8, PROBES_WGI "32.s32.u8.u8", "")
PROBES_WG_RS32I(WgRsS8S8Sat, PROBES_WGI "32.satfinite.s32.s8.s8", "")
PROBES_WG_RS32I(WgRsU8U8Sat, PROBES_WGI "32.satfinite.s32.u8.u8", "")

// Shared-memory matrix descriptor (PTX ISA §9.7.15.5.1.2.2): start >> 4 in bits 0-13,
// LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset 0, swizzle 0 (none) in bits 62-63.
__device__ __forceinline__ uint64_t smem_desc(const void* p, uint32_t lbo, uint32_t sbo) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(p));
  return (uint64_t{(addr & 0x3ffffu) >> 4}) | (uint64_t{lbo >> 4} << 16) |
         (uint64_t{sbo >> 4} << 32);
}

__device__ __forceinline__ int kmajor_offset(int r, int kb) {
  return (r / 8) * 256 + (kb / 16) * 128 + (r % 8) * 16 + kb % 16;
}

// One warpgroup (128 threads) per tile: M=64, N=64. SA = imm-scale-a (1 or -1).
template <class Op, int kBytes, int K, int SA>
__global__ void __launch_bounds__(128) wgmma_tiles(const uint8_t* A, const uint8_t* B,
                                                   const uint32_t* C, uint32_t* D, int reps) {
  constexpr int M = 64, N = 64, KB = K * kBytes;
  static_assert(KB == 32, "every sm_90a wgmma operand row here holds 32 bytes of K");
  __shared__ __align__(1024) uint8_t sa[M * KB];
  __shared__ __align__(1024) uint8_t sb[N * KB];
  const int t = blockIdx.x, tid = threadIdx.x;
  const uint8_t* At = A + static_cast<size_t>(t) * M * KB;
  const uint8_t* Bt = B + static_cast<size_t>(t) * N * KB;
  const uint32_t* Ct = C + static_cast<size_t>(t) * M * N;
  uint32_t* Dt = D + static_cast<size_t>(t) * M * N;
  for (int i = tid; i < M * KB; i += 128) {
    if (!Op::kRS) sa[kmajor_offset(i / KB, i % KB)] = At[i];
    sb[kmajor_offset(i / KB, i % KB)] = Bt[i];
  }
  // generic-proxy smem writes -> async-proxy reads by wgmma (PTX ISA §9.7.15.4)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const int w = tid / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
  uint32_t a[4] = {0, 0, 0, 0};
  if (Op::kRS) load_a_frag<kBytes>(At, K, 16 * w, a);
  typename Op::Acc d[32];
  for (int i = 0; i < 32; ++i) d[i] = 0;
  for (int e = 0; e < 32; ++e) {  // D element e -> (row, col); f16 D: register e/2, half e%2
    const int row = 16 * w + g + 8 * ((e >> 1) & 1), col = 8 * (e >> 2) + 2 * q + (e & 1);
    const uint32_t c = Ct[row * N + col];
    if constexpr (Op::kDRegs == 32) {
      if constexpr (std::is_same_v<typename Op::Acc, float>) d[e] = __uint_as_float(c);
      else d[e] = c;
    } else {
      d[e / 2] |= (c & 0xffffu) << (16 * (e % 2));
    }
  }
  const uint64_t da = smem_desc(sa, 128, 256), db = smem_desc(sb, 128, 256);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  for (int r = 0; r < reps; ++r) Op::template run<SA>(d, da, a, db);
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  for (int e = 0; e < 32; ++e) {
    const int row = 16 * w + g + 8 * ((e >> 1) & 1), col = 8 * (e >> 2) + 2 * q + (e & 1);
    uint32_t v;
    if constexpr (Op::kDRegs == 32) {
      if constexpr (std::is_same_v<typename Op::Acc, float>) v = __float_as_uint(d[e]);
      else v = d[e];
    } else {
      v = (static_cast<uint32_t>(d[e / 2]) >> (16 * (e % 2))) & 0xffffu;
    }
    Dt[row * N + col] = v;
  }
}

}  // namespace probes
