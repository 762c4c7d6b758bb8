// The tcgen05.mma legality tables (see legality.h). Each row restates one line of a PTX ISA 9.x
// table; the comment above each block says which.
#include "isa/legality.h"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

namespace tcsim::isa {
namespace {

constexpr ArchSet kAllTcgen05 = arch_bit(Arch::Sm100a) | arch_bit(Arch::Sm100f) | arch_bit(Arch::Sm103a);
// §9.7.16.10.9.1-4 Target ISA notes: ".kind::i8 is supported on sm_100a, sm_101a/sm_110a" — neither the
// f-family targets nor sm_103a (ptxas 13.0: "Feature '.kind::i8' not supported on .target 'sm_103a'").
constexpr ArchSet kI8Arches = arch_bit(Arch::Sm100a);
// §9.7.16.10.9.2: ".kind::mxf4nvf4 and .kind::mxf4 [with .sp] are supported on sm_100a, sm_101a,
// sm_103a, sm_110a" (not the f family; ptxas 13.0 agrees for sm_100f).
constexpr ArchSet kMxf4SparseArches = arch_bit(Arch::Sm100a) | arch_bit(Arch::Sm103a);

constexpr NRange kN8{8, 256, 8};      // "N = {8, 16, 24, ... 256} steps of 8"
constexpr NRange kN16{16, 256, 16};   // "N = {16, 32, ... 256} steps of 16"
constexpr NRange kNone{};

// PTX ISA §9.7.16.2.1, Table 39 "Various combinations of .kind and shapes". Rows that Table 39 marks
// "Invalid" (.ws with cta_group::2, .ws with the block-scaled kinds) are absent.
constexpr ShapeRow kShapes[] = {
    // kind::f16: dense K=16, sparse K=32.
    {MmaKind::F16, false, 1, false, {64, 128, 0}, {kN8, kNone}, 16, 0},
    {MmaKind::F16, false, 1, true, {64, 128, 0}, {kN8, kNone}, 32, 0},
    {MmaKind::F16, false, 2, false, {128, 256, 0}, {kN16, kNone}, 16, 0},
    {MmaKind::F16, false, 2, true, {128, 256, 0}, {kN16, kNone}, 32, 0},
    {MmaKind::F16, true, 1, false, {32, 64, 128}, {NRange{64, 128, 64}, NRange{256, 256, 1}}, 16, 0},
    {MmaKind::F16, true, 1, true, {32, 64, 128}, {NRange{64, 128, 64}, kNone}, 32, 0},
    // kind::tf32: dense K=8, sparse K=16.
    {MmaKind::TF32, false, 1, false, {64, 128, 0}, {kN8, kNone}, 8, 0},
    {MmaKind::TF32, false, 1, true, {64, 128, 0}, {kN8, kNone}, 16, 0},
    {MmaKind::TF32, false, 2, false, {128, 256, 0}, {kN16, kNone}, 8, 0},
    {MmaKind::TF32, false, 2, true, {128, 256, 0}, {kN16, kNone}, 16, 0},
    {MmaKind::TF32, true, 1, false, {32, 64, 128}, {NRange{64, 128, 64}, NRange{256, 256, 1}}, 8, 0},
    {MmaKind::TF32, true, 1, true, {32, 64, 128}, {NRange{64, 128, 64}, kNone}, 16, 0},
    // kind::f8f6f4: dense K=32, sparse K=64.
    {MmaKind::F8F6F4, false, 1, false, {64, 128, 0}, {kN8, kNone}, 32, 0},
    {MmaKind::F8F6F4, false, 1, true, {64, 128, 0}, {kN8, kNone}, 64, 0},
    {MmaKind::F8F6F4, false, 2, false, {128, 256, 0}, {kN16, kNone}, 32, 0},
    {MmaKind::F8F6F4, false, 2, true, {128, 256, 0}, {kN16, kNone}, 64, 0},
    {MmaKind::F8F6F4, true, 1, false, {32, 64, 128}, {NRange{64, 128, 64}, NRange{256, 256, 1}}, 32, 0},
    {MmaKind::F8F6F4, true, 1, true, {32, 64, 128}, {NRange{64, 128, 64}, kNone}, 64, 0},
    // kind::i8: cta_group::1 "N = {8, 16, 24, 32, 48, ... 256} steps of 16 after N > 32";
    // cta_group::2 "N = {32, 64, ... 256} steps of 32".
    {MmaKind::I8, false, 1, false, {64, 128, 0}, {NRange{8, 32, 8}, NRange{48, 256, 16}}, 32, 0},
    {MmaKind::I8, false, 1, true, {64, 128, 0}, {NRange{8, 32, 8}, NRange{48, 256, 16}}, 64, 0},
    {MmaKind::I8, false, 2, false, {128, 256, 0}, {NRange{32, 256, 32}, kNone}, 32, 0},
    {MmaKind::I8, false, 2, true, {128, 256, 0}, {NRange{32, 256, 32}, kNone}, 64, 0},
    {MmaKind::I8, true, 1, false, {32, 64, 128}, {NRange{64, 128, 64}, NRange{256, 256, 1}}, 32, 0},
    {MmaKind::I8, true, 1, true, {32, 64, 128}, {NRange{64, 128, 64}, kNone}, 64, 0},
    // kind::mxf8f6f4: M=128 only with cta_group::1; sparse cta_group::2 is 256xNxK only.
    {MmaKind::MXF8F6F4, false, 1, false, {128, 0, 0}, {kN8, kNone}, 32, 0},
    {MmaKind::MXF8F6F4, false, 1, true, {128, 0, 0}, {kN8, kNone}, 64, 0},
    {MmaKind::MXF8F6F4, false, 2, false, {128, 256, 0}, {kN16, kNone}, 32, 0},
    {MmaKind::MXF8F6F4, false, 2, true, {256, 0, 0}, {kN16, kNone}, 64, 0},
    // kind::mxf4 / mxf4nvf4: dense cta_group::2 has "128xNxK 256xNxK 256xNxK1, K = 64, K1 = 96".
    {MmaKind::MXF4, false, 1, false, {128, 0, 0}, {kN8, kNone}, 64, 0},
    {MmaKind::MXF4, false, 1, true, {128, 0, 0}, {kN8, kNone}, 128, 0},
    {MmaKind::MXF4, false, 2, false, {128, 256, 0}, {kN16, kNone}, 64, 256},
    {MmaKind::MXF4, false, 2, true, {256, 0, 0}, {kN16, kNone}, 128, 0},
    {MmaKind::MXF4NVF4, false, 1, false, {128, 0, 0}, {kN8, kNone}, 64, 0},
    {MmaKind::MXF4NVF4, false, 1, true, {128, 0, 0}, {kN8, kNone}, 128, 0},
    {MmaKind::MXF4NVF4, false, 2, false, {128, 256, 0}, {kN16, kNone}, 64, 256},
    {MmaKind::MXF4NVF4, false, 2, true, {256, 0, 0}, {kN16, kNone}, 128, 0},
};

constexpr DType kF8F6F4Types[5] = {DType::E4M3, DType::E5M2, DType::E2M3, DType::E3M2, DType::E2M1};

// K and types: Table 39; transpose/negate: Table 51; arches: Target ISA notes §9.7.16.10.9.1-2;
// selector: §9.7.16.10.8.4.5-6 (for the block-scaled kinds the selector bits are reserved and the
// selector "is assumed to be 0", Tables 43-44).
constexpr KindRow kKinds[] = {
    {MmaKind::F16, 16, true, true, false, false, kAllTcgen05, kAllTcgen05,
     {DType::F16, DType::F32}, {DType::F16, DType::BF16, DType::BF16, DType::BF16, DType::BF16}},
    {MmaKind::TF32, 8, true, true, false, false, kAllTcgen05, kAllTcgen05,
     {DType::F32, DType::F32}, {DType::TF32, DType::TF32, DType::TF32, DType::TF32, DType::TF32}},
    // Table 39 lists .f32 and .f16 D for f8f6f4 (PTX 9.1's Table 42 shows only F32 = 1 in the
    // dtype row; later PTX versions' Table 45 shows "F16 = 0, F32 = 1"; CUTLASS encodes F16 = 0).
    {MmaKind::F8F6F4, 32, true, true, false, true, kAllTcgen05, kAllTcgen05,
     {DType::F32, DType::F16}, {kF8F6F4Types[0], kF8F6F4Types[1], kF8F6F4Types[2], kF8F6F4Types[3], kF8F6F4Types[4]}},
    {MmaKind::I8, 32, true, false, false, true, kI8Arches, kI8Arches,
     {DType::S32, DType::S32}, {DType::S8, DType::U8, DType::U8, DType::U8, DType::U8}},
    {MmaKind::MXF8F6F4, 32, true, true, true, false, kAllTcgen05, kAllTcgen05,
     {DType::F32, DType::F32}, {kF8F6F4Types[0], kF8F6F4Types[1], kF8F6F4Types[2], kF8F6F4Types[3], kF8F6F4Types[4]}},
    {MmaKind::MXF4, 64, false, true, true, false, kAllTcgen05, kMxf4SparseArches,
     {DType::F32, DType::F32}, {DType::E2M1, DType::E2M1, DType::E2M1, DType::E2M1, DType::E2M1}},
    {MmaKind::MXF4NVF4, 64, false, true, true, false, kAllTcgen05, kMxf4SparseArches,
     {DType::F32, DType::F32}, {DType::E2M1, DType::E2M1, DType::E2M1, DType::E2M1, DType::E2M1}},
};

// §9.7.16.10.7.1 Table 57 "Valid combinations of scale_vectorsize with types and MMA-Kind".
constexpr ScaleVecRow kScaleVecs[] = {
    {MmaKind::MXF8F6F4, DType::UE8M0, ScaleVec::X1},    {MmaKind::MXF8F6F4, DType::UE8M0, ScaleVec::Block32},
    {MmaKind::MXF4, DType::UE8M0, ScaleVec::X2},        {MmaKind::MXF4, DType::UE8M0, ScaleVec::Block32},
    {MmaKind::MXF4NVF4, DType::UE8M0, ScaleVec::X2},    {MmaKind::MXF4NVF4, DType::UE8M0, ScaleVec::Block32},
    {MmaKind::MXF4NVF4, DType::UE8M0, ScaleVec::X4},    {MmaKind::MXF4NVF4, DType::UE8M0, ScaleVec::Block16},
    {MmaKind::MXF4NVF4, DType::UE4M3, ScaleVec::X4},    {MmaKind::MXF4NVF4, DType::UE4M3, ScaleVec::Block16},
};

std::string range_text(const NRange& r) {
  if (r.lo == r.hi) return fmt::format("{}", r.lo);
  if (r.lo + r.step == r.hi) return fmt::format("{}, {}", r.lo, r.hi);
  return fmt::format("{}..{} step {}", r.lo, r.hi, r.step);
}

}  // namespace

std::string arch_set_text(ArchSet s) {
  std::string out;
  for (Arch a : {Arch::Sm90a, Arch::Sm100a, Arch::Sm100f, Arch::Sm103a})
    if (arch_in(s, a)) out += (out.empty() ? "" : ", ") + std::string(arch_name(a));
  return out.empty() ? "none" : out;
}

std::span<const ShapeRow> shape_rows() { return kShapes; }

const ShapeRow* find_shape_row(MmaKind kind, bool ws, int cta_group, bool sparse) {
  for (const ShapeRow& r : kShapes)
    if (r.kind == kind && r.ws == ws && r.cta_group == cta_group && r.sparse == sparse) return &r;
  return nullptr;
}

bool shape_m_legal(const ShapeRow& r, int m) {
  return m > 0 && std::find(r.m.begin(), r.m.end(), m) != r.m.end();
}

bool shape_n_legal(const ShapeRow& r, int n) {
  for (const NRange& g : r.n)
    if (g.step > 0 && n >= g.lo && n <= g.hi && (n - g.lo) % g.step == 0) return true;
  return false;
}

std::string shape_m_text(const ShapeRow& r) {
  std::string out;
  for (int m : r.m)
    if (m) out += (out.empty() ? "" : ", ") + std::to_string(m);
  return out;
}

std::string shape_n_text(const ShapeRow& r) {
  std::string out;
  for (const NRange& g : r.n)
    if (g.step > 0) out += (out.empty() ? "" : ", ") + range_text(g);
  return out;
}

const KindRow& kind_row(MmaKind k) {
  for (const KindRow& r : kKinds)
    if (r.kind == k) return r;
  return kKinds[0];  // unreachable: every MmaKind has a row
}

bool kind_d_type_legal(MmaKind k, DType d) {
  const auto& ts = kind_row(k).d_types;
  return std::find(ts.begin(), ts.end(), d) != ts.end();
}

bool kind_ab_type_legal(MmaKind k, DType t) {
  const auto& ts = kind_row(k).ab_types;
  return std::find(ts.begin(), ts.end(), t) != ts.end();
}

std::optional<std::string> type_combination_problem(MmaKind k, DType d, DType a, DType b) {
  // Table 39, kind::f16: "dtype .f16 with atype/btype .f16; dtype .f32 with .f16, .bf16".
  if (k == MmaKind::F16 && d == DType::F16 && (a == DType::BF16 || b == DType::BF16))
    return fmt::format("D type f16 needs f16 A and B (A {}, B {}); bf16 inputs accumulate to f32 only",
                       dtype_name(a), dtype_name(b));
  return std::nullopt;
}

std::string kind_types_text(MmaKind k) {
  const KindRow& r = kind_row(k);
  auto list = [](auto&& types) {
    std::string out;
    for (std::size_t i = 0; i < types.size(); ++i)
      if (std::find(types.begin(), types.begin() + static_cast<std::ptrdiff_t>(i), types[i]) ==
          types.begin() + static_cast<std::ptrdiff_t>(i))
        out += (out.empty() ? "" : ", ") + std::string(dtype_name(types[i]));
    return out;
  };
  return fmt::format("D: {}; A/B: {}", list(r.d_types), list(r.ab_types));
}

std::string_view scale_vec_name(ScaleVec v) {
  switch (v) {
    case ScaleVec::X1: return ".scale_vec::1X";
    case ScaleVec::X2: return ".scale_vec::2X";
    case ScaleVec::X4: return ".scale_vec::4X";
    case ScaleVec::Block16: return ".block16";
    case ScaleVec::Block32: return ".block32";
  }
  return "?";
}

std::optional<ScaleVec> parse_scale_vec(std::string_view s) {
  std::string t(s);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!t.empty() && t[0] == '.') t.erase(0, 1);
  if (t.rfind("scale_vec::", 0) == 0) t.erase(0, 11);
  if (t == "1x") return ScaleVec::X1;
  if (t == "2x") return ScaleVec::X2;
  if (t == "4x") return ScaleVec::X4;
  if (t == "block16") return ScaleVec::Block16;
  if (t == "block32") return ScaleVec::Block32;
  return std::nullopt;
}

