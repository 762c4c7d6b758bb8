// tcsim run SPEC.json [--out DIR] [--golden DIR] [--schedule default|random:SEED] [--seed N]
//                     [--schedule-sweep N] [--max-steps N] [--host-threads N] [--max-seconds S] [--livelock-cycles N]
//                     [--strict] [--trace FILE] [--trace-events N] [--timing-only] [--clock-mhz MHZ] [--steady-clock]
//                     [--timing-profile FILE] [--sarif FILE] [--no-check]
// Runs a launch spec (docs/launch_spec.md) on the simulator: a thin layer over tools/spec's runner
// and sim::Device. Findings (docs/findings.md) are summarised on stderr; the timing report
// (cycles, time, TFLOPS, utilisation, where each warp role's cycles went, the critical resource:
// docs/timing_model.md) follows the cycle count. Exit 0: ran (and matched
// the golden); 1: outputs differ from --golden; 2: bad input, an error in the simulated kernel, or
// findings under --strict.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <optional>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "sim/api.h"
#include "tools/spec/diff.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/output_dir.h"
#include "tools/spec/runner.h"
#include "tools/spec/sarif.h"
#include "tools/spec/spec_error.h"
#include "tools/spec/tensor_map_encode.h"
#include "tools/tcsim/command.h"
#include "tools/tcsim/progress_line.h"
#include "tools/tcsim/sim_backend.h"

namespace tcsim::cli {
namespace {

struct RunOptions {
  std::string spec;
  std::optional<std::string> out, golden, trace, timing_profile;
  sim::DeviceOptions device;
  uint64_t sweep = 0;  // --schedule-sweep N: seeds 1..N against the default order
  bool strict = false;  // --strict: findings are errors (exit 2)
  std::optional<std::string> sarif;  // --sarif FILE
};

void set_seed(RunOptions& o, uint64_t seed) {
  o.device.seed = seed;
  o.device.schedule = seed ? sim::Schedule::Random : sim::Schedule::Default;
}

uint64_t parse_u64(std::string_view opt, std::string_view v) {
  uint64_t x = 0;
  int base = 10;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    v.remove_prefix(2);
    base = 16;
  }
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x, base);
  if (v.empty() || ec != std::errc() || p != v.data() + v.size())
    throw UsageError(fmt::format("{}: '{}' is not a non-negative integer", opt, v));
  return x;
}

double parse_seconds(std::string_view opt, std::string_view v) {
  double x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (v.empty() || ec != std::errc() || p != v.data() + v.size() || !(x >= 0) || x > 1e9)
    throw UsageError(fmt::format("{}: '{}' is not a number of seconds in [0, 1e9]", opt, v));
  return x;
}

// Options are rows: adding one (the simulator's --schedule, --trace, ...) is one line here.
struct OptionDef {
  std::string_view name;
  std::string_view value;  // the value's name in the usage text
  std::string_view help;
  void (*apply)(RunOptions&, std::string_view opt, std::string_view value);
};

