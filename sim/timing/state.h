// The timing model's mutable state: per warp (scoreboard, where its cycles went), per SM (caches,
// ports, unit timelines, utilisation counters), per partition (its view of the L2, bandwidth queues,
// the trace buffer), and the L2 shared by every partition. Determinism (sim/README.md "Parallel
// determinism"): the shared L2 is read-only during a quantum; each partition records the lines it
// filled and sees them at once itself, and the fills are committed at the quantum boundary in
// partition order.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/cycles.h"
#include "sim/timing/instr_timing.h"
#include "sim/timing/line_map.h"
#include "sim/timing/report.h"
#include "sim/timing/unit_queue.h"

namespace tcsim::sim {
class Warp;
}

namespace tcsim::sim::timing {

class AtomicWords;

// Where a warp's cycles went (the report's per-role breakdown).
enum class Stall : uint8_t {
  Issue,         // issuing
  Dependency,    // a register its next instruction reads is not ready (ALU/MMA latency)
  Memory,        // ... and it comes from a load (global, shared, local, constant)
  TmemLoad,      // tcgen05.ld/st registers or tcgen05.wait::ld/st
  Pipe,          // its pipe (or the issue slot) is taken by another warp
  Mbarrier,      // suspended in mbarrier.try_wait (which barrier: WarpTiming::wait_addr)
  Barrier,       // bar.sync / barrier.sync
  ClusterBarrier,
  AsyncWait,     // wgmma.wait_group, cp.async.wait, cp.async.bulk.wait_group, tcgen05.alloc
  Fence,         // fence/membar
  Sleep,         // nanosleep, global atomics in flight
  TensorQueue,   // its tcgen05.mma/cp/shift waits: the tensor core's queue is full (tcgen05.queue_depth)
  TmaQueue,      // its bulk copy waits: the TMA unit's queue is full (tma.queue_depth)
  Count_
};
inline constexpr int kNumStalls = static_cast<int>(Stall::Count_);
const char* stall_name(Stall s);

struct WarpTiming {
  std::vector<uint64_t> ready;         // scoreboard: per slot (then per predicate) the cycle its value is ready
  std::vector<uint8_t> producer;       // Pipe that wrote the slot (for the stall reason)
  uint64_t last_issue = 0;
  bool issued_any = false;
  Stall reason = Stall::Pipe;          // why it is not issuing now (attributed at its next issue)
  uint32_t wait_addr = 0;              // mbarrier offset of a Mbarrier wait
  uint64_t tmem_done = 0;              // completion of its tcgen05.ld/st in flight
  uint64_t deferred_done = 0;          // its deferred shared stores have their data (sim/timing/load_hoist.h)
  std::array<uint64_t, kNumStalls> cycles{};
  std::unordered_map<uint32_t, uint64_t> mbar_cycles;  // mbarrier offset -> cycles waited
  uint64_t issued = 0;
  uint8_t role_flags = 0;              // kFlagMmaRole | kFlagTmaRole | kFlagEpilogue seen
  uint64_t run_start = 0;              // trace: the current run of issues began here
};

// Set-associative tags of 128-byte lines with a valid bit per 32-byte sector (a miss fills only
// the sectors asked for, as the L1 and L2 do: docs/timing_model.md "Memory"), FIFO replacement
// (deterministic, no host randomness).
inline constexpr uint8_t kAllSectors = 0xf;
class Tags {
 public:
  void init(uint64_t bytes, uint32_t line_bytes, uint32_t ways);
  bool contains(uint64_t line, uint8_t sectors = kAllSectors) const;
  void insert(uint64_t line, uint8_t sectors = kAllSectors);
  bool enabled() const { return sets_ != 0; }

