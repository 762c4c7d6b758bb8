// initcheck of global memory: a kernel's read (ld, ld.global.nc, atom/red other than exch,
// cp.async, a TMA / bulk copy's source) of device bytes that nothing wrote — neither the host (a
// copy, a memset, a launch spec's `init`, a module variable's load) nor a kernel (a store, an
// atomic, a TMA or bulk store) since the allocation was made. A cuMemAlloc'd buffer's contents are
// undefined until then; the GPU returns whatever the memory held.
//
// Per allocation, one bit per byte (sim/memory/global_memory.h: allocated on the first partial
// write, dropped when every byte is written). A read checks the bits and, for the bytes the bits
// lack, its own partition's store overlay (its stores of this quantum); other partitions' stores
// count from the quantum boundary that commits them, the moment the reading partition could see
// them (sim/memory/store_overlay.h). Reported once per (instruction, allocation): the finding
// names the allocation, the byte offset and the lane.
#pragma once
#include <cstdint>

namespace tcsim::sim {
struct Allocation;
struct ExecCtx;
}  // namespace tcsim::sim

namespace tcsim::sim::global_init {

// Lane's read of [addr, addr + n) inside allocation `a` (checked, not initialised: the caller
// tests a.initialised first).
void on_read(ExecCtx& c, int lane, const Allocation& a, uint64_t addr, uint64_t n);

}  // namespace tcsim::sim::global_init
