#include "sim/memory/store_overlay.h"

namespace tcsim::sim {

StoreOverlay::Page* StoreOverlay::insert(const GlobalMemory& gm, uint64_t page) {
  auto fresh = std::make_unique<Page>();
  std::memcpy(fresh->data, gm.host(page << kPageBits), kPageSize);
  std::memset(fresh->dirty, 0, sizeof(fresh->dirty));
  Page* p = fresh.get();
  pages_.emplace(page, std::move(fresh));
  last_page_ = page;
  last_ = p;
  return p;
}

void StoreOverlay::write(const GlobalMemory& gm, uint64_t addr, const void* src, uint32_t size) {
  const uint64_t page = addr >> kPageBits;
  Page* p = const_cast<Page*>(find(page));
  if (!p) p = insert(gm, page);
  const uint64_t off = addr & (kPageSize - 1);
  std::memcpy(p->data + off, src, size);
  for (uint64_t b = off; b < off + size; ++b) p->dirty[b >> 6] |= uint64_t{1} << (b & 63);
}

uint8_t* StoreOverlay::rmw_view(const GlobalMemory& gm, uint64_t addr) {
  const uint64_t page = addr >> kPageBits;
  Page* p = const_cast<Page*>(find(page));
  if (!p) p = insert(gm, page);
  return p->data + (addr & (kPageSize - 1));
}

void StoreOverlay::commit(GlobalMemory& gm) {
  // initcheck: the stored bytes are written from now on for every partition (sim/checker/global_init.h).
  const bool track = gm.tracks_uninitialised();
  for (auto& [page, p] : pages_) {
    uint8_t* dst = gm.host(page << kPageBits);
    for (uint64_t w = 0; w < kPageSize / 64; ++w) {
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
  pages_.clear();
  last_page_ = ~uint64_t{0};
  last_ = nullptr;
}

}  // namespace tcsim::sim
