// The capture layer's record of a CUDA program (docs/capture.md): what it allocated, which modules
// and kernels it loaded, which tensor maps it encoded, and, per launch, a launch spec (LAUNCH_SPEC.md)
// with the launch's input buffers as .npy and its outputs as an output directory. It sees the
// program only through the driver API calls it forwards (interpose.cc), so it works the same over
// libtcsim-cuda and over a GPU's real libcuda.
//
// Per launch N of kernel K, under the capture directory:
//   launchNNNN/spec.json      the launch spec; its "ptx" is ../modules/moduleM.<target>.ptx
//   launchNNNN/in_bufI.npy    each buffer the launch's parameters point into, before the launch
//   launchNNNN/sym_NAME.npy   each module variable (__device__ / __constant__), before the launch
//   launchNNNN/out/           the same buffers after the launch (manifest.json + NAME.npy), the
//                             golden `tcsim run spec.json --golden out` replays against
// and capture.json listing every launch (or why it could not be captured).
#pragma once
#include <cuda.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "isa/ptx/ir.h"
#include "tools/spec/tensor_map_spec.h"

namespace tcsim::capture {

// The driver entry points the recorder itself calls (the next driver's, never the wrappers).
struct NextDriver {
  CUresult (*ctx_synchronize)() = nullptr;
  CUresult (*memcpy_dtoh)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*module_get_global)(CUdeviceptr*, size_t*, CUmodule, const char*) = nullptr;
  CUresult (*library_get_global)(CUdeviceptr*, size_t*, CUlibrary, const char*) = nullptr;
  CUresult (*func_get_name)(const char**, CUfunction) = nullptr;
  CUresult (*device_get_name)(char*, int, CUdevice) = nullptr;
  CUresult (*device_get_attribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
  CUresult (*driver_get_version)(int*) = nullptr;
};

struct LaunchInfo {
  const void* function = nullptr;  // CUfunction or CUkernel
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1}, cluster{1, 1, 1};
  bool cluster_given = false;
  uint32_t smem = 0;
  void** kernel_params = nullptr;
  void** extra = nullptr;
};

class Recorder {
 public:
  static Recorder& get();
  std::recursive_mutex mu;

  void init(const NextDriver& next, std::string dir);
  bool active() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }

  void on_alloc(CUdeviceptr base, size_t bytes);
  void on_free(CUdeviceptr base);
  // A module or library from an image (PTX, fat binary, fat-binary wrapper, cubin).
  void on_module(const void* handle, const void* image, bool is_library, const std::string& origin);
  void on_unload(const void* handle);
  void on_function(const void* function, const void* module, const std::string& name);
  void on_kernel_function(const void* function, const void* kernel);  // cuKernelGetFunction
  void on_tensor_map(const CUtensorMap& map, const spec::TensorMapSpec& params, uint64_t address);
  void on_tensor_map_address(const CUtensorMap& before, const CUtensorMap& after, uint64_t address);

  // Around the forwarded launch: `before` snapshots the inputs and returns a token for `after`,
  // which snapshots the outputs and writes the launch's files. A launch that cannot be captured
  // is listed in capture.json with the reason (one line on stderr too); it still runs.
  struct Pending;
  struct PendingDeleter {
    void operator()(Pending* p) const;
  };
  using PendingPtr = std::unique_ptr<Pending, PendingDeleter>;
  PendingPtr before_launch(const LaunchInfo& l);
  void after_launch(PendingPtr p, CUresult launch_result);

  void finish();  // writes capture.json (also at exit)

 private:
  struct Module {
    std::string ptx, target, file, note;  // file: path under dir_ ("" when there is no PTX)
    bool is_library = false;
    std::optional<isa::ptx::Module> ir;
  };
  struct Function {
    const void* module = nullptr;
    std::string name;
  };
  struct TensorMap {
    std::array<uint8_t, 128> bytes;
    spec::TensorMapSpec params;
    uint64_t address;
  };
  std::string arch_name() const;
  void note(const std::string& what);

  NextDriver next_;
  std::string dir_;
  std::map<uint64_t, uint64_t> allocs_;  // base -> bytes
  std::map<const void*, Module> modules_;
  std::map<const void*, Function> functions_;
  std::vector<TensorMap> tensor_maps_;
  unsigned module_count_ = 0, launch_count_ = 0;
  std::vector<std::string> launches_;  // capture.json rows
  int cc_major_ = 0, cc_minor_ = 0;
  std::string gpu_;
  int driver_version_ = 0;
};

}  // namespace tcsim::capture
