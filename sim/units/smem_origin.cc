#include "sim/units/smem_origin.h"

#include "sim/cta.h"

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

void note_smem_origin(Cta& cta, uint32_t off, uint64_t global, uint32_t bytes, uint32_t pitch, uint8_t swizzle) {
  cta.smem_origin().note(off, global, bytes, pitch, swizzle);
}

}  // namespace tcsim::sim
