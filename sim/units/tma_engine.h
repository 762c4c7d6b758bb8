// The TMA / bulk-copy engine of one SM (PTX ISA §9.7.9.25 "Data Movement: cp.async.bulk*"). It owns
// every bulk operation from issue to completion: the instruction files (sim/exec/cp_async_bulk.cc,
// sim/exec/cp_async_bulk_tensor.cc) decode one lane's operands into a TensorOp or BulkOp and hand it
// over; everything after that is here.
//
//   issue (the instruction)        the operation is checked completely — tensor map (read from its
//                                  generic address and decoded now), coordinates, shared-memory
//                                  footprint, global bounds, the CTAs of destination and mbarrier —
//                                  so a bad operation faults at its own PTX line. Sources in shared
//                                  memory are read now (snapshot): the program may overwrite them
//                                  once cp.async.bulk.wait_group.read says the reads are done, which
//                                  is never earlier than this. The proxy checker learns what is in
//                                  flight (sim/checker/proxy.h); bulk-group operations join the
//                                  issuing thread's open group (sim/units/async_groups.h).
//   land (AsyncDataLand event)     the bytes appear in shared memory (loads: read from global memory
//                                  now, through the partition's overlay) or in global memory
//                                  (stores: through the overlay; reductions: the element ALU,
//                                  sim/memory/rmw.h, on the overlay view and in the partition's RMW
//                                  log, sim/memory/rmw_log.h); a load records where its bytes came
//                                  from (sim/units/smem_origin.h, for tcgen05.mma's misread diagnosis).
//   complete (MbarrierUpdate)      complete_tx on the mbarrier (sim/units/mbarrier.h), after the data
//                                  of the same cycle, released with the issuing CTA's clock: a CTA that
//                                  waits on that phase is ordered after the operation, also when the
//                                  barrier is a peer's (the DSMEM exit check, sim/cluster.h).
//
// Functional-mode latencies (assumed: the timing model replaces them): data lands kLandLatency
// cycles after issue; shared-memory sources are read within kReadLatency cycles. Schedule
// perturbation (Partition::jitter) may delay both: a copy may always complete later. Cache hints
// (.L2::cache_hint, prefetches) change no data: their operands are decoded and checked, nothing else.
#pragma once
#include <cstdint>
#include <string>

#include "isa/descriptors/tensor_map.h"
#include "sim/cycles.h"
#include "sim/memory/rmw.h"

namespace tcsim::sim {
struct ExecCtx;
class Sm;
}  // namespace tcsim::sim

namespace tcsim::sim::tma {

inline constexpr Cycles kLandLatency{64};
inline constexpr Cycles kReadLatency{16};

// One lane of cp{.reduce}.async.bulk.tensor or cp.async.bulk.prefetch.tensor (tile mode,
// PTX ISA §9.7.9.25.5).
struct TensorOp {
  enum Kind : uint8_t { Load, Store, Reduce, Prefetch };
  Kind kind = Load;
  uint64_t map = 0;       // generic address of the tensor map
  uint32_t rank = 0;      // .dim
  int32_t coords[5] = {};
  uint64_t smem = 0;      // Load: dstMem (.shared::cluster); Store/Reduce: srcMem (.shared::cta)
  uint64_t mbar = 0;      // Load: the mbarrier (.shared::cluster)
  bool multicast = false;
  uint16_t cta_mask = 0;  // .multicast::cluster
  bool pair = false;      // .cta_group::2
  rmw::Op op = rmw::Op::Add;  // Reduce (the element type is the tensor map's)
};

// One lane of a non-tensor bulk copy (PTX ISA §9.7.9.25.4).
struct BulkOp {
  enum Kind : uint8_t { GlobalToShared, SharedToCluster, SharedToGlobal, Prefetch };
  Kind kind = GlobalToShared;
  uint64_t dst = 0, src = 0;
  uint32_t size = 0;
  uint64_t mbar = 0;      // GlobalToShared, SharedToCluster
  bool multicast = false;
  uint16_t cta_mask = 0;
  bool reduce = false;    // cp.reduce.async.bulk
  rmw::ElemOp elem;
};

class TmaEngine {
 public:
  explicit TmaEngine(Sm& sm) : sm_(&sm) {}

  // Issues one lane's operation (faults at the issuing PTX line; see the file comment).
  void tensor(ExecCtx& c, int lane, const TensorOp& op);
  void bulk(ExecCtx& c, int lane, const BulkOp& op);
  // cp.async.bulk.commit_group / wait_group{.read} N for the executing lanes: wait returns the
  // cycle until which they sleep (<= now: at once).
  void commit_group(ExecCtx& c);
  Cycles wait_group(ExecCtx& c, uint32_t n, bool read);

 private:
  void tensor_load(ExecCtx& c, int lane, const TensorOp& op);
  void tensor_store(ExecCtx& c, int lane, const TensorOp& op);
  void bulk_load(ExecCtx& c, int lane, const BulkOp& op);
  void bulk_to_cluster(ExecCtx& c, int lane, const BulkOp& op);
  void bulk_to_global(ExecCtx& c, int lane, const BulkOp& op);
  Sm* sm_;
};

// ---- reductions (PTX ISA §9.7.9.25.4.2 cp.reduce.async.bulk, §9.7.9.25.5.3 ...tensor) ----------
// Empty when `op` is defined on `t`, else the rule (the operation/type tables of both sections).
std::string reduce_type_error(rmw::Op op, rmw::Type t);
// The element operation of a tensor reduction: the type from the tensor map (FLOAT32_FTZ: f32 with
// subnormals flushed); empty error when defined, else the rule.
std::string reduce_elem_of_map(rmw::Op op, isa::TensorMapDataType t, rmw::ElemOp* e);

}  // namespace tcsim::sim::tma
