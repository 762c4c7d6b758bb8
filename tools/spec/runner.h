// Runs a launch spec on a machine: the simulator (tools/tcsim) or a GPU through the CUDA driver
// (tools/tcsim-hw). Everything both do the same way — reading the PTX, resolving the kernel,
// checking args against the .entry, allocating and initialising buffers and symbols, building
// tensor maps and the parameter buffer, reading outputs back — is here, once; a Backend supplies
// the machine. So the two tools cannot drift apart in what a spec means.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/spec/launch_spec.h"
#include "tools/spec/output_dir.h"
#include "tools/spec/params.h"

namespace tcsim::spec {

struct SymbolRef {
  uint64_t address = 0;  // as copy_to_device takes it
  uint64_t size = 0;     // bytes, from the module's declaration
};

struct LaunchOutcome {
  std::optional<uint64_t> cycles;
  // Findings (tcsim: the rules of the PTX ISA the kernel broke while it ran; docs/findings.md): the
  // manifest's JSON, the terminal summary, every kept occurrence as a line, and the total count.
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  std::string findings_summary;
  std::vector<std::string> finding_lines;
  uint64_t finding_count = 0;
  std::vector<std::string> approx_ops;
  // tcsim: the timing report (sim/timing/report_text.h) as the manifest's JSON and as text.
  nlohmann::ordered_json timing;
  std::string timing_summary;
  std::optional<PrintfCapture> printf_output;  // device printf output, when the backend captures it
};

// The machine a spec runs on. Every method throws (SpecError for bad input the spec caused,
// the backend's own error type for failures of the machine); run_spec lets them through.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual void load_module(const std::string& ptx_text, const std::string& source_name) = 0;
  virtual std::vector<std::string> kernel_names() = 0;
  virtual std::vector<ParamInfo> kernel_params(const std::string& kernel) = 0;
  // Unknown name: return false (run_spec reports it with the spec's path).
  virtual bool symbol(const std::string& name, SymbolRef& out) = 0;
  virtual uint64_t malloc(uint64_t bytes) = 0;  // 256-byte aligned (LAUNCH_SPEC.md "buffers")
  // True when every byte malloc returns is zero already (the simulator's global memory: fresh,
  // never reused address ranges of an anonymous mapping, sim/memory/global_memory.h), so a zero
  // initial image is not copied in (no host copy, no page touched: lazy zero pages).
  virtual bool malloc_returns_zeroes() const { return false; }
  // A zero-initialised buffer malloc_returns_zeroes() let the loader skip: the host's zeros count as
  // written (the simulator's initcheck, docs/checker.md "uninitialised-global-read").
  virtual void host_wrote_zeroes(uint64_t dst, uint64_t bytes) { (void)dst, (void)bytes; }
  // The spec's name for the buffer at `address` (findings name it).
  virtual void name_buffer(uint64_t address, const std::string& name) { (void)address, (void)name; }
  virtual void copy_to_device(uint64_t dst, const void* src, uint64_t bytes) = 0;
  // Host bytes of device memory [dst, dst + bytes) the loader may write directly (the simulator's
  // global memory is host memory), or an empty span when the device is not host memory (a GPU):
  // then the initial image is built on the host and copied in. host_visible() says which, before
  // any allocation (the host-memory check counts an image only when one is built).
  virtual bool host_visible() const { return false; }
  virtual std::span<std::byte> host_bytes(uint64_t dst, uint64_t bytes) {
    (void)dst, (void)bytes;
    return {};
  }
  virtual void copy_from_device(void* dst, uint64_t src, uint64_t bytes) = 0;
  // The 128-byte tensor map for `t` over global address `address`, or SpecError with the rule it
  // breaks (the simulator: isa's validate_tensor_map; hardware: cuTensorMapEncodeTiled's CUresult).
  virtual std::vector<std::byte> encode_tensor_map(const TensorMapSpec& t, uint64_t address) = 0;
  virtual LaunchOutcome launch(const std::string& kernel, const LaunchSpec& spec,
                               std::span<const std::byte> params, std::span<const ParamInfo> info) = 0;
};

// The PTX text of spec.ptx_path (SpecError naming the spec when unreadable).
std::string read_ptx(const LaunchSpec& spec);
// spec.arch, or else the PTX .target; SpecError when neither names an architecture.
std::string resolve_arch(const LaunchSpec& spec, const std::string& ptx_text);

// Tensor maps must lie inside their buffer: the byte extent of the described tensor
// (offset + sum over dims i>=1 of (dim_i - 1) * stride_i + dim_0's bytes) <= the buffer's size.
// Not a driver rule (the driver cannot know allocations): a spec that breaks it would make the
// kernel read outside its buffer. SpecError naming the map.
void check_tensor_map_extent(const LaunchSpec& spec, const TensorMapSpec& t);

// A symbol's `file` init (LAUNCH_SPEC.md "symbols"): the .npy must hold exactly the declared
// bytes, whatever its element type (SpecError naming the spec field otherwise); its raw data.
void check_symbol_file(const InitSpec& init, uint64_t symbol_bytes);
std::vector<std::byte> symbol_file_bytes(const InitSpec& init, uint64_t symbol_bytes);

struct RunResult {
  std::string kernel;  // the resolved .entry name
  LaunchOutcome outcome;
  std::vector<OutputArray> outputs;  // spec.outputs order
};

// Loads spec.ptx into the backend, then everything up to and including the launch and readback.
RunResult run_spec(const LaunchSpec& spec, const std::string& ptx_text, Backend& backend);

}  // namespace tcsim::spec
