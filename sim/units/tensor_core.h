// The fifth-generation tensor core of one SM (PTX ISA §9.7.16): its Tensor Memory, the per-CTA
// tcgen05 state (allocation permit, the allocating warp, what each thread has issued, pending
// tcgen05.ld/st of each warp), and the asynchronous pipeline that executes tcgen05.mma,
// tcgen05.cp and tcgen05.shift. The instruction files bind, validate and plan an operation
// (sim/units/tensor_core_ops.h); the unit owns its datapath and completion: operand fetch, the
// models::mma arithmetic and the TMEM writes (tensor_core_mma.cc), the copies and shifts
// (tensor_core_cp.cc), and the liveness of the CTAs involved at completion (through CtaRef).
//
// Asynchronous operations (§9.7.16.6.1) run in issue order (the pipelined pairs of §9.7.16.6.2 are
// all ordered this way, and nothing is ordered differently): one serial pipeline per SM,
//
//   issue at t -> start = when the pipeline (and, for operands read from shared memory, the SM's
//   shared-memory port) is free -> the pipeline is busy for the initiation interval -> completion =
//   start + latency (EventPriority::AsyncDataLand)
//
// with the interval and latency of sim/timing/model.h (the published B200 formulas by cta_group,
// M, N and operand source, models/timing/b200.txt), and the operation's effect on TMEM (the MMA's D, the copied cells) happens only in the completion
// event (DESIGN.md "one clock"): until then TMEM holds the old values, and a kernel that reads them
// early reads stale data, as on the GPU — and the checker says so. A cta_group::2 operation occupies
// the pipelines of both SMs of the CTA pair.
//
// tcgen05.commit (§9.7.16.12.1) arrives on its mbarrier(s) when every asynchronous operation the
// committing thread issued before it has completed (EventPriority::MbarrierUpdate, after the data).
#pragma once
#include <array>
#include <bitset>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <string>
#include <tuple>
#include <vector>

#include "isa/ptx/ir.h"
#include "sim/cycles.h"
#include "sim/program.h"
#include "sim/units/tensor_core_ops.h"
#include "sim/units/tmem.h"

namespace tcsim::models::mma {
class DotEngine;
struct DotShape;
}  // namespace tcsim::models::mma

