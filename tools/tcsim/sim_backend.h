// spec::Backend over the simulator's C++ API (sim::Device): what `tcsim run`, `tcsim verify-case`,
// `tcsim golden` (tools/tcsim/cmd_golden.cc) and the GEMM benchmark (bench/bench_wgmma_gemm.cc) run
// specs on. Header-only so that a benchmark can use it without linking the command line.
#pragma once
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/api.h"
#include "sim/report/finding_json.h"
#include "sim/timing/report_text.h"
#include "tools/spec/params.h"
#include "tools/spec/runner.h"
#include "tools/spec/spec_error.h"
#include "tools/spec/tensor_map_encode.h"

namespace tcsim::cli {

// One simulated device per architecture, each PTX module loaded once (by source name and text):
// lets many specs naming several PTX files and architectures share parse and bind work.
class DevicePool {
 public:
  explicit DevicePool(sim::DeviceOptions o) : opts_(o) {}
  sim::Device& device(isa::Arch a) {
    auto& d = devices_[a];
    if (!d) d = std::make_unique<sim::Device>(a, opts_);
    return *d;
  }
  const sim::Module& module(sim::Device& d, const std::string& text, const std::string& name) {
    auto& m = modules_[{&d, name}];
    if (!m.mod || m.text_size != text.size() || m.text_hash != std::hash<std::string>{}(text)) {
      m.mod = &d.load_ptx(text, name);
      m.text_size = text.size();
      m.text_hash = std::hash<std::string>{}(text);
    }
    return *m.mod;
  }

 private:
  struct Loaded {
    const sim::Module* mod = nullptr;
    size_t text_size = 0, text_hash = 0;
  };
  sim::DeviceOptions opts_;
  std::map<isa::Arch, std::unique_ptr<sim::Device>> devices_;
  std::map<std::pair<const sim::Device*, std::string>, Loaded> modules_;
};

// spec::Backend over one sim::Device. Modules are reused: through `pool` when one is given (any
// module loaded before on that device), otherwise when the text equals the last one loaded
// (tcsim verify-case runs hundreds of specs of one PTX file on one Device: parse and bind once).
class SimBackend final : public spec::Backend {
 public:
  SimBackend(sim::Device& d, std::string spec_file, DevicePool* pool = nullptr)
      : dev_(d), spec_file_(std::move(spec_file)), pool_(pool) {}
  void set_spec_file(std::string spec_file) { spec_file_ = std::move(spec_file); }

