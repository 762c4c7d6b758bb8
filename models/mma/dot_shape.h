// What one MMA output element is computed from, apart from the values: the datapath parameters
// (a parameter row's Numerics), the kind, the element types, K, block scaling and the instruction's
// modifiers. Std-only (kernels/probes/ compiles the fast path with nvcc).
#pragma once
#include <cstdint>
#include <string>

#include "isa/dtype.h"
#include "isa/mma_kind.h"
#include "models/mma/numerics.h"

namespace tcsim::models::mma {

using isa::MmaKind;

enum class ScaleType : uint8_t { None, UE8M0, UE4M3 };

struct DotShape {
  Numerics num;
  MmaKind kind = MmaKind::F16;
  DType atype = DType::F16;
  DType btype = DType::F16;
  DType dtype = DType::F32;   // type of C and D: F32, F16 (float kinds) or S32 (kind::i8)
  int k = 16;                 // products per output (the instruction's K)
  ScaleType scale_type = ScaleType::None;
  int scale_block = 0;        // K elements per scale factor: 32 (1X/2X) or 16 (4X); 0 = unscaled
  bool negate_a = false;      // tcgen05 idesc bit 13 / wgmma imm-scale-a = -1 (PTX ISA §9.7.16.4.2)
  bool negate_b = false;      // idesc bit 14 / imm-scale-b = -1
  int scale_input_d = 0;      // tcgen05 scale-input-d s in 0..15: D = A*B + D*2^-s (§9.7.16.10.9.1)
  bool saturate = false;      // kind::i8: clamp to the s32 range (.satfinite / idesc bit 3)

  int scale_blocks() const { return scale_block > 0 ? k / scale_block : 0; }
};

// Empty when the shape is consistent (types fit the kind, K divisible by the group and scale
// block, modifiers allowed for the kind); otherwise one line naming the offending field.
std::string check_shape(const DotShape& s);

}  // namespace tcsim::models::mma
