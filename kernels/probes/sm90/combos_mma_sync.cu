// The mma.sync combinations of combos.h.
#include "kernels/probes/sm90/combos_detail.cuh"

namespace probes {

// clang-format off
void add_mma_sync_combos(std::vector<Combo>& v) {
  ComboAdder add{v};
  // mma.sync.aligned.m16n8kK (PTX ISA §9.7.14.5)
  add.mma("f16*f16->f32", K_::F16, D_::F16, D_::F16, D_::F32, false, 16, 2, launch_mma<MmaF16F32, 2, 16>);
  add.mma("f16*f16->f16", K_::F16, D_::F16, D_::F16, D_::F16, false, 16, 2, launch_mma<MmaF16F16, 2, 16>);
  add.mma("bf16*bf16->f32", K_::F16, D_::BF16, D_::BF16, D_::F32, false, 16, 2, launch_mma<MmaBF16F32, 2, 16>);
  add.mma("tf32*tf32->f32", K_::TF32, D_::TF32, D_::TF32, D_::F32, false, 8, 4, launch_mma<MmaTF32F32, 4, 8>);
  add.mma("e4m3*e4m3->f32", K_::F8F6F4, D_::E4M3, D_::E4M3, D_::F32, false, 32, 1, launch_mma<MmaE4E4F32, 1, 32>);
  add.mma("e4m3*e5m2->f32", K_::F8F6F4, D_::E4M3, D_::E5M2, D_::F32, false, 32, 1, launch_mma<MmaE4E5F32, 1, 32>);
  add.mma("e5m2*e4m3->f32", K_::F8F6F4, D_::E5M2, D_::E4M3, D_::F32, false, 32, 1, launch_mma<MmaE5E4F32, 1, 32>);
  add.mma("e5m2*e5m2->f32", K_::F8F6F4, D_::E5M2, D_::E5M2, D_::F32, false, 32, 1, launch_mma<MmaE5E5F32, 1, 32>);
  add.mma("e4m3*e4m3->f16", K_::F8F6F4, D_::E4M3, D_::E4M3, D_::F16, false, 32, 1, launch_mma<MmaE4E4F16, 1, 32>);
  add.mma("e4m3*e5m2->f16", K_::F8F6F4, D_::E4M3, D_::E5M2, D_::F16, false, 32, 1, launch_mma<MmaE4E5F16, 1, 32>);
  add.mma("e5m2*e4m3->f16", K_::F8F6F4, D_::E5M2, D_::E4M3, D_::F16, false, 32, 1, launch_mma<MmaE5E4F16, 1, 32>);
  add.mma("e5m2*e5m2->f16", K_::F8F6F4, D_::E5M2, D_::E5M2, D_::F16, false, 32, 1, launch_mma<MmaE5E5F16, 1, 32>);
  add.mma("s8*s8->s32", K_::I8, D_::S8, D_::S8, D_::S32, false, 32, 1, launch_mma<MmaS8S8, 1, 32>);
  add.mma("s8*u8->s32", K_::I8, D_::S8, D_::U8, D_::S32, false, 32, 1, launch_mma<MmaS8U8, 1, 32>);
  add.mma("u8*s8->s32", K_::I8, D_::U8, D_::S8, D_::S32, false, 32, 1, launch_mma<MmaU8S8, 1, 32>);
  add.mma("u8*u8->s32", K_::I8, D_::U8, D_::U8, D_::S32, false, 32, 1, launch_mma<MmaU8U8, 1, 32>);
  add.mma("s8*s8->s32.satfinite", K_::I8, D_::S8, D_::S8, D_::S32, true, 32, 1, launch_mma<MmaS8S8Sat, 1, 32>);
  add.mma("s8*u8->s32.satfinite", K_::I8, D_::S8, D_::U8, D_::S32, true, 32, 1, launch_mma<MmaS8U8Sat, 1, 32>);
  add.mma("u8*s8->s32.satfinite", K_::I8, D_::U8, D_::S8, D_::S32, true, 32, 1, launch_mma<MmaU8S8Sat, 1, 32>);
  add.mma("u8*u8->s32.satfinite", K_::I8, D_::U8, D_::U8, D_::S32, true, 32, 1, launch_mma<MmaU8U8Sat, 1, 32>);
}
// clang-format on

}  // namespace probes
