// Minimal mma.sync e4m3/e5m2 kernels whose SASS shows how ptxas executes them on targets without
// an fp8 mma.sync unit (sm_90a, sm_100a): kernels/probes/results/h200-2026-11-30/
// sass_mma_sync_fp8.txt was made with
//   nvcc -gencode arch=compute_90a,code=sm_90a -cubin -o k.cubin fp8_emulation_sass.cu
//   cuobjdump --dump-sass k.cubin        (and the same for compute_100a / sm_100a, sm_89, sm_120a)
// Each kernel loads A (4 or 2 registers of 4 fp8), B (2 or 1 registers) and C, runs one mma.sync
// and stores D, so the SASS between the loads and the stores is the instruction's whole dataflow.
// Register fragments: PTX ISA §9.7.14.5.8 (m16n8k16 / m16n8k32 with .e4m3/.e5m2).
#include <cstdint>

#define FP8_MMA_F32(NAME, SHAPE, INSTR)                                                        \
  extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                          \
    float f0 = __uint_as_float(in[6]), f1 = __uint_as_float(in[7]),                             \
          f2 = __uint_as_float(in[8]), f3 = __uint_as_float(in[9]);                             \
    SHAPE##_F32(INSTR)                                                                          \
    out[0] = __float_as_uint(f0), out[1] = __float_as_uint(f1);                                 \
    out[2] = __float_as_uint(f2), out[3] = __float_as_uint(f3);                                 \
  }
#define FP8_MMA_F16(NAME, SHAPE, INSTR)                                                        \
  extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                          \
    uint32_t d0 = in[6], d1 = in[7];                                                            \
    SHAPE##_F16(INSTR)                                                                          \
    out[0] = d0, out[1] = d1;                                                                   \
  }
#define K32_F32(INSTR)                                                                          \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"                 \
               : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3)                                         \
               : "r"(in[0]), "r"(in[1]), "r"(in[2]), "r"(in[3]), "r"(in[4]), "r"(in[5]));
#define K32_F16(INSTR)                                                                          \
  asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};\n"                             \
               : "+r"(d0), "+r"(d1)                                                             \
               : "r"(in[0]), "r"(in[1]), "r"(in[2]), "r"(in[3]), "r"(in[4]), "r"(in[5]));
#define K16_F32(INSTR)                                                                          \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"                          \
               : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3)                                         \
               : "r"(in[0]), "r"(in[1]), "r"(in[4]));
#define K16_F16(INSTR)                                                                          \
  asm volatile(INSTR " {%0,%1}, {%2,%3}, {%4}, {%0,%1};\n"                                      \
               : "+r"(d0), "+r"(d1)                                                             \
               : "r"(in[0]), "r"(in[1]), "r"(in[4]));

#define MMA "mma.sync.aligned.m16n8k"
FP8_MMA_F32(k32_e4m3_e4m3_f32, K32, MMA "32.row.col.f32.e4m3.e4m3.f32")
FP8_MMA_F32(k32_e4m3_e5m2_f32, K32, MMA "32.row.col.f32.e4m3.e5m2.f32")
FP8_MMA_F16(k32_e4m3_e4m3_f16, K32, MMA "32.row.col.f16.e4m3.e4m3.f16")
FP8_MMA_F16(k32_e5m2_e5m2_f16, K32, MMA "32.row.col.f16.e5m2.e5m2.f16")
FP8_MMA_F32(k16_e4m3_e4m3_f32, K16, MMA "16.row.col.f32.e4m3.e4m3.f32")
FP8_MMA_F16(k16_e4m3_e4m3_f16, K16, MMA "16.row.col.f16.e4m3.e4m3.f16")
