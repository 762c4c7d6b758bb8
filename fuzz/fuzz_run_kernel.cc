// Fuzz target: a whole `run` of a small (mutated) kernel under budgets: parse and bind once
// (Device::load_ptx, the architecture from the .target line as in fuzz_ptx_front_end), then launch
// the first .entry with one CTA of one warp (or its .reqntid / .reqnctapercluster, from
// Device::kernel_info), every pointer parameter pointing at its own zeroed 64 KiB buffer and every
// other parameter zero; the watchdog at 20,000 warp-instructions and 2 s of wall time; memory
// bounded by libFuzzer's -rss_limit_mb (scripts/fuzz.sh). Every kernel must end: finished, or one
// SimError (fault, trap, deadlock, watchdog), never a crash, a hang or an allocation the budget
// refuses. Seeds: kernels/**/*.ptx.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "isa/arch.h"
#include "sim/api.h"
#include "tools/spec/launch_spec.h"

using namespace tcsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  // The architecture from the .target line (a linear scan, no parse); the text is parsed once, by
  // load_ptx, and the launch bounds come from the bound module (Device::kernel_info).
  const auto arch = isa::parse_arch(spec::ptx_target(text)).value_or(isa::Arch::Sm90a);
  sim::DeviceOptions opts;
  opts.max_steps = 20000;
  opts.max_seconds = 2;
  opts.host_threads = 1;
  try {
    sim::Device dev(arch, opts);
    const sim::Module& m = dev.load_ptx(text, "fuzz.ptx");
    const std::vector<std::string> names = dev.kernel_names(m);
    if (names.empty()) return 0;
    const sim::KernelInfo info = dev.kernel_info(m, names[0]);
    std::vector<std::byte> params;
    for (const sim::ParamInfo& p : dev.kernel_params(m, names[0])) {
      const size_t align = p.align ? p.align : 1;
      params.resize((params.size() + align - 1) / align * align);
      if (p.size > 4096) return 0;  // a huge by-value parameter: nothing to learn
      std::vector<std::byte> v(p.size);
      if (p.size == 8) {
        const uint64_t a = dev.malloc(65536);
        std::memcpy(v.data(), &a, 8);
      }
      params.insert(params.end(), v.begin(), v.end());
    }
    const auto or1 = [](uint32_t v) { return v ? v : 1u; };
    sim::LaunchConfig cfg;
    cfg.grid = {1, 1, 1};
    cfg.block = {32, 1, 1};
    if (info.reqntid.x) cfg.block = {info.reqntid.x, or1(info.reqntid.y), or1(info.reqntid.z)};
    if (info.reqnctapercluster.x) {
      cfg.cluster = {info.reqnctapercluster.x, or1(info.reqnctapercluster.y), or1(info.reqnctapercluster.z)};
      cfg.grid = cfg.cluster;
    }
    if (cfg.block.count() > 1024 || cfg.grid.count() > 16) return 0;
    (void)dev.launch(m, names[0], cfg, params);
  } catch (const sim::SimError&) {
  }
  return 0;
}
