// spec::Backend over the CUDA driver API (cuda.h): the GPU side of a launch spec. Driver failures
// throw CudaError with the CUresult's name and description and what was being done.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda.h>

#include "tools/spec/runner.h"

namespace tcsim::hw {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "CUDA_ERROR_INVALID_VALUE (invalid argument)".
std::string result_name(CUresult r);
void check(CUresult r, const std::string& what);

// The CUtensorMap of `t` at `address`, or the CUresult cuTensorMapEncodeTiled returned.
CUresult encode_tiled(const spec::TensorMapSpec& t, uint64_t address, CUtensorMap& out);

class CudaBackend final : public spec::Backend {
 public:
  explicit CudaBackend(int ordinal);
  ~CudaBackend() override;
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  void load_module(const std::string& ptx_text, const std::string& source_name) override;
  std::vector<std::string> kernel_names() override;
  std::vector<spec::ParamInfo> kernel_params(const std::string& kernel) override;
  bool symbol(const std::string& name, spec::SymbolRef& out) override;
  uint64_t malloc(uint64_t bytes) override;
  void copy_to_device(uint64_t dst, const void* src, uint64_t bytes) override;
  void copy_from_device(void* dst, uint64_t src, uint64_t bytes) override;
  std::vector<std::byte> encode_tensor_map(const spec::TensorMapSpec& t, uint64_t address) override;
  spec::LaunchOutcome launch(const std::string& kernel, const spec::LaunchSpec& spec,
                             std::span<const std::byte> params,
                             std::span<const spec::ParamInfo> info) override;

  // Facts for the manifest.
  std::string gpu_name() const;
  std::string compute_capability() const;  // "9.0"
  std::string driver_version() const;      // "13.0" (cuDriverGetVersion)
  double last_elapsed_ms() const { return elapsed_ms_; }
  // CU_LIMIT_PRINTF_FIFO_SIZE in effect for the last launch (the driver may round what was asked).
  uint64_t last_printf_fifo_bytes() const { return printf_fifo_bytes_; }
  // The parameter offsets cuFuncGetParamInfo reported for the last kernel_params call.
  const std::vector<size_t>& param_offsets() const { return param_offsets_; }

 private:
  CUfunction function(const std::string& kernel);

  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  CUmodule mod_ = nullptr;
  std::string ptx_;  // the loaded module's text (parameter names and alignments: ptx_params.h)
  std::vector<CUdeviceptr> allocations_;
  double elapsed_ms_ = 0;
  uint64_t printf_fifo_bytes_ = 0;
  std::vector<size_t> param_offsets_;
};

}  // namespace tcsim::hw
