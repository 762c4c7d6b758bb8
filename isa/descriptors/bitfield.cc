#include "isa/descriptors/bitfield.h"

#include <algorithm>

#include <fmt/core.h>

namespace tcsim::isa {

std::string bitfields_to_string(std::span<const BitField> fields, uint64_t raw) {
  std::size_t name_w = 0;
  for (const BitField& f : fields) name_w = std::max(name_w, f.name.size());
  std::string out;
  for (const BitField& f : fields) {
    std::string bits = f.width == 1 ? fmt::format("[{}]", f.first) : fmt::format("[{}:{}]", f.last(), f.first);
    uint64_t v = f.get(raw);
    out += fmt::format("  {:<{}}  {:<8} = {:<6} {:<9} {}\n", f.name, name_w, bits, v, fmt::format("(0x{:x})", v),
                       f.meaning);
  }
  return out;
}

std::string bitfields_to_json(std::span<const BitField> fields, uint64_t raw) {
  // Names are C identifiers (they come from the X-macro), so no escaping is needed.
  std::string out = "{";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ", ";
    out += fmt::format("\"{}\": {}", fields[i].name, fields[i].get(raw));
  }
  return out + "}";
}

std::string bit_ranges_text(uint64_t mask) {
  std::string out;
  for (int b = 0; b < 64;) {
    if (!((mask >> b) & 1)) {
      ++b;
      continue;
    }
    int e = b;
    while (e + 1 < 64 && ((mask >> (e + 1)) & 1)) ++e;
    if (!out.empty()) out += ", ";
    out += e == b ? fmt::format("{}", b) : fmt::format("{}-{}", b, e);
    b = e + 1;
  }
  return out.empty() ? out : (out.find_first_of(",-") == std::string::npos ? "bit " : "bits ") + out;
}

}  // namespace tcsim::isa
