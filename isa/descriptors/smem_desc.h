// The 64-bit shared-memory matrix descriptor that tcgen05.mma / tcgen05.cp (sm_100a, PTX ISA
// §9.7.16.4.1, Tables 40-41) and wgmma (sm_90a, §9.7.15.5.1.2.2) read. Same fields, different
// bit positions of the layout/swizzle field and a fixed "version" 0b001 at bits 46-48 on sm_100.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/arch.h"
#include "isa/diag.h"

namespace tcsim::isa {

// Canonical-layout swizzle modes (tcgen05 3-bit codes at bits 61-63: 0 none, 1 128B with 32-byte
// atoms, 2 128B, 4 64B, 6 32B; wgmma 2-bit codes at bits 62-63: 0 none, 1 128B, 2 64B, 3 32B).
enum class SwizzleMode : uint8_t { None, B128Base32B, B128, B64, B32 };

std::string_view swizzle_mode_name(SwizzleMode m);  // "none", "128b_base32b", "128b", "64b", "32b"
std::optional<SwizzleMode> parse_swizzle_mode(std::string_view s);
int swizzle_bytes(SwizzleMode m);                   // 16 (none: one 16-byte unit), 32, 64, 128, 128

struct SmemDesc {
  uint32_t start_address = 0;  // bytes (field holds (addr & 0x3FFFF) >> 4)
  uint32_t lbo = 0;            // leading-dimension byte offset, bytes (or absolute address, lbo_mode 1)
  uint32_t sbo = 0;            // stride-dimension byte offset, bytes
  uint8_t version = 0;         // bits 46-48; sm_100 requires 0b001; sm_90 reserved (0)
  uint8_t base_offset = 0;     // bits 49-51: phase of the swizzle pattern
  uint8_t lbo_mode = 0;        // bit 52: 0 relative LBO, 1 absolute (sm_103a)
  SwizzleMode layout = SwizzleMode::None;
  uint64_t reserved_bits = 0;  // the raw value's bits that no field owns (must be 0)
  int raw_layout_code = 0;     // the layout field as encoded (codes 3/5/7 on sm_100 are invalid)
};

SmemDesc decode_smem_desc(uint64_t raw, Arch arch);
// Refuses a field value that cannot be encoded (not 16-byte aligned, too large) with the rule.
Expected<uint64_t> encode_smem_desc(const SmemDesc& d, Arch arch);
// Every rule of §9.7.16.4.1 / §9.7.15.5.1.2.2 the descriptor alone can break.
Violations validate_smem_desc(const SmemDesc& d, Arch arch);

}  // namespace tcsim::isa