constexpr OptionDef kOptions[] = {
    {"--out", "DIR", "write NAME.npy for each output and manifest.json into DIR",
     [](RunOptions& o, std::string_view, std::string_view v) { o.out = std::string(v); }},
    {"--golden", "DIR", "compare the outputs bit for bit with DIR (exit 1 on a difference)",
     [](RunOptions& o, std::string_view, std::string_view v) { o.golden = std::string(v); }},
    {"--schedule", "default|random:SEED",
     "warp interleaving and async latencies: the deterministic default order, or perturbed within legal bounds "
     "by a seeded generator (deterministic per seed)",
     [](RunOptions& o, std::string_view n, std::string_view v) {
       if (v == "default") return set_seed(o, 0);
       if (!v.starts_with("random:"))
         throw UsageError(fmt::format("{}: '{}' is not a schedule (legal: default, random:SEED)", n, v));
       const uint64_t seed = parse_u64(n, v.substr(7));
       if (seed == 0) throw UsageError(fmt::format("{}: random:0 is the default order; use a seed above 0", n));
       set_seed(o, seed);
     }},
    {"--seed", "N", "the same as --schedule random:N (0: the deterministic default order)",
     [](RunOptions& o, std::string_view n, std::string_view v) { set_seed(o, parse_u64(n, v)); }},
    {"--schedule-sweep", "N",
     "race check: run the default order and random:1..N; outputs that change say the kernel has a race "
     "(exit 1, naming the first two differing seeds)",
     [](RunOptions& o, std::string_view n, std::string_view v) {
       o.sweep = parse_u64(n, v);
       if (o.sweep == 0 || o.sweep > 100000) throw UsageError(fmt::format("{}: N must lie in [1, 100000]", n));
     }},
    {"--max-steps", "N",
     "watchdog: stop after N warp-instructions in all or by one warp (0: the simulator's defaults, 2^28 in all "
     "and 2^24 by one warp)",
     [](RunOptions& o, std::string_view n, std::string_view v) { o.device.max_steps = parse_u64(n, v); }},
    {"--host-threads", "N",
     "host threads simulating in parallel (0: one per core, the default); results do not depend on it",
     [](RunOptions& o, std::string_view n, std::string_view v) {
       const uint64_t t = parse_u64(n, v);
       if (t > 1024) throw UsageError(fmt::format("{}: N must lie in [0, 1024]", n));
       o.device.host_threads = static_cast<unsigned>(t);
     }},
    {"--max-seconds", "S", "watchdog: stop after S seconds of wall time (0: no limit, the default)",
     [](RunOptions& o, std::string_view n, std::string_view v) { o.device.max_seconds = parse_seconds(n, v); }},
    {"--livelock-cycles", "N",
     "livelock detection: stop when nothing in the machine makes progress for N simulated cycles (0: off; "
     "default 10^7; docs/hostile_input.md)",
     [](RunOptions& o, std::string_view n, std::string_view v) {
       const uint64_t c = parse_u64(n, v);
       o.device.livelock_cycles = c ? c : sim::DeviceOptions::kLivelockOff;
     }},
    {"--strict", "", "findings (rules of the PTX ISA the kernel broke; docs/findings.md) are errors: exit 2",
     [](RunOptions& o, std::string_view, std::string_view) { o.strict = true; }},
    {"--trace", "FILE",
     "write the timeline (per SM: TMA engine, tensor pipe, mbarrier phases, each warp) as a Chrome/Perfetto "
     "trace (docs/timing_model.md)",
     [](RunOptions& o, std::string_view, std::string_view v) {
       o.trace = std::string(v);
       if (!o.device.trace_events) o.device.trace_events = 2000000;
     }},
    {"--trace-events", "N", "record at most N trace events (default 2000000)",
     [](RunOptions& o, std::string_view n, std::string_view v) { o.device.trace_events = parse_u64(n, v); }},
    {"--timing-only", "",
     "no MMA arithmetic and no output values, the same cycles: estimates at production sizes (no --out/--golden)",
     [](RunOptions& o, std::string_view, std::string_view) { o.device.timing_only = true; }},
    {"--clock-mhz", "MHZ", "pin the SM clock the time and TFLOPS are computed at (default: the profile's clock model)",
     [](RunOptions& o, std::string_view n, std::string_view v) {
       const uint64_t mhz = parse_u64(n, v);
       if (mhz < 100 || mhz > 5000) throw UsageError(fmt::format("{}: {} MHz is not a plausible SM clock", n, mhz));
       o.device.clock_mhz = static_cast<double>(mhz);
     }},
    {"--steady-clock", "",
     "the kernel runs back-to-back past clock.throttle_after_us (a benchmark loop): tensor-bound, it runs at "
     "clock.sustained_mhz",
     [](RunOptions& o, std::string_view, std::string_view) { o.device.steady_clock = true; }},
    {"--timing-profile", "FILE", "the GPU's timing parameters from FILE instead of models/timing/<gpu>.txt",
     [](RunOptions& o, std::string_view, std::string_view v) { o.timing_profile = std::string(v); }},
    {"--sarif", "FILE", "write the findings as SARIF 2.1.0 to FILE (one result per rule and site; docs/checker.md)",
     [](RunOptions& o, std::string_view, std::string_view v) { o.sarif = std::string(v); }},
    {"--no-check", "",
     "turn the checker's hazard tracking off for speed (outputs, cycles, faults and the findings of execution "
     "itself are unchanged; docs/checker.md)",
     [](RunOptions& o, std::string_view, std::string_view) { o.device.check = false; }},
};

