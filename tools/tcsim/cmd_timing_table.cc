// tcsim timing-table MEASURED.csv [--root DIR] [--match SUBSTR] [--full] [--csv OUT]
//                   [--max-mae-gemm PCT] [--max-mae-all PCT] [--max-error PCT]
// The error table of the timing model against hardware (docs/timing_model.md "Calibration"):
// every spec of a measured-cycles CSV (kernels/ubench/results/<gpu>-<date>/corpus_cycles.csv:
// spec,kernel,run,pass,sm_cycles_max,...; the median of its runs is the hardware's cycles) is run
// in the simulator (with --timing-only unless --full: the same cycles, no MMA arithmetic), and its
// cycles are compared. Prints one row per kernel and the mean absolute error over the GEMMs and
// over all kernels. Exit 0; 1 when a --max-* bound is exceeded; 2 when a spec fails to run.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/api.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/runner.h"
#include "tools/tcsim/command.h"
#include "tools/tcsim/sim_backend.h"

namespace tcsim::cli {
namespace {

struct Measured {
  std::string spec, kernel;
  std::vector<double> cycles;
};

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  bool q = false;
  for (char ch : line) {
    if (ch == '"') q = !q;
    else if (ch == ',' && !q) {
      f.push_back(cur);
      cur.clear();
    } else cur += ch;
  }
  f.push_back(cur);
  return f;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool is_gemm(const std::string& spec) {
  return spec.find("gemm") != std::string::npos || spec.find("matmul") != std::string::npos;
}

int run_timing_table(Args args) {
  std::string csv, root = ".", match, out_csv;
  bool full = false;
  double max_gemm = -1, max_all = -1, max_err = -1;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&](std::string_view opt) {
      if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", opt));
      return std::string(args[++i]);
    };
    auto number = [&](std::string_view opt) {
      const std::string v = value(opt);
      try {
        return std::stod(v);
      } catch (...) {
        throw UsageError(fmt::format("{}: '{}' is not a number", opt, v));
      }
    };
    const std::string_view a = args[i];
    if (a == "--root") root = value(a);
    else if (a == "--match") match = value(a);
    else if (a == "--full") full = true;
    else if (a == "--csv") out_csv = value(a);
    else if (a == "--max-mae-gemm") max_gemm = number(a);
    else if (a == "--max-mae-all") max_all = number(a);
    else if (a == "--max-error") max_err = number(a);
    else if (a.starts_with("--")) throw UsageError(fmt::format("unknown option '{}'", a));
    else if (csv.empty()) csv = std::string(a);
    else throw UsageError(fmt::format("unexpected argument '{}'", a));
  }
  if (csv.empty()) throw UsageError("usage: tcsim timing-table MEASURED.csv [--root DIR] [--match SUBSTR] [--full]");
  std::ifstream in(csv);
  if (!in) throw UsageError(fmt::format("cannot read {}", csv));
  std::vector<Measured> rows;
  std::map<std::string, size_t> index;
  std::string line, header_note;
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      header_note += line + "\n";
      continue;
    }
    const auto f = split_csv(line);
    if (header.empty()) {
      header = f;
      continue;
    }
    auto col = [&](const char* name) -> const std::string& {
      for (size_t k = 0; k < header.size(); ++k)
        if (header[k] == name && k < f.size()) return f[k];
      throw UsageError(fmt::format("{}: no column '{}'", csv, name));
    };
    const std::string& spec = col("spec");
    if (!match.empty() && spec.find(match) == std::string::npos) continue;
    auto [it, fresh] = index.emplace(spec, rows.size());
    if (fresh) rows.push_back({spec, col("kernel"), {}});
    rows[it->second].cycles.push_back(std::stod(col("sm_cycles_max")));
  }
  fmt::print("{}", header_note);
  fmt::print("timing model vs hardware: {} kernels, simulator {}\n", rows.size(),
             full ? "bit-exact runs" : "--timing-only runs (same cycles)");
  fmt::print("{:<66} {:>10} {:>7} {:>10} {:>7} {:>8}\n", "spec", "hw cycles", "spread", "tcsim", "ratio", "error");
  std::ofstream oc;
  if (!out_csv.empty()) {
    oc.open(out_csv);
    oc << "spec,hw_cycles_median,tcsim_cycles,error_pct\n";
  }
  double sum_all = 0, sum_gemm = 0, log_ratio = 0, worst = 0;
  std::string worst_spec;
  size_t n_all = 0, n_gemm = 0, failed = 0;
  for (const Measured& m : rows) {
    const double hw = median(m.cycles);
    const double lo = *std::min_element(m.cycles.begin(), m.cycles.end());
    const double hi = *std::max_element(m.cycles.begin(), m.cycles.end());
    uint64_t cycles = 0;
    try {
      const spec::LaunchSpec s = spec::load_spec(root + "/" + m.spec);
      const std::string ptx = spec::read_ptx(s);
      const auto arch = isa::parse_arch(spec::resolve_arch(s, ptx));
      if (!arch) throw std::runtime_error("unknown arch");
      sim::DeviceOptions opts;
      opts.timing_only = !full;
      const spec::RunResult r = run_timing_only_safe(opts, [&](const sim::DeviceOptions& o) {
        sim::Device dev(*arch, o);
        SimBackend backend(dev, s.path);
        return spec::run_spec(s, ptx, backend);
      });
      cycles = r.outcome.cycles.value_or(0);
    } catch (const std::exception& e) {
      fmt::print("{:<66} {:>10.0f} FAILED: {}\n", m.spec, hw, e.what());
      ++failed;
      continue;
    }
    const double err = (static_cast<double>(cycles) - hw) / hw;
    fmt::print("{:<66} {:>10.0f} {:>6.1f}% {:>10} {:>7.3f} {:>+7.1f}%\n", m.spec, hw, 100 * (hi - lo) / hw, cycles,
               cycles / hw, 100 * err);
    if (oc) oc << m.spec << "," << hw << "," << cycles << "," << fmt::format("{:.2f}", 100 * err) << "\n";
    sum_all += std::fabs(err);
    log_ratio += std::log(cycles / hw);
    ++n_all;
    if (is_gemm(m.spec)) {
      sum_gemm += std::fabs(err);
      ++n_gemm;
    }
    if (std::fabs(err) > std::fabs(worst)) {
      worst = err;
      worst_spec = m.spec;
    }
  }
  const double mae_all = n_all ? 100 * sum_all / n_all : 0, mae_gemm = n_gemm ? 100 * sum_gemm / n_gemm : 0;
  fmt::print("mean absolute error: GEMMs {:.1f}% ({} kernels), all {:.1f}% ({} kernels); geometric mean ratio {:.3f}; "
             "worst {:+.1f}% ({})\n",
             mae_gemm, n_gemm, mae_all, n_all, n_all ? std::exp(log_ratio / n_all) : 0, 100 * worst, worst_spec);
  if (failed) {
    fmt::print("{} spec(s) failed to run\n", failed);
    return 2;
  }
  int rc = 0;
  auto bound = [&](double limit, double v, const char* what) {
    if (limit >= 0 && v > limit) {
      fmt::print("FAIL: {} {:.1f}% exceeds {:.1f}%\n", what, v, limit);
      rc = 1;
    }
  };
  bound(max_gemm, mae_gemm, "GEMM mean absolute error");
  bound(max_all, mae_all, "mean absolute error");
  bound(max_err, 100 * std::fabs(worst), "worst kernel error");
  return rc;
}

// "timing-table" has a hyphen: registered without TCSIM_COMMAND (which stringizes an identifier).
[[maybe_unused]] const bool registered = register_command(
    {"timing-table",
     "timing-table MEASURED.csv [--root DIR] [--match SUBSTR] [--full] [--csv OUT] [--max-mae-gemm PCT] "
     "[--max-mae-all PCT] [--max-error PCT]   the timing model's error table against measured cycles",
     run_timing_table});

}  // namespace
}  // namespace tcsim::cli
