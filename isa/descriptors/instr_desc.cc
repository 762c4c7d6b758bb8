// tcgen05.mma instruction descriptor (PTX ISA §9.7.16.4.2, Tables 42-44). Bit tables: instr_desc.h;
// which combinations exist: isa/legality.h.
#include "isa/descriptors/instr_desc.h"

#include <fmt/core.h>

namespace tcsim::isa {
namespace {

constexpr std::string_view kSecT39 = "PTX ISA §9.7.16.2.1 (Table 39)";
constexpr std::string_view kSecK96 = "PTX ISA §9.7.16.2.1.1 (Target ISA note: K = 96 only on sm_103a)";
constexpr std::string_view kSecT51 = "PTX ISA §9.7.16.10.1 (Table 51)";
constexpr std::string_view kSecT52 = "PTX ISA §9.7.16.10.1 (Table 52)";
constexpr std::string_view kSecT54 = "PTX ISA §9.7.16.10.3 (Table 54)";
constexpr std::string_view kSecSelector = "PTX ISA §9.7.16.10.8.4.5-6 (sparsity selector)";
constexpr std::string_view kSecT57 = "PTX ISA §9.7.16.10.7.1 (Table 57)";
constexpr std::string_view kSecSfId = "PTX ISA §9.7.16.10.7.2-3 (scale factor A/B ID)";
constexpr std::string_view kSecTarget = "PTX ISA §9.7.16.10.9.1 (Target ISA notes)";
constexpr std::string_view kSecTargetSp = "PTX ISA §9.7.16.10.9.2 (Target ISA notes, tcgen05.mma.sp)";
constexpr std::string_view kSecWs = "PTX ISA §9.7.16.10.9.3 (tcgen05.mma.ws: .cta_group::1 only)";
constexpr std::string_view kSecCtaGroup = "PTX ISA §9.7.16.10.9.1 (.cta_group = ::1, ::2)";

// Which bit table a kind uses.
enum class Layout { Dense, Mxf8f6f4, Mxf4 };
Layout layout_of(MmaKind k) {
  if (k == MmaKind::MXF8F6F4) return Layout::Mxf8f6f4;
  if (k == MmaKind::MXF4 || k == MmaKind::MXF4NVF4) return Layout::Mxf4;
  return Layout::Dense;
}
std::string table_section(MmaKind k) {
  switch (layout_of(k)) {
    case Layout::Dense: return "PTX ISA §9.7.16.4.2 (Table 42)";
    case Layout::Mxf8f6f4: return "PTX ISA §9.7.16.4.2 (Table 43)";
    case Layout::Mxf4: return "PTX ISA §9.7.16.4.2 (Table 44)";
  }
  return "PTX ISA §9.7.16.4.2";
}

// A/B type codes per kind (Tables 42-44), as data.
struct TypeCode {
  MmaKind kind;
  DType type;
  int code;
};
constexpr TypeCode kAbCodes[] = {
    {MmaKind::F16, DType::F16, 0},      {MmaKind::F16, DType::BF16, 1},
    {MmaKind::TF32, DType::TF32, 2},
    {MmaKind::F8F6F4, DType::E4M3, 0},  {MmaKind::F8F6F4, DType::E5M2, 1},  {MmaKind::F8F6F4, DType::E2M3, 3},
    {MmaKind::F8F6F4, DType::E3M2, 4},  {MmaKind::F8F6F4, DType::E2M1, 5},
    {MmaKind::I8, DType::U8, 0},        {MmaKind::I8, DType::S8, 1},
    {MmaKind::MXF8F6F4, DType::E4M3, 0}, {MmaKind::MXF8F6F4, DType::E5M2, 1}, {MmaKind::MXF8F6F4, DType::E2M3, 3},
    {MmaKind::MXF8F6F4, DType::E3M2, 4}, {MmaKind::MXF8F6F4, DType::E2M1, 5},
    {MmaKind::MXF4, DType::E2M1, 1},    {MmaKind::MXF4NVF4, DType::E2M1, 1},
};
// D type codes (Table 42, bits 4-5); the block-scaled kinds have no D field (D is f32).
struct DCode {
  DType type;
  int code;
};
constexpr DCode kDCodes[] = {{DType::F16, 0}, {DType::F32, 1}, {DType::S32, 2}};

std::optional<DType> d_type_from_code(int code) {
  for (const DCode& c : kDCodes)
    if (c.code == code) return c.type;
  return std::nullopt;
}
std::optional<int> d_type_code(DType t) {
  for (const DCode& c : kDCodes)
    if (c.type == t) return c.code;
  return std::nullopt;
}

int max_shift_value(int code) { return code == 0 ? 0 : 4 << code; }  // 1 -> 8, 2 -> 16, 3 -> 32
std::optional<int> max_shift_code(int value) {
  for (int c = 0; c < 4; ++c)
    if (max_shift_value(c) == value) return c;
  return std::nullopt;
}

std::string type_codes_text(MmaKind k) {
  std::string out;
  for (const TypeCode& c : kAbCodes)
    if (c.kind == k) out += fmt::format("{}{} = {}", out.empty() ? "" : ", ", dtype_name(c.type), c.code);
  return out;
}

std::string opt_type_name(const std::optional<DType>& t) { return t ? std::string(dtype_name(*t)) : "?"; }

std::string ids_text(uint8_t mask) {
  std::string out;
  for (int i = 0; i < 4; ++i)
    if ((mask >> i) & 1) out += fmt::format("{}{}", out.empty() ? "" : ", ", i);
  return out;
}

}  // namespace

std::optional<int> idesc_ab_type_code(MmaKind kind, DType t) {
  for (const TypeCode& c : kAbCodes)
    if (c.kind == kind && c.type == t) return c.code;
  return std::nullopt;
}

std::optional<DType> idesc_ab_type_from_code(MmaKind kind, int code) {
  for (const TypeCode& c : kAbCodes)
    if (c.kind == kind && c.code == code) return c.type;
  return std::nullopt;
}

int implied_k(MmaKind kind, bool sparse) { return kind_row(kind).k_dense * (sparse ? 2 : 1); }

InstrDesc decode_instr_desc(uint32_t raw, MmaKind kind) {
  InstrDesc d;
  d.kind = kind;
  auto common = [&](const auto& b) {
    d.sparse = b.sparse() != 0;
    d.a_code = static_cast<int>(b.a_type());
    d.b_code = static_cast<int>(b.b_type());
    d.a_type = idesc_ab_type_from_code(kind, d.a_code);
    d.b_type = idesc_ab_type_from_code(kind, d.b_code);
    d.negate_a = b.negate_a() != 0;
    d.negate_b = b.negate_b() != 0;
    d.a_major = b.transpose_a() ? Major::MN : Major::K;
    d.b_major = b.transpose_b() ? Major::MN : Major::K;
    d.n_code = static_cast<int>(b.n_dim());
    d.n = d.n_code * 8;
    d.m_code = static_cast<int>(b.m_dim());
    d.reserved_bits = b.reserved_bits();
    d.k = implied_k(kind, d.sparse);
  };
  switch (layout_of(kind)) {
    case Layout::Dense: {
      IdescDenseBits b{raw};
      common(b);
      d.sparse_selector = static_cast<int>(b.sparse_selector());
      d.saturate = b.saturate() != 0;
      d.d_code = static_cast<int>(b.d_type());
      d.d_type = d_type_from_code(d.d_code);
      d.m = d.m_code * 16;
      d.max_shift = max_shift_value(static_cast<int>(b.max_shift()));
      break;
    }
    case Layout::Mxf8f6f4: {
      IdescMxf8f6f4Bits b{raw};
      common(b);
      d.d_type = DType::F32;
      d.m = d.m_code * 128;
      d.scale_type = b.scale_type() ? DType::UE8M0 : DType::UE4M3;
      d.sfa_id = static_cast<int>(b.sfa_id());
      d.sfb_id = static_cast<int>(b.sfb_id());
      break;
    }
    case Layout::Mxf4: {
      IdescMxf4Bits b{raw};
      common(b);
      d.d_type = DType::F32;
      d.m = d.m_code * 128;
      d.scale_type = b.scale_type() ? DType::UE8M0 : DType::UE4M3;
      d.sfa_id = static_cast<int>(b.sfa_id());
      d.sfb_id = static_cast<int>(b.sfb_id());
      if (b.k_dim()) d.k = 96;
      break;
    }
  }
  return d;
}

Expected<uint32_t> encode_instr_desc(const InstrDesc& d) {
  const std::string sec = table_section(d.kind);
  auto fail = [&](std::string msg) { return Error{fmt::format("{} [{}]", msg, sec)}; };
  const std::string_view kind = kind_name(d.kind);
  const Layout lay = layout_of(d.kind);
  const bool block = lay != Layout::Dense;

  // A/B codes: the type's code, or (decoded from an undefined code) the raw code.
  auto ab_code = [&](const std::optional<DType>& t, int raw_code, char which) -> Expected<uint32_t> {
    if (!t) return static_cast<uint32_t>(raw_code);
    if (auto c = idesc_ab_type_code(d.kind, *t)) return static_cast<uint32_t>(*c);
    return fail(fmt::format("{} type {} has no code in kind::{} (legal: {})", which, dtype_name(*t), kind,
                            type_codes_text(d.kind)));
  };
  auto a = ab_code(d.a_type, d.a_code, 'A');
  if (!a) return a.error();
  auto b = ab_code(d.b_type, d.b_code, 'B');
  if (!b) return b.error();

  if (d.n < 0 || d.n % 8 != 0 || d.n / 8 > 63)
    return fail(fmt::format("N = {} cannot be encoded: the field holds N >> 3 in 6 bits (N a multiple of 8, <= 504)", d.n));
  const int m_unit = block ? 128 : 16, m_max = block ? 3 : 31;
  if (d.m < 0 || d.m % m_unit != 0 || d.m / m_unit > m_max)
    return fail(fmt::format("M = {} cannot be encoded: the field holds M >> {} in {} bits", d.m, block ? 7 : 4,
                            block ? 2 : 5));
  const bool k96_kind = lay == Layout::Mxf4;
  const bool k96 = k96_kind && d.k == 96;
  if (d.k != 0 && d.k != implied_k(d.kind, d.sparse) && !k96)
    return fail(fmt::format("K = {} is not selectable for kind::{}{}: K is implied ({}){}", d.k, kind,
                            d.sparse ? " sparse" : "", implied_k(d.kind, d.sparse),
                            k96_kind ? ", or 96 via bit 31" : ""));
  if (d.sfa_id < 0 || d.sfa_id > 3 || d.sfb_id < 0 || d.sfb_id > 3)
    return fail(fmt::format("SF IDs SFA {} / SFB {} do not fit 2 bits (0-3)", d.sfa_id, d.sfb_id));

  uint32_t raw = 0;
  if (lay == Layout::Dense) {
    uint32_t dcode = 0;
    if (d.d_type) {
      auto c = d_type_code(*d.d_type);
      if (!c) return fail(fmt::format("D type {} has no code (legal: f16 = 0, f32 = 1, s32 = 2)", dtype_name(*d.d_type)));
      dcode = static_cast<uint32_t>(*c);
    } else {
      dcode = static_cast<uint32_t>(d.d_code < 0 ? 3 : d.d_code);
    }
    auto shift = max_shift_code(d.max_shift);
    if (!shift) return fail(fmt::format("max shift {} is not one of 0, 8, 16, 32", d.max_shift));
    if (d.sparse_selector < 0 || d.sparse_selector > 3)
      return fail(fmt::format("sparsity selector {} does not fit 2 bits (0-3)", d.sparse_selector));
    if (d.scale_type) return fail(fmt::format("kind::{} has no scale type field (block-scaled kinds only)", kind));
    if (d.sfa_id || d.sfb_id) return fail(fmt::format("kind::{} has no scale factor ID fields", kind));
    IdescDenseBits bits;
    bits.set_sparse_selector(static_cast<uint32_t>(d.sparse_selector));
    bits.set_sparse(d.sparse);
    bits.set_saturate(d.saturate);
    bits.set_d_type(dcode);
    bits.set_a_type(*a);
    bits.set_b_type(*b);
    bits.set_negate_a(d.negate_a);
    bits.set_negate_b(d.negate_b);
    bits.set_transpose_a(d.a_major == Major::MN);
    bits.set_transpose_b(d.b_major == Major::MN);
    bits.set_n_dim(static_cast<uint32_t>(d.n / 8));
    bits.set_m_dim(static_cast<uint32_t>(d.m / 16));
    bits.set_max_shift(static_cast<uint32_t>(*shift));
    raw = bits.raw;
  } else {
    if (d.d_type && *d.d_type != DType::F32)
      return fail(fmt::format("kind::{} accumulates into f32 (no D type field), not {}", kind, dtype_name(*d.d_type)));
    if (d.saturate) return fail(fmt::format("kind::{} has no saturate field (bit 3 is reserved)", kind));
    if (d.max_shift) return fail(fmt::format("kind::{} has no max-shift field (.ws is not available)", kind));
    if (d.sparse_selector)
      return fail(fmt::format("kind::{} has no sparsity selector (bits 0-1 are reserved; the selector is assumed 0)", kind));
    const DType scale = d.scale_type.value_or(DType::UE8M0);
    if (scale != DType::UE8M0 && scale != DType::UE4M3)
      return fail(fmt::format("scale type {} has no code (UE4M3 = 0, UE8M0 = 1)", dtype_name(scale)));
    auto fill = [&](auto& bits) {
      bits.set_sparse(d.sparse);
      bits.set_sfb_id(static_cast<uint32_t>(d.sfb_id));
      bits.set_a_type(*a);
      bits.set_negate_a(d.negate_a);
      bits.set_negate_b(d.negate_b);
      bits.set_transpose_a(d.a_major == Major::MN);
      bits.set_transpose_b(d.b_major == Major::MN);
      bits.set_n_dim(static_cast<uint32_t>(d.n / 8));
      bits.set_scale_type(scale == DType::UE8M0 ? 1 : 0);
      bits.set_m_dim(static_cast<uint32_t>(d.m / 128));
      bits.set_sfa_id(static_cast<uint32_t>(d.sfa_id));
    };
    if (lay == Layout::Mxf8f6f4) {
      IdescMxf8f6f4Bits bits;
      fill(bits);
      bits.set_b_type(*b);
      raw = bits.raw;
    } else {
      IdescMxf4Bits bits;
      fill(bits);
      if (!bits.set_b_type(*b))
        return fail(fmt::format("B type code {} does not fit the 2-bit field of kind::{}", *b, kind));
      bits.set_k_dim(k96);
      raw = bits.raw;
    }
  }
  // Reserved bits pass through, so encode(decode(x)) == x for every x; validation flags them.
  return raw | d.reserved_bits;
}

Violations validate_instr_desc(const InstrDesc& d, const InstrDescContext& ctx) {
  Violations out;
  auto add = [&](std::string_view sec, std::string msg) { out.push_back({std::string(sec), std::move(msg)}); };
  const std::string tsec = table_section(d.kind);
  const std::string_view kind = kind_name(d.kind);
  const KindRow& kr = kind_row(d.kind);
  const Layout lay = layout_of(d.kind);
  const bool block = lay != Layout::Dense;
  const bool k96 = lay == Layout::Mxf4 && d.k == 96;

  // Where the instruction exists at all.
  if (!has_tcgen05(ctx.arch)) {
    add(kSecTarget, fmt::format("tcgen05.mma does not exist on {} (sm_100a, sm_100f, sm_103a)", arch_name(ctx.arch)));
    return out;
  }
  if (ctx.cta_group != 1 && ctx.cta_group != 2)
    add(kSecCtaGroup, fmt::format("cta_group {} is not 1 or 2", ctx.cta_group));
  if (!arch_in(kr.arches, ctx.arch))
    add(kSecTarget, fmt::format("kind::{} is not supported on {} (supported on: {})", kind, arch_name(ctx.arch),
                                arch_set_text(kr.arches)));
  if (d.sparse && arch_in(kr.arches, ctx.arch) && !arch_in(kr.sparse_arches, ctx.arch))
    add(kSecTargetSp, fmt::format("sparse kind::{} is not supported on {} (supported on: {})", kind,
                                  arch_name(ctx.arch), arch_set_text(kr.sparse_arches)));
  if (k96 && !arch_in(kK96Arches, ctx.arch))
    add(kSecK96, fmt::format("K = 96 (bit 31) is not supported on {}", arch_name(ctx.arch)));
  if (ctx.ws && block) add(kSecT39, fmt::format("kind::{} has no .ws form (Table 39: invalid)", kind));
  if (ctx.ws && ctx.cta_group == 2) add(kSecWs, "tcgen05.mma.ws exists only with .cta_group::1 (Table 39: invalid)");

  // Reserved bits of this kind's table.
  if (d.reserved_bits) {
    std::string extra;
    if (block && (d.reserved_bits & 0x3u))
      extra = " (bits 0-1 are the sparsity selector of the dense kinds; for block-scaled kinds the selector is "
              "assumed 0)";
    if (block && (d.reserved_bits & 0x8u)) extra += " (bit 3 is the saturate bit of kind::i8)";
    add(tsec, fmt::format("reserved {} set (0x{:08x}) for kind::{}; they must be 0{}", bit_ranges_text(d.reserved_bits),
                          d.reserved_bits, kind, extra));
  }

  // Types (Tables 42-44 codes, Table 39 combinations).
  if (!d.a_type)
    add(tsec, fmt::format("A type code {} is not defined for kind::{} (legal: {})", d.a_code, kind, type_codes_text(d.kind)));
  if (!d.b_type)
    add(tsec, fmt::format("B type code {} is not defined for kind::{} (legal: {})", d.b_code, kind, type_codes_text(d.kind)));
  if (!block) {
    if (!d.d_type)
      add(tsec, fmt::format("D type code {} is not defined (F16 = 0, F32 = 1, S32 = 2)", d.d_code));
    else if (!kind_d_type_legal(d.kind, *d.d_type))
      add(tsec, fmt::format("D type {} (code {}) is not legal for kind::{} ({})", dtype_name(*d.d_type), d.d_code, kind,
                            kind_types_text(d.kind)));
  }
  if (d.a_type && d.b_type && d.d_type && kind_d_type_legal(d.kind, *d.d_type))
    if (auto p = type_combination_problem(d.kind, *d.d_type, *d.a_type, *d.b_type)) add(kSecT39, *p);

  // Shape (Table 39).
  if (const ShapeRow* row = find_shape_row(d.kind, ctx.ws, ctx.cta_group, d.sparse)) {
    std::string form = fmt::format("kind::{}{}{} cta_group::{}", kind, ctx.ws ? " .ws" : "", d.sparse ? " sparse" : "",
                                   ctx.cta_group);
    if (k96) {
      if (d.sparse) add(tsec, "K = 96 (bit 31) exists only for dense MMAs (Dense K=96 = 1); sparse K is 128");
      else if (row->k96_m == 0 || d.m != row->k96_m)
        add(kSecT39, fmt::format("K = 96 needs dense cta_group::2 with M = 256 ({}, M = {})", form, d.m));
    }
    if (!shape_m_legal(*row, d.m))
      add(kSecT39, fmt::format("M = {} (field {}) is not legal for {}; legal M: {}", d.m, d.m_code, form, shape_m_text(*row)));
    if (!shape_n_legal(*row, d.n))
      add(kSecT39, fmt::format("N = {} (field {}) is not legal for {}; legal N: {}", d.n, d.n_code, form, shape_n_text(*row)));
  }

  // Saturate and negate (Table 42 / Table 51).
  if (!block && d.saturate && d.kind != MmaKind::I8)
    add(tsec, fmt::format("saturate (bit 3) is only for integer types (kind::i8); kind::{} must leave it 0", kind));
  if ((d.negate_a || d.negate_b) && !kr.negate_ok)
    add(kSecT51, fmt::format("negate {} is not supported for kind::{}", d.negate_a ? (d.negate_b ? "A and B" : "A") : "B", kind));

  // Transpose (Table 51, Table 54, Table 52).
  const bool ta = d.a_major == Major::MN, tb = d.b_major == Major::MN;
  if ((ta || tb) && !kr.transpose_ok)
    add(kSecT51, fmt::format("transpose {} (MN-major) is not supported for kind::{}; A and B must be K-major",
                             ta ? (tb ? "A and B" : "A") : "B", kind));
  if (kr.transpose_ok) {
    auto narrow = [&](bool t, const std::optional<DType>& type, char which) {
      if (t && type && (dtype_bits(*type) == 4 || dtype_bits(*type) == 6))
        add(kSecT54, fmt::format("{} is MN-major (transpose {}) but its type {} is {}-bit; 4- and 6-bit types must "
                                 "be K-major",
                                 which, which, dtype_name(*type), dtype_bits(*type)));
    };
    narrow(ta, d.a_type, 'A');
    narrow(tb, d.b_type, 'B');
  }
  if (tb && d.b_type && dtype_bits(*d.b_type) == 8 && kr.transpose_ok) {
    bool ok = ctx.cta_group == 2 ? (d.n >= 32 && d.n <= 256 && d.n % 32 == 0) : (d.n >= 16 && d.n <= 256 && d.n % 16 == 0);
    if (!ok)
      add(kSecT52, fmt::format("8-bit B ({}) transposed (N-major) with cta_group::{} needs N = {}, N is {}",
                               dtype_name(*d.b_type), ctx.cta_group,
                               ctx.cta_group == 2 ? "32..256 step 32" : "16..256 step 16", d.n));
  }

  // Sparsity selector (§9.7.16.10.8.4.5-6).
  if (d.sparse && kr.selector_must_be_0 && d.sparse_selector != 0)
    add(kSecSelector, fmt::format("sparsity selector must be 0 for kind::{}, it is {}", kind, d.sparse_selector));

  // Block scaling (Tables 43/44, 57; §9.7.16.10.7.2-3).
  if (block) {
    if (d.scale_type != DType::UE8M0 && d.kind != MmaKind::MXF4NVF4)
      add(tsec, fmt::format("scale type (bit 23) must be UE8M0 = 1 for kind::{}, it is {}", kind,
                            opt_type_name(d.scale_type)));
    if (ctx.scale_vec) {
      ArchSet archs = scale_vec_arches(*ctx.scale_vec);
      if (!arch_in(archs, ctx.arch))
        add(kSecTarget, fmt::format("{} is not supported on {} (supported on: {})", scale_vec_name(*ctx.scale_vec),
                                    arch_name(ctx.arch), arch_set_text(archs)));
      if (d.scale_type && (d.scale_type == DType::UE8M0 || d.kind == MmaKind::MXF4NVF4) &&
          !scale_vec_legal(d.kind, *d.scale_type, *ctx.scale_vec))
        add(kSecT57, fmt::format("{} is not valid for kind::{} with {} scale factors", scale_vec_name(*ctx.scale_vec),
                                 kind, opt_type_name(d.scale_type)));
    }
    uint8_t ok = legal_sf_ids(d.kind, ctx.scale_vec, d.scale_type, k96);
    std::string why = ctx.scale_vec ? fmt::format("with {}{}", scale_vec_name(*ctx.scale_vec), k96 ? " and K = 96" : "")
                                    : fmt::format("for kind::{}{}{}", kind, k96 ? " with K = 96" : "",
                                                  d.scale_type == DType::UE4M3 ? " with UE4M3 scales (4X/block16)" : "");
    std::string_view sf_sec = lay == Layout::Mxf4 && !ctx.scale_vec && d.scale_type != DType::UE4M3 && !k96
                                  ? std::string_view(tsec)
                                  : kSecSfId;
    if (!((ok >> d.sfa_id) & 1))
      add(sf_sec, fmt::format("SFA_ID {} is not legal {} (legal: {})", d.sfa_id, why, ids_text(ok)));
    if (!((ok >> d.sfb_id) & 1))
      add(sf_sec, fmt::format("SFB_ID {} is not legal {} (legal: {})", d.sfb_id, why, ids_text(ok)));
  } else if (ctx.scale_vec) {
    add(kSecT57, fmt::format("{} is given but kind::{} is not block-scaled", scale_vec_name(*ctx.scale_vec), kind));
  }
  return out;
}

Violations validate_mma_descriptors(const InstrDesc& d, const InstrDescContext& ctx, const SmemDesc* a,
                                    const SmemDesc* b) {
  Violations out = validate_instr_desc(d, ctx);
  auto operand = [&](const SmemDesc* s, Major major, const std::optional<DType>& t, std::string_view name) {
    if (!s) return;
    SmemDescContext sc{ctx.arch, major, t, name};
    for (Violation& v : validate_smem_desc(*s, sc)) out.push_back(std::move(v));
  };
  operand(a, d.a_major, d.a_type, "A");
  operand(b, d.b_major, d.b_type, "B");
  return out;
}

std::string instr_desc_fields_text(uint32_t raw, MmaKind kind) {
  switch (layout_of(kind)) {
    case Layout::Dense: return IdescDenseBits{raw}.to_string();
    case Layout::Mxf8f6f4: return IdescMxf8f6f4Bits{raw}.to_string();
    case Layout::Mxf4: return IdescMxf4Bits{raw}.to_string();
  }
  return {};
}

std::string instr_desc_fields_json(uint32_t raw, MmaKind kind) {
  switch (layout_of(kind)) {
    case Layout::Dense: return IdescDenseBits{raw}.to_json();
    case Layout::Mxf8f6f4: return IdescMxf8f6f4Bits{raw}.to_json();
    case Layout::Mxf4: return IdescMxf4Bits{raw}.to_json();
  }
  return {};
}

}  // namespace tcsim::isa
