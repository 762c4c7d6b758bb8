// The 32-bit instruction descriptor (`idesc`) of tcgen05.mma (PTX ISA §9.7.16.4.2): Table 42 for
// kind::tf32/f16/f8f6f4/i8, Table 43 for kind::mxf8f6f4, Table 44 for kind::mxf4/mxf4nvf4.
// M and N are encoded; K is implied by the kind and sparsity (§9.7.16.2.2) except K=96, which
// mxf4/mxf4nvf4 select with bit 31 (sm_103a). The bit tables are below, as data.
//
//  bits   Table 42 (dense kinds)      Table 43 (mxf8f6f4)       Table 44 (mxf4, mxf4nvf4)
//  0-1    sparsity selector           reserved                  reserved
//  2      sparse                      sparse                    sparse
//  3      saturate (i8 only)          reserved                  reserved
//  4-5    D type F16 0 F32 1 S32 2    SFB_ID                    SFB_ID (0 or 2)
//  6      reserved                    reserved                  reserved
//  7-9    A type                      A type                    A type (E2M1 = 1)
//  10-12  B type                      B type                    10-11 B type, 12 reserved
//  13,14  negate A, B (not i8)        negate A, B               negate A, B
//  15,16  transpose A, B              transpose A, B            must be 0
//  17-22  N >> 3                      N >> 3                    N >> 3
//  23     reserved                    scale type (UE8M0 = 1)    scale type (UE4M3 0, UE8M0 1)
//  24-28  M >> 4                      24-26 reserved, 27-28 M >> 7   (same as mxf8f6f4)
//  29     reserved                    29-30 SFA_ID              29-30 SFA_ID (0 or 2)
//  30-31  .ws max B-reuse shift       31 reserved               31 K: 0 = 64 (sparse 128), 1 = 96
//
// Type codes differ by kind: E2M1 is 5 in f8f6f4/mxf8f6f4 but 1 in mxf4/mxf4nvf4.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "isa/arch.h"
#include "isa/descriptors/bitfield.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/diag.h"
#include "isa/dtype.h"
#include "isa/legality.h"
#include "isa/mma_kind.h"

