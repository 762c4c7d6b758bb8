#include "isa/descriptors/parse_number.h"

#include <fmt/core.h>

namespace tcsim::isa {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Expected<uint64_t> parse_digits(std::string_view text, std::string_view digits, int base, uint64_t max,
                                std::string_view what) {
  if (digits.empty()) return Error{fmt::format("'{}' is not {}: no digits", text, what)};
  uint64_t v = 0;
  bool any = false;
  for (char c : digits) {
    if (c == '_' || c == '\'') continue;
    int d = base == 16 ? hex_digit(c) : (c >= '0' && c <= '9' ? c - '0' : -1);
    if (d < 0) return Error{fmt::format("'{}' is not {}: unexpected character '{}'", text, what, c)};
    if (static_cast<uint64_t>(d) > max || v > (max - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base))
      return Error{fmt::format("'{}' is out of range (largest: 0x{:x} = {})", text, max, max)};
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
    any = true;
  }
  if (!any) return Error{fmt::format("'{}' is not {}: no digits", text, what)};
  return v;
}

bool has_hex_prefix(std::string_view s) { return s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'); }

}  // namespace

Expected<uint64_t> parse_hex(std::string_view s, int max_bits) {
  const uint64_t max = max_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << max_bits) - 1;
  std::string_view digits = has_hex_prefix(s) ? s.substr(2) : s;
  auto v = parse_digits(s, digits, 16, max, "a hexadecimal value");
  if (!v && v.error().message.find("out of range") != std::string::npos)
    return Error{fmt::format("'{}' is out of range: more than {} bits", s, max_bits)};
  return v;
}

Expected<uint64_t> parse_uint(std::string_view s, uint64_t max) {
  if (has_hex_prefix(s)) return parse_digits(s, s.substr(2), 16, max, "a number");
  return parse_digits(s, s, 10, max, "a number");
}

}  // namespace tcsim::isa
