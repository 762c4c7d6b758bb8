// Shared-memory bytes a TMA tile load did not copy (`tcsim run --timing-only`, sim/api.h
// DeviceOptions::timing_only_copies): at production sizes the copy of every tile is most of a
// timing-only run's host time, and the values matter to the cycles only where the program reads
// them. The TMA engine marks the box it skipped; the tensor core's operand reads (wgmma,
// tcgen05.mma: no arithmetic under --timing-only) do not look at the mark; every other reader of
// shared memory (ld/ldmatrix/atom/red of the generic proxy, mbarrier words, TMA and bulk stores
// from shared memory, DSMEM) checks it and throws TimingOnlyNeedsCopies when a byte it reads is
// marked: its value could steer control flow, an address or global memory, so the launch must be
// run again with the copies (tools/tcsim/sim_backend.h run_timing_only_safe). A write of whole
// 16-byte granules clears their mark (their bytes are now the program's).
#pragma once
#include <cstdint>
#include <vector>

namespace tcsim::sim {

class UncopiedSmem {
 public:
  static constexpr uint32_t kGranule = 16;
  // [off, off + n) holds bytes TMA did not copy.
  void mark(uint32_t off, uint32_t n);
  // [off, off + n) was written: the granules it covers entirely hold real bytes again.
  void clear(uint32_t off, uint32_t n) {
    if (marked_) clear_slow(off, n);
  }
  // Whether any byte of [off, off + n) is marked.
  bool any(uint32_t off, uint32_t n) const { return marked_ && n && any_slow(off, n); }
  bool empty() const { return marked_ == 0; }

 private:
  void clear_slow(uint32_t off, uint32_t n);
  bool any_slow(uint32_t off, uint32_t n) const;
  std::vector<uint64_t> bits_;  // one bit per 16-byte granule
  uint64_t marked_ = 0;         // granules marked
};

// Throws TimingOnlyNeedsCopies (sim/api.h) when `u` marks a byte of [off, off + n): `what` reads it.
void check_copied(const UncopiedSmem& u, uint32_t off, uint32_t n, const char* what);

}  // namespace tcsim::sim