namespace tcsim::isa {

#define TCSIM_IDESC_DENSE_FIELDS(X)                                                        \
  X(sparse_selector, 0, 2, "sparsity selector (if sparse)")                                \
  X(sparse, 2, 1, "sparsity: 0 dense, 1 sparse")                                           \
  X(saturate, 3, 1, "saturate (kind::i8 only)")                                            \
  X(d_type, 4, 2, "D type: F16 0, F32 1, S32 2")                                           \
  X(a_type, 7, 3, "A type (kind-specific code)")                                           \
  X(b_type, 10, 3, "B type (kind-specific code)")                                          \
  X(negate_a, 13, 1, "negate A")                                                           \
  X(negate_b, 14, 1, "negate B")                                                           \
  X(transpose_a, 15, 1, "transpose A: 0 K-major, 1 M-major")                               \
  X(transpose_b, 16, 1, "transpose B: 0 K-major, 1 N-major")                               \
  X(n_dim, 17, 6, "N >> 3")                                                                \
  X(m_dim, 24, 5, "M >> 4")                                                                \
  X(max_shift, 30, 2, ".ws max B-reuse shift: 0 none, 1 8, 2 16, 3 32")
TCSIM_DEFINE_BITFIELDS(IdescDenseBits, uint32_t, TCSIM_IDESC_DENSE_FIELDS);

#define TCSIM_IDESC_MXF8F6F4_FIELDS(X)                                                     \
  X(sparse, 2, 1, "sparsity: 0 dense, 1 sparse")                                           \
  X(sfb_id, 4, 2, "matrix B scale factor data ID")                                         \
  X(a_type, 7, 3, "A type: E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5")                        \
  X(b_type, 10, 3, "B type: E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5")                       \
  X(negate_a, 13, 1, "negate A")                                                           \
  X(negate_b, 14, 1, "negate B")                                                           \
  X(transpose_a, 15, 1, "transpose A: 0 K-major, 1 M-major")                               \
  X(transpose_b, 16, 1, "transpose B: 0 K-major, 1 N-major")                               \
  X(n_dim, 17, 6, "N >> 3")                                                                \
  X(scale_type, 23, 1, "scale type: UE8M0 1")                                              \
  X(m_dim, 27, 2, "M >> 7")                                                                \
  X(sfa_id, 29, 2, "matrix A scale factor data ID")
TCSIM_DEFINE_BITFIELDS(IdescMxf8f6f4Bits, uint32_t, TCSIM_IDESC_MXF8F6F4_FIELDS);

#define TCSIM_IDESC_MXF4_FIELDS(X)                                                         \
  X(sparse, 2, 1, "sparsity: 0 dense, 1 sparse")                                           \
  X(sfb_id, 4, 2, "matrix B scale factor data ID (0 or 2)")                                \
  X(a_type, 7, 3, "A type: E2M1 1")                                                        \
  X(b_type, 10, 2, "B type: E2M1 1")                                                       \
  X(negate_a, 13, 1, "negate A")                                                           \
  X(negate_b, 14, 1, "negate B")                                                           \
  X(transpose_a, 15, 1, "transpose A: must be 0")                                          \
  X(transpose_b, 16, 1, "transpose B: must be 0")                                          \
  X(n_dim, 17, 6, "N >> 3")                                                                \
  X(scale_type, 23, 1, "scale type: UE4M3 0 (mxf4nvf4), UE8M0 1")                          \
  X(m_dim, 27, 2, "M >> 7")                                                                \
  X(sfa_id, 29, 2, "matrix A scale factor data ID (0 or 2)")                               \
  X(k_dim, 31, 1, "K: 0 dense 64 / sparse 128, 1 dense 96 (sm_103a)")
TCSIM_DEFINE_BITFIELDS(IdescMxf4Bits, uint32_t, TCSIM_IDESC_MXF4_FIELDS);

struct InstrDesc {
  MmaKind kind = MmaKind::F16;
  int m = 0;  // rows of A and D (the value, not the field)
  int n = 0;  // columns of B and D
  int k = 0;  // implied by kind and sparsity; 96 when bit 31 is set (mxf4/mxf4nvf4)
  std::optional<DType> a_type, b_type, d_type;  // nullopt: the code is not defined for the kind
  Major a_major = Major::K, b_major = Major::K;
  bool negate_a = false, negate_b = false;
  bool saturate = false;
  bool sparse = false;
  int sparse_selector = 0;
  int max_shift = 0;                // .ws: maximum B-reuse shift, in columns (0, 8, 16 or 32)
  std::optional<DType> scale_type;  // block-scaled kinds: UE8M0 or UE4M3
  int sfa_id = 0, sfb_id = 0;       // block-scaled kinds
  // The raw codes, so that validation can name a code the kind does not define.
  int a_code = 0, b_code = 0, d_code = -1;  // d_code -1: the kind has no D field (block-scaled)
  int m_code = 0, n_code = 0;
  uint32_t reserved_bits = 0;  // set bits that the kind's table reserves (must be 0)
};

// The context the instruction supplies: the descriptor does not encode cta_group, .ws or the
// scale-vector qualifier, but its legal values depend on them.
struct InstrDescContext {
  Arch arch = Arch::Sm100a;
  int cta_group = 1;
  bool ws = false;                     // tcgen05.mma.ws
  std::optional<ScaleVec> scale_vec;   // .block_scale qualifier; nullopt: not known
};

// Never fails: every 32-bit value decodes for every kind.
InstrDesc decode_instr_desc(uint32_t raw, MmaKind kind);
// Refuses values the kind's table cannot represent (M/N not a multiple of the field unit or too
// large, a type with no code in this kind, max_shift not 0/8/16/32, K other than the implied one).
Expected<uint32_t> encode_instr_desc(const InstrDesc& d);
// Every rule the descriptor can break, each with its PTX ISA section.
Violations validate_instr_desc(const InstrDesc& d, const InstrDescContext& ctx);

// At MMA issue: the idesc and the operands' shared-memory descriptors together (a == nullptr: A in
// TMEM). Adds the smem rules that depend on the idesc (major-ness, element type; Table 54).
Violations validate_mma_descriptors(const InstrDesc& d, const InstrDescContext& ctx, const SmemDesc* a,
                                    const SmemDesc* b);

// The kind's descriptor type code of `t`, or nullopt (e.g. e2m1 -> 5 for f8f6f4, 1 for mxf4).
std::optional<int> idesc_ab_type_code(MmaKind kind, DType t);
std::optional<DType> idesc_ab_type_from_code(MmaKind kind, int code);
// The implied K (dense or sparse), without the K=96 bit.
int implied_k(MmaKind kind, bool sparse);

std::string instr_desc_fields_text(uint32_t raw, MmaKind kind);
std::string instr_desc_fields_json(uint32_t raw, MmaKind kind);

}  // namespace tcsim::isa
