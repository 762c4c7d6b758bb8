// A warp: 32 lanes, their registers (slot-major: slot * 32 + lane), and the thread groups that
// share a PC.
//
// Reconvergence scheme (chosen deliberately; see DESIGN note below):
//   Each lane has its own PC; lanes at the same PC and call depth form a thread group that executes
//   together. The warp runs the group with the greatest call depth, then the lowest PC ("min-PC",
//   the thread-frontier scheme of Diamos et al., MICRO 2011); after every step groups that reached
//   the same (PC, depth) merge. Warp-synchronous instructions (shfl.sync, vote.sync, bar.warp.sync,
//   ...) park a group until every non-exited lane of their member mask has reached the same PC.
//
// Why not an IPDOM reconvergence stack: nvcc 13 targets sm_70+ and its code relies on independent
// thread scheduling — bar.sync reached by diverged halves of a warp, __syncwarp(mask) in divergent
// code, intra-warp spin locks. A stack that runs one path to its post-dominator before the other
// deadlocks on those. Per-lane PCs with min-PC selection handle them, and on the code layouts nvcc
// emits (loop bodies before exits, if-bodies before joins, cold blocks after) they reconverge at
// the immediate post-dominator or earlier, so warps stay converged as on hardware. A group that
// keeps spinning on a backward branch while others wait is rotated after kSpinLimit iterations,
// which gives the forward progress that Volta+ guarantees (no livelock on intra-warp locks).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cycles.h"
#include "sim/exec/exec.h"
#include "sim/livelock.h"
#include "sim/program.h"
#include "sim/timing/state.h"

namespace tcsim::sim {

class Cta;

enum class GroupState : uint8_t {
  Ready,
  AtWarpSync,  // parked at a warp-synchronous instruction, waiting for the rest of its mask
  AtBarrier,   // arrived at CTA barrier `barrier`, pc already past it
  Sleeping,    // nanosleep until `wake_at`
  AtAsyncWait, // parked at a wait on an asynchronous unit (Flow::WaitAsync), pc not advanced
  // Suspended in mbarrier.try_wait (PTX ISA §9.7.13.15.16) on the mbarrier at shared offset
  // `wait_addr` until its phase `wait_phase` completes (then the lanes' `wait_pred` bits are set)
  // or, when `wake_at` is not never, until the suspend-time limit expires (the predicate stays false).
  AtMbarrier,
  // In barrier.cluster.wait (PTX ISA §9.7.13.3) until the cluster barrier completes phase `wait_phase`.
  AtClusterBarrier,
};

struct ThreadGroup {
  uint32_t pc = 0;
  uint32_t mask = 0;
  uint16_t depth = 0;  // call depth (0 = kernel)
  GroupState state = GroupState::Ready;
  uint8_t barrier = 0;
  uint32_t spin = 0;   // consecutive backward branches taken while other groups wait
  bool yielded = false;
  bool polled = false; // ran an atomic since its last backward branch (a lock-acquire loop)
  Cycles wake_at;
  // AtMbarrier / AtClusterBarrier: what the group waits for (see GroupState).
  uint32_t wait_addr = 0;
  uint32_t wait_phase = 0;
  Ref wait_pred = 0;
  // Reconvergence points of the divergent branches this group came from, innermost last
  // (immediate post-dominators; deeper nesting than kMaxRpc is not tracked).
  static constexpr int kMaxRpc = 8;
  std::array<uint32_t, kMaxRpc> rpc{};
  uint8_t nrpc = 0;
  bool at_rpc() const { return nrpc && pc == rpc[nrpc - 1]; }

  static ThreadGroup make(uint32_t pc, uint32_t mask, uint16_t depth, GroupState state) {
    ThreadGroup g;
    g.pc = pc;
    g.mask = mask;
    g.depth = depth;
    g.state = state;
    return g;
  }
};

struct LaneFrame {
  uint8_t nrpc;          // the group's reconvergence depth at the call
  uint32_t return_pc;
  uint32_t call_site;
  uint32_t callee;       // FunctionLayout index
  uint32_t caller_base;  // caller's frame base
};

class Warp {
 public:
  static constexpr uint32_t kSpinLimit = 4096;
  static constexpr uint32_t kSpinYield = 2;  // ... when another group of the warp can run (warp.cc)

