#include "sim/report/report.h"
#include "sim/units/tensor_core.h"

#include <algorithm>

#include <fmt/format.h>

#include "isa/ptx/dump.h"
#include "models/mma/engine.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/timing/model.h"
#include "sim/warp.h"

namespace tcsim::sim {

namespace {
bool same_dim(Dim3 a, Dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
}  // namespace

struct TensorCore::EngineSlot {
  models::mma::DotShape shape;
  std::unique_ptr<models::mma::DotEngine> engine;
};

TensorCore::TensorCore(Sm& sm) : sm_(&sm) {}
TensorCore::~TensorCore() = default;

TcCtaState* TensorCore::find_cta(const Cta& c) {
  for (auto& s : ctas_)
    if (s->cta == &c) return s.get();
  return nullptr;
}

TcCtaState& TensorCore::cta(const Cta& c) {
  if (TcCtaState* s = find_cta(c)) return *s;
  auto s = std::make_unique<TcCtaState>();
  s->cta = &c;
  s->thread_last_done.assign(c.warps().size() * 32, Cycles(0));
  s->warps.resize(c.warps().size());
  ctas_.push_back(std::move(s));
  return *ctas_.back();
}

Cycles TensorCore::issue(Partition& part, Cycles now, const Work& work, TensorCore* peer,
                         std::vector<ColumnWrite> writes, uint32_t src,
                         std::function<void(Cycles)> effect) {
  using timing::kQ;
  const uint64_t ii_q = std::max<uint64_t>(1, timing::to_q(work.ii)), smem_q = timing::to_q(work.smem);
  uint64_t start = std::max(now.count() * kQ, busy_until_q_);
  if (peer) start = std::max(start, peer->busy_until_q_);
  // Operands from shared memory take each SM's port (sim/timing/state.h): ld/st.shared of other
  // warps delay the MMA, and the MMA delays them.
  uint64_t end = start + ii_q;
  for (TensorCore* u : {this, peer}) {
    if (!u || !smem_q) continue;
    timing::SmTiming& s = u->sm().timing();
    const uint64_t port = std::max(start, s.smem_free_q);
    s.smem_free_q = port + smem_q;
    s.smem_busy_q += smem_q;
    end = std::max(end, s.smem_free_q);
  }
  for (TensorCore* u : {this, peer}) {
    if (!u) continue;
    u->busy_until_q_ = end;
    u->sm().timing().tensor_busy_q += end - start;
  }
  part.timing().flops += static_cast<uint64_t>(work.flops);
  if (part.timing().trace)
    part.timing().add_trace({(end - ii_q) / kQ, ii_q / kQ, sm_->id(), timing::kTrackTensor, 'X', "mma", ""});
  Cycles done = timing::from_q(end - ii_q) + Cycles(static_cast<uint64_t>(std::max(1.0, work.latency)));
  // Completions in issue order (PTX ISA §9.7.16.6.2: tcgen05.cp -> tcgen05.mma and mma -> mma are
  // pipelined pairs, ordered without waits): an operation with a shorter latency (an MMA after a
  // tcgen05.cp of its scale factors) never lands before the one issued ahead of it, on either SM.
  for (TensorCore* u : {this, peer})
    if (u) done = max(done, u->last_done_);
  for (TensorCore* u : {this, peer})
    if (u) {
      u->last_done_ = done;
      u->sm().timing().tc_queue.push(done.count());  // until `done` it holds a queue entry (sim/sm.cc)
    }
  for (const ColumnWrite& w : writes)
    for (uint32_t c = w.col0; c < w.col0 + w.cols && c < kTmemColumns; ++c) {
      TmemColumnState& st = w.unit->tmem().column_state(c);
      ++st.in_flight;
      st.last_issue = now;
    }
  part.events().post(done, EventPriority::AsyncDataLand,
                     [writes = std::move(writes), src, effect = std::move(effect)](Cycles t) {
                       effect(t);
                       for (const ColumnWrite& w : writes)
                         for (uint32_t c = w.col0; c < w.col0 + w.cols && c < kTmemColumns; ++c) {
                           TmemColumnState& s = w.unit->tmem().column_state(c);
                           if (s.in_flight) --s.in_flight;
                           s.last_write = t;
                           s.last_writer_src = src + 1;
                         }
                     });
  return done;
}

TensorCore* TensorCore::peer_of(int cg, TensorCore* const units[2]) const {
  if (cg != 2) return nullptr;
  return units[0] == this ? units[1] : units[0];
}

void TensorCore::add_waiter(Warp* w) {
  if (std::find(waiters_.begin(), waiters_.end(), w) == waiters_.end()) waiters_.push_back(w);
}

void TensorCore::wake_waiters() {
  std::vector<Warp*> w;
  w.swap(waiters_);
  for (Warp* x : w) x->wake_async();
}

const models::mma::DotEngine& TensorCore::engine(const models::mma::DotShape& s) {
  for (auto& e : engines_) {
    const auto& t = e->shape;
    if (t.kind == s.kind && t.atype == s.atype && t.btype == s.btype && t.dtype == s.dtype && t.k == s.k &&
        t.scale_type == s.scale_type && t.scale_block == s.scale_block && t.negate_a == s.negate_a &&
        t.negate_b == s.negate_b && t.scale_input_d == s.scale_input_d && t.saturate == s.saturate)
      return *e->engine;
  }
  auto slot = std::make_unique<EngineSlot>();
  slot->shape = s;
  slot->engine = std::make_unique<models::mma::DotEngine>(s);
  engines_.push_back(std::move(slot));
  return *engines_.back()->engine;
}

std::string TensorCore::on_cta_exit(const Cta& c) {
  std::string err;
  const std::vector<TmemAllocation> held = tmem_.release_all(&c);
  if (!held.empty()) {
    std::string cols;
    for (const TmemAllocation& a : held)
      cols += fmt::format("{}{}-{}", cols.empty() ? "" : ", ", a.column, a.column + a.ncols - 1);
    err = fmt::format("{} exits holding Tensor Memory columns {} of SM {}: every column allocated by "
                      "tcgen05.alloc must be freed by tcgen05.dealloc before the kernel exits (PTX ISA "
                      "§9.7.16.1.2, §9.7.16.7.1); tcsim frees them",
                      c.name(), cols, sm_->id());
  }
  std::erase_if(ctas_, [&](const auto& s) { return s->cta == &c; });
  std::erase_if(waiters_, [&](Warp* w) { return &w->cta() == &c; });
  return err;
}

Cta* cluster_cta(const Cta& c, uint32_t rank) {
  for (auto& sm : c.sm().partition().sms())
    for (auto& o : sm->ctas())
      if (!o->done() && o->cluster_rank() == rank && same_dim(o->cluster_id(), c.cluster_id())) return o.get();
  return nullptr;
}

Cta* peer_cta(const Cta& c) { return cluster_cta(c, c.cluster_rank() ^ 1u); }

std::string tc_source_text(const Partition& part, uint32_t src) { return site_of(part.launch(), src).str(); }

void tc_note_cta_group(ExecCtx& c, const ExecInstr& in, int cta_group) {
  TcCtaState& s = c.sm->tensor_core().cta(*c.cta);
  if (s.cta_group == 0) {
    s.cta_group = cta_group;
    s.cta_group_src = in.src;
    return;
  }
  if (s.cta_group != cta_group)
    c.fail(-1, fmt::format("uses .cta_group::{} but this CTA already executed .cta_group::{} at {}: all tcgen05 "
                           "instructions of a kernel must use the same .cta_group (PTX ISA §9.7.16.7.1, "
                           "§9.7.16.10.9.1)",
                           cta_group, s.cta_group, site_of(*c.launch, s.cta_group_src).str()));
}

}  // namespace tcsim::sim
