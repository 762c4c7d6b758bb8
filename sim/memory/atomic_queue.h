// Global-memory atomics of one partition during a quantum, and their deterministic application at
// the quantum boundary.
//
// Why deferred: partitions (GPCs) run a quantum in parallel on host threads and see global memory
// read-only (their stores go to a StoreOverlay, sim/memory/store_overlay.h). An atomic on global
// memory must see every other partition's atomics on the same address, so it cannot complete
// inside the quantum. Instead the issuing instruction checks the access (bounds, alignment: faults
// are reported at issue, with the PTX line), records one PendingAtomic per lane here, and its
// thread group sleeps until the quantum's end (sim/exec/atomic.cc). At the boundary the launch
// (sim/launch.cc), after committing the store overlays in partition order, applies every
// partition's pending atomics in one global order — (cycle, SM, CTA, warp, lane), a total order
// on the records because a warp issues at most one instruction per cycle — and writes each old
// value into the issuing lane's destination register. The order, and therefore every returned
// value and the final memory, depends only on simulated time: the same with 1, 2 or N host threads.
//
// Consequences, all allowed by the PTX memory model: a global atomic's effect becomes visible to
// every thread at the boundary (no earlier, also not to its own partition); an atomic ordered
// after a plain store of the same quantum (overlay) sees that store; the issuing warp waits up to
// one quantum (512 cycles — the order of a real L2 atomic round trip) for its result.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace tcsim::sim {

class GlobalMemory;
class Warp;
struct ExecInstr;
struct ExecOperand;

struct PendingAtomic;
// Performs one record's read-modify-write on global memory and delivers the old value.
using AtomicApplyFn = void (*)(GlobalMemory& gm, const PendingAtomic& r);

struct PendingAtomic {
  // Order key.
  uint64_t cycle = 0;
  uint32_t sm = 0;
  uint32_t cta = 0;   // linear CTA id
  uint32_t warp = 0;  // warp id in the CTA
  uint32_t lane = 0;
  // The access (checked at issue).
  uint64_t addr = 0;
  uint64_t b[2] = {0, 0};  // operand b (vectors and .b128: packed, element 0 lowest)
  uint64_t c[2] = {0, 0};  // operand c (cas)
  // Where the old value goes: the lane's destination register(s) of `in` in warp `w`.
  Warp* w = nullptr;
  const ExecInstr* in = nullptr;
  const ExecOperand* ops = nullptr;  // the instruction's operand list (vector destinations)
  AtomicApplyFn apply = nullptr;
};

class AtomicQueue {
 public:
  void push(const PendingAtomic& r) { q_.push_back(r); }
  bool empty() const { return q_.empty(); }
  size_t size() const { return q_.size(); }

  // Applies the records of all queues in (cycle, SM, CTA, warp, lane) order, then clears them.
  // Runs serially at the quantum boundary.
  static void apply_all(std::span<AtomicQueue* const> queues, GlobalMemory& gm);

 private:
  std::vector<PendingAtomic> q_;
};

}  // namespace tcsim::sim
