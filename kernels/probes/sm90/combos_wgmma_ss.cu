// The wgmma combinations with A from shared memory.
#include "kernels/probes/sm90/combos_detail.cuh"

namespace probes {

// clang-format off
void add_wgmma_ss_combos(std::vector<Combo>& v) {
  ComboAdder add{v};
  const HwPath S = HwPath::WgmmaSS;
  // wgmma.mma_async m64n64kK, A from shared memory (PTX ISA §9.7.15)
  add.wg(S, "f16*f16->f32", K_::F16, D_::F16, D_::F16, D_::F32, false, false, 16, 2, launch_wg<WgSsF16F32, 2, 16, 1>);
  add.wg(S, "f16*f16->f16", K_::F16, D_::F16, D_::F16, D_::F16, false, false, 16, 2, launch_wg<WgSsF16F16, 2, 16, 1>);
  add.wg(S, "bf16*bf16->f32", K_::F16, D_::BF16, D_::BF16, D_::F32, false, false, 16, 2, launch_wg<WgSsBF16F32, 2, 16, 1>);
  add.wg(S, "tf32*tf32->f32", K_::TF32, D_::TF32, D_::TF32, D_::F32, false, false, 8, 4, launch_wg<WgSsTF32F32, 4, 8, 1>);
  add.wg(S, "e4m3*e4m3->f32", K_::F8F6F4, D_::E4M3, D_::E4M3, D_::F32, false, false, 32, 1, launch_wg<WgSsE4E4F32, 1, 32, 1>);
  add.wg(S, "e4m3*e5m2->f32", K_::F8F6F4, D_::E4M3, D_::E5M2, D_::F32, false, false, 32, 1, launch_wg<WgSsE4E5F32, 1, 32, 1>);
  add.wg(S, "e5m2*e4m3->f32", K_::F8F6F4, D_::E5M2, D_::E4M3, D_::F32, false, false, 32, 1, launch_wg<WgSsE5E4F32, 1, 32, 1>);
  add.wg(S, "e5m2*e5m2->f32", K_::F8F6F4, D_::E5M2, D_::E5M2, D_::F32, false, false, 32, 1, launch_wg<WgSsE5E5F32, 1, 32, 1>);
  add.wg(S, "e4m3*e4m3->f16", K_::F8F6F4, D_::E4M3, D_::E4M3, D_::F16, false, false, 32, 1, launch_wg<WgSsE4E4F16, 1, 32, 1>);
  add.wg(S, "e4m3*e5m2->f16", K_::F8F6F4, D_::E4M3, D_::E5M2, D_::F16, false, false, 32, 1, launch_wg<WgSsE4E5F16, 1, 32, 1>);
  add.wg(S, "e5m2*e4m3->f16", K_::F8F6F4, D_::E5M2, D_::E4M3, D_::F16, false, false, 32, 1, launch_wg<WgSsE5E4F16, 1, 32, 1>);
  add.wg(S, "e5m2*e5m2->f16", K_::F8F6F4, D_::E5M2, D_::E5M2, D_::F16, false, false, 32, 1, launch_wg<WgSsE5E5F16, 1, 32, 1>);
  add.wg(S, "s8*s8->s32", K_::I8, D_::S8, D_::S8, D_::S32, false, false, 32, 1, launch_wg<WgSsS8S8, 1, 32, 1>);
  add.wg(S, "s8*u8->s32", K_::I8, D_::S8, D_::U8, D_::S32, false, false, 32, 1, launch_wg<WgSsS8U8, 1, 32, 1>);
  add.wg(S, "u8*s8->s32", K_::I8, D_::U8, D_::S8, D_::S32, false, false, 32, 1, launch_wg<WgSsU8S8, 1, 32, 1>);
  add.wg(S, "u8*u8->s32", K_::I8, D_::U8, D_::U8, D_::S32, false, false, 32, 1, launch_wg<WgSsU8U8, 1, 32, 1>);
  add.wg(S, "s8*s8->s32.satfinite", K_::I8, D_::S8, D_::S8, D_::S32, true, false, 32, 1, launch_wg<WgSsS8S8Sat, 1, 32, 1>);
  add.wg(S, "u8*u8->s32.satfinite", K_::I8, D_::U8, D_::U8, D_::S32, true, false, 32, 1, launch_wg<WgSsU8U8Sat, 1, 32, 1>);
  // imm-scale-a = -1: the negation of A (PTX ISA §9.7.15.5.2), on one 16-bit and one fp8 type
  add.wg(S, "bf16*bf16->f32 imm-scale-a=-1", K_::F16, D_::BF16, D_::BF16, D_::F32, false, true, 16, 2, launch_wg<WgSsBF16F32, 2, 16, -1>);
  add.wg(S, "e4m3*e4m3->f32 imm-scale-a=-1", K_::F8F6F4, D_::E4M3, D_::E4M3, D_::F32, false, true, 32, 1, launch_wg<WgSsE4E4F32, 1, 32, -1>);
}
// clang-format on

}  // namespace probes
