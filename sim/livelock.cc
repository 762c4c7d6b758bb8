#include "sim/livelock.h"

namespace tcsim::sim {

using isa::ptx::Op;
using isa::ptx::OperandKind;
using isa::ptx::Space;

namespace {

bool reads_clock(const isa::ptx::Operand& o) {
  if (o.kind == OperandKind::SReg) return isa::ptx::sreg_info(o.sreg).varying == isa::ptx::SRegVarying::Clock;
  for (const isa::ptx::Operand& e : o.elems)
    if (reads_clock(e)) return true;
  return false;
}

}  // namespace

uint8_t progress_kind(const isa::ptx::Instr& in) {
  switch (in.op) {
    // Stores other threads can see (a .local or .param store is the thread's own).
    case Op::st: {
      const Space s = in.space();
      return s != Space::Local && s != Space::Param && s != Space::ParamEntry && s != Space::ParamFunc ? kProgress
                                                                                                      : kPrivateStore;
    }
    case Op::st_async: case Op::st_bulk: case Op::multimem_st: case Op::multimem_red: case Op::stmatrix:
    case Op::atom: case Op::red: case Op::red_async:
    case Op::tensormap_replace: case Op::tensormap_cp_fenceproxy:
    // Asynchronous copies (their completions are events too).
    case Op::cp_async: case Op::cp_async_mbarrier_arrive: case Op::cp_async_bulk: case Op::cp_reduce_async_bulk:
    case Op::cp_async_bulk_tensor: case Op::cp_reduce_async_bulk_tensor:
    // Barrier arrivals and mbarrier updates.
    case Op::bar_sync: case Op::bar_arrive: case Op::bar_red: case Op::barrier_sync: case Op::barrier_arrive:
    case Op::barrier_red: case Op::barrier_cluster_arrive:
    case Op::mbarrier_init: case Op::mbarrier_inval: case Op::mbarrier_arrive: case Op::mbarrier_arrive_drop:
    case Op::mbarrier_expect_tx: case Op::mbarrier_complete_tx:
    case Op::clusterlaunchcontrol_try_cancel: case Op::griddepcontrol:
    // Tensor-core work and Tensor Memory writes.
    case Op::wgmma_mma_async: case Op::tcgen05_mma: case Op::tcgen05_cp: case Op::tcgen05_st: case Op::tcgen05_shift:
    case Op::tcgen05_commit: case Op::tcgen05_alloc: case Op::tcgen05_dealloc: case Op::tcgen05_relinquish_alloc_permit:
    case Op::exit: case Op::trap:
      return kProgress;
    case Op::mbarrier_test_wait: case Op::mbarrier_try_wait: case Op::mbarrier_pending_count: case Op::nanosleep:
      return kPoll;
    default:
      break;
  }
  for (const isa::ptx::Operand& o : in.ops)
    if (reads_clock(o)) return kProgress;
  return kNoProgress;
}

bool RepeatDetector::observe(uint64_t epoch, std::vector<uint64_t>& state) {
  if (epoch != epoch_) {
    epoch_ = epoch;
    repeated_ = false;
    saved_.swap(state);
    power_ = 1;
    steps_ = 0;
    return false;
  }
  if (repeated_) return true;
  ++steps_;
  if (state == saved_) {
    repeated_ = true;
    std::vector<uint64_t>().swap(saved_);
    return true;
  }
  if (steps_ == power_) {
    saved_.swap(state);
    power_ *= 2;
    steps_ = 0;
  }
  return false;
}

}  // namespace tcsim::sim