std::string option_list() {
  std::string s;
  for (const auto& o : kOptions)
    s += fmt::format("{}{}{}{}", s.empty() ? "" : ", ", o.name, o.value.empty() ? "" : " ", o.value);
  return s;
}

RunOptions parse_options(Args args) {
  RunOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (!a.starts_with("--")) {
      if (!o.spec.empty())
        throw UsageError(fmt::format("more than one spec given ('{}' and '{}')", o.spec, a));
      o.spec = std::string(a);
      continue;
    }
    std::string_view name = a, value;
    bool inline_value = false;
    if (auto eq = a.find('='); eq != std::string_view::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      inline_value = true;
    }
    const OptionDef* def = nullptr;
    for (const auto& d : kOptions)
      if (d.name == name) def = &d;
    if (!def) throw UsageError(fmt::format("unknown option '{}' (options: {})", name, option_list()));
    if (def->value.empty()) {
      if (inline_value) throw UsageError(fmt::format("{} takes no value", name));
    } else if (!inline_value) {
      if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value ({})", name, def->value));
      value = args[++i];
    }
    def->apply(o, name, value);
  }
  if (o.spec.empty()) throw UsageError(fmt::format("usage: tcsim run SPEC.json [{}]", option_list()));
  if (o.device.timing_only && (o.out || o.golden || o.sweep))
    throw UsageError("--timing-only computes no output values: it cannot be combined with --out, --golden or "
                     "--schedule-sweep");
  if (o.timing_profile) {
    std::ifstream f(*o.timing_profile);
    if (!f) throw UsageError(fmt::format("--timing-profile: cannot read {}", *o.timing_profile));
    std::stringstream ss;
    ss << f.rdbuf();
    o.device.timing_profile = ss.str();
    o.device.timing_profile_name = *o.timing_profile;
  }
  return o;
}


