#include "isa/layouts/swizzle.h"

#include <cctype>
#include <string>

namespace tcsim::isa {

std::string_view tma_swizzle_name(TmaSwizzle s) {
  switch (s) {
    case TmaSwizzle::None: return "none";
    case TmaSwizzle::B32: return "32b";
    case TmaSwizzle::B64: return "64b";
    case TmaSwizzle::B128: return "128b";
    case TmaSwizzle::B128Atom32B: return "128b_atom_32b";
    case TmaSwizzle::B128Atom32BFlip8B: return "128b_atom_32b_flip_8b";
    case TmaSwizzle::B128Atom64B: return "128b_atom_64b";
  }
  return "?";
}

std::optional<TmaSwizzle> parse_tma_swizzle(std::string_view s) {
  std::string v;
  for (char c : s) v += char(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view prefix : {"cu_tensor_map_swizzle_", "swizzle_"})
    if (v.rfind(prefix, 0) == 0) v = v.substr(prefix.size());
  if (v.size() == 1 && v[0] >= '0' && v[0] <= '6') return kTmaSwizzles[v[0] - '0'];
  for (TmaSwizzle t : kTmaSwizzles)
    if (tma_swizzle_name(t) == v) return t;
  return std::nullopt;
}

std::string_view layout_label(SwizzleMode m) {
  switch (m) {
    case SwizzleMode::None: return "SWIZZLE_NONE";
    case SwizzleMode::B128Base32B: return "SWIZZLE_128B_BASE32B";
    case SwizzleMode::B128: return "SWIZZLE_128B";
    case SwizzleMode::B64: return "SWIZZLE_64B";
    case SwizzleMode::B32: return "SWIZZLE_32B";
  }
  return "?";
}

}  // namespace tcsim::isa
