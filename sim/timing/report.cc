// The end-of-launch timing report (sim/timing/report.h) and the clock model.
#include "sim/timing/report_build.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tcsim::sim::timing {

double kernel_seconds(const Model& M, uint64_t cycles, bool tensor_bound, std::string* note) {
  const auto& p = M.p;
  if (M.clock_pinned || !tensor_bound || p.clock_sustained_mhz >= p.clock_boost_mhz) {
    if (note)
      *note = M.clock_pinned ? fmt::format("pinned at {:.0f} MHz (--clock-mhz)", M.clock_mhz)
                             : fmt::format("{:.0f} MHz (clock.boost_mhz; not tensor-bound)", M.clock_mhz);
    return static_cast<double>(cycles) / (M.clock_mhz * 1e6);
  }
  if (M.steady_clock) {
    // A benchmark loop longer than the ramp: the power cap holds the clock at sustained.
    if (note)
      *note = fmt::format("{:.0f} MHz (tensor-bound, back-to-back past clock.throttle_after_us: clock.sustained_mhz; "
                          "--steady-clock)",
                          p.clock_sustained_mhz);
    return static_cast<double>(cycles) / (p.clock_sustained_mhz * 1e6);
  }
  // Tensor-bound: the clock falls linearly from boost to sustained over clock.throttle_after_us
  // (power cap), then stays there: cycles = integral of f(t) dt, solved for t.
  const double b = p.clock_boost_mhz * 1e6, s = p.clock_sustained_mhz * 1e6, tau = p.clock_throttle_after_us * 1e-6;
  const double c = static_cast<double>(cycles);
  const double ramp_cycles = tau * (b + s) / 2;
  double t;
  if (tau <= 0 || c >= ramp_cycles) {
    t = (tau > 0 ? tau : 0) + (c - (tau > 0 ? ramp_cycles : 0)) / s;
  } else {
    // b t - (b - s) t^2 / (2 tau) = c
    const double a = (b - s) / (2 * tau);
    t = (b - std::sqrt(b * b - 4 * a * c)) / (2 * a);
  }
  if (note)
    *note = fmt::format("{:.0f} MHz average (tensor-bound: boost {:.0f} -> sustained {:.0f} MHz over {:.0f} us, "
                        "clock.* of the profile; --clock-mhz pins it)",
                        c / t / 1e6, p.clock_boost_mhz, p.clock_sustained_mhz, p.clock_throttle_after_us);
  return t;
}

