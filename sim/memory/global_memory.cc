#include "sim/memory/global_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "sim/address_space.h"

namespace tcsim::sim {
namespace {
// Gap between allocations: an overrun by less than this lands in no allocation and is reported.
constexpr uint64_t kGuard = 4096;
}  // namespace

uint64_t GlobalMemory::kBase() { return addr::kGlobalBase; }

GlobalMemory::GlobalMemory() {
  // Reserve address space only; pages are committed (zero-filled) by the OS on first touch.
  for (uint64_t size = uint64_t{1} << 40; size >= (uint64_t{1} << 30); size >>= 1) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p != MAP_FAILED) {
      arena_ = static_cast<uint8_t*>(p);
      reserved_ = size;
      break;
    }
  }
  if (!arena_) throw std::runtime_error("cannot reserve host address space for device global memory");
  top_ = kGuard;  // address kGlobalBase itself is never valid
}

GlobalMemory::~GlobalMemory() {
  if (arena_) munmap(arena_, reserved_);
}

uint64_t GlobalMemory::allocate(uint64_t bytes, uint64_t align, std::string label, bool is_const, bool initialised) {
  if (align == 0 || (align & (align - 1)) != 0)
    throw std::runtime_error(fmt::format("allocation alignment {} is not a power of two", align));
  align = std::max<uint64_t>(align, 256);
  uint64_t off = (top_ + align - 1) & ~(align - 1);
  const uint64_t size = std::max<uint64_t>(bytes, 1);
  if (off + size + kGuard > reserved_ || addr::kGlobalBase + off + size > addr::kGlobalLimit)
    throw std::runtime_error(fmt::format(
        "device memory exhausted: cannot allocate {} bytes ({} bytes of {} in use)", bytes, top_, reserved_));
  top_ = off + size + kGuard;
  Allocation a;
  a.base = addr::kGlobalBase + off;
  a.size = bytes;
  a.label = std::move(label);
  a.is_const = is_const;
  a.id = ++next_id_;
  a.initialised = initialised || bytes == 0;
  if (!a.initialised) ++uninit_;
  allocs_.push_back(std::move(a));
  return addr::kGlobalBase + off;
}

bool GlobalMemory::release(uint64_t base) {
  auto it = std::lower_bound(allocs_.begin(), allocs_.end(), base,
                             [](const Allocation& al, uint64_t a) { return al.base < a; });
  if (it == allocs_.end() || it->base != base) return false;
  // Whole pages inside the allocation return to the OS (zero-filled if ever touched again).
  const uint64_t page = 4096, lo = (base + page - 1) & ~(page - 1), hi = (base + it->size) & ~(page - 1);
  if (hi > lo) madvise(host(lo), hi - lo, MADV_DONTNEED);
  if (!it->initialised) --uninit_;
  it->init_bits = {};
  const auto pos = std::upper_bound(freed_.begin(), freed_.end(), base,
                                    [](uint64_t a, const Allocation& al) { return a < al.base; });
  freed_.insert(pos, std::move(*it));
  allocs_.erase(it);
  return true;
}

const Allocation* GlobalMemory::find(uint64_t addr, uint64_t size) const {
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                             [](uint64_t a, const Allocation& al) { return a < al.base; });
  if (it == allocs_.begin()) return nullptr;
  --it;
  if (addr - it->base < it->size && size <= it->size - (addr - it->base)) return &*it;
  return nullptr;
}

Allocation* GlobalMemory::find_mut(uint64_t addr) {
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                             [](uint64_t a, const Allocation& al) { return a < al.base; });
  if (it == allocs_.begin()) return nullptr;
  --it;
  return addr - it->base < it->size ? &*it : nullptr;
}

bool GlobalMemory::set_label(uint64_t base, std::string label) {
  Allocation* a = find_mut(base);
  if (!a || a->base != base) return false;
  a->label = std::move(label);
  return true;
}

void GlobalMemory::mark_bits(Allocation& a, uint64_t first, uint64_t n, size_t& uninit) {
  if (a.initialised || n == 0) return;
  if (first == 0 && n == a.size) {
    a.initialised = true;
    a.init_bits = {};
    --uninit;
    return;
  }
  if (a.init_bits.empty()) a.init_bits.assign((a.size + 63) / 64, 0);
  for (uint64_t b = first, end = first + n; b < end;) {
    const uint64_t w = b / 64, lo = b % 64, k = std::min<uint64_t>(64 - lo, end - b);
    const uint64_t m = (k == 64 ? ~uint64_t{0} : ((uint64_t{1} << k) - 1)) << lo;
    a.init_count += static_cast<uint64_t>(__builtin_popcountll(m & ~a.init_bits[w]));
    a.init_bits[w] |= m;
    b += k;
  }
  if (a.init_count == a.size) {
    a.initialised = true;
    a.init_bits = {};
    --uninit;
  }
}

