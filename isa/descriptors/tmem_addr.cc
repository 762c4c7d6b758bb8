// Tensor Memory address (PTX ISA §9.7.16.1.1).
#include "isa/descriptors/tmem_addr.h"

#include <fmt/core.h>

namespace tcsim::isa {
namespace {
constexpr std::string_view kSecAddr = "PTX ISA §9.7.16.1.1 (Tensor Memory addressing)";
constexpr std::string_view kSecSize = "PTX ISA §9.7.16.1 (128 lanes x 512 columns per CTA)";
}  // namespace

Expected<uint32_t> encode_tmem_addr(const TmemAddr& a) {
  TmemAddrBits b;
  if (!b.set_lane(a.lane))
    return Error{fmt::format("lane {} does not fit the 16-bit lane field (bits 31-16) [{}]", a.lane, kSecAddr)};
  if (!b.set_column(a.column))
    return Error{fmt::format("column {} does not fit the 16-bit column field (bits 15-0) [{}]", a.column, kSecAddr)};
  return b.raw;
}

Violations validate_tmem_addr(const TmemAddr& a, Arch arch) {
  Violations out;
  if (!has_tcgen05(arch)) {
    out.push_back({std::string(kSecSize), fmt::format("{} has no Tensor Memory", arch_name(arch))});
    return out;
  }
  if (a.lane >= kTmemLanes)
    out.push_back({std::string(kSecSize),
                   fmt::format("lane {} (0x{:x}) is outside Tensor Memory: lanes are 0-{}{}", a.lane, a.lane,
                               kTmemLanes - 1,
                               (a.lane & 0xC000u) ? " (bits 31-30 set: a CUTLASS-style sub-word offset left in the "
                                                    "address?)"
                                                  : "")});
  if (a.column >= kTmemColumns)
    out.push_back({std::string(kSecSize), fmt::format("column {} (0x{:x}) is outside Tensor Memory: columns are 0-{}",
                                                      a.column, a.column, kTmemColumns - 1)});
  return out;
}

std::string tmem_addr_fields_text(uint32_t raw) { return TmemAddrBits{raw}.to_string(); }
std::string tmem_addr_fields_json(uint32_t raw) { return TmemAddrBits{raw}.to_json(); }

}  // namespace tcsim::isa
