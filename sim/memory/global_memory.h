// Device global memory: one reserved host arena (lazily committed pages, zero-filled) addressed
// from addr::kGlobalBase, carved into allocations with guard gaps so that an access just past an
// allocation is never inside the next one. Every kernel access is checked against the allocation
// table: out-of-bounds is reported, never a host crash.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tcsim::sim {

struct Allocation {
  uint64_t base = 0;
  uint64_t size = 0;
  std::string label;  // "cudaMalloc #3", ".global gcount", ".const ctab"
  bool is_const = false;  // module .const data (ld.const may only read these)
  uint32_t id = 0;    // 1, 2, ... in allocation order (never reused)
  // initcheck (sim/checker/global_init.h): whether every byte was written, by the host (a copy, a
  // memset, a zero-initialised module variable) or by a kernel; else, per byte, which were
  // (bit i of init_bits: byte i; empty: none yet). Changed only between quanta (serially).
  bool initialised = true;
  uint64_t init_count = 0;
  std::vector<uint64_t> init_bits;
};

class GlobalMemory {
 public:
  GlobalMemory();
  ~GlobalMemory();
  GlobalMemory(const GlobalMemory&) = delete;
  GlobalMemory& operator=(const GlobalMemory&) = delete;

  // Returns the device address; throws std::runtime_error (one clear line) when the arena is full.
  // `initialised`: the bytes count as written (module variables: the module load writes their
  // initializer or zeros); a device malloc's are not until the host or a kernel writes them
  // (cuMemAlloc leaves the contents undefined).
  uint64_t allocate(uint64_t bytes, uint64_t align, std::string label, bool is_const = false,
                    bool initialised = true);

  // Removes the allocation starting at `base` (false if there is none): accesses to it then miss
  // and describe_miss names it as freed; its pages go back to the OS. Addresses are never reused
  // (bump allocation), so a stale pointer can never reach a newer allocation.
  bool release(uint64_t base);

  // The allocation containing [addr, addr+size), or nullptr.
  const Allocation* find(uint64_t addr, uint64_t size) const;
  // Why [addr, addr+size) is not accessible: names the nearest allocation and the distance.
  std::string describe_miss(uint64_t addr, uint64_t size) const;

  // Host view of device bytes (no check: callers check with find() first).
  uint8_t* host(uint64_t addr) { return arena_ + (addr - kBase()); }
  const uint8_t* host(uint64_t addr) const { return arena_ + (addr - kBase()); }

  const std::vector<Allocation>& allocations() const { return allocs_; }

  // ---- initcheck: which bytes of which allocation were ever written ----
  // Whether any live allocation has bytes nothing wrote (else every mark below is a no-op).
  bool tracks_uninitialised() const { return uninit_ != 0; }
  // [addr, addr + n) was written (by the host, or by a kernel at a quantum boundary). Bytes
  // outside every allocation are ignored.
  void mark_initialised(uint64_t addr, uint64_t n) {
    if (uninit_) mark_slow(addr, n);
  }
  // The bytes of the 64-byte block at `addr` (64-aligned) whose bits are set in `mask`.
  void mark_initialised_mask(uint64_t addr, uint64_t mask);
  // [dst, dst + n) was copied from [src, src + n): a byte counts as written where its source
  // byte was (the source's state is read before any is marked, so the ranges may overlap).
  void mark_copied(uint64_t dst, uint64_t src, uint64_t n);
  // The offset in `a` of the first byte of [addr, addr + n) nothing wrote, or -1 when all were.
  static int64_t first_uninitialised(const Allocation& a, uint64_t addr, uint64_t n);
  // Renames a live allocation (a launch spec's buffer name); false if `base` starts none.
  bool set_label(uint64_t base, std::string label);

 private:
  static uint64_t kBase();
  Allocation* find_mut(uint64_t addr);
  void mark_slow(uint64_t addr, uint64_t n);
  static void mark_bits(Allocation& a, uint64_t first, uint64_t n, size_t& uninit);
  size_t uninit_ = 0;    // live allocations with bytes nothing wrote
  uint32_t next_id_ = 0;
  uint8_t* arena_ = nullptr;
  uint64_t reserved_ = 0;
  uint64_t top_ = 0;  // offset of the first free byte
  std::vector<Allocation> allocs_;  // sorted by base (bump allocation keeps them sorted)
  std::vector<Allocation> freed_;   // released allocations, sorted by base
};

}  // namespace tcsim::sim
