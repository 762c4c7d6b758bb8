// The kernel-facing half of a launch spec: which .entry it names, and the parameter bytes its
// `args` become. Pure functions over the .entry's parameter list, so they are tested without a
// simulator and shared with the hardware runner.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tools/spec/launch_spec.h"

namespace tcsim::spec {

// One .param of an .entry, in declaration order (PTX ISA §5.1.6.1 "Kernel Function Parameters").
// Mirrors sim::ParamInfo (this library does not depend on sim/).
struct ParamInfo {
  std::string name;
  uint32_t size = 0;   // bytes
  uint32_t align = 1;  // bytes (a power of two; .align N or the type's natural alignment)
};

// The spec's kernel name against the module's .entry names: an exact match wins; otherwise the
// one entry that contains it (e.g. "gemm" for "_Z9gemm_bf16PKvPf"). None or several: SpecError
// listing the entries.
std::string resolve_kernel(const LaunchSpec& spec, const std::vector<std::string>& entries);

struct ParamLayout {
  std::vector<uint32_t> offsets;  // of each parameter in the parameter buffer
  uint32_t total = 0;             // buffer size: end of the last parameter
};

// Each parameter at the next multiple of its alignment, in order — the layout of the .param
// space that cuLaunchKernel fills (PTX ISA §5.1.6.1; the same offsets cuFuncGetParamInfo reports).
// SpecError for an alignment that is not a power of two.
ParamLayout layout_params(std::span<const ParamInfo> params, const std::string& kernel);

// Checks the spec's args against the .entry's parameters: the count, each size, and each
// argument's alignment (ArgSpec::align: 64 for anything holding a tensor map, 8 for a pointer)
// against the parameter's (its declared .align, or its type's): a parameter aligned less than
// its argument needs is a different type than the spec describes (a struct holding a CUtensorMap
// is alignas(64), so nvcc declares it `.param .align 64 .b8 p[N]`). SpecError naming the
// parameter (index, name, size, alignment) and the argument, e.g.
//   "args[2]: kernel 'k' parameter 2 'k_param_2' is 4 bytes, but {"u64": 0x5} is 8 bytes".
void check_args(const LaunchSpec& spec, std::string_view kernel, std::span<const ParamInfo> params);

// The bytes of one argument (little-endian); `value_of` supplies what only the runner knows:
// device addresses of buffers (already with offset_bytes applied) and encoded tensor maps.
struct ArgValues {
  std::function<uint64_t(const ArgSpec&)> buffer_address;
  std::function<std::vector<std::byte>(const ArgSpec&)> tensor_map_bytes;  // 128 bytes
};

// Packs one argument into dst (dst.size() == a.size()), as the kernel reads it: a buffer's 8-byte
// address, a tensor map's 128 bytes, a scalar's little-endian bytes, raw bytes as given, or an
// aggregate with every field packed at its offset (recursively) and every byte no field covers
// zero. Shared by every backend (tcsim, tcsim-hw, the CUDA driver library).
void pack_arg(const ArgSpec& a, const ArgValues& values, std::span<std::byte> dst);
std::vector<std::byte> pack_arg(const ArgSpec& a, const ArgValues& values);

// The parameter buffer: every argument at its layout offset, padding zero. Calls check_args first.
std::vector<std::byte> build_param_buffer(const LaunchSpec& spec, std::string_view kernel,
                                          std::span<const ParamInfo> params, const ArgValues& values);

}  // namespace tcsim::spec
