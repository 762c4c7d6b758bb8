// tcsim-hw: the hardware half of the differential harness (DESIGN.md "Verification without a B200").
//   tcsim-hw run SPEC.json --out DIR [--device N]
//       runs the launch spec on a GPU through the CUDA driver API and writes the same output
//       directory as `tcsim run --out` (tool "tcsim-hw", GPU, driver, date in the manifest).
//   tcsim-hw check-tensor-map SPEC.json [--device N]      (also: --check-tensor-map SPEC.json)
//       only encodes the spec's tensor maps with cuTensorMapEncodeTiled and prints, per map,
//       accept or the CUresult of the rejection, and tcsim's own verdict (validate_tensor_map)
//       marked "agree" or "DISAGREE" — cheap comparisons of tcsim's tensor-map rules with the
//       driver's.
// Exit codes: 0 ran / every map accepted; 1 some map rejected (check-tensor-map); 2 bad input or
// a driver error (message names the call and the CUresult).
#include <cstdio>
#include <ctime>
#include <map>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "isa/printable.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/output_dir.h"
#include "tools/spec/runner.h"
#include "tools/spec/spec_error.h"
#include "tools/spec/tensor_map_encode.h"
#include "tools/tcsim-hw/cuda_backend.h"

namespace tcsim::hw {
namespace {

constexpr std::string_view kUsage =
    "usage: tcsim-hw run SPEC.json --out DIR [--device N]\n"
    "       tcsim-hw check-tensor-map SPEC.json [--device N]\n";

struct Options {
  std::string command, spec, out;
  int device = 0;
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Options parse(int argc, char** argv) {
  Options o;
  std::vector<std::string_view> a(argv + 1, argv + argc);
  for (size_t i = 0; i < a.size(); ++i) {
    auto value = [&](std::string_view opt) {
      if (i + 1 >= a.size()) throw UsageError(fmt::format("{} needs a value", opt));
      return std::string(a[++i]);
    };
    if (a[i] == "--out") o.out = value("--out");
    else if (a[i] == "--device") {
      const std::string v = value("--device");
      char* end = nullptr;
      const long d = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || d < 0 || d > 1024) throw UsageError(fmt::format("--device: '{}' is not a device number", v));
      o.device = static_cast<int>(d);
    } else if (a[i] == "--check-tensor-map") {
      o.command = "check-tensor-map";
      o.spec = value("--check-tensor-map");
    } else if (a[i].starts_with("--")) {
      throw UsageError(fmt::format("unknown option '{}'", a[i]));
    } else if (o.command.empty()) {
      o.command = std::string(a[i]);
    } else if (o.spec.empty()) {
      o.spec = std::string(a[i]);
    } else {
      throw UsageError(fmt::format("unexpected argument '{}'", a[i]));
    }
  }
  if (o.command != "run" && o.command != "check-tensor-map")
    throw UsageError(o.command.empty() ? "no command" : fmt::format("unknown command '{}'", o.command));
  if (o.spec.empty()) throw UsageError("no SPEC.json given");
  if (o.command == "run" && o.out.empty()) throw UsageError("run needs --out DIR");
  return o;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

int run(const Options& o) {
  const spec::LaunchSpec s = spec::load_spec(o.spec);
  const std::string ptx = spec::read_ptx(s);
  const std::string arch = spec::resolve_arch(s, ptx);
  CudaBackend be(o.device);
  const spec::RunResult r = spec::run_spec(s, ptx, be);
  spec::RunInfo info;
  info.tool = "tcsim-hw";
  info.arch = arch;
  info.spec = o.spec;
  info.kernel = r.kernel;
  info.extra = {{"gpu", be.gpu_name()},
                {"compute_capability", be.compute_capability()},
                {"driver_version", be.driver_version()},
                {"date", utc_now()},
                {"elapsed_ms", fmt::format("{:.4f}", be.last_elapsed_ms())},
                {"printf_fifo_bytes", fmt::format("{}", be.last_printf_fifo_bytes())},
                {"param_offsets", fmt::format("{}", fmt::join(be.param_offsets(), ","))}};
  info.printf_output = r.outcome.printf_output;
  // The kernel's printf output, where a CUDA program shows it: on stdout, after the launch.
  if (r.outcome.printf_output) std::fwrite(r.outcome.printf_output->text.data(), 1, r.outcome.printf_output->text.size(), stdout);
  spec::write_output_dir(o.out, info, r.outputs);
  fmt::print("{}: kernel {} on {} ({}): {:.4f} ms; outputs written to {}\n", o.spec, r.kernel,
             be.gpu_name(), be.compute_capability(), be.last_elapsed_ms(), o.out);
  return 0;
}

int check_tensor_maps(const Options& o) {
  const spec::LaunchSpec s = spec::load_spec(o.spec);
  if (s.tensor_maps.empty()) throw UsageError(fmt::format("{} has no tensor_maps", o.spec));
  CudaBackend be(o.device);
  std::map<std::string, uint64_t> addr;  // one real allocation per buffer a map uses
  size_t rejected = 0, disagreements = 0;
  for (const auto& t : s.tensor_maps) {
    if (!addr.count(t.buffer)) addr[t.buffer] = be.malloc(s.find_buffer(t.buffer)->bytes());
    const uint64_t a = addr[t.buffer] + t.offset_bytes;
    CUtensorMap m;
    const CUresult res = encode_tiled(t, a, m);
    fmt::print("{}: {}  [{} rank {} dims [{}] strides [{}] box [{}] elem_strides [{}] interleave {} "
               "swizzle {} l2 {} oob {} address 0x{:x}]\n",
               t.name, res == CUDA_SUCCESS ? "ACCEPT" : "REJECT " + result_name(res),
               spec::tm_dtype_name(t.dtype), t.rank(), fmt::join(t.global_dims, ", "),
               fmt::join(t.global_strides_bytes, ", "), fmt::join(t.box_dims, ", "),
               fmt::join(t.element_strides, ", "), spec::tm_interleave_name(t.interleave),
               spec::tm_swizzle_name(t.swizzle), spec::tm_l2_promotion_name(t.l2_promotion),
               spec::tm_oob_fill_name(t.oob_fill), a);
    rejected += res != CUDA_SUCCESS;
    // tcsim's own verdict (isa's validate_tensor_map) beside the driver's.
    {
      // The device's architecture: the spec's arch (sm_90a on the H200).
      const auto arch = tcsim::isa::parse_arch(s.arch.value_or("sm_100a")).value_or(tcsim::isa::Arch::Sm100a);
      const std::vector<std::string> v = spec::tensor_map_violations(t, a, arch);
      const bool agree = v.empty() == (res == CUDA_SUCCESS);
      disagreements += !agree;
      fmt::print("  tcsim: {}{}  -> {}\n", v.empty() ? "ACCEPT" : "REJECT: ", fmt::join(v, "; "),
                 agree ? "agree" : "DISAGREE");
    }
  }
  fmt::print("{} tensor map{}: {} accepted by the driver, {} rejected", s.tensor_maps.size(),
             s.tensor_maps.size() == 1 ? "" : "s", s.tensor_maps.size() - rejected, rejected);
  fmt::print("; {} disagreement{} with tcsim\n", disagreements, disagreements == 1 ? "" : "s");
  return rejected ? 1 : 0;
}

}  // namespace
}  // namespace tcsim::hw

int main(int argc, char** argv) {
  using namespace tcsim::hw;
  if (argc < 2 || std::string_view(argv[1]) == "-h" || std::string_view(argv[1]) == "--help") {
    fmt::print(argc < 2 ? stderr : stdout, "{}", kUsage);
    return argc < 2 ? 2 : 0;
  }
  try {
    const Options o = parse(argc, argv);
    return o.command == "run" ? run(o) : check_tensor_maps(o);
  } catch (const UsageError& e) {
    fmt::print(stderr, "tcsim-hw: error: {}\n{}", tcsim::isa::bounded_message(e.what()), kUsage);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "tcsim-hw: error: out of host memory (the spec asks for more than this host can give)\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "tcsim-hw: error: {}\n", tcsim::isa::bounded_message(e.what()));
  }
  return 2;
}
