// Shared-memory matrix descriptor: tcgen05 (PTX ISA §9.7.16.4.1, Tables 40-41) and wgmma
// (§9.7.15.5.1.2.2). Layout tables are in smem_desc.h.
#include "isa/descriptors/smem_desc.h"

#include <array>
#include <cctype>

#include <fmt/core.h>

namespace tcsim::isa {
namespace {

constexpr std::string_view kSecSm100 = "PTX ISA §9.7.16.4.1 (Table 40)";
constexpr std::string_view kSecSm100Target = "PTX ISA §9.7.16.4.1.1 (Target ISA note)";
constexpr std::string_view kSecAbsLbo = "PTX ISA §9.7.16.3.1.2.1";
constexpr std::string_view kSecSm90 = "PTX ISA §9.7.15.5.1.2.2";
constexpr std::string_view kSecTable54 = "PTX ISA §9.7.16.10.3 (Table 54)";
constexpr std::string_view kSecWgmmaTrans = "PTX ISA §9.7.15.5.2 (imm-trans-a/b)";

// Layout codes, as data: {mode, tcgen05 code (3 bits at 61), wgmma code (2 bits at 62) or -1}.
struct LayoutCode {
  SwizzleMode mode;
  std::string_view name;
  int bytes;
  int sm100_code;
  int sm90_code;
};
constexpr std::array<LayoutCode, 5> kLayoutCodes{{
    {SwizzleMode::None, "none", 16, 0, 0},
    {SwizzleMode::B128Base32B, "128b_base32b", 128, 1, -1},  // tcgen05 only
    {SwizzleMode::B128, "128b", 128, 2, 1},
    {SwizzleMode::B64, "64b", 64, 4, 2},
    {SwizzleMode::B32, "32b", 32, 6, 3},
}};

const LayoutCode& layout_row(SwizzleMode m) {
  for (const auto& r : kLayoutCodes)
    if (r.mode == m) return r;
  return kLayoutCodes[0];  // unreachable: every enumerator has a row
}

// 18-bit shared-memory byte values travel in 14-bit fields with the low 4 bits dropped.
constexpr uint32_t kMaxEncodable = 0x3FFF0;

void check_byte_value(Violations& out, std::string_view what, uint32_t v, std::string_view section) {
  if (v % 16 != 0)
    out.push_back({std::string(section),
                   fmt::format("{} {} (0x{:x}) is not 16-byte aligned (the descriptor stores it >> 4; "
                               "nearest encodable: {} or {})",
                               what, v, v, v / 16 * 16, v / 16 * 16 + 16)});
  if (v > kMaxEncodable)
    out.push_back({std::string(section), fmt::format("{} {} (0x{:x}) does not fit the 14-bit field "
                                                     "(largest encodable: {} = 0x{:x})",
                                                     what, v, v, kMaxEncodable, kMaxEncodable)});
}

std::string operand_prefix(std::string_view operand) {
  return operand.empty() ? std::string() : fmt::format("operand {}: ", operand);
}

}  // namespace

std::string_view swizzle_mode_name(SwizzleMode m) { return layout_row(m).name; }

std::optional<SwizzleMode> parse_swizzle_mode(std::string_view s) {
  std::string lower(s);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& r : kLayoutCodes)
    if (r.name == lower) return r.mode;
  return std::nullopt;
}

int swizzle_bytes(SwizzleMode m) { return layout_row(m).bytes; }

std::optional<Major> parse_major(std::string_view s) {
  if (s == "k" || s == "K") return Major::K;
  if (s == "mn" || s == "MN" || s == "m" || s == "n" || s == "M" || s == "N") return Major::MN;
  return std::nullopt;
}

