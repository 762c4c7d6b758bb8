// Reading descriptor values and field values from text (command line, launch specs): strict, with
// an error that says what was wrong, never a silent truncation.
#pragma once
#include <cstdint>
#include <string_view>

#include "isa/diag.h"

namespace tcsim::isa {

// A hexadecimal value with optional 0x/0X prefix and optional '_' or '\'' digit separators
// ("0x4000_4040_0001_0040"), at most `max_bits` significant bits.
Expected<uint64_t> parse_hex(std::string_view s, int max_bits);
// A non-negative integer, decimal or 0x-prefixed hex, at most `max`.
Expected<uint64_t> parse_uint(std::string_view s, uint64_t max);

}  // namespace tcsim::isa
