#include "sim/timing/state.h"

#include <algorithm>

namespace tcsim::sim::timing {

const char* stall_name(Stall s) {
  switch (s) {
    case Stall::Issue: return "issuing";
    case Stall::Dependency: return "register dependency";
    case Stall::Memory: return "memory load";
    case Stall::TmemLoad: return "TMEM load";
    case Stall::Pipe: return "pipe / issue slot busy";
    case Stall::Mbarrier: return "mbarrier wait";
    case Stall::Barrier: return "bar.sync";
    case Stall::ClusterBarrier: return "cluster barrier";
    case Stall::AsyncWait: return "async wait (wgmma / copies / alloc)";
    case Stall::Fence: return "fence";
    case Stall::Sleep: return "sleep / atomics";
    case Stall::TensorQueue: return "tensor-core queue full";
    case Stall::TmaQueue: return "TMA queue full";
    case Stall::Count_: break;
  }
  return "?";
}

void Tags::init(uint64_t bytes, uint32_t line_bytes, uint32_t ways) {
  ways_ = std::max<uint32_t>(1, ways);
  sets_ = std::max<uint64_t>(1, bytes / line_bytes / ways_);
  ways_tag_.assign(sets_ * ways_, kEmpty);
  next_.assign(sets_, 0);
}

bool Tags::contains(uint64_t line, uint8_t sectors) const {
  if (!sets_) return false;
  const uint64_t set = (line ^ (line >> 17)) % sets_;
  const uint64_t* t = &ways_tag_[set * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (t[w] >> 4 == line) return (t[w] & sectors) == sectors;
  return false;
}

void Tags::insert(uint64_t line, uint8_t sectors) {
  if (!sets_) return;
  const uint64_t set = (line ^ (line >> 17)) % sets_;
  uint64_t* t = &ways_tag_[set * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (t[w] >> 4 == line) {
      t[w] |= sectors & kAllSectors;
      return;
    }
  t[next_[set]] = line << 4 | (sectors & kAllSectors);
  next_[set] = static_cast<uint8_t>((next_[set] + 1) % ways_);
}

void L2::init(uint64_t bytes) { tags_.init(bytes, 128, 16); }

}  // namespace tcsim::sim::timing
