// Where the bytes of a CTA's shared memory came from, for the tensor core's operand diagnosis: the
// TMA engine notes, for every 16-byte chunk a cp.async.bulk.tensor load writes, the global address
// its first byte was read from, the tensor's row pitch (globalStrides[0]) and the map's swizzle.
// tcgen05.mma then checks that the elements its descriptor makes it read are the ones a consistent
// tile would hold (A[m][k] = A[0][0] + m rows + k elements) and, when not, names the first misread
// element and the descriptor field whose change would fix every read (the swizzle-bug diagnosis,
// kernels/tcgen05/README.md "Swizzle-bug demo").
//
// Only loads by TMA are recorded. A generic store (st.shared) over TMA-loaded bytes does not erase
// their record (the generic store path is not hooked), so a kernel that overwrites a TMA tile with
// ordinary stores and then feeds it to the tensor core could get a misread report it does not
// deserve; no kernel of the corpora does that.
#pragma once
#include <cstdint>
#include <vector>

namespace tcsim::sim {

class Cta;
namespace tma {
class TileBox;
}

struct SmemOriginChunk {
  uint64_t global = 0;  // global address of the chunk's byte 0 (0: unknown)
  uint32_t pitch = 0;   // the tensor's row pitch in bytes
  uint8_t swizzle = 0;  // the tensor map's swizzle (CU_TENSOR_MAP_SWIZZLE_* numbering: 0 none, 1 32B, 2 64B, 3 128B, ...)
};

class SmemOrigin {
 public:
  // `bytes` bytes at shared offset `off` were copied from global address `global`.
  void note(uint32_t off, uint64_t global, uint32_t bytes, uint32_t pitch, uint8_t swizzle);
  // The global address shared byte `off` came from, or 0 when unknown.
  uint64_t global_of(uint32_t off) const {
    const uint32_t c = off / 16;
    return c < chunks_.size() && chunks_[c].global ? chunks_[c].global + off % 16 : 0;
  }
  const SmemOriginChunk* chunk(uint32_t off) const {
    const uint32_t c = off / 16;
    return c < chunks_.size() && chunks_[c].global ? &chunks_[c] : nullptr;
  }
  bool empty() const { return chunks_.empty(); }

 private:
  std::vector<SmemOriginChunk> chunks_;
};

// The TMA engine's hook: notes every in-bound 16-byte chunk of a tile-mode load box that just landed
// in `cta` (elements of 8 bits or more; the box's rows are 16-byte granules in shared memory).
void note_tma_box_origin(Cta& cta, const tma::TileBox& box);

}  // namespace tcsim::sim
