#include "sim/units/smem_origin.h"

#include <algorithm>

#include "sim/cta.h"
#include "sim/units/tma_box.h"

namespace tcsim::sim {

void SmemOrigin::note(uint32_t off, uint64_t global, uint32_t bytes, uint32_t pitch, uint8_t swizzle) {
  if (!bytes) return;
  const uint32_t last = (off + bytes - 1) / 16;
  if (chunks_.size() <= last) chunks_.resize(last + 1);
  for (uint32_t c = off / 16; c <= last; ++c) {
    // The chunk's byte 0 corresponds to global - (off - 16c); the copy is contiguous inside it.
    chunks_[c].global = global - (uint64_t{off} - uint64_t{c} * 16);
    chunks_[c].pitch = pitch;
    chunks_[c].swizzle = swizzle;
  }
}

void note_tma_box_origin(Cta& cta, const tma::TileBox& box) {
  const uint32_t bits = box.elem_bits();
  if (bits < 8) return;
  const uint32_t n = bits / 8, per_chunk = 16 / n;
  const isa::TensorMapParams& map = box.map();
  const uint32_t pitch = map.rank > 1 ? static_cast<uint32_t>(map.global_strides[0]) : 0;
  const uint8_t swz = static_cast<uint8_t>(map.swizzle);
  SmemOrigin& o = cta.smem_origin();
  box.for_each_row(map.global_dim[0], [&](const uint32_t (&i)[5], uint64_t addr, uint32_t first, uint32_t count) {
    // One note per 16-byte chunk of the row (the first may start inside one).
    for (uint32_t x = first; x < first + count;) {
      const isa::SmemLocation at = box.layout().locate(x, i[1], i[2], i[3], i[4]);
      const uint32_t run = std::min(per_chunk - x % per_chunk, first + count - x);
      o.note(at.byte, addr + uint64_t{x} * n, run * n, pitch, swz);
      x += run;
    }
  });
}

}  // namespace tcsim::sim