namespace tcsim::sim {

class Cta;
class Sm;
class Warp;
class Partition;
struct ExecCtx;
struct ExecInstr;

// A range of TMEM cells: lanes [lane0, lane0 + lanes) x columns [col0, col0 + cols).
struct TmemRange {
  uint32_t lane0 = 0, lanes = 0, col0 = 0, cols = 0;
  bool overlaps(const TmemRange& o) const {
    return lane0 < o.lane0 + o.lanes && o.lane0 < lane0 + lanes && col0 < o.col0 + o.cols &&
           o.col0 < col0 + cols;
  }
};

// What one warp has in flight with tcgen05.ld / tcgen05.st (§9.7.16.8.3-5). The registers of a
// tcgen05.ld hold their values at once (§9.7.16.6.4.5); what stays pending is the TMEM side.
struct TcWarpState {
  uint32_t ld_src = 0;               // Program::sources index of the last pending tcgen05.ld
  std::vector<TmemRange> ld_ranges;  // cells read by tcgen05.ld not yet waited for (WAR check)
  std::vector<TmemRange> st_ranges;  // cells written by tcgen05.st not yet waited for (RAW check)
  uint32_t st_src = 0;
  Cycles last_fence_after;           // last tcgen05.fence::after_thread_sync (0: none)
  // Cells (lane quarter x column) this warp accessed with tcgen05.ld/st since its last
  // tcgen05.fence::before_thread_sync (or tcgen05.commit, which implies it): another thread's
  // tcgen05 write to them is not ordered after the access by any thread sync (missing-fence-before).
  std::array<std::bitset<512>, 4> unfenced{};
  bool any_unfenced = false;
  uint32_t unfenced_src = 0;  // Program::sources index of the last such access
  void note_unfenced(const TmemRange& r, uint32_t src) {
    for (uint32_t q = r.lane0 / 32; q < 4 && q * 32 < r.lane0 + r.lanes; ++q)
      for (uint32_t col = r.col0; col < r.col0 + r.cols && col < 512; ++col) unfenced[q].set(col);
    any_unfenced = true;
    unfenced_src = src;
  }
  bool unfenced_overlaps(const TmemRange& r) const {
    if (!any_unfenced) return false;
    for (uint32_t q = r.lane0 / 32; q < 4 && q * 32 < r.lane0 + r.lanes; ++q)
      for (uint32_t col = r.col0; col < r.col0 + r.cols && col < 512; ++col)
        if (unfenced[q].test(col)) return true;
    return false;
  }
  // The same cells after the fence, each with the cycle of the fence that handed it over (one per
  // cell, not one per warp: a warp that drains double-buffered accumulators hands buffer 0 over,
  // then later buffer 1, and the hand-over of buffer 1 says nothing about buffer 0). A tcgen05 op
  // of another warp that overwrites a cell needs its own tcgen05.fence::after_thread_sync after that
  // cell's hand-over (the consumer side).
  std::array<std::bitset<512>, 4> fenced{};
  std::vector<Cycles> fenced_at;  // [q * 512 + col], sized at the first fence
  Cycles fenced_latest;  // the latest hand-over of any cell
  bool any_fenced = false;
  uint32_t fenced_src = 0;
  void fence_before(Cycles now) {
    if (!any_unfenced) return;
    fenced_at.resize(4 * 512);
    for (int q = 0; q < 4; ++q) {
      for (size_t col = 0; col < 512; ++col)
        if (unfenced[q].test(col)) fenced_at[q * 512 + col] = now;
      fenced[q] |= unfenced[q], unfenced[q].reset();
    }
    any_unfenced = false;
    fenced_latest = now;
    any_fenced = true;
    fenced_src = unfenced_src;
  }
  // A cell of `r` handed over at or after `after` (the consumer's last fence::after_thread_sync;
  // `none`: it executed none): its cycle in *at.
  bool fenced_unordered(const TmemRange& r, bool none, Cycles after, Cycles* at) const {
    if (!any_fenced || (!none && after > fenced_latest)) return false;
    for (uint32_t q = r.lane0 / 32; q < 4 && q * 32 < r.lane0 + r.lanes; ++q)
      for (uint32_t col = r.col0; col < r.col0 + r.cols && col < 512; ++col)
        if (fenced[q].test(col) && (none || !(after > fenced_at[q * 512 + col]))) {
          *at = fenced_at[q * 512 + col];
          return true;
        }
    return false;
  }
  bool fenced_after = false;
};

// One operand collector buffer of a CTA (PTX ISA §9.7.16.10.9.1, §9.7.16.10.9.3): at issue, whether a
// fill keeps it valid (and the operand's shape); at completion, the values the fill read.
struct TcCollector {
  bool filled = false;
  uint32_t rows = 0, k = 0;
  uint32_t fill_src = 0;   // Program::sources index of the filling MMA
  uint32_t freed_src = 0;  // +1 of the MMA that freed it (0: never filled)
  std::vector<uint32_t> values;  // rows x k element codes (completion time)
};

// Per-CTA tcgen05 state.
struct TcCtaState {
  const Cta* cta = nullptr;
  int cta_group = 0;            // cta_group of the first tcgen05 instruction executed (0: none)
  uint32_t cta_group_src = 0;   // Program::sources index of that instruction
  bool relinquished = false;    // tcgen05.relinquish_alloc_permit executed (§9.7.16.7.1)
  uint32_t relinquish_src = 0;  // Program::sources index of the first one
  int alloc_warp = -1;          // the warp that performs the CTA's allocations
  uint32_t last_alloc_cols = 0;
  // A tcgen05.alloc that waits: for columns, or (cta_group::2) for the peer CTA's warp.
  struct AllocRequest {
    bool active = false, done = false;
    int cta_group = 1;
    uint32_t ncols = 0, dst = 0, result = 0;
    Warp* warp = nullptr;
  } alloc;
  // The same for a cta_group::2 dealloc (both warps of the pair act together).
  struct DeallocRequest {
    bool active = false, done = false;
    uint32_t taddr = 0, ncols = 0;
    Warp* warp = nullptr;
  } dealloc;
  std::vector<Cycles> thread_last_done;  // per thread: completion of its last async tcgen05 op
  std::map<std::pair<uint64_t, char>, bool> diagnosed;  // (descriptor, operand) -> misreads? (judged once)
  // Operand plans by (descriptor, rows, K, element bits, elements per 16 B, major): a kernel cycles
  // through a few descriptors, so each is planned and footprint-checked once (sim/exec
  // tcgen05_mma_issue.cc plan_operand; cleared when kMaxPlans are held, so memory stays bounded).
  using PlanKey = std::tuple<uint64_t, uint32_t, uint32_t, uint8_t, uint8_t, uint8_t>;
  static constexpr size_t kMaxPlans = 256;
  std::map<PlanKey, SmemPlanRef> plans;
  std::vector<TcWarpState> warps;
  TcWarpState& warp(uint32_t w) { return warps[w]; }
  TcCollector collector_a, collector_b[4];  // .collector::a, .collector::b0..b3
};

class TensorCore {
 public:
  explicit TensorCore(Sm& sm);
  ~TensorCore();