 private:
  // Per way: line << 4 | its valid sectors, one word so that a lookup reads one array (line numbers
  // are addresses / 128, below 2^57, so the shift loses nothing); kEmpty matches no line.
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  std::vector<uint64_t> ways_tag_;
  std::vector<uint8_t> next_;
  uint64_t sets_ = 0;
  uint32_t ways_ = 0;
};

struct SmTiming {
  Tags l1;
  std::unordered_set<uint64_t> const_lines;  // 64-byte constant-bank lines touched
  std::unordered_set<uint64_t> pages;        // translation cached for these pages
  uint64_t smem_free_q = 0;   // shared-memory port
  uint64_t lsu_free_q = 0;    // L1 tag stage (loads)
  uint64_t store_free_q = 0;  // store path to the L2
  uint64_t const_free_q = 0;  // constant-cache port
  uint64_t tensor_free_q = 0; // the SM's tensor pipe (wgmma; tcgen05 keeps its own in TensorCore)
  uint64_t tma_free_q = 0;    // TMA fill port
  uint64_t tma_issue_free = 0;  // TMA unit: next cycle it accepts an operation
  uint64_t tma_req_free_q = 0;  // TMA unit: when it has generated the requests of every box so far (kQ units)
  uint64_t last_store = 0;
  // Accepted, unfinished operations of the SM's units (an issue into a full one waits, sm.cc
  // timing_ready): the tensor core's tcgen05.mma/cp/shift (a cta_group::2 operation in both SMs'),
  // the TMA unit's bulk copies (in the issuing SM's).
  UnitQueue tc_queue, tma_queue;
  // utilisation counters (cycles, fixed point kQ where noted)
  uint64_t tensor_busy_q = 0, smem_busy_q = 0, tma_busy_q = 0;
  uint64_t issue_slots = 0;
  uint64_t tma_load_bytes = 0, tma_store_bytes = 0;
  uint64_t first_cycle = ~0ull, last_cycle = 0;  // span in which CTAs were resident
};

// The L2 of the whole GPU (shared, committed at quantum boundaries).
class L2 {
 public:
  void init(uint64_t bytes);
  bool contains(uint64_t line, uint8_t sectors) const { return tags_.contains(line, sectors); }
  // `fills`: line << 4 | sector mask (PartitionTiming::fills).
  void commit(const std::vector<uint64_t>& fills) {
    for (uint64_t f : fills) tags_.insert(f >> 4, static_cast<uint8_t>(f & kAllSectors));
  }

 private:
  Tags tags_;
};

// One warp's global atomics on one word, queued by this partition in a quantum (the GPU-wide replay:
// sim/timing/atomic_words.h). `busy`: the cycles the word's atomic unit spends on them; the issuing
// group's results are back `tail` cycles after the queue has performed them.
struct AtomQueued {
  uint64_t arrive = 0, key = 0, busy = 0, tail = 0;
  uint32_t sm = 0, cta = 0, warp = 0, lane = 0;  // order key (lane: the word's first lane)
  Warp* w = nullptr;
};

struct PartitionTiming {
  const L2* l2 = nullptr;
  const AtomicWords* atom_words = nullptr;         // the GPU-wide per-word queue (read-only in a quantum)
  std::vector<AtomQueued> atom_queued;             // this quantum's batches, replayed at the boundary
  struct Pending {
    uint64_t ready = 0;   // cycle the fill's data is in the L2
    uint8_t sectors = 0;  // the sectors filled
  };
  LineMap<Pending> pending;                       // lines this partition filled this quantum
  std::vector<uint64_t> fills;                    // line << 4 | sectors, in fill order (committed at the boundary)
  uint64_t hbm_free_q = 0, l2_free_q = 0;          // bandwidth queues of this partition's share
  double hbm_share = 1, l2_share = 1;              // bytes per cycle this partition gets this quantum
  std::unordered_map<uint64_t, uint64_t> atom_word_free;  // L2 atomic unit per word (same-word serialisation)
  uint64_t hbm_bytes = 0, l2_bytes = 0, l2_hits = 0, l2_misses = 0, l1_hits = 0, l1_misses = 0;
  uint64_t flops = 0;                              // MMA work issued (2 x M x N x K per MMA)
  // per role aggregate of finished warps (kRole*), per stall reason
  struct RoleAgg {
    uint32_t warps = 0;
    uint64_t issued = 0;
    std::array<uint64_t, kNumStalls> cycles{};
    std::unordered_map<uint32_t, uint64_t> mbar;
  };
  std::array<RoleAgg, 4> roles;
  bool trace = false;
  uint64_t trace_limit = 0;
  std::vector<TraceEvent> trace_events;
  void add_trace(TraceEvent e) {
    if (trace && trace_events.size() < trace_limit) trace_events.push_back(std::move(e));
  }
};

enum Role : uint8_t { kRoleProducer, kRoleMma, kRoleEpilogue, kRoleOther };
inline const char* role_name(int r) {
  static const char* const k[] = {"producer", "mma", "epilogue", "other"};
  return k[r];
}
inline int role_of(uint8_t flags) {
  if (flags & kFlagMmaRole) return kRoleMma;
  if (flags & kFlagTmaRole) return kRoleProducer;
  if (flags & kFlagEpilogue) return kRoleEpilogue;
  return kRoleOther;
}

}  // namespace tcsim::sim::timing
