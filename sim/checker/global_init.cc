// initcheck of global memory (see global_init.h).
#include "sim/checker/global_init.h"

#include <fmt/format.h>

#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/memory/global_memory.h"
#include "sim/memory/store_overlay.h"
#include "sim/partition.h"
#include "sim/report/report.h"
#include "sim/warp.h"

namespace tcsim::sim::global_init {

void on_read(ExecCtx& c, int lane, const Allocation& a, uint64_t addr, uint64_t n) {
  if (!c.checking() || a.initialised || n == 0) return;
  const StoreOverlay& ov = c.part->overlay();
  // The first byte neither the bits nor this partition's stores of the quantum cover.
  int64_t off = -1;
  for (uint64_t b = addr; b < addr + n;) {
    const int64_t f = GlobalMemory::first_uninitialised(a, b, addr + n - b);
    if (f < 0) break;
    const uint64_t at = a.base + static_cast<uint64_t>(f);
    if (ov.empty() || !ov.dirty(at, 1)) {
      off = f;
      break;
    }
    b = at + 1;
  }
  if (off < 0) return;
  const Dim3 id = c.cta->ctaid();
  report(c, Rule::UninitialisedGlobalRead, lane, [&] {
    return fmt::format(
        "CTA ({},{},{}) warp {} lane {} reads {} bytes of global memory at 0x{:x}: byte {} of {} [0x{:x}, 0x{:x}) "
        "({} bytes) was never written (no host copy or memset, no store, atomic or TMA write of a kernel since "
        "it was allocated): the GPU returns whatever the memory held",
        id.x, id.y, id.z, c.warp->id(), lane, n, addr, off, a.label, a.base, a.base + a.size, a.size);
  }, kNoSite, a.id);
}

}  // namespace tcsim::sim::global_init
