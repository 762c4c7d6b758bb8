// Every (instruction path, kind, A type, B type, D type) combination the H200 (sm_90a) has,
// with a launcher for its one-tile kernel (mma_kernels.cuh) and the tcsim parameter row that
// models it. Shared by probes_main.cu and diff_main.cu.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/mma/engine.h"
#include "models/mma/param_table.h"

namespace probes {

using tcsim::isa::DType;
using tcsim::isa::MmaKind;
namespace mm = tcsim::models::mma;

enum class HwPath : uint8_t { MmaSync, WgmmaSS, WgmmaRS };

// The machine whose tcsim rows the results are compared with: sm_90a, or sm_100a when the
// mma.sync kernels are rebuilt for a B200 (-DPROBES_SM100 -DPROBES_NO_WGMMA; probe B12).
#ifdef PROBES_SM100
inline constexpr mm::Arch kModelArch = mm::Arch::Sm100a;
#else
inline constexpr mm::Arch kModelArch = mm::Arch::Sm90a;
#endif

// Launches `tiles` tiles: A, B (packed elements), C, D (32-bit words) are device pointers.
using LaunchFn = void (*)(int tiles, const uint8_t* A, const uint8_t* B, const uint32_t* C,
                          uint32_t* D, int reps);

struct Combo {
  std::string name;  // e.g. "wgmma.SS e4m3*e5m2->f32"
  HwPath path;
  MmaKind kind;
  DType at, bt, dt;
  bool satfinite;
  bool negate_a;     // wgmma imm-scale-a = -1
  int M, N, K, ebytes;
  LaunchFn launch;

  mm::Path model_path() const { return path == HwPath::MmaSync ? mm::Path::MmaSync : mm::Path::Wgmma; }
  const mm::ParamRow* row() const {
    return mm::find_row(kModelArch, model_path(), kind, at, bt, dt);
  }
  // The engine of the row, optionally with parameter overrides ("name=value" assignments).
  mm::DotShape shape(const std::vector<std::string>& sets = {}) const;
};

const std::vector<Combo>& combos();

// Host helpers ------------------------------------------------------------------------------
uint32_t f16_to_f32_bits(uint32_t h);
std::string hex(uint32_t v, int digits);

}  // namespace probes
