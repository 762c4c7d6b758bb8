// The lines a partition filled in the L2 during one quantum (PartitionTiming::pending): an
// open-addressing table keyed by line number whose storage survives clear(), so the per-quantum map
// costs no allocation once it has grown to the busiest quantum's size (a node-based map allocated and
// freed one node per filled line). clear() is O(1) (one pass over the keys every 255 quanta): a slot belongs to the current
// quantum only when its stamp is the current one. Lookups never depend on the order of insertion, so the contents (and
// the cycles computed from them) are those of any other map.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace tcsim::sim::timing {

template <class V>
class LineMap {
 public:
  // The value stored for `line`, or nullptr.
  V* find(uint64_t line) {
    if (keys_.empty()) return nullptr;
    const uint64_t key = line << kStampBits | stamp_;
    for (size_t i = home(line);; i = (i + 1) & mask_) {
      const uint64_t k = keys_[i];
      if (k == key) return &values_[i];
      if ((k & kStampMask) != stamp_) return nullptr;
    }
  }
  // The value stored for `line`, value-initialised when it is new.
  V& operator[](uint64_t line) {
    if ((size_ + 1) * 2 > keys_.size()) grow();
    const uint64_t key = line << kStampBits | stamp_;
    for (size_t i = home(line);; i = (i + 1) & mask_) {
      const uint64_t k = keys_[i];
      if (k == key) return values_[i];
      if ((k & kStampMask) != stamp_) {
        keys_[i] = key;
        values_[i] = V{};
        ++size_;
        return values_[i];
      }
    }
  }
  size_t size() const { return size_; }
  void clear() {
    size_ = 0;
    if (++stamp_ > kStampMask) {  // the stamp wrapped: forget every slot for real (once per 255 quanta)
      std::fill(keys_.begin(), keys_.end(), uint64_t{0});
      stamp_ = 1;
    }
  }

 private:
  // A key is line << kStampBits | the stamp of the quantum that wrote it (0: never written); line
  // numbers are addresses / 128, far below 2^56, so the shift loses nothing.
  static constexpr uint32_t kStampBits = 8;
  static constexpr uint64_t kStampMask = (uint64_t{1} << kStampBits) - 1;
  size_t home(uint64_t line) const { return static_cast<size_t>((line * 0x9e3779b97f4a7c15ull) >> 32) & mask_; }
  void grow() {
    std::vector<uint64_t> old_keys;
    std::vector<V> old_values;
    old_keys.swap(keys_);
    old_values.swap(values_);
    const size_t n = old_keys.empty() ? 1024 : old_keys.size() * 2;
    keys_.assign(n, 0);
    values_.assign(n, V{});
    mask_ = n - 1;
    size_ = 0;
    for (size_t i = 0; i < old_keys.size(); ++i)
      if ((old_keys[i] & kStampMask) == stamp_) (*this)[old_keys[i] >> kStampBits] = old_values[i];
  }
  std::vector<uint64_t> keys_;  // kept apart from the values: a miss (the common lookup) reads only keys
  std::vector<V> values_;
  size_t mask_ = 0, size_ = 0;
  uint64_t stamp_ = 1;
};

}  // namespace tcsim::sim::timing
