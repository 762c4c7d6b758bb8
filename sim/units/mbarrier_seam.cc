#include "sim/units/mbarrier_seam.h"

#include <fmt/format.h>

#include "sim/exec/exec.h"

namespace tcsim::sim {

// Until the mbarrier unit lands (helper async_a), commit cannot arrive anywhere.
MbarrierTarget resolve_mbarrier(ExecCtx& c, int lane, uint64_t addr, bool, const char* what) {
  c.fail(lane, fmt::format("{}: mbarrier at 0x{:x}: the mbarrier unit is not available in this build", what, addr));
}

void post_mbarrier_arrivals(ExecCtx&, int, const MbarrierTarget&, bool, const std::vector<uint32_t>&, Cycles,
                            uint32_t, const char*) {}

}  // namespace tcsim::sim
