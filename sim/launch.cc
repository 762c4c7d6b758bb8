#include "sim/launch.h"

#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "sim/cluster.h"
#include "sim/partition.h"

namespace tcsim::sim {
namespace {

class LaunchRun {
 public:
  LaunchRun(LaunchState& L, ThreadPool& pool, const DeviceOptions& opts) : L_(L), pool_(pool), opts_(opts) {
    const MachineConfig& mc = *L.machine;
    // GPC g holds SMs [g*n/G, (g+1)*n/G).
    for (uint32_t g = 0; g < mc.num_gpcs; ++g) {
      std::vector<uint32_t> ids;
      for (uint32_t s = g * mc.num_sms / mc.num_gpcs; s < (g + 1) * mc.num_sms / mc.num_gpcs; ++s) ids.push_back(s);
      parts_.push_back(std::make_unique<Partition>(L, g, ids));
    }
    // Dispatch order: the i-th SM of every GPC before the (i+1)-th of any, so work spreads across GPCs.
    size_t max_per = 0;
    for (auto& p : parts_) max_per = std::max(max_per, p->sms().size());
    for (size_t i = 0; i < max_per; ++i)
      for (auto& p : parts_)
        if (i < p->sms().size()) order_.push_back({p.get(), p->sms()[i].get()});
    const Dim3 g = L.cfg.grid, c = L.cluster;
    clusters_total_ = (g.x / c.x) * (g.y / c.y) * (g.z / c.z);
    max_steps_ = opts.max_steps ? opts.max_steps : kDefaultMaxSteps;
  }

  LaunchResult run() {
    Cycles t(0);
    const Cycles q(kQuantum);
    uint64_t total = 0, thread_instrs = 0;
    Cycles end(0);
    for (;;) {
      dispatch(t);
      std::vector<Partition*> active;
      for (auto& p : parts_)
        if (p->has_work()) active.push_back(p.get());
      if (active.empty()) {
        if (next_cluster_ < clusters_total_) throw SimError(fmt::format(
            "kernel {}: a CTA needs more resources than one SM has ({} threads, {} bytes of shared memory)",
            L_.kernel, L_.cfg.block.count(), smem_per_cta()));
        break;
      }
      for (Partition* p : active) p->set_now(t);
      pool_.run(active.size(), [&](size_t i) { active[i]->run_until(t + q); });
      // ---- quantum boundary (serial, deterministic order) ----
      const Fault* first = nullptr;
      for (Partition* p : active)
        if (p->fault() && (!first || p->fault()->when < first->when ||
                           (p->fault()->when == first->when && p->fault()->sm < first->sm)))
          first = &*p->fault();
      if (first) throw SimError(first->message + findings_note());
      for (auto& p : parts_) p->overlay().commit(*L_.gm);
      // Global atomics after the stores, in (cycle, SM, CTA, warp, lane) order; their warps wake
      // at t + q with the old values in their registers (sim/memory/atomic_queue.h).
      std::vector<AtomicQueue*> queues;
      for (auto& p : parts_) queues.push_back(&p->atomics());
      AtomicQueue::apply_all(queues, *L_.gm);
      resolve_cluster_launch_control(t + q);
      for (Partition* p : active) total += p->issued();
      std::vector<Cycles> finished;
      for (auto& p : parts_)
        for (auto& sm : p->sms()) sm->retire(finished, &thread_instrs);
      for (Cycles f : finished) end = max(end, f);
      if (total > max_steps_) throw SimError(watchdog(total));
      // Deadlock: nothing can ever happen again in any partition.
      Cycles next = Cycles::never();
      bool any_work = false;
      for (auto& p : parts_) {
        if (!p->has_work()) continue;
        any_work = true;
        next = min(next, p->next_activity());
      }
      if (any_work && next.is_never()) throw SimError(deadlock() + findings_note());
      t = t + q;
      // Skip quanta in which nothing can happen (all warps asleep).
      if (any_work && next > t) t = Cycles(next.count() / kQuantum * kQuantum);
    }
    LaunchResult r;
    r.findings = all_findings();
    r.cycles = end.count();
    r.warp_instructions = total;
    r.thread_instructions = thread_instrs;
    // The .approx forms that ran in any partition, in the program's (binding) order.
    const std::vector<std::string>& names = L_.prog->approx_names;
    for (size_t id = 0; id < names.size(); ++id)
      for (auto& p : parts_)
        if (id < p->approx_seen().size() && p->approx_seen()[id]) {
          r.approx_ops.push_back(names[id]);
          break;
        }
    return r;
  }

 private:
  uint32_t smem_per_cta() const {
    const Program& p = *L_.prog;
    uint32_t dyn = (p.static_smem + p.dynamic_smem_align - 1) / p.dynamic_smem_align * p.dynamic_smem_align;
    return dyn + L_.cfg.dynamic_smem_bytes + 1024;
  }

  // The first ctaid of cluster `cl` (linear cluster order, x fastest).
  Dim3 first_ctaid(uint32_t cl) const {
    const Dim3 g = L_.cfg.grid, c = L_.cluster;
    const Dim3 ncl{g.x / c.x, g.y / c.y, g.z / c.z};
    return {cl % ncl.x * c.x, (cl / ncl.x) % ncl.y * c.y, cl / (ncl.x * ncl.y) * c.z};
  }

