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
  uint64_t base;
  uint64_t size;
  std::string label;  // "cudaMalloc #3", ".global gcount", ".const ctab"
  bool is_const;      // module .const data (ld.const may only read these)
};

class GlobalMemory {
 public:
  GlobalMemory();
  ~GlobalMemory();
  GlobalMemory(const GlobalMemory&) = delete;
  GlobalMemory& operator=(const GlobalMemory&) = delete;

  // Returns the device address; throws std::runtime_error (one clear line) when the arena is full.
  uint64_t allocate(uint64_t bytes, uint64_t align, std::string label, bool is_const = false);

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

 private:
  static uint64_t kBase();
  uint8_t* arena_ = nullptr;
  uint64_t reserved_ = 0;
  uint64_t top_ = 0;  // offset of the first free byte
  std::vector<Allocation> allocs_;  // sorted by base (bump allocation keeps them sorted)
  std::vector<Allocation> freed_;   // released allocations, sorted by base
};

}  // namespace tcsim::sim