void GlobalMemory::mark_slow(uint64_t addr, uint64_t n) {
  while (n) {
    Allocation* a = find_mut(addr);
    if (!a) {
      // Not inside an allocation: skip to the next one (or stop).
      auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                                 [](uint64_t x, const Allocation& al) { return x < al.base; });
      if (it == allocs_.end() || it->base - addr >= n) return;
      n -= it->base - addr;
      addr = it->base;
      continue;
    }
    const uint64_t k = std::min(n, a->base + a->size - addr);
    mark_bits(*a, addr - a->base, k, uninit_);
    addr += k;
    n -= k;
  }
}

void GlobalMemory::mark_initialised_mask(uint64_t addr, uint64_t mask) {
  if (!uninit_ || !mask) return;
  if (mask == ~uint64_t{0}) return mark_slow(addr, 64);
  while (mask) {
    const int b = __builtin_ctzll(mask);
    const int len = __builtin_ctzll(~(mask >> b));  // the run of set bits starting at b
    mark_slow(addr + static_cast<uint64_t>(b), static_cast<uint64_t>(len));
    mask = len + b >= 64 ? 0 : mask & ~(((uint64_t{1} << len) - 1) << b);
  }
}

void GlobalMemory::mark_copied(uint64_t dst, uint64_t src, uint64_t n) {
  if (!uninit_ || n == 0) return;
  const Allocation* a = find(src, n);
  if (!a || a->initialised) return mark_slow(dst, n);
  // The runs of written source bytes, then their marks (an overlapping dst must not feed back).
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  if (!a->init_bits.empty()) {
    const uint64_t first = src - a->base;
    uint64_t b = first;
    while (b < first + n) {
      if (!(a->init_bits[b / 64] >> (b % 64) & 1)) {
        ++b;
        continue;
      }
      const uint64_t start = b;
      while (b < first + n && (a->init_bits[b / 64] >> (b % 64) & 1)) ++b;
      runs.emplace_back(start - first, b - start);
    }
  }
  for (const auto& [off, len] : runs) mark_slow(dst + off, len);
}

int64_t GlobalMemory::first_uninitialised(const Allocation& a, uint64_t addr, uint64_t n) {
  if (a.initialised) return -1;
  const uint64_t first = addr - a.base;
  if (a.init_bits.empty()) return n ? static_cast<int64_t>(first) : -1;
  for (uint64_t b = first; b < first + n; ++b)
    if (!(a.init_bits[b / 64] >> (b % 64) & 1)) return static_cast<int64_t>(b);
  return -1;
}

std::string GlobalMemory::describe_miss(uint64_t addr, uint64_t size) const {
  {
    auto it = std::upper_bound(freed_.begin(), freed_.end(), addr,
                               [](uint64_t a, const Allocation& al) { return a < al.base; });
    if (it != freed_.begin() && addr - (it - 1)->base < std::max<uint64_t>((it - 1)->size, 1))
      return fmt::format("the access is {} bytes into {} [0x{:x}, 0x{:x}), which was freed", addr - (it - 1)->base,
                         (it - 1)->label, (it - 1)->base, (it - 1)->base + (it - 1)->size);
  }
  if (allocs_.empty()) return "no device memory is allocated";
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                             [](uint64_t a, const Allocation& al) { return a < al.base; });
  const Allocation* below = it == allocs_.begin() ? nullptr : &*(it - 1);
  const Allocation* above = it == allocs_.end() ? nullptr : &*it;
  auto range = [](const Allocation& a) {
    return fmt::format("{} [0x{:x}, 0x{:x}) ({} bytes)", a.label, a.base, a.base + a.size, a.size);
  };
  if (below && addr >= below->base && addr < below->base + below->size)
    return fmt::format("the access ends {} bytes past the end of {}", addr + size - (below->base + below->size),
                       range(*below));
  if (below && (!above || addr - (below->base + below->size) <= above->base - addr))
    return fmt::format("{} bytes past the end of {}", addr - (below->base + below->size), range(*below));
  if (above) return fmt::format("{} bytes before the start of {}", above->base - addr, range(*above));
  return "outside every allocation";
}

}  // namespace tcsim::sim