SmemDesc decode_smem_desc(uint64_t raw, Arch arch) {
  SmemDesc d;
  if (has_tcgen05(arch)) {
    SmemDescSm100Bits b{raw};
    d.start_address = static_cast<uint32_t>(b.start_address() << 4);
    d.lbo = static_cast<uint32_t>(b.lbo() << 4);
    d.sbo = static_cast<uint32_t>(b.sbo() << 4);
    d.version = static_cast<uint8_t>(b.version());
    d.base_offset = static_cast<uint8_t>(b.base_offset());
    d.lbo_mode = static_cast<uint8_t>(b.lbo_mode());
    // Bits 53-60 are a "fixed constant 0": as good as reserved for the struct.
    d.reserved_bits = b.reserved_bits() | (raw & SmemDescSm100Bits::fixed_zero_field.mask());
    d.raw_layout_code = static_cast<int>(b.layout());
    for (const auto& r : kLayoutCodes)
      if (r.sm100_code == d.raw_layout_code) d.layout = r.mode;  // 3, 5, 7 stay None (invalid)
  } else {
    SmemDescSm90Bits b{raw};
    d.start_address = static_cast<uint32_t>(b.start_address() << 4);
    d.lbo = static_cast<uint32_t>(b.lbo() << 4);
    d.sbo = static_cast<uint32_t>(b.sbo() << 4);
    d.base_offset = static_cast<uint8_t>(b.base_offset());
    d.reserved_bits = b.reserved_bits();  // includes sm_100's version (46-48) and LBO mode (52)
    d.raw_layout_code = static_cast<int>(b.layout());
    for (const auto& r : kLayoutCodes)
      if (r.sm90_code == d.raw_layout_code) d.layout = r.mode;
  }
  return d;
}

Expected<uint64_t> encode_smem_desc(const SmemDesc& d, Arch arch) {
  Violations v;
  std::string_view sec = has_tcgen05(arch) ? kSecSm100 : kSecSm90;
  check_byte_value(v, "start address", d.start_address, sec);
  check_byte_value(v, "LBO", d.lbo, sec);
  check_byte_value(v, "SBO", d.sbo, sec);
  if (d.base_offset > 7) v.push_back({std::string(sec), fmt::format("base offset {} does not fit 3 bits (0-7)", d.base_offset)});
  // Reserved (and fixed-zero) bits pass through, so encode(decode(x)) == x for every x; validation
  // flags them. Bits that belong to a field cannot be "reserved".
  const uint64_t passthrough = has_tcgen05(arch)
                                   ? SmemDescSm100Bits::kReservedMask | SmemDescSm100Bits::fixed_zero_field.mask()
                                   : SmemDescSm90Bits::kReservedMask;
  if (d.reserved_bits & ~passthrough)
    v.push_back({std::string(sec), fmt::format("reserved_bits names field bits: {}",
                                               bit_ranges_text(d.reserved_bits & ~passthrough))});
  uint64_t raw = 0;
  if (has_tcgen05(arch)) {
    if (d.version > 7) v.push_back({std::string(sec), fmt::format("version {} does not fit 3 bits", d.version)});
    if (d.lbo_mode > 1) v.push_back({std::string(sec), fmt::format("LBO mode {} is not 0 or 1", d.lbo_mode)});
    if (!v.empty()) return Error{v.front().to_string()};
    SmemDescSm100Bits b;
    b.set_start_address(d.start_address >> 4);
    b.set_lbo(d.lbo >> 4);
    b.set_sbo(d.sbo >> 4);
    b.set_version(d.version);
    b.set_base_offset(d.base_offset);
    b.set_lbo_mode(d.lbo_mode);
    // A decoded invalid code (3, 5, 7) travels in raw_layout_code with layout None.
    const bool invalid_code = d.raw_layout_code == 3 || d.raw_layout_code == 5 || d.raw_layout_code == 7;
    b.set_layout(static_cast<uint64_t>(invalid_code && d.layout == SwizzleMode::None ? d.raw_layout_code
                                                                                      : layout_row(d.layout).sm100_code));
    raw = b.raw | d.reserved_bits;
  } else {
    if (d.layout == SwizzleMode::B128Base32B)
      v.push_back({std::string(sec), "layout 128b_base32b (128B swizzle with 32B atoms) does not exist on sm_90a "
                                     "(wgmma layouts: none, 128b, 64b, 32b)"});
    if (d.version != 0)
      v.push_back({std::string(sec), fmt::format("version {} requested, but bits 46-48 are reserved (0) on sm_90a", d.version)});
    if (d.lbo_mode != 0)
      v.push_back({std::string(sec), "LBO mode 1 requested, but bit 52 is reserved (0) on sm_90a"});
    if (!v.empty()) return Error{v.front().to_string()};
    SmemDescSm90Bits b;
    b.set_start_address(d.start_address >> 4);
    b.set_lbo(d.lbo >> 4);
    b.set_sbo(d.sbo >> 4);
    b.set_base_offset(d.base_offset);
    b.set_layout(static_cast<uint64_t>(layout_row(d.layout).sm90_code));
    raw = b.raw | d.reserved_bits;
  }
  return raw;
}

