// Three-dimensional extents and indices (grid, block, cluster, CTA ids), as CUDA's dim3.
#pragma once
#include <cstdint>

namespace tcsim::sim {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

}  // namespace tcsim::sim