// --schedule-sweep N (issue 4, "Deterministic by default"): the default order, then random:1..N.
// Outputs (or an error) that differ from the default order's mean the result depends on the
// interleaving: a race. Reports the first two differing seeds (0 = the default order) and the diff,
// and the union of the findings of every schedule, each with the seeds it appeared under (a
// finding of the checker that only one interleaving shows; docs/checker.md "--schedule-sweep").
template <class Simulate>
int sweep(const RunOptions& o, Simulate&& simulate) {
  sim::DeviceOptions opts = o.device;
  // (rule, site line, other line) -> what to print and the seeds it appeared under.
  struct Seen {
    std::string line;
    std::vector<uint64_t> seeds;
    uint64_t count = 0;
  };
  std::map<std::tuple<std::string, std::string, std::string>, Seen> seen;
  auto collect = [&](const spec::RunResult& r, uint64_t seed) {
    for (const auto& f : r.outcome.findings) {
      auto at = [](const nlohmann::ordered_json& site) {
        return site.is_object() ? fmt::format("{}:{}", site.value("ptx", std::string()), site.value("line", 0u))
                                : std::string("(no instruction)");
      };
      const std::string site = at(f["site"]), other = f.contains("other") ? at(f["other"]) : std::string();
      Seen& e = seen[{f.value("rule", std::string()), site, other}];
      if (e.line.empty())
        e.line = fmt::format("[{}] {} at {}{}", f.value("severity", std::string()), f.value("rule", std::string()),
                             site, other.empty() ? "" : " with " + other);
      e.seeds.push_back(seed);
      e.count += f.value("count", uint64_t{0});
    }
  };
  const spec::RunResult base = simulate(opts);
  collect(base, 0);
  std::string race;  // the first schedule whose outputs differ from the default order's
  for (uint64_t seed = 1; seed <= o.sweep; ++seed) {
    opts.schedule = sim::Schedule::Random;
    opts.seed = seed;
    std::string why;
    try {
      const spec::RunResult r = simulate(opts);
      collect(r, seed);
      spec::DiffReport d = spec::diff_outputs(base.outputs, r.outputs);
      if (base.outcome.printf_output && r.outcome.printf_output) {
        // The same lines in another order is the same printf output for a GPU, not a race.
        d.printf_diff = spec::diff_printf(base.outcome.printf_output->text, r.outcome.printf_output->text);
      }
      if (d.identical()) continue;
      why = spec::format_report(d, "seed 0 (default order)", fmt::format("seed {}", seed));
    } catch (const std::exception& e) {
      why = fmt::format("seed {} fails: {}\n", seed, e.what());
    }
    if (race.empty())
      race = fmt::format("{}: race: the outputs depend on the schedule: seeds 0 (the default order) and {} differ "
                         "(reproduce with --schedule random:{})\n{}", o.spec, seed, seed, why);
  }
  if (!seen.empty()) {
    fmt::print("findings under {} schedules (the default order = seed 0, random:1..{}), union:\n", o.sweep + 1, o.sweep);
    for (const auto& [key, e] : seen) {
      const std::string seeds = e.seeds.size() == o.sweep + 1 ? std::string("every seed") : fmt::format("seed{} {}", e.seeds.size() == 1 ? "" : "s", fmt::join(e.seeds, ","));
      fmt::print("  {} x{}: under {}{}\n", e.line, e.count, seeds,
                 e.seeds.front() == 0 ? "" : fmt::format(" (reproduce with --schedule random:{})", e.seeds.front()));
    }
  }
  if (!race.empty()) {
    fmt::print("{}", race);
    return 1;
  }
  fmt::print("{}: kernel {}: identical outputs under the default order and {} perturbed schedule{} (random:1..{})\n",
             o.spec, base.kernel, o.sweep, o.sweep == 1 ? "" : "s", o.sweep);
  return 0;
}

