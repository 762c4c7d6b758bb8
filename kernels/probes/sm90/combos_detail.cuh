// Launchers and the row-adding helper shared by combos_mma_sync.cu, combos_wgmma_ss.cu and
// combos_wgmma_rs.cu (one translation unit per path, so nvcc builds them in parallel).
#pragma once
#include <string>
#include <vector>

#include "kernels/probes/sm90/combos.h"
#include "kernels/probes/sm90/mma_kernels.cuh"

namespace probes {

template <class Op, int EB, int K>
void launch_mma(int tiles, const uint8_t* A, const uint8_t* B, const uint32_t* C, uint32_t* D,
                int reps) {
  mma_sync_tiles<Op, EB, K><<<tiles, 32>>>(A, B, C, D, reps);
}

template <class Op, int EB, int K, int SA>
void launch_wg(int tiles, const uint8_t* A, const uint8_t* B, const uint32_t* C, uint32_t* D,
               int reps) {
  wgmma_tiles<Op, EB, K, SA><<<tiles, 128>>>(A, B, C, D, reps);
}

using D_ = DType;
using K_ = MmaKind;

struct ComboAdder {
  std::vector<Combo>& v;
  void mma(const char* n, K_ kind, D_ a, D_ b, D_ d, bool sat, int k, int eb, LaunchFn f) {
    v.push_back({std::string("mma.sync ") + n, HwPath::MmaSync, kind, a, b, d, sat, false, 16, 8,
                 k, eb, f});
  }
  void wg(HwPath p, const char* n, K_ kind, D_ a, D_ b, D_ d, bool sat, bool neg, int k, int eb,
          LaunchFn f) {
    v.push_back({std::string(p == HwPath::WgmmaSS ? "wgmma.SS " : "wgmma.RS ") + n, p, kind, a,
                 b, d, sat, neg, 64, 64, k, eb, f});
  }
};

}  // namespace probes
