#include "sim/launch.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "sim/checker/global_race.h"
#include "sim/cluster.h"
#include "sim/deadlock_report.h"
#include "sim/livelock.h"
#include "models/machine/machine_config.h"
#include "sim/partition.h"
#include "sim/timing/atomic_words.h"
#include "sim/timing/model.h"
#include "sim/timing/report_build.h"

namespace tcsim::sim {
namespace {

class LaunchRun {
 public:
  LaunchRun(LaunchState& L, ThreadPool& pool, const DeviceOptions& opts) : L_(L), pool_(pool), opts_(opts) {
    const MachineConfig& mc = *L.machine;
    // GPC g holds the next mc.gpc_sms[g] SM ids (models/machine/machine_config.h); its TPC t is its
    // SMs 2t and 2t+1.
    uint32_t first = 0;
    for (uint32_t g = 0; g < mc.num_gpcs; ++g) {
      std::vector<uint32_t> ids;
      for (uint32_t s = 0; s < mc.gpc_sms[g]; ++s) ids.push_back(first + s);
      first += mc.gpc_sms[g];
      parts_.push_back(std::make_unique<Partition>(L, g, ids));
    }
    // CTAs of a cluster launch an SM holds at once (the H200's cudaOccupancyMaxActiveClusters).
    per_sm_cap_ = L.explicit_cluster ? mc.max_cluster_ctas_per_sm : mc.max_ctas_per_sm;
    const Dim3 g = L.cfg.grid, c = L.cluster;
    clusters_total_ = (g.x / c.x) * (g.y / c.y) * (g.z / c.z);
    max_steps_ = opts.max_steps ? opts.max_steps : kDefaultMaxSteps;
    livelock_window_ = opts.livelock_cycles ? opts.livelock_cycles : models::kLivelockWindowCycles;
    repeat_after_ = std::min(livelock_window_, models::kLivelockRepeatCycles);
    L.repeat_epoch = 0;
    L.max_warp_steps = opts.max_warp_steps ? opts.max_warp_steps : opts.max_steps ? opts.max_steps : kDefaultMaxWarpSteps;
    l2_.init(static_cast<uint64_t>(L.timing->p.l2_bytes));
    // The global race detector (sim/checker/global_race.h): a fresh shadow per launch (launch order).
    if (L.check) race_ = global_race::make_state(static_cast<uint32_t>(parts_.size()), L.cfg.grid.x, L.cfg.grid.y);
    L.global_race = race_.get();
    for (auto& p : parts_) {
      timing::PartitionTiming& t = p->timing();
      t.l2 = &l2_;
      t.atom_words = &atom_words_;
      t.trace = L.trace_events > 0;
      t.trace_limit = L.trace_events / mc.num_gpcs + 1;
    }
  }

  ~LaunchRun() { L_.global_race = nullptr; }
  LaunchRun(const LaunchRun&) = delete;
  LaunchRun& operator=(const LaunchRun&) = delete;

