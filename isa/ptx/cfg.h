// Control-flow analysis of one function: basic blocks and immediate post-dominators. The simulator
// uses the immediate post-dominator of a divergent branch as the point where the split lanes
// should meet again (sim/warp.h), as ptxas places its convergence barriers there.
#pragma once
#include <cstdint>
#include <vector>

#include "isa/ptx/ir.h"

namespace tcsim::isa::ptx {

inline constexpr uint32_t kNoPostDom = 0xffffffffu;

// For every instruction index of `f`: the instruction index where all paths from it meet again
// (the first instruction of its block's immediate post-dominator), kNoPostDom when paths only meet
// at the function's exit. Meaningful for branches; computed for all.
std::vector<uint32_t> immediate_post_dominators(const Function& f);

}  // namespace tcsim::isa::ptx