std::span<const ScaleVecRow> scale_vec_rows() { return kScaleVecs; }

bool scale_vec_legal(MmaKind k, DType scale_type, ScaleVec v) {
  for (const ScaleVecRow& r : kScaleVecs)
    if (r.kind == k && r.scale_type == scale_type && r.vec == v) return true;
  return false;
}

ArchSet scale_vec_arches(ScaleVec v) {
  // §9.7.16.10.9.1: ".scale_vec::1X, 2X, 4X requires sm_100a; .block16, .block32 requires sm_100f".
  // ptxas 13.0 also accepts .scale_vec::NX for sm_103a (and rejects it for sm_100f).
  if (v == ScaleVec::Block16 || v == ScaleVec::Block32) return kAllTcgen05;
  return arch_bit(Arch::Sm100a) | arch_bit(Arch::Sm103a);
}

int scale_factors_per_row(MmaKind k, ScaleVec v, bool k96) {
  // Table 56 and the .blockN aliases of §9.7.16.10.9.1.
  switch (v) {
    case ScaleVec::X1: return 1;
    case ScaleVec::X2: return 2;
    case ScaleVec::X4: return 4;
    case ScaleVec::Block16: return k96 ? 6 : 4;
    case ScaleVec::Block32: return k == MmaKind::MXF8F6F4 ? 1 : (k96 ? 3 : 2);
  }
  return 0;
}

