// tcsim check-ptx FILE.ptx... [--arch ARCH]
// The front end alone, as ptxas judges a module: parse the PTX and bind every .entry (operand
// types, widths, modifiers, state spaces: everything `tcsim run` rejects at load), run nothing. One
// line per file: "ACCEPT FILE" or "REJECT FILE: <the error tcsim run would print>". The ptxas
// differential (scripts/ptxas_differential.py, docs/ptxas_differential.md) gives the same mutants to
// ptxas and to this command. Exit 0 when every file is accepted, 1 when some are rejected, 2 on bad
// usage. The architecture is the PTX .target unless --arch names one.
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isa/arch.h"
#include "isa/printable.h"
#include "sim/api.h"
#include "tools/spec/input_file.h"
#include "tools/spec/launch_spec.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

// "" when accepted, else the reason.
std::string check_one(const std::string& path, std::optional<isa::Arch> arch_opt) {
  std::string text;
  try {
    text = spec::read_regular_file(path, spec::kMaxPtxBytes);
  } catch (const spec::InputFileError& e) {
    return fmt::format("cannot read it: it {}", e.what());
  }
  std::optional<isa::Arch> arch = arch_opt;
  if (!arch) {
    const std::string t = spec::ptx_target(text);
    arch = isa::parse_arch(t);
    if (!arch) return fmt::format("its .target \"{}\" is not an architecture tcsim models (give --arch)", t);
  }
  try {
    sim::Device dev(*arch);
    dev.load_ptx(text, path);
  } catch (const std::bad_alloc&) {
    return "out of host memory while loading it";
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

int run_check_ptx(Args args) {
  std::vector<std::string> files;
  std::optional<isa::Arch> arch;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--arch") {
      if (i + 1 >= args.size()) throw UsageError("--arch needs a value (sm_90a, sm_100a, sm_100f, sm_103a)");
      arch = isa::parse_arch(args[++i]);
      if (!arch)
        throw UsageError(fmt::format("--arch: '{}' is not an architecture tcsim models (legal: sm_90a, sm_100a, "
                                     "sm_100f, sm_103a)", isa::printable_token(args[i])));
    } else if (a.starts_with("--")) {
      throw UsageError(fmt::format("unknown option '{}' (options: --arch ARCH)", isa::printable_token(a)));
    } else {
      files.emplace_back(a);
    }
  }
  if (files.empty()) throw UsageError("usage: tcsim check-ptx FILE.ptx... [--arch ARCH]");
  int rejected = 0;
  for (const std::string& f : files) {
    const std::string why = check_one(f, arch);
    if (why.empty()) {
      fmt::print("ACCEPT {}\n", f);
    } else {
      // One line per file: the reason's lines joined (a parse error is one line already).
      std::string one = isa::bounded_message(why);
      for (char& c : one)
        if (c == '\n') c = ' ';
      fmt::print("REJECT {}: {}\n", f, one);
      ++rejected;
    }
  }
  return rejected ? 1 : 0;
}

}  // namespace

// "check-ptx" has a hyphen, which TCSIM_COMMAND's identifier cannot hold: registered directly.
[[maybe_unused]] static const bool registered = register_command(
    {"check-ptx", "check-ptx FILE.ptx... [--arch ARCH]   parse and bind PTX as `run` loads it, run nothing",
     run_check_ptx});

}  // namespace tcsim::cli
