// Warp-collective instructions (.sync.aligned: tcgen05.alloc/dealloc/relinquish/ld/st/wait,
// mma.sync, ldmatrix/stmatrix/movmatrix, setmaxnreg): the whole warp executes them together.
//
// PTX ISA §9.7.16.7.1 / §9.7.16.8.3: ".sync causes the executing thread to wait until all threads in
// the warp execute the same instruction before resuming execution"; ".aligned: all threads in the
// warp must execute the same instruction" (undefined behaviour otherwise, or if a thread of the warp
// has exited). ptxas arranges the reconvergence itself: it places WARPSYNC.ALL (or a BSYNC of the
// enclosing divergent region) before such an instruction (docs/hardware_tolerance.md), so lanes
// that diverged earlier (one lane waited for a TMA store, the others went ahead) meet there. tcsim
// does the same: a thread group that reaches the instruction while other live lanes of the warp are
// elsewhere parks there (Flow::WaitSync) until they arrive, and executes it with the whole warp.
// What stays an error, naming the lanes: a lane of the warp that exited, and lanes of the group
// that are predicated off (a guard that is not warp-uniform); lanes that never arrive end in the
// deadlock report, which says where they are.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/exec/exec.h"

namespace tcsim::sim {

// True when the whole warp executes the instruction now; false
// when the group was parked to wait for the rest (the execute function returns at once and runs
// again with the larger mask). Fails for a real divergence. `sec` is the PTX ISA section cited.
bool await_converged_warp(ExecCtx& c, std::string_view what, std::string_view sec);

// "0-3,7" for a lane mask (messages).
std::string lane_list(uint32_t mask);

}  // namespace tcsim::sim
