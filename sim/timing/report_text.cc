#include "sim/timing/report_text.h"

#include <map>
#include <set>

#include <fmt/format.h>

namespace tcsim::sim::timing {

namespace {

std::string pct(double f) { return fmt::format("{:.1f}%", 100 * f); }

std::string bytes_text(uint64_t b) {
  if (b >= (1ull << 30)) return fmt::format("{:.2f} GiB", b / double(1ull << 30));
  if (b >= (1ull << 20)) return fmt::format("{:.2f} MiB", b / double(1ull << 20));
  if (b >= (1ull << 10)) return fmt::format("{:.1f} KiB", b / double(1ull << 10));
  return fmt::format("{} B", b);
}

}  // namespace

std::string format_report(const TimingReport& r) {
  std::string s;
  s += fmt::format("timing ({} profile): {} cycles = {:.3f} us at {}\n", r.profile, r.cycles, r.seconds * 1e6,
                   r.clock_note);
  if (r.flops > 0)
    s += fmt::format("  MMA work: {:.3g} FLOP -> {:.1f} TFLOPS\n", r.flops, r.tflops);
  s += fmt::format("  units (of {} SM-cycles with CTAs on {} SMs): tensor pipe {}, shared-memory port {}, "
                   "TMA fill port {}, issue slots {}\n",
                   r.busy_cycles, r.sms_used, pct(r.tensor_busy), pct(r.smem_busy), pct(r.tma_busy), pct(r.issue_busy));
  s += fmt::format("  memory: TMA {} loaded, {} stored ({:.0f} GB/s); L2 {} ({:.0f} GB/s, {} hits / {} misses); "
                   "HBM {} ({:.0f} GB/s); L1 {} hits / {} misses\n",
                   bytes_text(r.tma_load_bytes), bytes_text(r.tma_store_bytes), r.tma_gbps, bytes_text(r.l2_bytes),
                   r.l2_gbps, r.l2_hits, r.l2_misses, bytes_text(r.hbm_bytes), r.hbm_gbps, r.l1_hits, r.l1_misses);
  for (const TimingReport::Role& role : r.roles) {
    s += fmt::format("  {} warps ({}, {} instructions):", role.name, role.warps, role.issued);
    size_t shown = 0;
    for (const auto& [what, cyc] : role.where) {
      if (++shown > 5) break;
      s += fmt::format(" {} {}{}", what, pct(role.cycles ? double(cyc) / role.cycles : 0), shown < 5 ? "," : "");
    }
    if (!s.empty() && s.back() == ',') s.pop_back();
    s += "\n";
  }
  s += fmt::format("  critical resource: {}\n", r.critical);
  return s;
}

nlohmann::ordered_json report_json(const TimingReport& r) {
  nlohmann::ordered_json j;
  j["profile"] = r.profile;
  j["cycles"] = r.cycles;
  j["seconds"] = r.seconds;
  j["clock_mhz"] = r.clock_mhz;
  j["clock_pinned"] = r.clock_pinned;
  j["clock"] = r.clock_note;
  j["flops"] = r.flops;
  j["tflops"] = r.tflops;
  j["sms_used"] = r.sms_used;
  j["busy_sm_cycles"] = r.busy_cycles;
  j["utilisation"] = {{"tensor_pipe", r.tensor_busy}, {"smem_port", r.smem_busy}, {"tma_port", r.tma_busy},
                      {"issue_slots", r.issue_busy}};
  j["bytes"] = {{"tma_load", r.tma_load_bytes}, {"tma_store", r.tma_store_bytes}, {"l2", r.l2_bytes},
                {"hbm", r.hbm_bytes}};
  j["bandwidth_gbps"] = {{"tma", r.tma_gbps}, {"l2", r.l2_gbps}, {"hbm", r.hbm_gbps}};
  j["hits"] = {{"l1_hits", r.l1_hits}, {"l1_misses", r.l1_misses}, {"l2_hits", r.l2_hits}, {"l2_misses", r.l2_misses}};
  nlohmann::ordered_json roles = nlohmann::ordered_json::array();
  for (const TimingReport::Role& role : r.roles) {
    nlohmann::ordered_json x;
    x["role"] = role.name;
    x["warps"] = role.warps;
    x["instructions"] = role.issued;
    x["cycles"] = role.cycles;
    nlohmann::ordered_json w = nlohmann::ordered_json::object();
    for (const auto& [what, cyc] : role.where) w[what] = cyc;
    x["where"] = std::move(w);
    roles.push_back(std::move(x));
  }
  j["roles"] = std::move(roles);
  j["critical"] = r.critical;
  return j;
}

void write_trace(std::ostream& out, const std::vector<TraceEvent>& events, double clock_mhz, const std::string& title) {
  const double us = 1.0 / clock_mhz;  // microseconds per cycle
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":" << nlohmann::json(title).dump()
      << ",\"clock_mhz\":" << clock_mhz << "},\"traceEvents\":[\n";
  std::set<std::pair<uint32_t, uint32_t>> tracks;
  std::set<uint32_t> sms;
  bool first = true;
  for (const TraceEvent& e : events) {
    sms.insert(e.sm);
    tracks.insert({e.sm, e.track});
    out << (first ? "" : ",\n") << "{\"name\":" << nlohmann::json(e.name).dump() << ",\"ph\":\"" << e.ph
        << "\",\"pid\":" << e.sm << ",\"tid\":" << e.track << ",\"ts\":" << fmt::format("{:.4f}", e.ts * us);
    if (e.ph == 'X') out << ",\"dur\":" << fmt::format("{:.4f}", e.dur * us);
    else out << ",\"s\":\"t\"";
    out << ",\"args\":{\"cycle\":" << e.ts;
    if (e.ph == 'X') out << ",\"cycles\":" << e.dur;
    if (!e.args.empty()) out << "," << e.args;
    out << "}}";
    first = false;
  }
  for (uint32_t sm : sms) {
    out << (first ? "" : ",\n") << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" << sm
        << ",\"args\":{\"name\":\"SM " << sm << "\"}}";
    out << ",\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" << sm << ",\"args\":{\"sort_index\":" << sm << "}}";
    first = false;
  }
  for (const auto& [sm, t] : tracks) {
    std::string name;
    if (t == kTrackTma) name = "TMA engine";
    else if (t == kTrackTensor) name = "tensor pipe";
    else if (t == kTrackMbarrier) name = "mbarrier phases";
    else name = fmt::format("CTA {} warp {}", (t - kTrackWarp) / 64, (t - kTrackWarp) % 64);
    out << (first ? "" : ",\n") << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" << sm << ",\"tid\":" << t
        << ",\"args\":{\"name\":" << nlohmann::json(name).dump() << "}}";
    out << ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":" << sm << ",\"tid\":" << t
        << ",\"args\":{\"sort_index\":" << t << "}}";
    first = false;
  }
  out << "\n]}\n";
}

}  // namespace tcsim::sim::timing
