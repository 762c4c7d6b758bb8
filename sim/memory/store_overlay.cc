#include "sim/memory/store_overlay.h"

#include <algorithm>

namespace tcsim::sim {

StoreOverlay::Page* StoreOverlay::insert(uint64_t page) {
  std::unique_ptr<Page> fresh;
  if (spare_.empty()) {
    fresh = std::make_unique<Page>();
  } else {
    fresh = std::move(spare_.back());
    spare_.pop_back();
  }
  std::memset(fresh->dirty, 0, sizeof(fresh->dirty));
  fresh->words = 0;
  fresh->filled = false;
  Page* p = fresh.get();
  pages_.emplace(page, std::move(fresh));
  last_page_ = page;
  last_ = p;
  return p;
}

void StoreOverlay::write(const GlobalMemory& /*gm*/, uint64_t addr, const void* src, uint32_t size) {
  const uint64_t page = addr >> kPageBits;
  Page* p = const_cast<Page*>(find(page));
  if (!p) p = insert(page);
  const uint64_t off = addr & (kPageSize - 1);
  std::memcpy(p->data + off, src, size);
  for (uint64_t b = off; b < off + size; ++b) {
    p->dirty[b >> 6] |= uint64_t{1} << (b & 63);
    p->words |= uint64_t{1} << (b >> 6);
  }
}

void StoreOverlay::merge_dirty(const Page& p, uint64_t off, uint8_t* dst, uint32_t size) {
  for (uint64_t w = off >> 6; w <= (off + size - 1) >> 6; ++w) {
    uint64_t bits = p.dirty[w];
    if (!bits) continue;
    // Only the bytes of word w inside [off, off + size).
    const uint64_t lo = std::max<uint64_t>(off, w << 6) - (w << 6), hi = std::min<uint64_t>(off + size, (w + 1) << 6) - (w << 6);
    bits &= (hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1) & ~((uint64_t{1} << lo) - 1);
    while (bits) {
      const int b = __builtin_ctzll(bits);
      dst[(w << 6) + b - off] = p.data[(w << 6) + b];
      bits &= bits - 1;
    }
  }
}

uint8_t* StoreOverlay::rmw_view(const GlobalMemory& gm, uint64_t addr) {
  const uint64_t page = addr >> kPageBits;
  Page* p = const_cast<Page*>(find(page));
  if (!p) p = insert(page);
  if (!p->filled) {
    // The read-modify-write sees, and changes in place, global memory's bytes where the partition
    // did not store.
    const uint8_t* src = gm.host(page << kPageBits);
    for (uint64_t w = 0; w < kPageSize / 64; ++w) {
      uint64_t keep = ~p->dirty[w];
      if (keep == ~uint64_t{0}) {
        std::memcpy(p->data + w * 64, src + w * 64, 64);
        continue;
      }
      while (keep) {
        const int b = __builtin_ctzll(keep);
        p->data[w * 64 + b] = src[w * 64 + b];
        keep &= keep - 1;
      }
    }
    p->filled = true;
  }
  return p->data + (addr & (kPageSize - 1));
}

void StoreOverlay::commit(GlobalMemory& gm) {
  // initcheck: the stored bytes are written from now on for every partition (sim/checker/global_init.h).
  const bool track = gm.tracks_uninitialised();
  for (auto& [page, p] : pages_) {
    uint8_t* dst = gm.host(page << kPageBits);
    for (uint64_t words = p->words; words; words &= words - 1) {
      const uint64_t w = static_cast<uint64_t>(__builtin_ctzll(words));
      uint64_t bits = p->dirty[w];
      if (track && bits) gm.mark_initialised_mask((page << kPageBits) + w * 64, bits);
      if (bits == ~uint64_t{0}) {
        std::memcpy(dst + w * 64, p->data + w * 64, 64);
        continue;
      }
      while (bits) {
        int b = __builtin_ctzll(bits);
        dst[w * 64 + b] = p->data[w * 64 + b];
        bits &= bits - 1;
      }
    }
  }
  // The pages are kept for the next quantum's stores (no allocation and first-touch page faults
  // per quantum): at most as many as one quantum used.
  for (auto& [page, p] : pages_) spare_.push_back(std::move(p));
  pages_.clear();
  last_page_ = ~uint64_t{0};
  last_ = nullptr;
}

}  // namespace tcsim::sim