  // clusterlaunchcontrol.try_cancel (sim/units/cluster_launch_control.h): the requests of the
  // quantum, in their global order, each cancel the next cluster not yet dispatched.
  void resolve_cluster_launch_control(Cycles boundary) {
    std::vector<ClcQueue*> queues;
    for (auto& p : parts_)
      if (!p->clc().empty()) queues.push_back(&p->clc());
    if (queues.empty()) return;
    ClcQueue::resolve_all(queues, boundary, [this]() -> std::optional<Dim3> {
      if (next_cluster_ >= clusters_total_) return std::nullopt;
      return first_ctaid(next_cluster_++);
    });
  }

  // Places whole clusters (all CTAs of a cluster on SMs of one GPC), in linear cluster order, onto
  // SMs in the fixed dispatch order, until nothing more fits.
  void dispatch(Cycles now) {
    const uint32_t threads = static_cast<uint32_t>(L_.cfg.block.count());
    const uint32_t smem = smem_per_cta();
    const Dim3 g = L_.cfg.grid, c = L_.cluster;
    const uint32_t csize = c.x * c.y * c.z;
    const Dim3 ncl{g.x / c.x, g.y / c.y, g.z / c.z};
    while (next_cluster_ < clusters_total_) {
      // Find SMs for the cluster: round-robin from the last position, one GPC for all its CTAs.
      std::vector<Sm*> chosen;
      Partition* part = nullptr;
      for (size_t k = 0; k < order_.size() && chosen.size() < csize; ++k) {
        auto [p, sm] = order_[(rr_ + k) % order_.size()];
        if (part && p != part) continue;
        if (!sm->can_fit(threads, smem)) continue;
        if (std::find(chosen.begin(), chosen.end(), sm) != chosen.end()) continue;
        if (!part) {
          // Only start a cluster in a GPC that can hold all of it.
          uint32_t fit = 0;
          for (auto& s : p->sms()) fit += s->can_fit(threads, smem);
          if (fit < csize) continue;
          part = p;
        }
        chosen.push_back(sm);
        if (chosen.size() == 1) rr_ = (rr_ + k + 1) % order_.size();
      }
      if (chosen.size() < csize) return;
      const uint32_t cl = next_cluster_++;
      const Dim3 cid{cl % ncl.x, (cl / ncl.x) % ncl.y, cl / (ncl.x * ncl.y)};
      // Every CTA belongs to a Cluster object (of one CTA without a cluster launch): rank -> CTA for
      // distributed shared memory, barrier.cluster, and safe handles for async engines' events.
      auto cluster = std::make_shared<Cluster>(cid, c);
      for (uint32_t r = 0; r < csize; ++r) {
        const Dim3 in{r % c.x, (r / c.x) % c.y, r / (c.x * c.y)};
        const Dim3 ctaid{cid.x * c.x + in.x, cid.y * c.y + in.y, cid.z * c.z + in.z};
        const uint32_t linear = ctaid.x + g.x * (ctaid.y + g.y * ctaid.z);
        chosen[r]->launch(L_, ctaid, linear, now).attach_cluster(cluster);
      }
    }
  }

  // Findings of every partition, merged by (rule, site), earliest first (deterministic).
  std::vector<FindingGroup> all_findings() const {
    std::vector<const FindingLog*> logs;
    for (auto& p : parts_) logs.push_back(&p->findings());
    return FindingLog::merge(logs, L_);
  }
  // Findings recorded before a fatal error often explain it (a stale parity before a deadlock).
  std::string findings_note() const {
    std::string s = summarize_findings(all_findings());
    if (!s.empty() && s.back() == '\n') s.pop_back();
    if (!s.empty()) s.insert(s.begin(), '\n');
    return s;
  }

  std::string where_warps_are() const {
    std::string r;
    size_t shown = 0;
    for (auto& p : parts_)
      for (auto& sm : p->sms())
        for (auto& c : sm->ctas()) {
          if (c->done()) continue;
          if (++shown > 4) return r + "\n  ...";
          r += fmt::format("\n  {}:", c->name());
          for (auto& w : c->warps())
            if (!w->done()) r += fmt::format("\n{}", w->describe(*L_.prog, L_));
        }
    return r;
  }

  std::string watchdog(uint64_t total) const {
    return fmt::format(
        "kernel {}: watchdog: {} warp-instructions executed, over the limit of {} (DeviceOptions::max_steps, "
        "--max-steps): the kernel probably loops forever. Where the warps are:{}",
        L_.kernel, total, max_steps_, where_warps_are());
  }

  std::string deadlock() const {
    std::string r;
    for (auto& p : parts_) r += p->describe_blocked();
    return fmt::format(
        "kernel {}: deadlock: every remaining warp waits and nothing can wake it: no warp can make progress and no "
        "asynchronous operation is in flight (a barrier that some threads never reach, an mbarrier phase that "
        "misses arrivals or transaction bytes, a wait on the wrong parity?). Who waits on what:{}",
        L_.kernel, r);
  }

  LaunchState& L_;
  ThreadPool& pool_;
  const DeviceOptions& opts_;
  std::vector<std::unique_ptr<Partition>> parts_;
  std::vector<std::pair<Partition*, Sm*>> order_;
  size_t rr_ = 0;
  uint32_t next_cluster_ = 0, clusters_total_ = 0;
  uint64_t max_steps_ = 0;
};

}  // namespace

LaunchResult run_launch(LaunchState& L, ThreadPool& pool, const DeviceOptions& opts) {
  LaunchRun run(L, pool, opts);
  return run.run();
}

}  // namespace tcsim::sim
