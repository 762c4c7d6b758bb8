// The global-memory read-modify-writes of one partition during a quantum (atom/red on .global,
// cp.reduce.async.bulk{.tensor} into .global), and their one deterministic application at the
// quantum boundary. The element arithmetic is sim/memory/rmw.h.
//
// Why deferred: partitions (GPCs) run a quantum in parallel on host threads and see global memory
// read-only (their stores go to a StoreOverlay, sim/memory/store_overlay.h). A read-modify-write of
// global memory must see every other partition's read-modify-writes of the same address, so it
// cannot be performed on global memory inside the quantum. Instead its issuer records one RmwRecord
// per element here; at the boundary the launch (sim/launch.cc) calls commit_quantum, which
//   1. drops the bulk-reduction records whose bytes a later plain store of the same partition
//      overwrote in the quantum (program order within the partition: the store wins),
//   2. commits every partition's store overlay, in partition order,
//   3. applies every partition's records in one global order, the key (cycle, SM, CTA, warp, lane)
//      — records with equal keys (the elements of one instruction) keep their issue order — and
//      hands each old value to its record's issuer (atom: the lane's destination register).
// The order, and therefore every returned value and the final memory, depends only on simulated
// time: the same with 1, 2 or N host threads.
//
// The two kinds of records differ only in when their issuer observes them:
//   * atom / red (sim/exec/atomic.cc): checked at issue (faults carry the PTX line); the cycle of
//     the key is the issue cycle; the issuing thread group sleeps until the boundary, so it reads
//     its old value (and its later loads see the result) only then. An atomic's effect becomes
//     visible to every thread at the boundary (no earlier, also not to its own partition); an atomic
//     ordered after a plain store of the same quantum sees that store; the issuing warp waits up to
//     one quantum (512 cycles — the order of a real L2 atomic round trip) for its result.
//   * bulk reductions (sim/units/tma_engine.cc): the cycle of the key is the cycle the data lands;
//     the partition applies the operation to its own overlay at once (its warps see their own
//     reductions after wait_group, as they see their stores), and the record carries the operation
//     to global memory at the boundary. Onto bytes the same partition stored to in the quantum the
//     operation is an ordinary write of the overlay (no record).
// All of it is allowed by the PTX memory model (PTX ISA §8): relaxed read-modify-writes of one
// location are totally ordered, and each is performed at one point of that order.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "sim/memory/rmw.h"

namespace tcsim::sim {

class GlobalMemory;
class StoreOverlay;
class Warp;
struct ExecInstr;
struct ExecOperand;

struct RmwRecord;
// Performs one record's read-modify-write on global memory and delivers the old value.
using RmwApplyFn = void (*)(GlobalMemory& gm, const RmwRecord& r);

struct RmwRecord {
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
  RmwApplyFn apply = nullptr;
  // atom/red: where the old value goes, the lane's destination register(s) of `in` in warp `w`.
  Warp* w = nullptr;
  const ExecInstr* in = nullptr;
  const ExecOperand* ops = nullptr;  // the instruction's operand list (vector destinations)
  // Bulk reductions: the element operation; `in_overlay`: already applied to the issuing
  // partition's overlay view (dropped at the boundary when a later store overwrote its bytes).
  rmw::ElemOp elem;
  bool in_overlay = false;
};

// The apply function of a bulk-reduction element: rmw::apply(r.elem) on global memory.
void apply_elem(GlobalMemory& gm, const RmwRecord& r);

class RmwLog {
 public:
  void push(const RmwRecord& r) { q_.push_back(r); }
  bool empty() const { return q_.empty(); }
  size_t size() const { return q_.size(); }

  // The quantum boundary (see the file comment): overlays[i] and logs[i] belong to partition i.
  // Runs serially.
  static void commit_quantum(std::span<StoreOverlay* const> overlays, std::span<RmwLog* const> logs,
                             GlobalMemory& gm);

 private:
  std::vector<RmwRecord> q_;
};

}  // namespace tcsim::sim
