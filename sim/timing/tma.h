// The TMA engine's timing (docs/timing_model.md "TMA"): a tile or bulk load reads global memory
// (L2 hit or miss, sim/timing/memory.h) and fills each destination SM's shared memory through that
// SM's TMA fill port:
//   land = max(issue + (tma.l2_latency | tma.hbm_latency) + bytes / tma.stream_bytes_per_clk,
//              the destination port's time for bytes / (tma.sm_bytes_per_clk | multicast rate))
// (fit to the H200's single loads of 4-32 KiB and its 57 B/clk with 8 loads in flight,
// kernels/ubench tma rows). Stores read shared memory and complete tma.store_latency +
// bytes / stream later; their bytes take L2 bandwidth and the kernel waits for them to drain.
// Every operation holds an entry of the issuing SM's TMA queue until it lands (tma.queue_depth,
// sim/timing/unit_queue.h): an issue into a full queue waits.
#pragma once
#include <cstdint>

#include "sim/cycles.h"
#include "sim/timing/memory.h"

namespace tcsim::sim {
struct ExecCtx;
class Sm;
}

namespace tcsim::sim::timing {

struct AsyncTimes {
  Cycles read_done, land;
};

// A load of `bytes` into the shared memory of the SMs dst[0..n) (several: multicast), whose global
// bytes `reader` has seen.
// `rows`: the box rows of a tensor load (each one global request of the TMA unit), 0 for a bulk copy.
AsyncTimes tma_load(ExecCtx& c, uint64_t bytes, uint64_t rows, GlobalReader& reader, Sm* const* dst, uint32_t n,
                    bool multicast);
// A store / reduce of `bytes` from the executing CTA's shared memory to global memory.
AsyncTimes tma_store(ExecCtx& c, uint64_t bytes);
// A bulk copy of `bytes` from the executing CTA's shared memory to a peer CTA's (DSMEM).
AsyncTimes dsmem_copy(ExecCtx& c, uint64_t bytes);

}  // namespace tcsim::sim::timing
