// Forms of the float_arith rows bound outside float_arith.cc: packed .f32x2 arithmetic
// (float_x2.cc, PTX ISA §9.7.3, sm_100+) and the mixed-precision .f32.{f16,bf16} forms
// (float_mixed.cc, PTX ISA §9.7.5).
#pragma once
#include "sim/exec/bind.h"

namespace tcsim::sim {

void bind_float_x2(BindCtx& b);     // add/sub/mul/fma{.rnd}{.ftz}.f32x2
void bind_float_mixed(BindCtx& b);  // add/sub{.rnd}{.sat}.f32.{f16,bf16}, fma.rnd{.sat}.f32.{f16,bf16}

}  // namespace tcsim::sim
