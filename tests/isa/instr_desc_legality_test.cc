// The legality tables (isa/legality.h) against counts read off PTX ISA Table 39 by hand, and a walk
// over every encodable M x N of every row: validate_instr_desc accepts exactly the Table 39 shapes.
#include <doctest/doctest.h>

#include <set>

#include "isa/descriptors/instr_desc.h"
#include "isa/legality.h"

using namespace tcsim::isa;

namespace {

// Legal N counts per Table 39 line: "8..256 steps of 8" = 32 values, "16..256 steps of 16" = 16,
// i8 cta_group::1 "{8, 16, 24, 32, 48, ... 256} steps of 16 after N > 32" = 4 + (256-48)/16+1 = 18,
// i8 cta_group::2 "{32, 64, ... 256}" = 8, .ws dense {64, 128, 256} = 3, .ws sparse {64, 128} = 2.
int expected_n_count(const ShapeRow& r) {
  if (r.ws) return r.sparse ? 2 : 3;
  if (r.kind == MmaKind::I8) return r.cta_group == 1 ? 18 : 8;
  return r.cta_group == 1 ? 32 : 16;
}

// Legal M counts: .ws 32/64/128 = 3; block-scaled cta_group::1: 128 = 1; block-scaled sparse
// cta_group::2: 256 = 1; everything else two values (64/128 or 128/256).
int expected_m_count(const ShapeRow& r) {
  if (r.ws) return 3;
  if (kind_row(r.kind).block_scaled && (r.cta_group == 1 || r.sparse)) return 1;
  return 2;
}

Arch home_arch(MmaKind) { return Arch::Sm100a; }  // every kind (and sparse form) exists on sm_100a

InstrDesc legal_types(MmaKind k) {
  InstrDesc d;
  d.kind = k;
  const KindRow& r = kind_row(k);
  d.a_type = d.b_type = r.ab_types[0];
  d.d_type = r.d_types[0];
  if (r.block_scaled) d.scale_type = DType::UE8M0;
  return d;
}

bool shape_violation(const Violations& v) {
  for (const auto& x : v)
    if (x.section.find("Table 39") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("Table 39 rows: counts of legal M and N match the PTX text") {
  CHECK(shape_rows().size() == 36);  // 4 kinds x 6 (.ws/cta_group/sparsity) + 3 block-scaled kinds x 4
  for (const ShapeRow& r : shape_rows()) {
    CAPTURE(kind_name(r.kind));
    CAPTURE(r.ws);
    CAPTURE(r.cta_group);
    CAPTURE(r.sparse);
    int nm = 0, nn = 0;
    for (int m = 0; m <= 512; m += 16) nm += shape_m_legal(r, m);
    for (int n = 0; n <= 512; n += 8) nn += shape_n_legal(r, n);
    CHECK(nm == expected_m_count(r));
    CHECK(nn == expected_n_count(r));
    CHECK(r.k == implied_k(r.kind, r.sparse));
  }
  // No row for the combinations Table 39 marks "Invalid".
  CHECK(find_shape_row(MmaKind::F16, true, 2, false) == nullptr);
  CHECK(find_shape_row(MmaKind::MXF8F6F4, true, 1, false) == nullptr);
  CHECK(find_shape_row(MmaKind::MXF4NVF4, true, 1, true) == nullptr);
}

TEST_CASE("Table 39: K per kind and sparsity, and K = 96") {
  CHECK(implied_k(MmaKind::TF32, false) == 8);
  CHECK(implied_k(MmaKind::TF32, true) == 16);
  CHECK(implied_k(MmaKind::F16, false) == 16);
  CHECK(implied_k(MmaKind::F16, true) == 32);
  CHECK(implied_k(MmaKind::F8F6F4, false) == 32);
  CHECK(implied_k(MmaKind::I8, true) == 64);
  CHECK(implied_k(MmaKind::MXF8F6F4, true) == 64);
  CHECK(implied_k(MmaKind::MXF4, false) == 64);
  CHECK(implied_k(MmaKind::MXF4NVF4, true) == 128);
  CHECK(find_shape_row(MmaKind::MXF4, false, 2, false)->k96_m == 256);
  CHECK(find_shape_row(MmaKind::MXF4, false, 1, false)->k96_m == 0);
}

TEST_CASE("validate_instr_desc accepts exactly the Table 39 shapes (walk over every encodable M x N)") {
  for (const ShapeRow& r : shape_rows()) {
    CAPTURE(kind_name(r.kind));
    CAPTURE(r.ws);
    CAPTURE(r.cta_group);
    CAPTURE(r.sparse);
    const bool block = kind_row(r.kind).block_scaled;
    InstrDescContext ctx;
    ctx.arch = home_arch(r.kind);
    ctx.cta_group = r.cta_group;
    ctx.ws = r.ws;
    int accepted = 0;
    for (int m = 0; m <= (block ? 384 : 496); m += block ? 128 : 16) {
      for (int n = 0; n <= 504; n += 8) {
        InstrDesc d = legal_types(r.kind);
        d.m = m;
        d.n = n;
        d.sparse = r.sparse;
        auto raw = encode_instr_desc(d);
        REQUIRE(raw.has_value());
        Violations v = validate_instr_desc(decode_instr_desc(*raw, r.kind), ctx);
        const bool legal = shape_m_legal(r, m) && shape_n_legal(r, n);
        CHECK(shape_violation(v) == !legal);
        if (legal) {
          CHECK(v.empty());
          ++accepted;
        }
      }
    }
    CHECK(accepted == expected_m_count(r) * expected_n_count(r));
  }
}

TEST_CASE("kinds: types (Table 39), transpose/negate (Table 51), arches (Target ISA notes)") {
  CHECK(kind_d_type_legal(MmaKind::F16, DType::F16));
  CHECK(kind_d_type_legal(MmaKind::F8F6F4, DType::F16));
  CHECK_FALSE(kind_d_type_legal(MmaKind::TF32, DType::F16));
  CHECK(kind_d_type_legal(MmaKind::I8, DType::S32));
  CHECK(kind_ab_type_legal(MmaKind::F8F6F4, DType::E3M2));
  CHECK_FALSE(kind_ab_type_legal(MmaKind::MXF4, DType::E4M3));
  CHECK(type_combination_problem(MmaKind::F16, DType::F16, DType::F16, DType::BF16).has_value());
  CHECK_FALSE(type_combination_problem(MmaKind::F16, DType::F32, DType::BF16, DType::BF16).has_value());
  CHECK(kind_types_text(MmaKind::F16) == "D: f16, f32; A/B: f16, bf16");

  CHECK_FALSE(kind_row(MmaKind::I8).negate_ok);
  CHECK_FALSE(kind_row(MmaKind::MXF4).transpose_ok);
  CHECK_FALSE(kind_row(MmaKind::MXF4NVF4).transpose_ok);
  CHECK(kind_row(MmaKind::MXF8F6F4).transpose_ok);
  CHECK(kind_row(MmaKind::TF32).negate_ok);

  // ptxas 13.0 agrees: ".kind::i8 not supported on sm_103a" / sm_100f; mxf4 with .sp not on sm_100f.
  CHECK(arch_in(kind_row(MmaKind::I8).arches, Arch::Sm100a));
  CHECK_FALSE(arch_in(kind_row(MmaKind::I8).arches, Arch::Sm100f));
  CHECK_FALSE(arch_in(kind_row(MmaKind::I8).arches, Arch::Sm103a));
  CHECK(arch_in(kind_row(MmaKind::MXF4).arches, Arch::Sm100f));
  CHECK_FALSE(arch_in(kind_row(MmaKind::MXF4).sparse_arches, Arch::Sm100f));
  CHECK(arch_in(kind_row(MmaKind::MXF4NVF4).sparse_arches, Arch::Sm103a));
  for (const auto& k : kMmaKinds) CHECK_FALSE(arch_in(kind_row(k.kind).arches, Arch::Sm90a));
  CHECK(arch_set_text(kind_row(MmaKind::F16).arches) == "sm_100a, sm_100f, sm_103a");
}

TEST_CASE("block scaling: Table 57 rows, qualifier arches, SF_ID sets") {
  CHECK(scale_vec_rows().size() == 10);
  CHECK(scale_vec_legal(MmaKind::MXF8F6F4, DType::UE8M0, ScaleVec::X1));
  CHECK_FALSE(scale_vec_legal(MmaKind::MXF8F6F4, DType::UE4M3, ScaleVec::X1));
  CHECK(scale_vec_legal(MmaKind::MXF4, DType::UE8M0, ScaleVec::Block32));
  CHECK_FALSE(scale_vec_legal(MmaKind::MXF4, DType::UE8M0, ScaleVec::Block16));
  CHECK(scale_vec_legal(MmaKind::MXF4NVF4, DType::UE4M3, ScaleVec::Block16));
  CHECK_FALSE(scale_vec_legal(MmaKind::MXF4NVF4, DType::UE4M3, ScaleVec::X2));
  CHECK(arch_in(scale_vec_arches(ScaleVec::Block32), Arch::Sm100f));
  CHECK_FALSE(arch_in(scale_vec_arches(ScaleVec::X2), Arch::Sm100f));  // ptxas 13.0 agrees
  CHECK(arch_in(scale_vec_arches(ScaleVec::X2), Arch::Sm103a));         // ptxas 13.0 accepts it
  // Scale factors per row (Table 56) and legal SF_IDs (§9.7.16.10.7.2-3), bit i = ID i.
  CHECK(scale_factors_per_row(MmaKind::MXF8F6F4, ScaleVec::Block32, false) == 1);
  CHECK(scale_factors_per_row(MmaKind::MXF4, ScaleVec::Block32, false) == 2);
  CHECK(scale_factors_per_row(MmaKind::MXF4, ScaleVec::Block32, true) == 3);
  CHECK(scale_factors_per_row(MmaKind::MXF4NVF4, ScaleVec::Block16, true) == 6);
  CHECK(legal_sf_ids(MmaKind::MXF8F6F4, ScaleVec::X1, DType::UE8M0, false) == 0b1111);
  CHECK(legal_sf_ids(MmaKind::MXF4, ScaleVec::X2, DType::UE8M0, false) == 0b0101);
  CHECK(legal_sf_ids(MmaKind::MXF4NVF4, ScaleVec::X4, DType::UE8M0, false) == 0b0001);
  CHECK(legal_sf_ids(MmaKind::MXF4NVF4, ScaleVec::Block32, DType::UE8M0, true) == 0b1111);
  CHECK(legal_sf_ids(MmaKind::MXF4NVF4, ScaleVec::Block16, DType::UE8M0, true) == 0b0101);
  CHECK(legal_sf_ids(MmaKind::MXF4NVF4, std::nullopt, DType::UE4M3, false) == 0b0001);
  CHECK(legal_sf_ids(MmaKind::MXF4, std::nullopt, DType::UE8M0, false) == 0b0101);
  for (ScaleVec v : {ScaleVec::X1, ScaleVec::X2, ScaleVec::X4, ScaleVec::Block16, ScaleVec::Block32})
    CHECK(parse_scale_vec(scale_vec_name(v)) == v);
  CHECK(parse_scale_vec("2x") == ScaleVec::X2);
  CHECK(parse_scale_vec("scale_vec::4X") == ScaleVec::X4);
  CHECK_FALSE(parse_scale_vec("8X").has_value());
}