  Sm& sm() const { return *sm_; }
  Tmem& tmem() { return tmem_; }
  TcCtaState& cta(const Cta& c);           // created on first use
  TcCtaState* find_cta(const Cta& c);

  // The asynchronous operations (sim/units/tensor_core_ops.h), planned by the instruction: the
  // unit runs them through its pipeline, fetches the operands, computes and writes TMEM at
  // completion (EventPriority::AsyncDataLand), and marks the columns they write in flight until
  // then (checker). Each returns the completion cycle. `now`: the issue cycle.
  Cycles issue_mma(Partition& part, Cycles now, std::shared_ptr<const MmaOp> op);
  Cycles issue_cp(Partition& part, Cycles now, std::shared_ptr<const CpOp> op);
  Cycles issue_shift(Partition& part, Cycles now, std::shared_ptr<const ShiftOp> op);

  // Warps whose tcgen05.alloc (or cta_group::2 dealloc) waits: woken when columns are freed or the
  // peer arrives.
  void add_waiter(Warp* w);
  void wake_waiters();

  // A bit-exact arithmetic engine for `shape`, built once per SM and shape.
  const models::mma::DotEngine& engine(const models::mma::DotShape& shape);

  // The CTA exited (every warp done): columns it still holds are an error (§9.7.16.1.2).
  // Returns the message, or empty.
  std::string on_cta_exit(const Cta& c);

 private:
  // The pipeline: the operation occupies this SM's pipeline (and `peer`'s for a cta_group::2 op)
  // `ii` cycles and each SM's shared-memory port `smem` cycles, and completes `latency` cycles after
  // it starts; `effect` runs at completion; `writes` are the TMEM columns the op writes (per tensor
  // core), marked in flight until then (checker).
  struct ColumnWrite {
    TensorCore* unit;
    uint32_t col0, cols;
  };
  struct Work {
    double ii = 1, smem = 0, latency = 1;
    double flops = 0;  // counted for the report (2 M N K)
  };
  Cycles issue(Partition& part, Cycles now, const Work& work, TensorCore* peer, std::vector<ColumnWrite> writes,
               uint32_t src, std::function<void(Cycles)> effect);
  // The other tensor core of a cta_group::2 op issued on this one (nullptr for cta_group::1).
  TensorCore* peer_of(int cg, TensorCore* const units[2]) const;

  Sm* sm_;
  Tmem tmem_;
  uint64_t busy_until_q_ = 0;  // the pipeline's next free cycle (sim/timing kQ units)
  Cycles last_done_{0};        // the completion cycle of the last operation issued (issue order)
  std::vector<std::unique_ptr<TcCtaState>> ctas_;
  std::vector<Warp*> waiters_;
  struct EngineSlot;
  std::vector<std::unique_ptr<EngineSlot>> engines_;
};

// The CTA pair partner of `c` (cluster rank ^ 1, PTX ISA §9.7.16.5.1), or nullptr when it is not
// resident (not launched yet, or exited).
Cta* peer_cta(const Cta& c);
// The CTA of c's cluster with cluster rank `rank`, or nullptr.
Cta* cluster_cta(const Cta& c, uint32_t rank);

// "file.ptx:L (file.cu:N) `text`" for a Program::sources index (messages about an earlier
// instruction; findings themselves go through sim/report/report.h).
std::string tc_source_text(const Partition& part, uint32_t src);

// The cta_group rule: every tcgen05 instruction of a kernel uses the same .cta_group (PTX ISA
// §9.7.16.7.1 and each tcgen05 section). Checked at bind time over the whole function; at run time
// a CTA also remembers its first one (for the pair rules).
void tc_note_cta_group(ExecCtx& c, const ExecInstr& in, int cta_group);

}  // namespace tcsim::sim