TimingReport build_report(const Model& M, const RunTotals& r) {
  TimingReport rep;
  rep.profile = M.p.name;
  rep.cycles = r.cycles;
  const double sched = M.p.sm_schedulers;
  uint64_t tensor_q = 0, smem_q = 0, tma_q = 0, issue = 0;
  for (const SmTiming* s : r.sms) {
    if (s->first_cycle == ~0ull) continue;
    ++rep.sms_used;
    rep.busy_cycles += s->last_cycle > s->first_cycle ? s->last_cycle - s->first_cycle : 0;
    tensor_q += s->tensor_busy_q;
    smem_q += s->smem_busy_q;
    tma_q += s->tma_busy_q;
    issue += s->issue_slots;
    rep.tma_load_bytes += s->tma_load_bytes;
    rep.tma_store_bytes += s->tma_store_bytes;
  }
  std::array<PartitionTiming::RoleAgg, 4> roles{};
  for (const PartitionTiming* p : r.parts) {
    rep.hbm_bytes += p->hbm_bytes;
    rep.l2_bytes += p->l2_bytes;
    rep.l1_hits += p->l1_hits;
    rep.l1_misses += p->l1_misses;
    rep.l2_hits += p->l2_hits;
    rep.l2_misses += p->l2_misses;
    rep.flops += static_cast<double>(p->flops);
    for (int k = 0; k < 4; ++k) {
      roles[k].warps += p->roles[k].warps;
      roles[k].issued += p->roles[k].issued;
      for (int i = 0; i < kNumStalls; ++i) roles[k].cycles[i] += p->roles[k].cycles[i];
      for (const auto& [a, c] : p->roles[k].mbar) roles[k].mbar[a] += c;
    }
  }
  const double busy = std::max<double>(1, static_cast<double>(rep.busy_cycles));
  rep.tensor_busy = tensor_q / static_cast<double>(kQ) / busy;
  rep.smem_busy = smem_q / static_cast<double>(kQ) / busy;
  rep.tma_busy = tma_q / static_cast<double>(kQ) / busy;
  rep.issue_busy = issue / (busy * sched);
  const bool tensor_bound = rep.tensor_busy >= M.p.clock_tensor_load;
  rep.seconds = kernel_seconds(M, r.cycles, tensor_bound, &rep.clock_note);
  rep.clock_mhz = rep.seconds > 0 ? r.cycles / rep.seconds / 1e6 : M.clock_mhz;
  rep.clock_pinned = M.clock_pinned;
  if (rep.seconds > 0) {
    rep.tflops = rep.flops / rep.seconds / 1e12;
    rep.tma_gbps = (rep.tma_load_bytes + rep.tma_store_bytes) / rep.seconds / 1e9;
    rep.hbm_gbps = rep.hbm_bytes / rep.seconds / 1e9;
    rep.l2_gbps = rep.l2_bytes / rep.seconds / 1e9;
  }
  for (int k = 0; k < 4; ++k) {
    if (!roles[k].warps) continue;
    TimingReport::Role role;
    role.name = role_name(k);
    role.warps = roles[k].warps;
    role.issued = roles[k].issued;
    for (int i = 0; i < kNumStalls; ++i) {
      role.cycles += roles[k].cycles[i];
      if (!roles[k].cycles[i]) continue;
      if (static_cast<Stall>(i) == Stall::Mbarrier && !roles[k].mbar.empty()) {
        std::vector<std::pair<uint32_t, uint64_t>> m(roles[k].mbar.begin(), roles[k].mbar.end());
        std::sort(m.begin(), m.end());
        for (const auto& [a, c] : m) role.where.emplace_back(fmt::format("mbarrier wait @0x{:x}", a), c);
      } else {
        role.where.emplace_back(stall_name(static_cast<Stall>(i)), roles[k].cycles[i]);
      }
    }
    std::stable_sort(role.where.begin(), role.where.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    rep.roles.push_back(std::move(role));
  }
  // The critical resource: the busiest unit against its capacity.
  const double hbm_peak = M.hbm_bytes_per_clk * static_cast<double>(r.cycles);
  const double l2_peak = M.l2_bytes_per_clk * static_cast<double>(r.cycles);
  struct Cand {
    double u;
    std::string what;
  };
  std::vector<Cand> c = {
      {rep.tensor_busy, fmt::format("tensor pipe {:.0f}% busy", 100 * rep.tensor_busy)},
      {rep.smem_busy, fmt::format("shared-memory port {:.0f}% busy", 100 * rep.smem_busy)},
      {rep.tma_busy, fmt::format("TMA fill port {:.0f}% busy", 100 * rep.tma_busy)},
      {rep.issue_busy, fmt::format("issue slots {:.0f}% used", 100 * rep.issue_busy)},
      {hbm_peak > 0 ? rep.hbm_bytes / hbm_peak : 0,
       fmt::format("HBM {:.0f}% of {:.0f} GB/s", hbm_peak > 0 ? 100 * rep.hbm_bytes / hbm_peak : 0, M.p.hbm_bandwidth)},
      {l2_peak > 0 ? rep.l2_bytes / l2_peak : 0,
       fmt::format("L2 {:.0f}% of {:.0f} GB/s", l2_peak > 0 ? 100 * rep.l2_bytes / l2_peak : 0, M.p.l2_bandwidth)},
  };
  const Cand& best = *std::max_element(c.begin(), c.end(), [](const Cand& a, const Cand& b) { return a.u < b.u; });
  if (best.u >= 0.6) {
    rep.critical = best.what;
  } else {
    // Nothing near its capacity: latency-bound; say what the warps waited on most.
    std::string wait;
    uint64_t most = 0;
    for (const TimingReport::Role& role : rep.roles)
      for (const auto& [w, cyc] : role.where)
        if (w != stall_name(Stall::Issue) && cyc > most) {
          most = cyc;
          wait = fmt::format("{} warps: {}", role.name, w);
        }
    rep.critical = fmt::format("latency-bound (busiest: {}; longest wait: {})", best.what, wait.empty() ? "none" : wait);
    if (sched > 0 && r.sms.size() && rep.sms_used < r.sms.size() / 4)
      rep.critical += fmt::format("; only {} of {} SMs have work", rep.sms_used, r.sms.size());
  }
  return rep;
}

}  // namespace tcsim::sim::timing
