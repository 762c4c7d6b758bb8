#include "tools/spec/tensor_map_spec.h"

#include <iterator>
#include <utility>

namespace tcsim::spec {
namespace {

struct TmDTypeRow {
  TmDataType type;
  std::string_view name;
  uint32_t bytes;
};
constexpr TmDTypeRow kTmDTypes[] = {
#define TCSIM_X(id, name, value, bytes) {TmDataType::id, name, bytes},
    TCSIM_TM_DTYPES(TCSIM_X)
#undef TCSIM_X
};

// Launch-spec element types that have no tensor-map type of their own travel as the unsigned
// integer of their size, as CUTLASS and cuda::ptx users do for fp8/fp6/fp4 (the TMA engine only
// moves bytes; OOB-NaN fill needs a float type and so is not available for them).
constexpr std::pair<std::string_view, TmDataType> kAliases[] = {
    {"i8", TmDataType::UInt8},     {"e4m3", TmDataType::UInt8},  {"e5m2", TmDataType::UInt8},
    {"e2m3", TmDataType::UInt8},   {"e3m2", TmDataType::UInt8},  {"e2m1x2", TmDataType::UInt8},
    {"ue8m0", TmDataType::UInt8},  {"ue4m3", TmDataType::UInt8}, {"i16", TmDataType::UInt16},
};

template <class E, size_t N>
std::optional<E> find_name(const std::pair<std::string_view, E> (&table)[N], std::string_view s) {
  for (const auto& [n, v] : table)
    if (n == s) return v;
  return std::nullopt;
}
template <class E, size_t N>
std::string_view name_of(const std::pair<std::string_view, E> (&table)[N], E v) {
  for (const auto& [n, e] : table)
    if (e == v) return n;
  return "?";
}

constexpr std::pair<std::string_view, TmInterleave> kInterleave[] = {
    {"none", TmInterleave::None}, {"16B", TmInterleave::B16}, {"32B", TmInterleave::B32}};
constexpr std::pair<std::string_view, TmSwizzle> kSwizzle[] = {
    {"none", TmSwizzle::None},
    {"32B", TmSwizzle::B32},
    {"64B", TmSwizzle::B64},
    {"128B", TmSwizzle::B128},
    {"128B_atom_32B", TmSwizzle::B128Atom32B},
    {"128B_atom_32B_flip_8B", TmSwizzle::B128Atom32BFlip8B},
    {"128B_atom_64B", TmSwizzle::B128Atom64B}};
constexpr std::pair<std::string_view, TmL2Promotion> kL2[] = {{"none", TmL2Promotion::None},
                                                              {"64B", TmL2Promotion::B64},
                                                              {"128B", TmL2Promotion::B128},
                                                              {"256B", TmL2Promotion::B256}};
constexpr std::pair<std::string_view, TmOobFill> kOob[] = {
    {"none", TmOobFill::None}, {"nan", TmOobFill::NanRequestZeroFma}};

}  // namespace

std::string_view tm_dtype_name(TmDataType t) {
  for (const auto& r : kTmDTypes)
    if (r.type == t) return r.name;
  return "?";
}

std::optional<TmDataType> parse_tm_dtype(std::string_view s) {
  for (const auto& r : kTmDTypes)
    if (r.name == s) return r.type;
  for (const auto& [n, v] : kAliases)
    if (n == s) return v;
  return std::nullopt;
}

std::string legal_tm_dtypes() {
  std::string r;
  for (const auto& row : kTmDTypes) r += std::string(row.name) + ' ';
  r += "(and, moved as bytes: ";
  for (size_t i = 0; i < std::size(kAliases); ++i)
    r += std::string(i ? " " : "") + std::string(kAliases[i].first);
  return r + ")";
}

uint32_t tm_dtype_bytes(TmDataType t) {
  for (const auto& r : kTmDTypes)
    if (r.type == t) return r.bytes;
  return 0;
}

uint64_t tm_dim0_bytes(TmDataType t, uint64_t n) {
  switch (t) {
    case TmDataType::U4x16Align8B:
    case TmDataType::U4x16Align16B: return (n * 4 + 7) / 8;
    case TmDataType::U6x16Align16B: return (n * 6 + 7) / 8;
    default: return n * tm_dtype_bytes(t);
  }
}

std::string_view tm_interleave_name(TmInterleave v) { return name_of(kInterleave, v); }
std::optional<TmInterleave> parse_tm_interleave(std::string_view s) { return find_name(kInterleave, s); }
std::string_view tm_swizzle_name(TmSwizzle v) { return name_of(kSwizzle, v); }
std::optional<TmSwizzle> parse_tm_swizzle(std::string_view s) { return find_name(kSwizzle, s); }
std::string_view tm_l2_promotion_name(TmL2Promotion v) { return name_of(kL2, v); }
std::optional<TmL2Promotion> parse_tm_l2_promotion(std::string_view s) { return find_name(kL2, s); }
std::string_view tm_oob_fill_name(TmOobFill v) { return name_of(kOob, v); }
std::optional<TmOobFill> parse_tm_oob_fill(std::string_view s) { return find_name(kOob, s); }

}  // namespace tcsim::spec
