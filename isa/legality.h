// Which tcgen05.mma configurations exist, as data: kind x .ws x cta_group x sparsity -> M, N, K
// (PTX ISA §9.7.16.2.1 Table 39), the D/A/B type combinations (Table 39), transpose/negate support
// (§9.7.16.10.1 Tables 51-52), scale-vector combinations (§9.7.16.10.7.1 Tables 56-57) and which
// target architecture has what (the Target ISA notes of §9.7.16.2.1.1, §9.7.16.10.9.1-4).
//
// The instruction-descriptor validator (isa/descriptors/instr_desc.h), the simulator at MMA issue
// and `tcsim encode idesc` all read these tables; nothing else in tcsim restates them.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "isa/arch.h"
#include "isa/dtype.h"
#include "isa/mma_kind.h"

namespace tcsim::isa {

// A set of architectures, as a bit mask over Arch.
using ArchSet = uint8_t;
constexpr ArchSet arch_bit(Arch a) { return static_cast<ArchSet>(1u << static_cast<unsigned>(a)); }
constexpr bool arch_in(ArchSet s, Arch a) { return (s & arch_bit(a)) != 0; }
std::string arch_set_text(ArchSet s);  // "sm_100a, sm_103a"

// ---- Table 39: shapes ---------------------------------------------------------------------------
struct NRange {
  int lo = 0, hi = 0, step = 0;  // {lo, lo+step, ..., hi}; step 0: unused slot
};

struct ShapeRow {
  MmaKind kind;
  bool ws;         // tcgen05.mma.ws
  int cta_group;   // 1 or 2
  bool sparse;     // tcgen05.mma.sp
  std::array<int, 3> m;        // legal M values (0: unused slot)
  std::array<NRange, 2> n;     // legal N: union of the ranges
  int k;                       // K (implied by kind and sparsity, §9.7.16.2.2)
  int k96_m;                   // dense mxf4/mxf4nvf4 cta_group::2: M that also allows K=96 (0: none)
};

std::span<const ShapeRow> shape_rows();
// nullptr: Table 39 has no such combination (e.g. .ws with cta_group::2, or with block scaling).
const ShapeRow* find_shape_row(MmaKind kind, bool ws, int cta_group, bool sparse);
bool shape_m_legal(const ShapeRow& r, int m);
bool shape_n_legal(const ShapeRow& r, int n);
std::string shape_m_text(const ShapeRow& r);  // "64, 128"
std::string shape_n_text(const ShapeRow& r);  // "8..256 step 8" / "8..32 step 8, 48..256 step 16"

// ---- per kind: K, Table 51, types (Table 39), where it exists -------------------------------------
struct KindRow {
  MmaKind kind;
  int k_dense;             // K of a dense MMA; sparse is 2x (Table 39)
  bool transpose_ok;       // Table 51: transpose A/B (MN-major operands) supported
  bool negate_ok;          // Table 51: negate A/B supported
  bool block_scaled;       // .block_scale kinds (Table 39 "X (Scale)")
  bool selector_must_be_0; // §9.7.16.10.8.4.5-6: "must be 0 for .kind::i8 and .kind::f8f6f4"
  ArchSet arches;          // Target ISA notes §9.7.16.10.9.1
  ArchSet sparse_arches;   // Target ISA notes §9.7.16.10.9.2 (.sp)
  std::array<DType, 2> d_types;    // legal D types (a repeated entry fills the slot)
  std::array<DType, 5> ab_types;   // legal A/B types (a repeated entry fills the slot)
};

const KindRow& kind_row(MmaKind k);
bool kind_d_type_legal(MmaKind k, DType d);
bool kind_ab_type_legal(MmaKind k, DType t);
// Table 39 combinations beyond the per-kind lists: for kind::f16 a f16 D needs f16 A and B (bf16
// inputs accumulate to f32 only). Returns the reason when illegal.
std::optional<std::string> type_combination_problem(MmaKind k, DType d, DType a, DType b);
std::string kind_types_text(MmaKind k);  // "D: f16, f32; A/B: f16, bf16"

// Where K = 96 exists (§9.7.16.2.1.1: sm_103a only).
constexpr ArchSet kK96Arches = arch_bit(Arch::Sm103a);

// ---- block scaling: Tables 56-57 and the scale_vec target notes -----------------------------------
enum class ScaleVec : uint8_t { X1, X2, X4, Block16, Block32 };
std::string_view scale_vec_name(ScaleVec v);  // ".scale_vec::1X", ..., ".block16", ".block32"
// Accepts "1X"/"1x"/"scale_vec::1X"/".scale_vec::1X", "block16"/".block16", ...
std::optional<ScaleVec> parse_scale_vec(std::string_view s);

struct ScaleVecRow {
  MmaKind kind;
  DType scale_type;  // UE8M0 or UE4M3
  ScaleVec vec;
};
std::span<const ScaleVecRow> scale_vec_rows();  // Table 57
bool scale_vec_legal(MmaKind k, DType scale_type, ScaleVec v);
ArchSet scale_vec_arches(ScaleVec v);  // .scale_vec::NX: sm_100a (and sm_103a, ptxas 13.0); .blockN: all

// Scale factors per row of A / column of B, and the legal SF_ID values for them
// (§9.7.16.10.7.2-3): 1X: byte 0-3; 2X: halfword 0 or 2; 4X: 0; block32 with K=96 (3 per row):
// byte 0-3; block16 with K=96 (6 per row): 0 or 2. `vec` nullopt: the qualifier is not known.
int scale_factors_per_row(MmaKind k, ScaleVec v, bool k96);
// Bit i set <=> SF_ID i is legal.
uint8_t legal_sf_ids(MmaKind k, std::optional<ScaleVec> v, std::optional<DType> scale_type, bool k96);

}  // namespace tcsim::isa
