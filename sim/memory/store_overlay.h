// Global stores of one simulation partition during a quantum. The partition sees its own stores
// at once (reads consult the overlay first); other partitions see them only when the overlay is
// committed at the quantum boundary, in partition order. This is what lets partitions run on host
// threads in parallel and stay deterministic: during a quantum global memory itself is read-only.
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

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
        read_page(gm, *p, addr, dst, size);
        return;
      }
    }
    std::memcpy(dst, gm.host(addr), size);
  }
  // Fixed-size forms (the compiler inlines the copies).
  template <uint32_t Size>
  void read_n(const GlobalMemory& gm, uint64_t addr, void* dst) const {
    if (!pages_.empty()) {
      if (const Page* p = find(addr >> kPageBits)) {
        read_page(gm, *p, addr, dst, Size);
        return;
      }
    }
    std::memcpy(dst, gm.host(addr), Size);
  }
  // Stores need no global memory bytes (the page is filled only for a read-modify-write); the
  // parameter keeps the forms alike.
  template <uint32_t Size>
  void write_n(const GlobalMemory& /*gm*/, uint64_t addr, const void* src) {
    const uint64_t page = addr >> kPageBits;
    Page* p = const_cast<Page*>(find(page));
    if (!p) p = insert(page);
    const uint64_t off = addr & (kPageSize - 1);
    std::memcpy(p->data + off, src, Size);
    if constexpr (Size >= 8) {
      for (uint64_t w = off >> 6; w <= (off + Size - 1) >> 6; ++w) {
        p->words |= uint64_t{1} << w;
        const uint64_t lo = std::max<uint64_t>(off, w << 6) & 63, hi = std::min<uint64_t>(off + Size, (w + 1) << 6) - (w << 6);
        p->dirty[w] |= (hi - lo == 64) ? ~uint64_t{0} : (((uint64_t{1} << (hi - lo)) - 1) << lo);
      }
    } else {
      p->words |= uint64_t{1} << (off >> 6);
      p->dirty[off >> 6] |= ((uint64_t{1} << Size) - 1) << (off & 63);
    }
  }
  void write(const GlobalMemory& gm, uint64_t addr, const void* src, uint32_t size);
  // The overlay's bytes at `addr` for a read-modify-write its partition sees at once (bulk
  // reductions: sim/memory/rmw_log.h), without marking them stored: the operation reaches global
  // memory through the RMW log, not through commit(). Naturally aligned, at most 8 bytes.
  uint8_t* rmw_view(const GlobalMemory& gm, uint64_t addr);
  // Whether this partition stored to any of the `size` bytes at `addr` in this quantum.
  bool dirty(uint64_t addr, uint32_t size) const {
    const Page* p = find(addr >> kPageBits);
    return p && dirty(*p, addr & (kPageSize - 1), size);
  }
  // Applies the dirty bytes to global memory and clears the overlay.
  void commit(GlobalMemory& gm);

 private:
  // A page's data holds the partition's stores (the dirty bytes); the other bytes are global
  // memory's, which does not change during a quantum, so they are copied in only when a
  // read-modify-write needs the page whole (`filled`); until then a read merges the two.
  struct Page {
    uint8_t data[kPageSize];
    uint64_t dirty[kPageSize / 64];
    uint64_t words;  // bit w: dirty[w] != 0
    bool filled;     // data holds every byte of the page
  };
  static void read_page(const GlobalMemory& gm, const Page& p, uint64_t addr, void* dst, uint32_t size) {
    const uint64_t off = addr & (kPageSize - 1);
    if (p.filled) {
      std::memcpy(dst, p.data + off, size);
      return;
    }
    std::memcpy(dst, gm.host(addr), size);
    merge_dirty(p, off, static_cast<uint8_t*>(dst), size);
  }
  // dst[0, size) (the page's bytes from `off`) takes the dirty bytes of p.
  static void merge_dirty(const Page& p, uint64_t off, uint8_t* dst, uint32_t size);
  // One-entry cache of the last lookup, hits and misses alike (the lanes of one instruction
  // usually touch one page); write() refreshes it when it inserts.
  Page* insert(uint64_t page);
  const Page* find(uint64_t page) const {
    if (page == last_page_) return last_;
    auto it = pages_.find(page);
    last_page_ = page;
    last_ = it == pages_.end() ? nullptr : it->second.get();
    return last_;
  }
  bool dirty(const Page& p, uint64_t off, uint32_t size) const {
    for (uint64_t b = off; b < off + size; ++b)
      if (p.dirty[b >> 6] >> (b & 63) & 1) return true;
    return false;
  }
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  std::vector<std::unique_ptr<Page>> spare_;  // committed pages, reused by insert()
  mutable uint64_t last_page_ = ~uint64_t{0};
  mutable Page* last_ = nullptr;
};

}  // namespace tcsim::sim