int run_run(Args args) {
  const RunOptions o = parse_options(args);
  const spec::LaunchSpec s = spec::load_spec(o.spec);
  const std::string ptx = spec::read_ptx(s);
  const std::string arch_name = spec::resolve_arch(s, ptx);
  const auto arch = isa::parse_arch(arch_name);
  if (!arch)
    throw spec::spec_error(s.path, s.arch ? "arch" : "",
                           fmt::format("architecture \"{}\"{} is not one tcsim models (legal: sm_90a, "
                                       "sm_100a, sm_100f, sm_103a)", arch_name,
                                       s.arch ? "" : " (from the PTX .target)"));
  // Tensor maps are bad input too: check every driver rule now, before the simulation. Buffers are
  // 256-byte aligned, so any 256-aligned base address gives the verdict the real address will.
  for (const auto& t : s.tensor_maps) {
    spec::check_tensor_map_extent(s, t);
    spec::encode_tensor_map_bytes(t, (uint64_t{1} << 40) + t.offset_bytes, s.path, *arch);
  }
  // Read the golden first: a bad golden directory is bad input, found before a long simulation.
  std::optional<spec::OutputDir> golden;
  if (o.golden) golden = spec::read_output_dir(*o.golden);

  auto simulate = [&](const sim::DeviceOptions& opts) {
    sim::Device dev(*arch, opts);
    SimBackend backend(dev, s.path);
    if (o.trace) backend.set_trace_path(*o.trace);
    return spec::run_spec(s, ptx, backend);
  };
  if (o.sweep) {
    if (o.device.schedule != sim::Schedule::Default)
      throw UsageError("--schedule-sweep runs its own schedules: leave out --schedule/--seed");
    return sweep(o, simulate);
  }
  sim::DeviceOptions dev_opts = o.device;
  enable_progress_line(dev_opts);
  spec::RunResult r;
  try {
    r = run_timing_only_safe(dev_opts, simulate, [](const std::string& why) {
      clear_progress_line();
      fmt::print(stderr, "note: {}: running the launch again with the TMA copies\n", why);
    });
  } catch (...) {
    clear_progress_line();
    throw;
  }
  clear_progress_line();

  // Device printf output, as a GPU's driver writes it when the host synchronises: after the launch.
  if (const auto& p = r.outcome.printf_output) {
    std::fwrite(p->text.data(), 1, p->text.size(), stdout);
    std::fflush(stdout);  // before any note or finding on stderr
    if (p->dropped.value_or(0))
      fmt::print(stderr, "note: printf: {} of {} printf calls dropped: the {}-byte printf FIFO was full "
                 "(cudaLimitPrintfFifoSize; docs/printf.md)\n", *p->dropped, *p->dropped + p->records.value_or(0),
                 p->fifo_bytes.value_or(0));
  }
  if (!r.outcome.findings_summary.empty()) fmt::print(stderr, "{}", r.outcome.findings_summary);
  fmt::print("{}: kernel {} on {}: {} cycles{}\n", o.spec, r.kernel, arch_name, r.outcome.cycles.value_or(0),
             o.device.timing_only ? " (--timing-only: no MMA arithmetic, no output values)" : "");
  fmt::print("{}", r.outcome.timing_summary);
  if (o.trace) fmt::print("trace written to {} (open it in https://ui.perfetto.dev)\n", *o.trace);
  if (!r.outcome.approx_ops.empty())
    fmt::print("note: approximate instructions ran (not bit-exact by design): {}\n",
               fmt::join(r.outcome.approx_ops, ", "));
  if (o.sarif) {
    spec::write_sarif(*o.sarif, r.outcome.findings, "");  // site PTX names are as the run opened them
    fmt::print("findings written to {} (SARIF 2.1.0)\n", *o.sarif);
  }
  if (o.out) {
    spec::RunInfo info;
    info.tool = "tcsim";
    info.arch = arch_name;
    info.spec = o.spec;
    info.kernel = r.kernel;
    info.cycles = r.outcome.cycles.value_or(0);
    info.seed = o.device.seed;
    info.approx_ops = r.outcome.approx_ops;
    info.findings = r.outcome.findings;
    info.timing = r.outcome.timing;
    info.printf_output = r.outcome.printf_output;
    spec::write_output_dir(*o.out, info, r.outputs);
    fmt::print("outputs written to {}\n", *o.out);
  }
  int rc = 0;
  if (golden) {
    spec::DiffReport d = spec::diff_outputs(r.outputs, golden->outputs);
    spec::add_printf_diff(d, r.outcome.printf_output, golden->run.printf_output, "tcsim", *o.golden);
    fmt::print("{}", spec::format_report(d, "tcsim", *o.golden));
    if (!d.identical()) rc = 1;
  }
  if (o.strict && r.outcome.finding_count) {
    fmt::print(stderr, "error: {}: {} finding{} and --strict makes findings errors\n", o.spec,
               r.outcome.finding_count, r.outcome.finding_count == 1 ? "" : "s");
    return 2;
  }
  return rc;
}

}  // namespace

TCSIM_COMMAND(run, "run SPEC.json [--out DIR] [--golden DIR] [--schedule default|random:SEED] [--seed N] "
                   "[--schedule-sweep N] [--max-steps N] [--host-threads N] [--max-seconds S] [--livelock-cycles N] [--strict] "
                   "[--trace FILE] [--timing-only] [--clock-mhz MHZ] [--steady-clock] [--timing-profile FILE] [--sarif FILE] "
                   "[--no-check]   run a launch "
                   "spec", run_run);

}  // namespace tcsim::cli
