// The memory system's timing (docs/timing_model.md "Memory"): what one warp instruction's accesses
// cost. Called by the execute functions of ld/st/atom/ldmatrix/cp.async (sim/exec) with the lanes'
// addresses, after the access itself is done; they set ExecCtx::latency (cycles until the
// destination registers are ready) and occupy the ports they use:
//   shared memory   one 128-byte wavefront per clock per SM; a warp access takes as many wavefronts
//                   as its worst bank (distinct 4-byte words per bank, per phase of 128 bytes)
//   L1              l1.lines_per_clk 128-byte lines per clock; hit l1.latency
//   L2              hit l2.latency; l2.bandwidth shared by the partitions with traffic
//   HBM             miss hbm.latency; hbm.bandwidth likewise
//   constant bank   const.miss_latency for an SM's first touch of a 64-byte line, else const.hit_latency
//   translation     tlb.miss_cycles for an SM's first touch of a tlb.page_bytes page
#pragma once
#include <cstdint>

#include "isa/ptx/modifiers.h"
#include "sim/cycles.h"
#include "sim/timing/model.h"

namespace tcsim::sim {
struct ExecCtx;
}

namespace tcsim::sim::timing {

// One warp instruction's accesses: per lane (mask) a `size`-byte access at addr[lane] in `space`
// (Generic: classified per lane by its window; Shared: .shared::cta offsets; SharedCluster: the
// shared::cluster addresses). `store`: no destination latency (a store, or red).
void note_access(ExecCtx& c, isa::ptx::Space space, const uint64_t* addr, uint32_t mask, uint32_t size, bool store,
                 uint8_t flags);
// An atomic (atom/red) on global memory by the lanes of `mask`: the cycles until the old values
// are back (same-word lanes serialise at the L2).
uint32_t global_atomic_latency(ExecCtx& c, const uint64_t* addr, uint32_t mask, AtomKind kind = AtomKind::Int);
// A read of global memory by the lanes of `mask` (cp.async): cycles until its data is back.
uint32_t global_read_latency(ExecCtx& c, const uint64_t* addr, uint32_t mask, uint32_t size, bool bypass_l1);
// An atomic on shared memory (.shared::cta offsets): its wavefronts and same-word serialisation.
uint32_t shared_atomic_latency(ExecCtx& c, const uint64_t* addr, uint32_t mask, uint32_t size,
                               AtomKind kind = AtomKind::Int);

// Global memory read by an asynchronous engine (TMA, cp.async) of SM `c.sm`: the bytes
// [addr, addr + n) -> {all in L2?, extra cycles of translation and bandwidth queueing}. Records L2
// fills and bandwidth use; `bytes` counted toward the traffic.
struct GlobalRead {
  bool l2_hit = true;
  uint64_t extra = 0;
};
class GlobalReader {
 public:
  explicit GlobalReader(ExecCtx& c);
  void add(uint64_t addr, uint64_t n);  // a row of a TMA box, one lane of cp.async
  GlobalRead finish();

 private:
  ExecCtx* c_;
  bool hit_ = true;
  uint64_t miss_bytes_ = 0, bytes_ = 0, extra_ = 0;
  uint64_t last_line_ = ~0ull;
  uint8_t last_sectors_ = 0;
};

// Global memory written by an asynchronous engine (TMA/bulk stores): L2 bandwidth, drain tracking.
void note_async_store(ExecCtx& c, uint64_t bytes, Cycles done);

}  // namespace tcsim::sim::timing