Violations validate_smem_desc(const SmemDesc& d, Arch arch) {
  Violations out;
  if (has_tcgen05(arch)) {
    const std::string sec(kSecSm100);
    check_byte_value(out, "start address", d.start_address, sec);
    check_byte_value(out, d.lbo_mode ? "LBO (absolute address)" : "LBO", d.lbo, sec);
    check_byte_value(out, "SBO", d.sbo, sec);
    if (d.version != 1)
      out.push_back({sec, fmt::format("version (bits 46-48) is 0b{:03b}, must be the fixed constant 0b001{}", d.version,
                                      d.version == 0 ? " (an sm_90 wgmma descriptor given to tcgen05?)" : "")});
    constexpr uint64_t kLowReserved = SmemDescSm100Bits::kReservedMask;
    constexpr uint64_t kFixedZero = SmemDescSm100Bits::fixed_zero_field.mask();
    if (uint64_t r = d.reserved_bits & kLowReserved)
      out.push_back({sec, fmt::format("reserved {} set (raw 0x{:016x}); they must be 0", bit_ranges_text(r), r)});
    if (uint64_t r = d.reserved_bits & kFixedZero)
      out.push_back({sec, fmt::format("bits 53-60 are 0x{:02x}, must be the fixed constant 0", r >> 53)});
    if (uint64_t r = d.reserved_bits & ~(kLowReserved | kFixedZero))
      out.push_back({sec, fmt::format("bits owned by fields are flagged reserved: {}", bit_ranges_text(r))});
    if (d.raw_layout_code == 3 || d.raw_layout_code == 5 || d.raw_layout_code == 7)
      out.push_back({sec, fmt::format("swizzle mode code {} (bits 61-63) is invalid; legal: 0 none, 1 128B with "
                                      "32B atoms, 2 128B, 4 64B, 6 32B",
                                      d.raw_layout_code)});
    if (d.base_offset > 7) out.push_back({sec, fmt::format("base offset {} does not fit 3 bits (0-7)", d.base_offset)});
    if (d.lbo_mode > 1) out.push_back({sec, fmt::format("LBO mode {} is not 0 or 1", d.lbo_mode)});
    if (d.lbo_mode == 1) {
      if (arch != Arch::Sm103a)
        out.push_back({std::string(kSecSm100Target),
                       fmt::format("LBO mode 1 (absolute leading-dimension address, bit 52) is supported only on "
                                   "sm_103a, not {}",
                                   arch_name(arch))});
      if (d.layout != SwizzleMode::B128 || d.raw_layout_code != 2)
        out.push_back({std::string(kSecAbsLbo),
                       fmt::format("LBO mode 1 needs 128B swizzling with 16B atomicity (layout 128b, code 2), "
                                   "layout is {} (code {})",
                                   smem_desc_layout_name(d), d.raw_layout_code)});
      if (d.base_offset != 0)
        out.push_back({std::string(kSecAbsLbo),
                       fmt::format("LBO mode 1 needs matrix base offset 0, base offset is {}", d.base_offset)});
    }
  } else {
    const std::string sec(kSecSm90);
    check_byte_value(out, "start address", d.start_address, sec);
    check_byte_value(out, "LBO", d.lbo, sec);
    check_byte_value(out, "SBO", d.sbo, sec);
    uint64_t r = d.reserved_bits | (uint64_t{d.version} << 46) | (uint64_t{d.lbo_mode} << 52);
    if (d.layout == SwizzleMode::B128Base32B) r |= uint64_t{1} << 61;  // tcgen05-only code 1 at bit 61
    r &= SmemDescSm90Bits::kReservedMask;
    if (r)
      out.push_back({sec, fmt::format("reserved {} set (raw 0x{:016x}); on sm_90a only bits 0-13, 16-29, 32-45, "
                                      "49-51 and 62-63 are defined{}",
                                      bit_ranges_text(r), r,
                                      ((r >> 46) & 7) == 1 ? " (bits 46-48 = 0b001: a tcgen05 descriptor given to wgmma?)"
                                                           : "")});
    if (d.base_offset > 7) out.push_back({sec, fmt::format("base offset {} does not fit 3 bits (0-7)", d.base_offset)});
    if (d.base_offset != 0 && d.layout == SwizzleMode::None)
      out.push_back({sec, fmt::format("base offset {} is set with no swizzle; the base offset is valid only for "
                                      "the swizzling modes",
                                      d.base_offset)});
  }
  return out;
}

