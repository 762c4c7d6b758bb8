// spec::Backend over the simulator's C++ API (sim::Device): what `tcsim run` and `tcsim
// verify-case` run specs on.
#pragma once
#if TCSIM_HAVE_SIM_CORE
#include <span>
#include <string>
#include <vector>

#include "sim/api.h"
#include "tools/spec/runner.h"
#include "tools/spec/tensor_map_encode.h"

namespace tcsim::cli {

// spec::Backend over the simulator's C++ API.
class SimBackend final : public spec::Backend {
 public:
  SimBackend(sim::Device& d, std::string spec_file) : dev_(d), spec_file_(std::move(spec_file)) {}
  void set_spec_file(std::string spec_file) { spec_file_ = std::move(spec_file); }
  // Tensor maps are checked with the rules of the modelled architecture's driver (sm_90a: the
  // H200's, as measured).

  // A module whose text equals the last one loaded is reused (tcsim verify-case runs hundreds of
  // specs of one PTX file on one Device: parse and bind once).
  void load_module(const std::string& text, const std::string& name) override {
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
  void copy_to_device(uint64_t dst, const void* src, uint64_t n) override { dev_.copy_to_device(dst, src, n); }
  void copy_from_device(void* dst, uint64_t src, uint64_t n) override { dev_.copy_from_device(dst, src, n); }
  std::vector<std::byte> encode_tensor_map(const spec::TensorMapSpec& t, uint64_t address) override {
    return spec::encode_tensor_map_bytes(t, address, spec_file_, dev_.arch());
  }
  spec::LaunchOutcome launch(const std::string& kernel, const spec::LaunchSpec& s,
                             std::span<const std::byte> params, std::span<const spec::ParamInfo>) override {
    sim::LaunchConfig cfg;
    cfg.grid = {s.grid.x, s.grid.y, s.grid.z};
    cfg.block = {s.block.x, s.block.y, s.block.z};
    cfg.cluster = {s.cluster.x, s.cluster.y, s.cluster.z};
    cfg.explicit_cluster = s.cluster_given;  // as tcsim-hw: a spec naming "cluster" is a cluster launch
    cfg.dynamic_smem_bytes = s.dynamic_smem_bytes;
    const sim::LaunchResult r = dev_.launch(*module_, kernel, cfg, params);
    return {r.cycles, r.warnings, r.approx_ops};
  }

 private:
  sim::Device& dev_;
  std::string spec_file_;
  const sim::Module* module_ = nullptr;
  std::string module_text_;
};

}  // namespace tcsim::cli
#endif