  void load_module(const std::string& text, const std::string& name) override {
    if (pool_) {
      module_ = &pool_->module(dev_, text, name);
      return;
    }
    if (module_ && text == module_text_) return;
    module_ = &dev_.load_ptx(text, name);
    module_text_ = text;
  }
  std::vector<std::string> kernel_names() override { return dev_.kernel_names(*module_); }
  std::vector<spec::ParamInfo> kernel_params(const std::string& kernel) override {
    std::vector<spec::ParamInfo> r;
    for (const auto& p : dev_.kernel_params(*module_, kernel)) r.push_back({p.name, p.size, p.align});
    return r;
  }
  bool symbol(const std::string& name, spec::SymbolRef& out) override {
    try {
      const sim::SymbolInfo s = dev_.symbol(*module_, name);
      out = {s.address, s.size};
      return true;
    } catch (const sim::SimError&) {
      return false;
    }
  }
  uint64_t malloc(uint64_t bytes) override { return dev_.malloc(bytes, 256); }
  bool malloc_returns_zeroes() const override { return true; }
  void host_wrote_zeroes(uint64_t dst, uint64_t n) override { dev_.host_wrote(dst, n); }
  void name_buffer(uint64_t address, const std::string& name) override {
    dev_.name_allocation(address, fmt::format("buffer {}", name));
  }
  void copy_to_device(uint64_t dst, const void* src, uint64_t n) override { dev_.copy_to_device(dst, src, n); }
  bool host_visible() const override { return true; }
  std::span<std::byte> host_bytes(uint64_t dst, uint64_t n) override { return dev_.host_bytes(dst, n); }
  void copy_from_device(void* dst, uint64_t src, uint64_t n) override { dev_.copy_from_device(dst, src, n); }
  // Tensor maps are checked with the rules of the modelled architecture's driver (sm_90a: the
  // H200's, as measured).
  std::vector<std::byte> encode_tensor_map(const spec::TensorMapSpec& t, uint64_t address) override {
    return spec::encode_tensor_map_bytes(t, address, spec_file_, dev_.arch());
  }
  spec::LaunchOutcome launch(const std::string& kernel, const spec::LaunchSpec& s,
                             std::span<const std::byte> params, std::span<const spec::ParamInfo> pinfo) override {
    sim::LaunchConfig cfg;
    // The spec's names of its tensor-map arguments, for messages (the misread report names the map).
    const spec::ParamLayout layout = spec::layout_params(pinfo, kernel);
    for (size_t i = 0; i < s.args.size() && i < layout.offsets.size(); ++i)
      if (s.args[i].kind == spec::ArgKind::TensorMap)
        cfg.param_labels.push_back({layout.offsets[i], 128, s.args[i].name});
    cfg.grid = {s.grid.x, s.grid.y, s.grid.z};
    cfg.block = {s.block.x, s.block.y, s.block.z};
    cfg.cluster = {s.cluster.x, s.cluster.y, s.cluster.z};
    cfg.explicit_cluster = s.cluster_given;  // as tcsim-hw: a spec naming "cluster" is a cluster launch
    cfg.dynamic_smem_bytes = s.dynamic_smem_bytes;
    if (s.printf_fifo_bytes) cfg.printf_fifo_bytes = *s.printf_fifo_bytes;
    sim::LaunchResult r = dev_.launch(*module_, kernel, cfg, params);
    spec::LaunchOutcome out;
    out.cycles = r.cycles;
    out.findings = sim::findings_to_json(r.findings);
    out.findings_summary = sim::summarize_findings(r.findings);
    out.finding_lines = r.finding_lines();
    out.finding_count = sim::total_occurrences(r.findings);
    out.approx_ops = r.approx_ops;
    out.timing = sim::timing::report_json(r.timing);
    out.timing_summary = sim::timing::format_report(r.timing);
    if (!trace_path_.empty()) {
      std::ofstream f(trace_path_);
      if (!f) throw spec::SpecError(fmt::format("--trace: cannot write {}", trace_path_));
      sim::timing::write_trace(f, r.trace, r.timing.clock_mhz, fmt::format("tcsim {} ({})", kernel, spec_file_));
      if (!f) throw spec::SpecError(fmt::format("--trace: writing {} failed", trace_path_));
    }
    out.printf_output =
        spec::PrintfCapture{std::move(r.printf_output), r.printf_records, r.printf_dropped, r.printf_fifo_bytes};
    return out;
  }
  // Write the launch's trace (DeviceOptions::trace_events) to `path` as Chrome/Perfetto JSON.
  void set_trace_path(std::string path) { trace_path_ = std::move(path); }

 private:
  sim::Device& dev_;
  std::string spec_file_;
  DevicePool* pool_ = nullptr;
  const sim::Module* module_ = nullptr;
  std::string module_text_;
  std::string trace_path_;
};

// `simulate(opts)` runs a whole spec on a fresh Device with `opts`. Under --timing-only the TMA tile
// copies are skipped (sim/units/uncopied_smem.h); when the program reads the bytes they would have
// written (sim::TimingOnlyNeedsCopies), the spec runs again from the start with the copies, so the
// cycles are always those of a full run. `note` (if set) is told why the first run stopped.
template <class Simulate>
auto run_timing_only_safe(sim::DeviceOptions opts, Simulate&& simulate,
                          const std::function<void(const std::string&)>& note = {}) {
  if (!opts.timing_only || opts.timing_only_copies) return simulate(opts);
  try {
    return simulate(opts);
  } catch (const sim::TimingOnlyNeedsCopies& e) {
    if (note) note(e.what());
    opts.timing_only_copies = true;
    return simulate(opts);
  }
}

}  // namespace tcsim::cli
