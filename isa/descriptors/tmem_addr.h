// Tensor Memory address (PTX ISA §9.7.16.1.1, Figure 182): a 32-bit value, lane index in bits
// 31-16, column index in bits 15-0. On sm_100a/sm_100f (and sm_103a) TMEM has 128 lanes x 512
// columns of 32-bit cells per CTA (§9.7.16.1).
#pragma once
#include <cstdint>
#include <string>

#include "isa/arch.h"
#include "isa/descriptors/bitfield.h"
#include "isa/diag.h"

namespace tcsim::isa {

#define TCSIM_TMEM_ADDR_FIELDS(X)            \
  X(column, 0, 16, "column index (32-bit cells)") \
  X(lane, 16, 16, "lane index (TMEM row)")
TCSIM_DEFINE_BITFIELDS(TmemAddrBits, uint32_t, TCSIM_TMEM_ADDR_FIELDS);

inline constexpr uint32_t kTmemLanes = 128;    // §9.7.16.1
inline constexpr uint32_t kTmemColumns = 512;  // §9.7.16.1

struct TmemAddr {
  uint32_t lane = 0;
  uint32_t column = 0;
  friend bool operator==(const TmemAddr&, const TmemAddr&) = default;
};

constexpr TmemAddr decode_tmem_addr(uint32_t raw) {
  TmemAddrBits b{raw};
  return {b.lane(), b.column()};
}
// Refuses a lane or column that does not fit its 16-bit field. (The value may still be outside
// TMEM: validate_tmem_addr.)
Expected<uint32_t> encode_tmem_addr(const TmemAddr& a);
// lane < 128, column < 512; no TMEM before sm_100.
Violations validate_tmem_addr(const TmemAddr& a, Arch arch = Arch::Sm100a);

std::string tmem_addr_fields_text(uint32_t raw);
std::string tmem_addr_fields_json(uint32_t raw);

}  // namespace tcsim::isa