  Warp(Cta& cta, uint32_t id, uint32_t valid_mask, const LaunchState& L);

  Cta& cta() const { return *cta_; }
  uint32_t id() const { return id_; }
  uint32_t valid() const { return valid_; }
  uint32_t exited() const { return exited_; }
  bool done() const { return (exited_ & valid_) == valid_; }
  // True when some group may issue (wakes sleepers whose time has come). Inline fast path for the
  // common single converged group.
  bool has_ready_group(Cycles now) {
    if (groups_.size() == 1 && groups_[0].state == GroupState::Ready) return true;
    return has_ready_group_slow(now);
  }
  Cycles ready_at() const { return ready_at_; }
  void set_ready_at(Cycles t) { ready_at_ = t; }
  Cycles next_wake() const;  // earliest sleeper wake-up (never if none)
  // The sleeping group holding `lane` (a global atomic's wait, sim/timing/atomic_words.h) wakes no
  // earlier than `t`.
  void extend_sleep(uint32_t lane, Cycles t);
  uint64_t issued() const { return issued_; }
  // The last backward branch the warp took (a loop it runs): pcs of the target and the branch;
  // `to > from` when none (watchdog reports say which loop a warp spins in).
  uint32_t loop_from() const { return loop_from_; }
  uint32_t loop_to() const { return loop_to_; }
  uint64_t thread_instructions() const { return thread_instrs_; }
  // The warp's last load from global or shared memory (livelock reports: what a spinning warp
  // last read): the pc, the address of its first lane and the value it got (first element).
  struct LastRead {
    uint32_t pc = ~0u;
    uint8_t space = 0;  // isa::ptx::Space
    uint64_t addr = 0, value = 0;
  };
  // Returns true when the load read new data (another address than this pc's previous load: a loop
  // walking through memory, not a spin on one flag), which is progress (sim/livelock.h).
  bool note_read(uint32_t pc, uint8_t space, uint64_t addr, uint64_t value) {
    const bool fresh = pc != last_read_.pc || addr != last_read_.addr;
    last_read_ = {pc, space, addr, value};
    last_poll_ = issued_;
    return fresh;
  }
  const LastRead& last_read() const { return last_read_; }
  // A poll (a load, an mbarrier test_wait/try_wait, a nanosleep) marks the warp as waiting for
  // something; a warp that ran many instructions since its last poll computes (sim/livelock.h).
  void note_poll() { last_poll_ = issued_; }
  uint64_t since_poll() const { return issued_ - last_poll_; }
  const ExecInstr* current() const { return current_; }  // the instruction being executed
  // Exact-repeat livelock detection (sim/livelock.h): whether the warp came back to an earlier state
  // of quiet epoch `epoch`, and whether every group waits with no time-out (at a barrier, a
  // warp-synchronous instruction, an asynchronous wait, an mbarrier or cluster barrier wait without
  // a suspend-time limit): only progress elsewhere can wake it.
  bool repeated(uint64_t epoch) const { return repeat_.repeated(epoch); }
  bool blocked_forever() const;
  // The warp's whole architectural state (what decides everything it will do while memory does not
  // change), appended to `out` after clearing it.
  void snapshot(std::vector<uint64_t>& out) const;

  // Executes one instruction of the selected group at cycle `now`. Returns its timing class.
  uint8_t step(ExecCtx& ctx);
  // The instruction step() would execute now (nullptr: no group is ready); for the scheduler's
  // scoreboard check (sim/timing).
  const ExecInstr* peek();
  // Scoreboard and where this warp's cycles went (sim/timing/state.h).
  timing::WarpTiming& tm() { return tm_; }
  const timing::WarpTiming& tm() const { return tm_; }

