// tcsim diff DIR1 DIR2: compare two output directories (of `tcsim run --out` or
// `tcsim-hw run --out`) bit for bit (LAUNCH_SPEC.md "Output directory"; tools/spec/diff.h).
// Exit 0: every output identical and none missing; 1: a difference; 2: bad input.
#include <charconv>
#include <string>

#include <fmt/format.h>

#include "tools/spec/diff.h"
#include "tools/spec/output_dir.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

void print_provenance(const spec::OutputDir& d) {
  if (!d.has_manifest) {
    fmt::print("{}: no manifest.json (types from the .npy storage)\n", d.dir);
    return;
  }
  fmt::print("{}: {} {} kernel {}{}\n", d.dir, d.run.tool, d.run.arch, d.run.kernel,
             d.run.cycles ? fmt::format(", {} cycles", *d.run.cycles) : "");
  if (!d.run.approx_ops.empty())
    fmt::print("  note: ran approximate instructions, not bit-exact by design: {}\n",
               fmt::join(d.run.approx_ops, ", "));
}

int run_diff(Args args) {
  std::vector<std::string> dirs;
  size_t max_shown = 8;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--max-shown") {
      if (i + 1 >= args.size()) throw UsageError("--max-shown needs a number");
      const std::string_view v = args[++i];
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), max_shown);
      if (ec != std::errc() || p != v.data() + v.size())
        throw UsageError(fmt::format("--max-shown: '{}' is not a number", v));
    } else if (args[i].starts_with("--")) {
      throw UsageError(fmt::format("unknown option '{}' (usage: tcsim diff DIR1 DIR2 [--max-shown N])", args[i]));
    } else {
      dirs.emplace_back(args[i]);
    }
  }
  if (dirs.size() != 2) throw UsageError("usage: tcsim diff DIR1 DIR2 [--max-shown N]");
  const spec::OutputDir a = spec::read_output_dir(dirs[0]);
  const spec::OutputDir b = spec::read_output_dir(dirs[1]);
  print_provenance(a);
  print_provenance(b);
  spec::DiffReport r = spec::diff_outputs(a.outputs, b.outputs, max_shown);
  spec::add_printf_diff(r, a.run.printf_output, b.run.printf_output, dirs[0], dirs[1], max_shown);
  fmt::print("{}", spec::format_report(r, dirs[0], dirs[1]));
  return r.identical() ? 0 : 1;
}

}  // namespace

TCSIM_COMMAND(diff, "diff DIR1 DIR2 [--max-shown N]   compare two output directories bit for bit", run_diff);

}  // namespace tcsim::cli
