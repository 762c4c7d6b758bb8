// tcsim golden SPEC_DIR GOLDEN_DIR [--match REGEX] [--max-steps N] [--skip-missing]
// Runs every launch spec (*.json) of SPEC_DIR on the simulator and compares its outputs bit for bit
// with GOLDEN_DIR/<spec name>/ (an output directory of `tcsim-hw run --out`), like `tcsim run SPEC
// --golden DIR` for each, but in one process: each PTX file is parsed and bound once and reused by
// every spec that names it, so a corpus of hundreds of single-instruction kernels sharing a few
// multi-megabyte PTX files runs in seconds (the golden CTests of kernels/hopper batch their specs
// this way). One line per spec (PASS, DIFF with the first differing elements, ERROR with the
// simulator's message, NO GOLDEN), then a summary.
// Exit 0: every spec ran and matched; 1: some outputs differ or a golden is missing; 2: bad input
// or an error in a simulated kernel.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <re2/re2.h>

#include "isa/printable.h"
#include "sim/api.h"
#include "tools/spec/diff.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/output_dir.h"
#include "tools/spec/runner.h"
#include "tools/spec/spec_error.h"
#include "tools/spec/tensor_map_encode.h"
#include "tools/tcsim/command.h"
#include "tools/tcsim/sim_backend.h"

namespace tcsim::cli {
namespace {

namespace fs = std::filesystem;


uint64_t parse_count(std::string_view opt, std::string_view v) {
  uint64_t x = 0;
  for (char ch : v) {
    if (ch < '0' || ch > '9') throw UsageError(fmt::format("{}: '{}' is not a non-negative integer", opt, v));
    x = x * 10 + static_cast<uint64_t>(ch - '0');
  }
  if (v.empty()) throw UsageError(fmt::format("{} needs a value", opt));
  return x;
}

// --match: RE2 (linear-time matching, no recursion on the pattern's nesting: a hostile pattern
// can neither blow the stack nor backtrack for hours, unlike std::regex), bounded in length.
constexpr size_t kMaxMatchPattern = 4096;

std::unique_ptr<RE2> compile_match(const std::string& pattern) {
  if (pattern.size() > kMaxMatchPattern)
    throw UsageError(fmt::format("--match: the pattern has {} characters (at most {})", pattern.size(),
                                 kMaxMatchPattern));
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(int64_t{16} << 20);
  auto re = std::make_unique<RE2>(pattern, o);
  if (!re->ok())
    throw UsageError(fmt::format("--match: '{}' is not a regular expression ({})", isa::printable_token(pattern),
                                 re->error()));
  return re;
}

int run_golden(Args args) {
  std::vector<std::string> pos;
  std::unique_ptr<RE2> match;
  std::string match_text;
  sim::DeviceOptions opts;
  bool skip_missing = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", a));
      return args[++i];
    };
    if (a == "--match") {
      match_text = std::string(value());
      match = compile_match(match_text);
    } else if (a == "--max-steps") {
      opts.max_steps = parse_count(a, value());
    } else if (a == "--max-seconds") {
      opts.max_seconds = static_cast<double>(parse_count(a, value()));
    } else if (a == "--skip-missing") {
      skip_missing = true;
    } else if (a.starts_with("--")) {
      throw UsageError(fmt::format("unknown option '{}' (options: --match REGEX, --max-steps N, --max-seconds S, --skip-missing)", a));
    } else {
      pos.emplace_back(a);
    }
  }
  if (pos.size() != 2)
    throw UsageError("usage: tcsim golden SPEC_DIR GOLDEN_DIR [--match REGEX] [--max-steps N] [--max-seconds S] "
                     "[--skip-missing]");
  const fs::path spec_dir = pos[0], golden_dir = pos[1];
  std::error_code ec;
  if (!fs::is_directory(spec_dir, ec)) throw UsageError(fmt::format("{}: not a directory of launch specs", spec_dir.string()));
  if (!fs::is_directory(golden_dir, ec)) throw UsageError(fmt::format("{}: not a directory of goldens", golden_dir.string()));
  std::vector<fs::path> specs;
  for (const auto& e : fs::directory_iterator(spec_dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".json" &&
        (!match || RE2::PartialMatch(e.path().stem().string(), *match)))
      specs.push_back(e.path());
  std::sort(specs.begin(), specs.end());
  if (specs.empty())
    throw UsageError(fmt::format("{}: no *.json spec{}", spec_dir.string(),
                                 match ? fmt::format(" matches '{}'", isa::printable_token(match_text)) : std::string()));
  DevicePool pool(opts);
  int passed = 0, differ = 0, errors = 0, missing = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const fs::path& p : specs) {
    const std::string name = p.stem().string();
    const fs::path gdir = golden_dir / name;
    if (!fs::is_directory(gdir, ec)) {
      fmt::print("NO GOLDEN {} (expected {})\n", name, gdir.string());
      ++missing;
      continue;
    }
    try {
      const spec::LaunchSpec s = spec::load_spec(p.string());
      const std::string ptx = spec::read_ptx(s);
      const std::string arch_name = spec::resolve_arch(s, ptx);
      const auto arch = isa::parse_arch(arch_name);
      if (!arch) throw spec::spec_error(s.path, "arch", fmt::format("architecture \"{}\" is not one tcsim models", arch_name));
      for (const auto& t : s.tensor_maps) spec::check_tensor_map_extent(s, t);
      const spec::OutputDir golden = spec::read_output_dir(gdir.string());
      sim::Device& dev = pool.device(*arch);
      SimBackend backend(dev, s.path, &pool);
      const spec::RunResult r = spec::run_spec(s, ptx, backend);
      spec::DiffReport d = spec::diff_outputs(r.outputs, golden.outputs, 4);
      spec::add_printf_diff(d, r.outcome.printf_output, golden.run.printf_output, "tcsim", gdir.string(), 4);
      for (const auto& w : r.outcome.finding_lines) fmt::print("  finding: {}\n", w);
      if (d.identical()) {
        fmt::print("PASS {}\n", name);
        ++passed;
      } else {
        fmt::print("DIFF {}\n{}", name, spec::format_report(d, "tcsim", gdir.string()));
        ++differ;
      }
    } catch (const std::exception& e) {
      fmt::print("ERROR {}: {}\n", name, isa::bounded_message(e.what()));
      ++errors;
    }
    std::fflush(stdout);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("{} specs: {} identical, {} differ, {} errors, {} without golden ({:.1f} s)\n", specs.size(), passed,
             differ, errors, missing, secs);
  if (errors) return 2;
  if (differ || (missing && !skip_missing)) return 1;
  return 0;
}

}  // namespace

TCSIM_COMMAND(golden, "golden SPEC_DIR GOLDEN_DIR [--match REGEX] [--max-steps N] [--max-seconds S] [--skip-missing]   run every spec of a folder against its golden",
              run_golden);

}  // namespace tcsim::cli
