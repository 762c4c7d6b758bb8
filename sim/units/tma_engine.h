// The TMA / bulk-copy engine of one SM (PTX ISA §9.7.9.25 "Data Movement: cp.async.bulk*"): what
// the cp.async.bulk{.tensor} instruction families hand over at issue, and the events that make
// their effects visible later on the one clock (sim/README.md "One clock").
//
//   issue (instruction)            the operation is checked completely (tensor map, coordinates,
//                                  shared-memory footprint, global bounds): a bad operation faults
//                                  at its own PTX line. Sources in shared memory are read now
//                                  (snapshot): the program may overwrite them once
//                                  cp.async.bulk.wait_group.read says the reads are done, which is
//                                  never earlier than this.
//   land (AsyncDataLand event)     the bytes appear in shared memory (loads, reads from global
//                                  memory happen now) or in global memory (stores, reductions:
//                                  through the partition's store overlay).
//   complete (MbarrierUpdate)      complete_tx on the destination CTA's mbarrier
//                                  (sim/units/mbarrier.h), after the data of the same cycle.
//
// Cycles: sim/timing/tma.h (the memory system and the fill ports of the destination SMs). Schedule
// perturbation (Partition::jitter) may delay both: a copy may always complete later.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/descriptors/tensor_map.h"
#include "sim/cluster.h"
#include "sim/cycles.h"
#include "sim/exec/exec.h"

namespace tcsim::sim::tma {

// Reads and decodes the 128-byte tensor map at the generic address `addr` (a .param, .const or
// .global object, 64-byte aligned: PTX ISA §5.5.8 "Tensor-map"); every fault names the address and
// the driver's reason.
isa::TensorMapParams read_tensor_map(ExecCtx& c, int lane, uint64_t addr, const char* what);

// The bytes of the executing CTA's shared memory the async proxy may touch: static + dynamic,
// rounded up to 128 B (the H200 faults at this bound: kernels/tma/README.md, fact runs fp_*).
uint32_t async_smem_limit(const ExecCtx& c);

// Checks that [lo, hi) of `cta`'s shared memory lies inside that bound; fails with `what`, the
// range, the window and `detail`.
void check_smem_range(ExecCtx& c, int lane, uint32_t lo, uint64_t hi, const char* what, const std::string& detail);

// Checks that [addr, addr + n) of global memory is inside one allocation.
void check_global_range(ExecCtx& c, int lane, uint64_t addr, uint64_t n, const char* what);

// Copies global memory [addr, addr + n) into dst through the partition's overlay (page-split).
void read_global(Partition& part, const LaunchState& L, uint64_t addr, void* dst, uint64_t n);

// Records the proxy checker's in-flight state and the L2 cache hint of an issued operation.
void note_hint(Cta& cta, bool has_policy, uint64_t policy);

class TileBox;

// The completion cycles of an operation issued now: {read_done, land} (sim/timing/tma.h).
struct Timing {
  Cycles read_done, land;
};
// A tile load of `box` into the CTAs of cluster ranks `ranks` (several: multicast).
Timing tile_load_timing(ExecCtx& c, const TileBox& box, const std::vector<uint32_t>& ranks, bool multicast);
// A bulk load of [src, src + n) into the CTAs of `ranks`.
Timing bulk_load_timing(ExecCtx& c, uint64_t src, uint32_t n, const std::vector<uint32_t>& ranks, bool multicast);
// A store / reduce of `bytes` to global memory; a copy of `bytes` to a peer CTA's shared memory.
Timing store_timing(ExecCtx& c, uint64_t bytes);
Timing dsmem_timing(ExecCtx& c, uint64_t bytes);

// complete_tx(bytes) on the mbarrier at .shared::cta offset `mbar` of `target`, at `when`.
void post_complete_tx(ExecCtx& c, Cycles when, const CtaRef& target, uint32_t mbar, uint32_t bytes,
                      const char* what);

}  // namespace tcsim::sim::tma
