// tcsim's own cuTensorMapEncodeTiled: a launch spec's tensor map checked with every driver rule
// (isa/descriptors/tensor_map.h, validate_tensor_map) and encoded into tcsim's 128-byte layout,
// the parameter the simulator's TMA engine reads. The hardware runner uses the driver instead and
// prints both verdicts (tcsim-hw check-tensor-map), so the two can be compared map by map.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/arch.h"
#include "tools/spec/tensor_map_spec.h"

namespace tcsim::spec {

// The rules the map at `address` breaks, each "message [section]"; empty when the driver's rules
// accept it. `arch`: the architecture whose driver is modelled (sm_90a: the H200's driver as
// measured; see isa::validate_tensor_map).
std::vector<std::string> tensor_map_violations(const TensorMapSpec& t, uint64_t address,
                                               isa::Arch arch = isa::Arch::Sm100a);

// The 128-byte tcsim encoding; SpecError "tensor_maps.NAME: rejected: ..." listing every rule broken.
std::vector<std::byte> encode_tensor_map_bytes(const TensorMapSpec& t, uint64_t address,
                                               const std::string& spec_file,
                                               isa::Arch arch = isa::Arch::Sm100a);

}  // namespace tcsim::spec
