// PTX text -> isa::ptx::Module (PTX ISA chapters 4-7 and 11: syntax, declarations, directives).
// Parses PTX as nvcc 13 emits it (ISA 8.x-9.0, sm_90a/sm_100a, .address_size 64), including -G
// debug sections (skipped) and inline-asm scopes. Any syntax it does not know is an error:
//   "<source_name>:<line>:<col>: error: <what>, at '<token>'"
#pragma once
#include <string>
#include <string_view>

#include "isa/diag.h"
#include "isa/ptx/ir.h"

namespace tcsim::isa::ptx {

Expected<Module> parse(std::string_view text, std::string source_name);

}  // namespace tcsim::isa::ptx