  // Barrier bookkeeping (CTA-wide barriers, PTX ISA §9.7.13.1).
  uint32_t& bar_arrived(int b) { return bar_arrived_[b]; }
  bool& bar_counted(int b) { return bar_counted_[b]; }
  void release_barrier(int b, Cycles ready);
  // Groups parked by Flow::WaitAsync become ready and re-execute their wait (called by units).
  void wake_async();
  // What a group parked by Flow::WaitAsync waits for, when the unit says (deadlock reports; e.g. a
  // tcgen05.alloc waiting for Tensor Memory columns). Cleared by wake_async.
  std::string async_wait_reason;
  // An asynchronous unit that still reads or writes registers of this warp (wgmma accumulators
  // and A fragments until the covering wait_group, PTX ISA §9.7.15.7.3; tcgen05.ld destinations
  // until tcgen05.wait::ld, §9.7.16.8.5) watches every instruction the warp executes meanwhile;
  // nullptr when nothing is in flight (one predictable branch).
  // Called before an instruction executes; true: the instruction must wait (it is retried when an
  // asynchronous completion wakes the warp), as for a register an in-flight wgmma still writes.
  using RegWatch = bool (*)(ExecCtx&, const ExecInstr&);
  RegWatch reg_watch = nullptr;
  // Wakes the groups in state `st` (AtMbarrier / AtClusterBarrier) that wait on `addr` (mbarriers)
  // for a phase below `completed` (phases completed so far): AtMbarrier groups get their predicate
  // set. They may issue from `ready`. Returns the lanes woken.
  uint32_t wake_waiters(GroupState st, uint32_t addr, uint32_t completed, Cycles ready);

  // Per-lane local memory (stack frames, .local variables, call parameters).
  uint8_t* local_ptr(ExecCtx& ctx, int lane, uint64_t addr, uint32_t size);
  uint32_t frame_base(int lane) const { return frame_[lane]; }

  // Describes where each group stands (deadlock and watchdog reports).
  std::string describe(const Program& prog, const LaunchState& L) const;
  const std::vector<ThreadGroup>& groups() const { return groups_; }

  uint64_t* regs() { return regs_.data(); }
  uint32_t* preds() { return preds_.data(); }

 private:
  bool has_ready_group_slow(Cycles now);
  ThreadGroup* select();
  void apply_flow(ExecCtx& ctx, size_t gi, const ExecInstr& in);
  void do_call(ExecCtx& ctx, size_t gi, const ExecInstr& in);
  void do_ret(ExecCtx& ctx, size_t gi);
  void lanes_exit(ExecCtx& ctx, uint32_t lanes);
  void normalize();
  void note_backward_branch(uint64_t epoch);

  Cta* cta_;
  uint32_t id_;
  uint32_t valid_;
  uint32_t exited_ = 0;
  const Program* prog_;
  std::vector<uint64_t> regs_;
  std::vector<uint32_t> preds_;
  std::vector<ThreadGroup> groups_;
  std::array<std::vector<LaneFrame>, 32> calls_;
  std::array<uint32_t, 32> frame_{};
  uint32_t stack_limit_;                  // cudaLimitStackSize (LaunchState::stack_size_bytes)
  std::array<uint32_t, 32> rec_stack_{};  // bytes of recursive activations (cudaLimitStackSize)
  std::array<std::vector<uint8_t>, 32> local_;
  std::array<uint32_t, 16> bar_arrived_{};
  std::array<bool, 16> bar_counted_{};
  Cycles ready_at_;
  uint64_t issued_ = 0;
  uint64_t step_limit_ = ~uint64_t{0};  // LaunchState::max_warp_steps
  uint32_t loop_from_ = 1, loop_to_ = 0;
  LastRead last_read_;
  uint64_t last_poll_ = 0;
  uint64_t thread_instrs_ = 0;
  const ExecInstr* current_ = nullptr;
  // Exact-repeat detection (sim/livelock.h). `private_writes_`: stores to the warp's own local and
  // parameter memory, calls and returns (they copy parameters, return values and saved registers):
  // local memory is not copied into a snapshot, this count stands for it. `timed_`: a group slept or
  // began a timed wait while another group of the warp could run, so which group ran when depended
  // on time, not on the state alone: the next snapshot starts over.
  RepeatDetector repeat_;
  uint64_t private_writes_ = 0;
  bool timed_ = false;
  timing::WarpTiming tm_;
};

}  // namespace tcsim::sim