  LaunchResult run() {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point t0 = Clock::now();
    Clock::time_point last_progress = t0;
    uint64_t ctas_done = 0;
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
        if (next_cluster_ < clusters_total_) {
          const uint32_t csize = L_.cluster.x * L_.cluster.y * L_.cluster.z;
          uint32_t biggest = 0;
          for (uint32_t s : L_.machine->gpcs()) biggest = std::max(biggest, s);
          if (csize > biggest)
            throw SimError(fmt::format("kernel {}: a cluster of {} CTAs needs {} SMs of one GPC; the largest GPC of "
                                       "{} has {}", L_.kernel, csize, csize, L_.machine->name, biggest));
          throw SimError(fmt::format(
              "kernel {}: a CTA needs more resources than one SM has ({} threads, {} bytes of shared memory)",
              L_.kernel, L_.cfg.block.count(), smem_per_cta()));
        }
        break;
      }
      // The memory bandwidths are shared by the SMs with resident CTAs: each partition gets its
      // SMs' share this quantum (the L2 and DRAM serve every SM alike; sim/timing/state.h).
      std::vector<uint32_t> busy_sms(active.size(), 0);
      uint32_t busy_total = 0;
      for (size_t i = 0; i < active.size(); ++i) {
        for (const auto& sm : active[i]->sms()) busy_sms[i] += sm->idle() ? 0u : 1u;
        busy_sms[i] = std::max(busy_sms[i], 1u);
        busy_total += busy_sms[i];
      }
      for (size_t i = 0; i < active.size(); ++i) {
        Partition* p = active[i];
        p->set_now(t);
        const double share = static_cast<double>(busy_sms[i]) / static_cast<double>(busy_total);
        p->timing().hbm_share = L_.timing->hbm_bytes_per_clk * share;
        // ... and at most what its busy SMs can take (l2.sm_bytes_per_clk each: few SMs do not get
        // the whole L2, kernels/ubench l2bw,hit_read_sms* rows).
        p->timing().l2_share = std::min(L_.timing->l2_bytes_per_clk * share,
                                        L_.timing->p.l2_sm_bytes_per_clk * static_cast<double>(busy_sms[i]));
      }
      pool_.run(active.size(), [&](size_t i) { active[i]->run_until(t + q); });
      // ---- quantum boundary (serial, deterministic order) ----
      const Fault* first = nullptr;
      for (Partition* p : active)
        if (p->fault() && (!first || p->fault()->when < first->when ||
                           (p->fault()->when == first->when && p->fault()->sm < first->sm)))
          first = &*p->fault();
      if (first) throw SimError(first->message + findings_note() + printf_note());
      // Plain stores in partition order, then every global read-modify-write in (cycle, SM, CTA,
      // warp, lane) order; atomics' warps wake at t + q with the old values in their registers
      // (sim/memory/rmw_log.h).
      std::vector<StoreOverlay*> overlays;
      std::vector<RmwLog*> logs;
      for (auto& p : parts_) {
        overlays.push_back(&p->overlay());
        logs.push_back(&p->rmw_log());
      }
      RmwLog::commit_quantum(overlays, logs, *L_.gm);
      // The same atomics' cycles: one GPU-wide queue per word (sim/timing/atomic_words.h).
      std::vector<timing::PartitionTiming*> part_timing;
      for (auto& p : parts_) part_timing.push_back(&p->timing());
      atom_words_.commit(part_timing);
      if (race_) global_race::commit_quantum(*race_, parts_);
      // L2 lines filled this quantum, in partition order.
      for (auto& p : parts_) {
        l2_.commit(p->timing().fills);
        p->timing().fills.clear();
        p->timing().pending.clear();
      }
      resolve_cluster_launch_control(t + q);
      for (Partition* p : active) total += p->issued();
      std::vector<Cycles> finished;
      for (auto& p : parts_)
        for (auto& sm : p->sms()) sm->retire(finished, &thread_instrs);
      for (Cycles f : finished) end = max(end, f);
      ctas_done += finished.size();
      for (auto& p : parts_)
        if (const Warp* w = p->warp_over_limit()) throw SimError(watchdog_warp(*w, total) + printf_note());
      if (total > max_steps_) throw SimError(watchdog(total) + printf_note());
      if (opts_.max_seconds > 0 || opts_.progress) {
        const Clock::time_point now = Clock::now();
        const double secs = std::chrono::duration<double>(now - t0).count();
        if (opts_.max_seconds > 0 && secs > opts_.max_seconds) throw SimError(wall_limit(secs, total) + printf_note());
        if (opts_.progress && std::chrono::duration<double>(now - last_progress).count() >= opts_.progress_interval_seconds) {
          last_progress = now;
          opts_.progress(LaunchProgress{ctas_done, L_.cfg.grid.count(), (t + q).count(), total, secs});
        }
      }
      // Deadlock: nothing can ever happen again in any partition.
      Cycles next = Cycles::never();
      bool any_work = false;
      for (auto& p : parts_) {
        if (!p->has_work()) continue;
        any_work = true;
        next = min(next, p->next_activity());
      }
      if (any_work && next.is_never()) throw SimError(deadlock() + findings_note() + printf_note());
      // Livelock: warps still run, but nothing that another thread could see has happened for the
      // window (sim/livelock.h).
      uint64_t progress = dispatched_ + ctas_done, fresh = 0;
      bool async = false;
      for (auto& p : parts_) {
        progress += p->progress();
        fresh += p->fresh_reads();
        async = async || p->async_pending();
      }
      // Exact repeats (sim/livelock.h): a quiet epoch opens after repeat_after_ cycles with no
      // progress but fresh-address loads; every live warp back in an earlier state of it (or waiting
      // with no time-out) with nothing changed since proves the loop endless.
      if (progress - fresh != last_hard_progress_ || async) {
        last_hard_progress_ = progress - fresh;
        last_hard_progress_at_ = t + q;
        L_.repeat_epoch = 0;
      } else if (any_work && livelock_window_ != DeviceOptions::kLivelockOff &&
                 (t + q).count() - last_hard_progress_at_.count() >= repeat_after_) {
        if (!L_.repeat_epoch) {
          L_.repeat_epoch = ++epochs_;
        } else if (every_warp_repeats()) {
          throw SimError(livelock((t + q).count() - last_hard_progress_at_.count(), true) + findings_note() +
                         printf_note());
        }
      }
      if (progress != last_progress_ || async) {
        last_progress_ = progress;
        last_progress_at_ = t + q;
      } else if (any_work && (t + q).count() - last_progress_at_.count() >= livelock_window_) {
        if (!any_warp_computing())
          throw SimError(livelock((t + q).count() - last_progress_at_.count(), false) + findings_note() +
                         printf_note());
        last_progress_at_ = t + q;  // a warp computes: the watchdog judges it (sim/livelock.h)
      }
      t = t + q;
      // Skip quanta in which nothing can happen (all warps asleep).
      if (any_work && next > t) t = Cycles(next.count() / kQuantum * kQuantum);
    }
    LaunchResult r;
    r.findings = all_findings();
    // The kernel's cycles: launch, the CTAs, the last stores draining, teardown (sim/timing).
    const models::timing::Profile& P = L_.timing->p;
    uint64_t last_store = 0;
    timing::RunTotals totals;
    for (auto& p : parts_) {
      totals.parts.push_back(&p->timing());
      for (auto& sm : p->sms()) {
        totals.sms.push_back(&sm->timing());
        last_store = std::max(last_store, sm->timing().last_store);
      }
    }
    const uint64_t body = std::max(end.count(), last_store ? last_store + static_cast<uint64_t>(P.store_drain_cycles) : 0);
    r.cycles = body + static_cast<uint64_t>(P.launch_drain_cycles);
    totals.cycles = r.cycles;
    r.timing = timing::build_report(*L_.timing, totals);
    if (L_.trace_events) {
      for (auto& p : parts_)
        for (timing::TraceEvent& e : p->timing().trace_events) r.trace.push_back(std::move(e));
      std::stable_sort(r.trace.begin(), r.trace.end(), [](const timing::TraceEvent& a, const timing::TraceEvent& b) {
        return a.ts != b.ts ? a.ts < b.ts : a.sm != b.sm ? a.sm < b.sm : a.track < b.track;
      });
    }
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
    std::vector<const PrintfLog*> logs;
    for (auto& p : parts_) logs.push_back(&p->printf_log());
    PrintfOutput po = merge_printf(logs, printf_fifo_capacity(L_));
    r.printf_output = std::move(po.text);
    r.printf_records = po.records;
    r.printf_dropped = po.dropped;
    r.printf_fifo_bytes = printf_fifo_capacity(L_);
    return r;
  }

