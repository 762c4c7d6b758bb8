// Comparisons on half-precision values (PTX ISA §9.7.7, half_compare.cc). Bound from the half_arith
// family (setp/set rows of type class Half: setp.f16, set.lt.f16.f32, set.eq.f16x2.f16x2) and from
// compare_select (set rows whose destination is an integer: set.lt.u32.f16x2, set.ne.u16.bf16).
#pragma once
#include "sim/exec/bind.h"

namespace tcsim::sim {

void bind_half_compare(BindCtx& b);

}  // namespace tcsim::sim
