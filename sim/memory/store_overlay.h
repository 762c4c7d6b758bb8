// Global stores of one simulation partition during a quantum. The partition sees its own stores
// at once (reads consult the overlay first); other partitions see them only when the overlay is
// committed at the quantum boundary, in partition order. This is what lets partitions run on host
// threads in parallel and stay deterministic: during a quantum global memory itself is read-only.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "sim/memory/global_memory.h"

namespace tcsim::sim {

class StoreOverlay {
 public:
  static constexpr uint64_t kPageBits = 12;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;

  bool empty() const { return pages_.empty(); }

  // Accesses never straddle a page: they are naturally aligned and at most kPageSize bytes.
  void read(const GlobalMemory& gm, uint64_t addr, void* dst, uint32_t size) const {
    if (!pages_.empty()) {
      if (const Page* p = find(addr >> kPageBits)) {
        std::memcpy(dst, p->data + (addr & (kPageSize - 1)), size);
        return;
      }
    }
    std::memcpy(dst, gm.host(addr), size);
  }
  void write(const GlobalMemory& gm, uint64_t addr, const void* src, uint32_t size);
  // Applies the dirty bytes to global memory and clears the overlay.
  void commit(GlobalMemory& gm);

 private:
  struct Page {
    uint8_t data[kPageSize];
    uint64_t dirty[kPageSize / 64];
  };
  const Page* find(uint64_t page) const {
    if (page == last_page_) return last_;
    auto it = pages_.find(page);
    if (it == pages_.end()) return nullptr;
    last_page_ = page;
    last_ = it->second.get();
    return last_;
  }
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  mutable uint64_t last_page_ = ~uint64_t{0};
  mutable Page* last_ = nullptr;
};

}  // namespace tcsim::sim