 private:
  uint32_t smem_per_cta() const { return L_.smem.cta_bytes(); }

  // SMs of GPC `p` for one cluster of `csize` CTAs, every CTA on a different SM (the H200 never
  // puts two CTAs of a cluster on one SM: machine_shape TWO_PER_SM), the least loaded first (lowest
  // id on ties), so clusters fill a GPC evenly and as many fit as cudaOccupancyMaxActiveClusters
  // says (models::max_active_clusters). An even-sized cluster takes whole TPCs, ranks 2i and 2i + 1
  // on the two SMs of one TPC (the H200 put every 2-CTA cluster on SMs 2t, 2t + 1: 198 of 198;
  // CTA pairs of tcgen05 .cta_group::2 share a TPC). Empty when the cluster does not fit.
  std::vector<Sm*> pick_sms(Partition& p, uint32_t csize, uint32_t threads, uint32_t smem) const {
    auto fits = [&](const Sm& s) { return s.resident() < per_sm_cap_ && s.can_fit(threads, smem); };
    const auto& sms = p.sms();
    std::vector<Sm*> chosen;
    if (csize % 2 == 0) {
      std::vector<std::pair<uint32_t, size_t>> tpcs;  // (load, first SM index in the GPC)
      for (size_t i = 0; i + 1 < sms.size(); i += 2)
        if (fits(*sms[i]) && fits(*sms[i + 1])) tpcs.push_back({sms[i]->resident() + sms[i + 1]->resident(), i});
      if (tpcs.size() * 2 >= csize) {
        std::stable_sort(tpcs.begin(), tpcs.end(), [](auto& a, auto& b) { return a.first < b.first; });
        for (size_t t = 0; t < csize / 2; ++t) {
          chosen.push_back(sms[tpcs[t].second].get());
          chosen.push_back(sms[tpcs[t].second + 1].get());
        }
        return chosen;
      }
    }
    std::vector<std::pair<uint32_t, size_t>> cand;
    for (size_t i = 0; i < sms.size(); ++i)
      if (fits(*sms[i])) cand.push_back({sms[i]->resident(), i});
    if (cand.size() < csize) return {};
    std::stable_sort(cand.begin(), cand.end(), [](auto& a, auto& b) { return a.first < b.first; });
    for (uint32_t r = 0; r < csize; ++r) chosen.push_back(sms[cand[r].second].get());
    return chosen;
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

  // Places whole clusters (all CTAs of a cluster on SMs of one GPC), in linear cluster order, on
  // the least loaded SMs of the machine (GPCs taken round-robin on ties, so work spreads across
  // them), until nothing more fits.
  void dispatch(Cycles now) {
    const uint32_t threads = static_cast<uint32_t>(L_.cfg.block.count());
    const uint32_t smem = smem_per_cta();
    const Dim3 g = L_.cfg.grid, c = L_.cluster;
    const uint32_t csize = c.x * c.y * c.z;
    const Dim3 ncl{g.x / c.x, g.y / c.y, g.z / c.z};
    while (next_cluster_ < clusters_total_) {
      // The GPC whose chosen SMs are the least loaded (the fullest of them counts), the next in
      // round-robin order on ties: a CTA never doubles up on an SM while another SM is idle.
      std::vector<Sm*> chosen;
      uint32_t best = ~0u;
      size_t best_gi = 0;
      for (size_t k = 0; k < parts_.size(); ++k) {
        const size_t gi = (rr_ + k) % parts_.size();
        std::vector<Sm*> c = pick_sms(*parts_[gi], csize, threads, smem);
        if (c.empty()) continue;
        uint32_t load = 0;
        for (const Sm* sm : c) load = std::max(load, sm->resident());
        if (load < best) {
          best = load;
          best_gi = gi;
          chosen = std::move(c);
        }
      }
      if (chosen.empty()) return;
      rr_ = (best_gi + 1) % parts_.size();
      const uint32_t cl = next_cluster_++;
      const Dim3 cid{cl % ncl.x, (cl / ncl.x) % ncl.y, cl / (ncl.x * ncl.y)};
      // Every CTA belongs to a Cluster object (of one CTA without a cluster launch): rank -> CTA for
      // distributed shared memory, barrier.cluster, and safe handles for async engines' events.
      auto cluster = std::make_shared<Cluster>(cid, c);
      for (uint32_t r = 0; r < csize; ++r) {
        const Dim3 in{r % c.x, (r / c.x) % c.y, r / (c.x * c.y)};
        const Dim3 ctaid{cid.x * c.x + in.x, cid.y * c.y + in.y, cid.z * c.z + in.z};
        const uint32_t linear = ctaid.x + g.x * (ctaid.y + g.y * ctaid.z);
        // CTAs leave the GPU's dispatcher one per launch.cta_interval after the launch's fixed
        // cost, and start launch.cta_cycles later (kernels/ubench launch_cycles).
        const models::timing::Profile& P = L_.timing->p;
        const Cycles start = max(now, Cycles(static_cast<uint64_t>(P.launch_kernel_cycles +
                                                                   static_cast<double>(dispatched_++) * P.launch_cta_interval))) +
                             Cycles(static_cast<uint64_t>(P.launch_cta_cycles));
        chosen[r]->launch(L_, ctaid, linear, start).attach_cluster(cluster);
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

  // What the kernel printed before a fatal error (printf debugging is for exactly these runs); the
  // first 64 KiB in the launch's output order.
  std::string printf_note() const {
    std::vector<const PrintfLog*> logs;
    for (auto& p : parts_) logs.push_back(&p->printf_log());
    const PrintfOutput po = merge_printf(logs, printf_fifo_capacity(L_));
    if (po.text.empty()) return "";
    constexpr size_t kShown = 64 << 10;
    std::string r = fmt::format("\n  device printf output before the error ({} call{}):\n", po.records,
                                po.records == 1 ? "" : "s");
    r += po.text.substr(0, kShown);
    if (po.text.size() > kShown) r += fmt::format("\n  ... {} more bytes", po.text.size() - kShown);
    return r;
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
            if (!w->done()) r += fmt::format("\n{}{}", w->describe(*L_.prog, L_), loop_of(*w));
        }
    return r;
  }

  // "\n      looping: x.ptx:12-15 (...)" for a warp whose last backward branch is known.
  std::string loop_of(const Warp& w) const {
    if (w.loop_from() > w.loop_to()) return "";
    const Program& p = *L_.prog;
    auto line = [&](uint32_t pc) -> uint32_t {
      if (pc >= p.code.size()) return 0;
      const SourceRef& s = p.sources[p.code[pc].src];
      return p.module->functions[s.function].instrs[s.instr].loc.line;
    };
    return fmt::format("\n      its last loop: {}:{}-{} (the branch at line {} goes back to line {})", L_.ptx_name,
                       line(w.loop_from()), line(w.loop_to()), line(w.loop_to()), line(w.loop_from()));
  }

  std::string watchdog(uint64_t total) const {
    return fmt::format(
        "kernel {}: watchdog: {} warp-instructions executed, over the limit of {} (DeviceOptions::max_steps, "
        "--max-steps): the kernel probably loops forever. Where the warps are:{}",
        L_.kernel, total, max_steps_, where_warps_are());
  }

  std::string watchdog_warp(const Warp& w, uint64_t total) const {
    const Dim3 c = w.cta().ctaid();
    return fmt::format(
        "kernel {}: watchdog: warp {} of CTA ({},{},{}) executed {} instructions, over the per-warp limit of {} "
        "(DeviceOptions::max_warp_steps, --max-steps; {} warp-instructions in all): the kernel probably loops "
        "forever. Where the warps are:{}",
        L_.kernel, w.id(), c.x, c.y, c.z, w.issued(), L_.max_warp_steps, total, where_warps_are());
  }

  std::string wall_limit(double secs, uint64_t total) const {
    return fmt::format(
        "kernel {}: watchdog: still running after {:.1f} s of wall time, over the limit of {} s (DeviceOptions::"
        "max_seconds, --max-seconds; {} warp-instructions executed). Where the warps are:{}",
        L_.kernel, secs, opts_.max_seconds, total, where_warps_are());
  }

  std::string deadlock() const {
    std::vector<const Cta*> ctas;
    for (auto& p : parts_)
      for (auto& sm : p->sms())
        for (auto& c : sm->ctas())
          if (!c->done()) ctas.push_back(c.get());
    const std::string r = deadlock_report(ctas, L_);
    return fmt::format(
        "kernel {}: deadlock: every remaining warp waits and nothing can wake it: no warp can make progress and no "
        "asynchronous operation is in flight (a barrier that some threads never reach, an mbarrier phase that "
        "misses arrivals or transaction bytes, a wait on the wrong parity?).{}",
        L_.kernel, r);
  }

  // A live warp that may issue and ran more than kComputeStretch instructions since its last poll.
  bool any_warp_computing() const {
    for (auto& p : parts_)
      for (auto& sm : p->sms())
        for (auto& c : sm->ctas())
          for (auto& w : c->warps()) {
            if (w->done() || w->since_poll() <= kComputeStretch) continue;
            for (const ThreadGroup& g : w->groups())
              if (g.state == GroupState::Ready) return true;
          }
    return false;
  }

  // Exact-repeat detection (sim/livelock.h): every live warp came back to an earlier state of the
  // open quiet epoch or waits with no time-out, and at least one of them repeated.
  bool every_warp_repeats() const {
    bool any = false;
    for (auto& p : parts_)
      for (auto& sm : p->sms())
        for (auto& c : sm->ctas())
          for (auto& w : c->warps()) {
            if (w->done()) continue;
            if (w->repeated(L_.repeat_epoch)) {
              any = true;
            } else if (!w->blocked_forever()) {
              return false;
            }
          }
    return any;
  }

  // `proven`: found by exact repeats, not by the window.
  std::string livelock(uint64_t idle, bool proven) const {
    std::vector<const Cta*> ctas;
    uint64_t warps = 0;
    for (auto& p : parts_)
      for (auto& sm : p->sms())
        for (auto& c : sm->ctas())
          if (!c->done()) {
            ctas.push_back(c.get());
            for (auto& w : c->warps()) warps += w->done() ? 0 : 1;
          }
    const uint32_t csize = L_.cluster.x * L_.cluster.y * L_.cluster.z;
    const uint64_t waiting = static_cast<uint64_t>(clusters_total_ - next_cluster_) * csize;
    return fmt::format(
        "kernel {}: livelock: {} warp{} of {} kept running for {} simulated cycles in which nothing changed: no "
        "thread stored to global or shared memory, ran an atomic, arrived at a barrier, issued an asynchronous "
        "operation or exited, and no asynchronous operation was in flight{} (a spin loop on a flag nobody sets, a "
        "poll of a barrier nobody arrives at?; DeviceOptions::livelock_cycles, --livelock-cycles, default {}).{}{}",
        L_.kernel, warps, warps == 1 ? "" : "s", ctas.size() == 1 ? "1 CTA" : fmt::format("{} CTAs", ctas.size()), idle,
        proven ? "; every spinning warp came back to a state it had been in, exactly (registers, predicates, pcs, "
                 "thread groups, call frames), and the others wait with no time-out: they loop forever"
               : "",
        models::kLivelockWindowCycles,
        waiting ? fmt::format("\n  {} CTA{} of the grid not launched yet: they start only when a resident CTA ends",
                              waiting, waiting == 1 ? " is" : "s are")
                : "",
        spin_report(ctas, L_));
  }

  LaunchState& L_;
  ThreadPool& pool_;
  const DeviceOptions& opts_;
  std::vector<std::unique_ptr<Partition>> parts_;
  std::unique_ptr<global_race::State, void (*)(global_race::State*)> race_{nullptr, [](global_race::State*) {}};
  uint32_t per_sm_cap_ = 0;
  size_t rr_ = 0;
  uint32_t next_cluster_ = 0, clusters_total_ = 0;
  uint64_t dispatched_ = 0;
  timing::L2 l2_;
  timing::AtomicWords atom_words_;
  uint64_t max_steps_ = 0;
  uint64_t livelock_window_ = 0;
  uint64_t last_progress_ = ~uint64_t{0};
  Cycles last_progress_at_{0};
  uint64_t repeat_after_ = 0, epochs_ = 0;
  uint64_t last_hard_progress_ = ~uint64_t{0};
  Cycles last_hard_progress_at_{0};
};

}  // namespace

LaunchResult run_launch(LaunchState& L, ThreadPool& pool, const DeviceOptions& opts) {
  LaunchRun run(L, pool, opts);
  return run.run();
}

}  // namespace tcsim::sim