Violations validate_smem_desc(const SmemDesc& d, const SmemDescContext& ctx) {
  Violations out = validate_smem_desc(d, ctx.arch);
  const std::string who = operand_prefix(ctx.operand);
  if (has_tcgen05(ctx.arch)) {
    if (d.lbo_mode == 1 && ctx.major == Major::MN)
      out.push_back({std::string(kSecAbsLbo),
                     who + "LBO mode 1 is supported only for K-major operands (idesc transpose bits 15/16 = 0), "
                           "the operand is MN-major"});
    if (ctx.dtype && ctx.major == Major::MN) {
      int bits = dtype_bits(*ctx.dtype);
      std::string_view t = dtype_name(*ctx.dtype);
      // (4- and 6-bit types cannot be MN-major at all: that is the idesc's transpose bit, checked by
      // validate_instr_desc; here only the rules that involve the swizzle mode.)
      if ((bits == 8 || bits == 16) && d.layout == SwizzleMode::B128Base32B)
        out.push_back({std::string(kSecTable54),
                       fmt::format("{}MN-major {}-bit type {} is not supported with 128B swizzling with 32B atomicity "
                                   "(128b_base32b); use none, 32b, 64b or 128b",
                                   who, bits, t)});
      else if (bits == 32 && d.layout != SwizzleMode::B128Base32B)
        out.push_back({std::string(kSecTable54),
                       fmt::format("{}MN-major 32-bit type {} is supported only with 128B swizzling with 32B "
                                   "atomicity (128b_base32b), layout is {}",
                                   who, t, smem_desc_layout_name(d))});
    }
  } else if (ctx.major == Major::MN && ctx.dtype && *ctx.dtype != DType::F16 && *ctx.dtype != DType::BF16) {
    out.push_back({std::string(kSecWgmmaTrans),
                   fmt::format("{}wgmma supports the transpose (MN-major operand) only for .f16/.bf16, not {}", who,
                               dtype_name(*ctx.dtype))});
  }
  return out;
}

std::string_view smem_desc_layout_name(const SmemDesc& d) {
  bool invalid = d.raw_layout_code == 3 || d.raw_layout_code == 5 || d.raw_layout_code == 7;
  // On sm_90 decode code 3 is 32B; the struct's layout then is B32, so only flag when it disagrees.
  if (invalid && layout_row(d.layout).sm100_code != d.raw_layout_code && layout_row(d.layout).sm90_code != d.raw_layout_code)
    return "invalid";
  return swizzle_mode_name(d.layout);
}

std::string smem_desc_fields_text(uint64_t raw, Arch arch) {
  return has_tcgen05(arch) ? SmemDescSm100Bits{raw}.to_string() : SmemDescSm90Bits{raw}.to_string();
}

std::string smem_desc_fields_json(uint64_t raw, Arch arch) {
  return has_tcgen05(arch) ? SmemDescSm100Bits{raw}.to_json() : SmemDescSm90Bits{raw}.to_json();
}

}  // namespace tcsim::isa
