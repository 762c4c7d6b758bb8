// The wgmma combinations with A from registers.
#include "kernels/probes/sm90/combos_detail.cuh"

namespace probes {

// clang-format off
void add_wgmma_rs_combos(std::vector<Combo>& v) {
  ComboAdder add{v};
  const HwPath R = HwPath::WgmmaRS;
  // wgmma.mma_async m64n64kK, A from registers
  add.wg(R, "f16*f16->f32", K_::F16, D_::F16, D_::F16, D_::F32, false, false, 16, 2, launch_wg<WgRsF16F32, 2, 16, 1>);
  add.wg(R, "f16*f16->f16", K_::F16, D_::F16, D_::F16, D_::F16, false, false, 16, 2, launch_wg<WgRsF16F16, 2, 16, 1>);
  add.wg(R, "bf16*bf16->f32", K_::F16, D_::BF16, D_::BF16, D_::F32, false, false, 16, 2, launch_wg<WgRsBF16F32, 2, 16, 1>);
  add.wg(R, "tf32*tf32->f32", K_::TF32, D_::TF32, D_::TF32, D_::F32, false, false, 8, 4, launch_wg<WgRsTF32F32, 4, 8, 1>);
  add.wg(R, "e4m3*e4m3->f32", K_::F8F6F4, D_::E4M3, D_::E4M3, D_::F32, false, false, 32, 1, launch_wg<WgRsE4E4F32, 1, 32, 1>);
  add.wg(R, "e4m3*e5m2->f32", K_::F8F6F4, D_::E4M3, D_::E5M2, D_::F32, false, false, 32, 1, launch_wg<WgRsE4E5F32, 1, 32, 1>);
  add.wg(R, "e5m2*e4m3->f32", K_::F8F6F4, D_::E5M2, D_::E4M3, D_::F32, false, false, 32, 1, launch_wg<WgRsE5E4F32, 1, 32, 1>);
  add.wg(R, "e5m2*e5m2->f32", K_::F8F6F4, D_::E5M2, D_::E5M2, D_::F32, false, false, 32, 1, launch_wg<WgRsE5E5F32, 1, 32, 1>);
  add.wg(R, "e4m3*e4m3->f16", K_::F8F6F4, D_::E4M3, D_::E4M3, D_::F16, false, false, 32, 1, launch_wg<WgRsE4E4F16, 1, 32, 1>);
  add.wg(R, "e4m3*e5m2->f16", K_::F8F6F4, D_::E4M3, D_::E5M2, D_::F16, false, false, 32, 1, launch_wg<WgRsE4E5F16, 1, 32, 1>);
  add.wg(R, "e5m2*e4m3->f16", K_::F8F6F4, D_::E5M2, D_::E4M3, D_::F16, false, false, 32, 1, launch_wg<WgRsE5E4F16, 1, 32, 1>);
  add.wg(R, "e5m2*e5m2->f16", K_::F8F6F4, D_::E5M2, D_::E5M2, D_::F16, false, false, 32, 1, launch_wg<WgRsE5E5F16, 1, 32, 1>);
  add.wg(R, "s8*s8->s32", K_::I8, D_::S8, D_::S8, D_::S32, false, false, 32, 1, launch_wg<WgRsS8S8, 1, 32, 1>);
  add.wg(R, "s8*u8->s32", K_::I8, D_::S8, D_::U8, D_::S32, false, false, 32, 1, launch_wg<WgRsS8U8, 1, 32, 1>);
  add.wg(R, "u8*s8->s32", K_::I8, D_::U8, D_::S8, D_::S32, false, false, 32, 1, launch_wg<WgRsU8S8, 1, 32, 1>);
  add.wg(R, "u8*u8->s32", K_::I8, D_::U8, D_::U8, D_::S32, false, false, 32, 1, launch_wg<WgRsU8U8, 1, 32, 1>);
  add.wg(R, "s8*s8->s32.satfinite", K_::I8, D_::S8, D_::S8, D_::S32, true, false, 32, 1, launch_wg<WgRsS8S8Sat, 1, 32, 1>);
  add.wg(R, "u8*u8->s32.satfinite", K_::I8, D_::U8, D_::U8, D_::S32, true, false, 32, 1, launch_wg<WgRsU8U8Sat, 1, 32, 1>);
}
// clang-format on

}  // namespace probes
