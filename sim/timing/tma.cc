#include "sim/timing/tma.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/exec/exec.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/timing/model.h"
#include "sim/timing/state.h"

namespace tcsim::sim::timing {

namespace {

// The issuing SM's TMA unit takes tma.issue_cycles per operation.
uint64_t issue_slot(ExecCtx& c, const Model& M) {
  SmTiming& S = c.sm->timing();
  const uint64_t now = c.now.count();
  const uint64_t start = std::max(now, S.tma_issue_free);
  S.tma_issue_free = start + static_cast<uint64_t>(M.p.tma_issue_cycles);
  return start + static_cast<uint64_t>(M.p.tma_issue_cycles);
}

void trace(ExecCtx& c, uint64_t start, uint64_t end, const char* what, uint64_t bytes) {
  PartitionTiming& P = c.part->timing();
  if (P.trace)
    P.add_trace({start, end > start ? end - start : 1, c.sm->id(), kTrackTma, 'X', what,
                 fmt::format("\"bytes\": {}", bytes)});
}

}  // namespace

AsyncTimes tma_load(ExecCtx& c, uint64_t bytes, uint64_t rows, GlobalReader& reader, Sm* const* dst, uint32_t n,
                    bool multicast) {
  const Model& M = *c.launch->timing;
  const uint64_t now = c.now.count();
  const uint64_t issued = issue_slot(c, M);
  const GlobalRead g = reader.finish();
  const double base = (g.l2_hit ? M.p.tma_l2_latency : M.p.tma_hbm_latency) + static_cast<double>(g.extra);
  uint64_t land = issued + static_cast<uint64_t>(base + static_cast<double>(bytes) / M.p.tma_stream_bytes_per_clk);
  if (rows && M.p.tma_rows_per_clk > 0) {
    // The unit generates one global request per box row (a row of 16 bytes moves 16 bytes): boxes
    // queue behind each other's requests, and the last row's data lands a latency after its request.
    SmTiming& S = c.sm->timing();
    const uint64_t req_start = std::max(issued * kQ, S.tma_req_free_q);
    S.tma_req_free_q = req_start + to_q(static_cast<double>(rows) / M.p.tma_rows_per_clk);
    land = std::max(land, from_q(S.tma_req_free_q).count() + static_cast<uint64_t>(base));
  }
  const double rate = multicast ? M.p.tma_multicast_bytes_per_clk : M.p.tma_sm_bytes_per_clk;
  for (uint32_t i = 0; i < n; ++i) {
    SmTiming& D = dst[i]->timing();
    const uint64_t start = std::max(issued * kQ, D.tma_free_q);
    const uint64_t busy = to_q(static_cast<double>(bytes) / rate);
    D.tma_free_q = start + busy;
    D.tma_busy_q += busy;
    D.tma_load_bytes += bytes;
    land = std::max(land, from_q(D.tma_free_q).count());
  }
  trace(c, now, land, multicast ? "TMA load (multicast)" : "TMA load", bytes);
  c.sm->timing().tma_queue.push(land);
  return {Cycles(land), Cycles(land)};
}

AsyncTimes tma_store(ExecCtx& c, uint64_t bytes) {
  const Model& M = *c.launch->timing;
  const uint64_t now = c.now.count();
  const uint64_t issued = issue_slot(c, M);
  SmTiming& S = c.sm->timing();
  const uint64_t start = std::max(issued * kQ, S.tma_free_q);
  const uint64_t busy = to_q(static_cast<double>(bytes) / M.p.tma_sm_bytes_per_clk);
  S.tma_free_q = start + busy;
  S.tma_busy_q += busy;
  S.tma_store_bytes += bytes;
  const uint64_t land = std::max(issued + static_cast<uint64_t>(M.p.tma_store_latency +
                                                                static_cast<double>(bytes) / M.p.tma_stream_bytes_per_clk),
                                 from_q(S.tma_free_q).count());
  note_async_store(c, bytes, Cycles(land));
  trace(c, now, land, "TMA store", bytes);
  S.tma_queue.push(land);
  // The engine has read the source by the time the writes are performed (H200: 569 vs 575 cycles
  // for 16 KiB, kernels/ubench tma,store_16KiB): one time for both.
  return {Cycles(land), Cycles(land)};
}

AsyncTimes dsmem_copy(ExecCtx& c, uint64_t bytes) {
  const Model& M = *c.launch->timing;
  const uint64_t now = c.now.count();
  const uint64_t issued = issue_slot(c, M);
  const uint64_t land = issued + static_cast<uint64_t>(M.p.dsmem_remote_latency +
                                                       static_cast<double>(bytes) / M.p.tma_stream_bytes_per_clk);
  trace(c, now, land, "DSMEM copy", bytes);
  c.sm->timing().tma_queue.push(land);
  return {Cycles(land), Cycles(land)};
}

}  // namespace tcsim::sim::timing
