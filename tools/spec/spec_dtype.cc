#include "tools/spec/spec_dtype.h"

namespace tcsim::spec {

// The table is indexed by enumerator: keep X-macro order and enum order one list.
static_assert([] {
  for (int i = 0; i < static_cast<int>(std::size(kSpecDTypes)); ++i)
    if (static_cast<int>(kSpecDTypes[i].type) != i) return false;
  return true;
}());

std::optional<SpecDType> parse_spec_dtype(std::string_view s) {
  for (const auto& i : kSpecDTypes)
    if (i.name == s) return i.type;
  return std::nullopt;
}

std::string legal_spec_dtypes() {
  std::string r;
  for (const auto& i : kSpecDTypes) {
    if (!r.empty()) r += ' ';
    r += i.name;
  }
  return r;
}

}  // namespace tcsim::spec
