// The simulated generic address space (PTX ISA §5.1 "State spaces", §6.4.1 "Generic addressing").
// Global allocations look like real 64-bit device pointers; shared, local and kernel-parameter
// memory are reached through fixed generic windows, as on the GPU (cvta / isspacep convert between
// a window address and the space's own address, which starts at 0).
//
//   0x0000_7f00_0000_0000 ... global memory (allocations, module .global/.const data)
//   0x0000_7ffa_0000_0000 ... function addresses (indirect calls; not data)
//   0x0000_7ffc_0000_0000 ... kernel parameter window (cvta.param)
//   0x0000_7ffd_0000_0000 ... local window (per thread; cvta.local)
//   0x0000_7ffe_0000_0000 ... shared window (per CTA; cvta.shared; 32-bit shared addresses)
#pragma once
#include <cstdint>

namespace tcsim::sim::addr {

inline constexpr uint64_t kGlobalBase = 0x00007f0000000000ull;
inline constexpr uint64_t kGlobalLimit = 0x00007ff000000000ull;
inline constexpr uint64_t kFuncBase = 0x00007ffa00000000ull;
inline constexpr uint64_t kParamWindow = 0x00007ffc00000000ull;
inline constexpr uint64_t kLocalWindow = 0x00007ffd00000000ull;
inline constexpr uint64_t kSharedWindow = 0x00007ffe00000000ull;
inline constexpr uint64_t kWindowSize = 0x0000000100000000ull;  // 4 GiB each

enum class Window : uint8_t { Global, Shared, Local, Param, Func, Invalid };

constexpr Window classify(uint64_t generic) {
  if (generic >= kSharedWindow && generic < kSharedWindow + kWindowSize) return Window::Shared;
  if (generic >= kLocalWindow && generic < kLocalWindow + kWindowSize) return Window::Local;
  if (generic >= kParamWindow && generic < kParamWindow + kWindowSize) return Window::Param;
  if (generic >= kFuncBase && generic < kFuncBase + kWindowSize) return Window::Func;
  if (generic >= kGlobalBase && generic < kGlobalLimit) return Window::Global;
  return Window::Invalid;
}

}  // namespace tcsim::sim::addr
