// The 64-bit shared-memory matrix descriptor that tcgen05.mma / tcgen05.cp (sm_100a, PTX ISA
// §9.7.16.4.1, Tables 40-41) and wgmma (sm_90a, §9.7.15.5.1.2.2) read. Same fields, different
// bit positions of the layout/swizzle field and a fixed "version" 0b001 at bits 46-48 on sm_100.
//
//   bits   sm_100 (tcgen05)                        sm_90 (wgmma)
//   0-13   (start address & 0x3FFFF) >> 4         same
//   14-15  reserved 0                             reserved 0
//   16-29  LBO >> 4 (or absolute address >> 4)    LBO >> 4
//   30-31  reserved 0                             reserved 0
//   32-45  SBO >> 4                               SBO >> 4
//   46-48  fixed 0b001 ("version")                reserved 0
//   49-51  matrix base offset                     matrix base offset (not for no-swizzle)
//   52     LBO mode: 0 relative, 1 absolute       reserved 0
//   53-60  fixed 0                                reserved 0
//   61-63  layout: 0 none, 1 128B/32B atom,       61 reserved; 62-63 layout: 0 none, 1 128B,
//          2 128B, 4 64B, 6 32B (3, 5, 7 invalid)  2 64B, 3 32B
//
// Alignment: start address, LBO and SBO "must be 16-byte aligned" (§9.7.16.4.1). The encoding
// drops the low 4 bits (matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4), so a decoded descriptor
// is always aligned; the rule is enforced where byte values enter: encode_smem_desc refuses an
// unaligned address/offset (and one >= 2^18, which the mask would silently wrap).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/arch.h"
#include "isa/descriptors/bitfield.h"
#include "isa/diag.h"
#include "isa/dtype.h"

namespace tcsim::isa {

// Canonical-layout swizzle modes (tcgen05 3-bit codes at bits 61-63: 0 none, 1 128B with 32-byte
// atoms, 2 128B, 4 64B, 6 32B; wgmma 2-bit codes at bits 62-63: 0 none, 1 128B, 2 64B, 3 32B).
enum class SwizzleMode : uint8_t { None, B128Base32B, B128, B64, B32 };

std::string_view swizzle_mode_name(SwizzleMode m);  // "none", "128b_base32b", "128b", "64b", "32b"
std::optional<SwizzleMode> parse_swizzle_mode(std::string_view s);  // case-insensitive
int swizzle_bytes(SwizzleMode m);                   // 16 (none: one 16-byte unit), 32, 64, 128, 128

// Which dimension is contiguous in shared memory. In the tcgen05 instruction descriptor "No
// Transpose" means K-major and "Transpose" means MN-major (§9.7.16.4.1, §9.7.16.10.6); wgmma's
// imm-trans-a/b = 1 means M-/N-major (§9.7.15.5.1.2).
// (isa/layouts also needs this vocabulary and includes this header.)
enum class Major : uint8_t { K, MN };
constexpr std::string_view major_name(Major m) { return m == Major::K ? "k" : "mn"; }
std::optional<Major> parse_major(std::string_view s);  // "k"/"K", "mn"/"MN"/"m"/"n"/"M"/"N"

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

// The two bit layouts, as data (bitfield.h). Field values are the raw encodings (>> 4 for bytes).
#define TCSIM_SMEM_DESC_SM100_FIELDS(X)                                        \
  X(start_address, 0, 14, "matrix start address >> 4 (bytes / 16)")           \
  X(lbo, 16, 14, "leading dimension byte offset >> 4 (absolute address >> 4 in LBO mode 1)") \
  X(sbo, 32, 14, "stride dimension byte offset >> 4")                          \
  X(version, 46, 3, "fixed constant, must be 0b001")                           \
  X(base_offset, 49, 3, "matrix base offset (swizzle pattern phase)")          \
  X(lbo_mode, 52, 1, "leading dimension stride mode: 0 relative, 1 absolute (sm_103a)") \
  X(fixed_zero, 53, 8, "fixed constant, must be 0")                            \
  X(layout, 61, 3, "swizzle: 0 none, 1 128B/32B atom, 2 128B, 4 64B, 6 32B")
TCSIM_DEFINE_BITFIELDS(SmemDescSm100Bits, uint64_t, TCSIM_SMEM_DESC_SM100_FIELDS);

#define TCSIM_SMEM_DESC_SM90_FIELDS(X)                                         \
  X(start_address, 0, 14, "matrix start address >> 4 (bytes / 16)")           \
  X(lbo, 16, 14, "leading dimension byte offset >> 4")                         \
  X(sbo, 32, 14, "stride dimension byte offset >> 4")                          \
  X(base_offset, 49, 3, "matrix base offset (swizzle pattern phase; not for no-swizzle)") \
  X(layout, 62, 2, "swizzle: 0 none, 1 128B, 2 64B, 3 32B")
TCSIM_DEFINE_BITFIELDS(SmemDescSm90Bits, uint64_t, TCSIM_SMEM_DESC_SM90_FIELDS);

// Never fails: every 64-bit value decodes; what is wrong with it is validate_smem_desc's job.
SmemDesc decode_smem_desc(uint64_t raw, Arch arch);
// Refuses a field value that cannot be encoded (not 16-byte aligned, too large, a layout the arch
// has no code for) with the rule. Does not check the PTX rules the encoded value may still break
// (version, LBO mode on sm_100a, reserved bits, ...): that is validate_smem_desc. reserved_bits and
// an invalid raw_layout_code pass through, so encode(decode(x)) == x for every 64-bit x.
Expected<uint64_t> encode_smem_desc(const SmemDesc& d, Arch arch);
// Every rule of §9.7.16.4.1 / §9.7.15.5.1.2.2 the descriptor alone can break.
Violations validate_smem_desc(const SmemDesc& d, Arch arch);

// What the instruction that reads the descriptor adds: the operand's major-ness (from the idesc
// transpose bit on sm_100, imm-trans on sm_90) and element type. Rules that need them: Table 54
// (§9.7.16.10.3) type-size x major-ness x swizzle, LBO absolute mode is K-major only
// (§9.7.16.3.1.2.1), wgmma transposes only 16-bit types (§9.7.15.5.2). ("4/6-bit types must be
// K-major" does not involve the descriptor: validate_instr_desc reports it.)
struct SmemDescContext {
  Arch arch = Arch::Sm100a;
  Major major = Major::K;
  std::optional<DType> dtype;   // element type of the operand; nullopt: type rules are skipped
  std::string_view operand;     // "A" or "B" (for messages); may be empty
};
Violations validate_smem_desc(const SmemDesc& d, const SmemDescContext& ctx);

// The layout's name, or "invalid" for the sm_100 codes 3/5/7.
std::string_view smem_desc_layout_name(const SmemDesc& d);
// The raw field table of the arch's layout, for to_string/JSON of a raw value.
std::string smem_desc_fields_text(uint64_t raw, Arch arch);
std::string smem_desc_fields_json(uint64_t raw, Arch arch);

}  // namespace tcsim::isa
