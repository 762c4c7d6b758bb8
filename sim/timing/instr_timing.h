// What the timing model needs to know about one bound instruction (Program::timing, one per pc):
// the execution pipe it issues to, and the register slots it reads and writes (the scoreboard's
// view, docs/timing_model.md "Issue"). Computed once at bind time by annotate_timing()
// (sim/timing/instr_class.cc); the cycles of each pipe come from the GPU's profile at launch.
#pragma once
#include <cstdint>

namespace tcsim::sim::timing {

// Execution pipes. The first group has a fixed latency and a throughput per SM from the profile
// (`pipe.<name>.latency`, `.per_clk`); the rest are timed by their unit (memory system, barrier,
// tensor core, TMA, ...).
enum class Pipe : uint8_t {
  Alu, Alu64, Imad, Imul64, Bitop, Fp32, Fp64, Half, Mufu, Cvt, CvtHalf, Cvt64, Shfl, Vote, Redux,
  Idiv, Idiv64, Fdiv, Fsqrt, FdivApprox, Ddiv, Sreg,
  FixedCount_,  // ---- the rest: timed by a unit
  Control = FixedCount_,
  Mem,         // ld/st/ldmatrix/stmatrix/prefetch: the memory system's latency (sim/timing/memory.h)
  Atomic,      // atom/red/multimem
  Barrier,     // bar/barrier, barrier.cluster
  MbarArrive,  // mbarrier init/arrive/expect_tx/complete_tx/inval/pending_count
  MbarWait,    // mbarrier test_wait/try_wait
  Fence,       // fence/membar at CTA or cluster scope
  FenceGpu,    // fence/membar at GPU or system scope
  FenceProxy,  // fence.proxy.*, fence.mbarrier_init, wgmma.fence, tcgen05.fence::*
  AsyncCopy,   // cp.async, cp.async.bulk{.tensor}, st.async, red.async: issue to the TMA / LSU
  Tensor,      // wgmma.mma_async, tcgen05.mma/cp/shift/commit: issue to the tensor core
  Mma,         // mma.sync / wmma.mma: the sub-partition's tensor pipe
  TmemLd,      // tcgen05.ld / tcgen05.st
  TmemAlloc,   // tcgen05.alloc/dealloc/relinquish_alloc_permit
  Misc,        // everything else (nanosleep, setmaxnreg, griddepcontrol, ...)
  Count_
};
inline constexpr int kNumPipes = static_cast<int>(Pipe::Count_);
inline constexpr int kNumFixedPipes = static_cast<int>(Pipe::FixedCount_);

enum : uint8_t {
  kFlagBypassL1 = 1 << 0,  // ld.global.cg/.cs/.cv/.volatile/.relaxed|acquire.gpu|sys: served by L2
  kFlagStore = 1 << 1,     // writes memory (st, red, stmatrix): no destination latency
  kFlagWaitLd = 1 << 2,    // tcgen05.wait::ld / wait::st: the warp waits for its TMEM accesses
  kFlagMmaRole = 1 << 3,   // issues MMAs (warp-role inference of the report)
  kFlagTmaRole = 1 << 4,   // issues TMA loads (producer)
  kFlagEpilogue = 1 << 5,  // tcgen05.ld, TMA stores, global stores (epilogue)
  // A release at cluster/GPU scope that ptxas implements with MEMBAR.ALL.GPU before the operation
  // (sm_90a, CUDA 13: barrier.cluster.arrive{.release}, mbarrier.arrive.release.cluster): the warp
  // waits fence.gpu_cycles and the arrive takes effect then.
  kFlagReleaseGpu = 1 << 6,
  // A 32-bit div/rem with a register divisor, whose slot is the first source: the SASS sequence
  // computes the divisor's reciprocal first, so the result is late by up to
  // pipe.idiv.divisor_latency when the divisor was ready only just before (Model::idiv_divisor_extra).
  kFlagRegDivisor = 1 << 7,
};

// The unit queue an instruction enters (sim/timing/unit_queue.h): an issue into a full queue waits
// (the warp stalls, timing::Stall::TensorQueue / TmaQueue) until the oldest operation completes.
enum class QueueKind : uint8_t {
  None,
  TensorCore,  // tcgen05.mma, tcgen05.cp, tcgen05.shift (tcgen05.queue_depth)
  Tma,         // cp.async.bulk{.tensor}, cp.reduce.async.bulk{.tensor} (tma.queue_depth)
};

inline constexpr uint8_t kDeferMask = 0x7f, kDrain = 0x80;

struct InstrTiming {
  uint32_t dep_off = 0;       // Program::timing_deps index of the first source, then the destinations
  uint8_t nsrc = 0, ndst = 0;
  Pipe pipe = Pipe::Alu;
  uint8_t flags = 0;
  QueueKind queue = QueueKind::None;
  // Load hoisting (sim/timing/load_hoist.h): the low 7 bits count the trailing sources (of the nsrc)
  // that need not be ready at issue when a load produces them; kDrain: waits for the warp's
  // deferred shared stores first.
  uint8_t defer = 0;
  uint16_t units = 1;         // Mma: 32-byte K units of the shape; TmemLd: 32-bit columns per lane
  uint32_t flops = 0;         // Mma: 2 * M * N * K of one warp's mma.sync (the report's FLOP count)
};

}  // namespace tcsim::sim::timing