uint8_t legal_sf_ids(MmaKind k, std::optional<ScaleVec> v, std::optional<DType> scale_type, bool k96) {
  constexpr uint8_t kAny = 0b1111, kEven = 0b0101, kZero = 0b0001;
  if (!kind_row(k).block_scaled) return kZero;
  if (k == MmaKind::MXF8F6F4) return kAny;  // 1X: SF_ID is the byte offset 0-3 (§9.7.16.10.7.2.1)
  if (v) {
    switch (scale_factors_per_row(k, *v, k96)) {
      case 1: return kAny;   // §9.7.16.10.7.2.1: byte offset
      case 2: return kEven;  // §9.7.16.10.7.2.2: half-word offset, 0 or 2
      case 3: return kAny;   // §9.7.16.10.7.2.4: block32 with K=96, byte offset 0-3
      case 4: return kZero;  // §9.7.16.10.7.2.3: "The SFA_ID value must be 0"
      case 6: return kEven;  // §9.7.16.10.7.2.5: block16 with K=96, 0 or 2
      default: return kZero;
    }
  }
  // Qualifier unknown. UE4M3 scales exist only with 4X/block16 (Table 57).
  if (scale_type == DType::UE4M3) return k96 ? kEven : kZero;
  // Table 44 says "0 or 2"; with K=96 .block32 uses byte offsets 0-3 (§9.7.16.10.7.2.4).
  return k96 ? kAny : kEven;
}

}  // namespace tcsim::isa
