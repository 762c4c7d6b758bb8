// The operations the tensor core unit (sim/units/tensor_core.h) executes, as the instruction files
// plan them: everything an operation needs at completion is decided at issue, so the unit owns the
// datapath (operand fetch, the models::mma arithmetic, the TMEM writes) and the completion, and the
// instruction (sim/exec/tcgen05_mma.cc, tcgen05_cp_shift.cc) owns binding, validation and planning —
// gem5's split of initiateAcc / completeAcc.
//
//   MmaOp    tcgen05.mma (PTX ISA §9.7.16.10): D = A * B (+ D), operands at planned locations
//   CpOp     tcgen05.cp (§9.7.16.9.2): 16-byte shared-memory units into TMEM lanes, decompressed
//   ShiftOp  tcgen05.shift (§9.7.16.9.3): 32-byte row elements one lane down
//
// The CTAs are held as CtaRef (sim/cluster.h): a CTA that retired before the completion is seen as
// gone, never as a dangling pointer.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/element_format.h"
#include "isa/layouts/tmem_layout.h"
#include "isa/layouts/tmem_scale_layout.h"
#include "isa/layouts/tmem_sparse_layout.h"
#include "models/mma/dot_shape.h"
#include "sim/cluster.h"

namespace tcsim::sim {

class TensorCore;

// The shared-memory plan of one MMA operand in one CTA (rows x K locations, row-major) and the
// byte range [lo, hi) it reads. Immutable once built: MMAs with the same descriptor share it.
struct SmemOperandPlan {
  std::vector<isa::SmemLocation> at;
  uint32_t lo = 0, hi = 0;
};
using SmemPlanRef = std::shared_ptr<const SmemOperandPlan>;

// One tcgen05.mma. For cta_group::2, index v of the arrays is the pair position (%cluster_ctarank
// & 1): CTA v supplies rows [v*M/2, (v+1)*M/2) of A and columns [v*N/2, (v+1)*N/2) of B from its
// own shared memory and holds its part of D in its own TMEM (§9.7.16.5, §9.7.16.10.5).
struct MmaOp {
  isa::MmaKind kind = isa::MmaKind::F16;
  int cg = 1;
  uint32_t m = 0, n = 0, k = 0;
  bool enable_d = false;  // enable-input-d: D is read (accumulate)
  bool f16_d = false;     // D is f16 (the low half of each 32-bit cell, §9.7.16.10.4.1)
  // A from shared memory: the plan (per CTA, M/cg rows x K, row-major) and its element format;
  // A from TMEM: its layout (a_tmem set).
  bool a_tmem = false;
  isa::ElementFormat a_fmt{}, b_fmt{};
  SmemPlanRef a_plan, b_plan;  // b_plan: per CTA, N/cg columns x K
  std::optional<isa::TmemALayout> a_layout;
  std::optional<isa::TmemDLayout> d_layout;
  uint32_t d_col0 = 0;            // first TMEM column of D (d-tmem's column)
  uint32_t disable[8] = {};       // disable-output-lane: bit (cta * 128 + lane) set = lane not written
  std::vector<uint8_t> zero_col;  // .ws zero-column mask: per column of B, 1 = treated as zero
  models::mma::DotShape shape;    // the arithmetic (models::mma); shape.k == k
  uint32_t kb = 0;                // K of B: k, or 2k for sparse A (§9.7.16.10.8)
  // Block scaling (§9.7.16.10.7): where each sub-partition reads scale_A and scale_B.
  std::optional<isa::TmemScaleLayout> sfa, sfb;
  // Sparse A (§9.7.16.10.8): the metadata in TMEM; a_plan / a_layout hold the k stored values.
  bool sparse = false;
  std::optional<isa::TmemSparseMetaLayout> meta;
  bool ashift = false;  // .ashift: row m of the product takes row m-1 of A (row 0 its own)
  // The operand collector (.collector::a, or .collector::bN of .ws): buffer 0-3 (B) or 4 (A).
  struct CollectorPlan {
    int buffer = -1;       // -1: this operand has no collector qualifier
    bool fill = false;     // keep the operand as read
    bool use = false;      // compute with the kept copy (::use / ::lastuse of a valid fill)
    bool release = false;  // free the buffer after this MMA (::lastuse, ::discard)
  } coll_a, coll_b;
  CtaRef ctas[2];
  TensorCore* units[2] = {nullptr, nullptr};  // the tensor core of each CTA's SM
  uint32_t src = 0;                           // Program::sources index of the instruction
};

// One tcgen05.cp: `rows` source rows of `units_per_row` 16-byte units each, row r landing in
// lanes lane0 + lane_of[r * lanes_per_row + i] from column col0 (4 columns per unit). For
// cta_group::2 each CTA of the pair copies from its own shared memory into its own TMEM.
struct CpOp {
  enum class Decompress : uint8_t { None, B6x16P32, B4x16P64 };  // §9.7.16.9.1
  Decompress fmt = Decompress::None;
  int cg = 1;
  uint32_t rows = 0, units_per_row = 0, lanes_per_row = 1;
  uint32_t lane0 = 0, col0 = 0;
  std::vector<uint8_t> lane_of;     // rows x lanes_per_row, relative to lane0
  std::vector<uint32_t> unit_addr;  // rows x units_per_row: shared address of each unit
  CtaRef ctas[2];
  TensorCore* units[2] = {nullptr, nullptr};
  uint32_t src = 0;
};

// One tcgen05.shift.down: in every CTA of the group, the 8 columns from col0 of lanes lane0 ..
// lane0 + 30 move one lane down (the .31x256b shape).
struct ShiftOp {
  int cg = 1;
  uint32_t lane0 = 0, col0 = 0;
  CtaRef ctas[2];
  TensorCore* units[2] = {nullptr, nullptr};
  uint32_t src = 0;
};

// 16 source bytes of a tcgen05.cp -> the 16 TMEM bytes they become (decompressed when asked,
// §9.7.16.9.1). Exposed for tests.
void cp_convert_unit(CpOp::Decompress f, const uint8_t* src, uint8_t* dst);

}  // namespace tcsim::sim
