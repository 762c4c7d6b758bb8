// The parameter list of an .entry, read from PTX text (PTX ISA §5.1.6.1 "Kernel Function
// Parameters": `.param {.align N} .type name{[n]}`, with the `.ptr {.space} {.align N}` attribute
// of §5.1.6.2 for pointers). The hardware runner uses it for what the CUDA driver does not report:
// each parameter's name and declared alignment (cuFuncGetParamInfo gives offsets and sizes only).
// A light scanner over the declaration, not a PTX parser: the simulator parses the whole module
// (isa/ptx) and takes the same facts from its IR.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/spec/params.h"

namespace tcsim::spec {

// The parameters of `.entry kernel` in declaration order, or nullopt when the text has no such
// entry or its list does not have the shape above.
std::optional<std::vector<ParamInfo>> ptx_entry_params(std::string_view ptx_text, std::string_view kernel);

}  // namespace tcsim::spec
