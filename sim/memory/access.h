// Checked memory access for instructions: state-space addresses to bytes, for one lane. Every
// access is bounds-checked (the message names the space, the address, the size and what it missed)
// and alignment-checked (PTX ISA §5.4.5: accesses are naturally aligned to their size). Generic
// addresses are routed through the windows of sim/address_space.h. Global stores go to the
// partition's StoreOverlay (see sim/launch.h for why).
#pragma once
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "isa/ptx/modifiers.h"
#include "sim/address_space.h"
#include "sim/checker/global_init.h"
#include "sim/checker/global_race.h"
#include "sim/checker/proxy.h"
#include "sim/checker/race.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/memory/dsmem.h"
#include "sim/partition.h"
#include "sim/warp.h"

namespace tcsim::sim::mem {

using isa::ptx::Space;

inline const char* space_word(Space s) {
  switch (s) {
    case Space::Global: return "global";
    case Space::Shared: case Space::SharedCta: case Space::SharedCluster: return "shared";
    case Space::Local: return "local";
    case Space::Const: return "constant";
    case Space::Param: case Space::ParamEntry: case Space::ParamFunc: return "parameter";
    default: return "generic";
  }
}

// Caches the last global allocation hit by one instruction (lanes usually share it).
struct GlobalCache {
  const Allocation* last = nullptr;
};

// initcheck of a read that check_global (with write = true: atomics) checked into `a`.
inline void check_global_init(ExecCtx& c, int lane, const Allocation* a, uint64_t addr, uint32_t size) {
  if (a && !a->initialised && c.checking()) global_init::on_read(c, lane, *a, addr, size);
}

[[noreturn]] inline void misaligned(ExecCtx& c, int lane, Space s, bool write, uint64_t addr, uint32_t size) {
  c.fail(lane, fmt::format("misaligned {} {} of {} bytes at 0x{:x}: the address must be a multiple of {}",
                           space_word(s), write ? "store" : "load", size, addr, size));
}

inline void check_global(ExecCtx& c, int lane, uint64_t addr, uint32_t size, bool write, bool const_only,
                         GlobalCache& gc) {
  const Allocation* a = gc.last;
  if (!(a && addr - a->base < a->size && size <= a->size - (addr - a->base))) {
    a = c.launch->gm->find(addr, size);
    if (!a)
      c.fail(lane, fmt::format("out-of-bounds {} {} of {} bytes at 0x{:x}: {}", const_only ? "constant" : "global",
                               write ? "store" : "load", size, addr, c.launch->gm->describe_miss(addr, size)));
    gc.last = a;
  }
  if (const_only && !a->is_const)
    c.fail(lane, fmt::format("ld.const at 0x{:x} reads {}, which is not constant-bank data", addr, a->label));
  // initcheck (sim/checker/global_init.h): only allocations with bytes nothing wrote are looked at.
  if (!write && !a->initialised && c.checking()) global_init::on_read(c, lane, *a, addr, size);
  // Strong accesses of global memory are release/acquire edges for the race detector.
  if (c.prog->has_strong_access && c.checking()) race::on_global_strong(c, lane, addr);
  // Races between threads on global memory (sim/checker/global_race.h).
  if (!const_only && c.launch->global_race) global_race::on_access(c, lane, addr, size, write);
}

// The bytes [addr, addr + size) of a shared address (sim/memory/dsmem.h). `cluster_scope`: the
// address may name another CTA of the cluster (.shared::cluster and generic accesses); otherwise
// it must name the executing CTA (.shared, .shared::cta).
// `rmw`: the access reads the old bytes as well (atom, red).
inline uint8_t* shared_ptr(ExecCtx& c, int lane, uint64_t addr, uint32_t size, bool write, bool cluster_scope,
                           bool rmw = false) {
  if (addr > 0xffffffffull || models::smem_rank(static_cast<uint32_t>(addr)) != c.cta->cluster_rank()) {
    if (cluster_scope) return remote_shared_ptr(c, lane, addr, size, write, rmw);
    own_shared_offset(c, lane, addr, write ? "st.shared" : "ld.shared");  // fails
  }
  const uint32_t off = models::smem_offset(static_cast<uint32_t>(addr));
  const uint64_t n = c.cta->smem_bytes();
  if (off >= n || size > n - off)
    c.fail(lane, fmt::format("out-of-bounds shared {} of {} bytes at shared address 0x{:x}: the CTA's shared memory is "
                             "[0x{:x}, 0x{:x}) ({} reserved + {} static + {} dynamic bytes, rounded up to {})",
                             write ? "store" : "load", size, addr, mem::own_shared_address(*c.cta, 0),
                             mem::own_shared_address(*c.cta, static_cast<uint32_t>(n)), c.launch->smem.reserved,
                             c.launch->smem.static_bytes, c.launch->smem.dynamic_bytes, c.launch->smem.granularity));
  // The proxy checker sees every generic shared-memory access of a program that also uses the
  // async proxy (TMA, bulk copies, wgmma, tcgen05): sim/checker/proxy.h.
  if (c.checking()) {
    if (c.prog->uses_async_proxy) proxy::on_generic_access(c, lane, off, size, write);
    // The race detector and initcheck see every access of the CTA's own shared memory
    // (sim/checker/race.h).
    race::on_shared_access(c, lane, off, size, write);
  }
  if (c.launch->skip_tma_copies) generic_smem_access(*c.cta, off, size, write && !rmw);
  return c.cta->shared() + off;
}

inline const uint8_t* kernel_param_ptr(ExecCtx& c, int lane, uint64_t addr, uint32_t size) {
  const uint64_t n = c.launch->params.size();
  if (addr >= n || size > n - addr)
    c.fail(lane, fmt::format("out-of-bounds kernel-parameter load of {} bytes at parameter offset 0x{:x}: the "
                             "kernel has {} bytes of parameters", size, addr, n));
  return c.launch->params.data() + addr;
}

// Reads `size` bytes at `addr` in space `s` (param: `frame` says whether the address is a lane
// stack address (function/call parameters) or a kernel-parameter offset).
inline void read(ExecCtx& c, int lane, Space s, bool frame, uint64_t addr, void* dst, uint32_t size, GlobalCache& gc) {
  if (addr & (size - 1)) misaligned(c, lane, s, false, addr, size);
  switch (s) {
    case Space::Global:
      check_global(c, lane, addr, size, false, false, gc);
      c.part->overlay().read(*c.launch->gm, addr, dst, size);
      return;
    case Space::Const:
      check_global(c, lane, addr, size, false, true, gc);
      c.part->overlay().read(*c.launch->gm, addr, dst, size);
      return;
    case Space::Shared: case Space::SharedCta: case Space::SharedCluster:
      std::memcpy(dst, shared_ptr(c, lane, addr, size, false, s == Space::SharedCluster), size);
      return;
    case Space::Local:
      std::memcpy(dst, c.warp->local_ptr(c, lane, addr, size), size);
      return;
    case Space::Param: case Space::ParamEntry: case Space::ParamFunc:
      if (frame) std::memcpy(dst, c.warp->local_ptr(c, lane, addr, size), size);
      else std::memcpy(dst, kernel_param_ptr(c, lane, addr, size), size);
      return;
    default: break;
  }
  // Generic: route by window (PTX ISA §6.4.1.1).
  switch (addr::classify(addr)) {
    case addr::Window::Global: return read(c, lane, Space::Global, false, addr, dst, size, gc);
    case addr::Window::Shared: return read(c, lane, Space::SharedCluster, false, generic_to_shared(addr), dst, size, gc);
    case addr::Window::Local: return read(c, lane, Space::Local, false, addr - addr::kLocalWindow, dst, size, gc);
    case addr::Window::Param: return read(c, lane, Space::Param, false, addr - addr::kParamWindow, dst, size, gc);
    default: break;
  }
  c.fail(lane, fmt::format("generic load of {} bytes at 0x{:x}: the address is in no state space (not global, "
                           "shared, local or parameter memory){}", size, addr,
                           addr < 0x10000 ? " - a null or small-integer pointer?" : ""));
}

inline void write(ExecCtx& c, int lane, Space s, bool frame, uint64_t addr, const void* src, uint32_t size, GlobalCache& gc) {
  if (addr & (size - 1)) misaligned(c, lane, s, true, addr, size);
  switch (s) {
    case Space::Global:
      check_global(c, lane, addr, size, true, false, gc);
      c.part->overlay().write(*c.launch->gm, addr, src, size);
      return;
    case Space::Shared: case Space::SharedCta: case Space::SharedCluster:
      std::memcpy(shared_ptr(c, lane, addr, size, true, s == Space::SharedCluster), src, size);
      return;
    case Space::Local:
      std::memcpy(c.warp->local_ptr(c, lane, addr, size), src, size);
      return;
    case Space::Param: case Space::ParamEntry: case Space::ParamFunc:
      if (frame) {
        std::memcpy(c.warp->local_ptr(c, lane, addr, size), src, size);
        return;
      }
      c.fail(lane, "a store to kernel parameter memory (kernel parameters are read-only)");
    case Space::Const:
      c.fail(lane, "a store to constant memory");
    default: break;
  }
  switch (addr::classify(addr)) {
    case addr::Window::Global: return write(c, lane, Space::Global, false, addr, src, size, gc);
    case addr::Window::Shared: return write(c, lane, Space::SharedCluster, false, generic_to_shared(addr), src, size, gc);
    case addr::Window::Local: return write(c, lane, Space::Local, false, addr - addr::kLocalWindow, src, size, gc);
    case addr::Window::Param:
      c.fail(lane, fmt::format("generic store to kernel parameter memory at 0x{:x} (parameters are read-only)", addr));
    default: break;
  }
  c.fail(lane, fmt::format("generic store of {} bytes at 0x{:x}: the address is in no state space (not global, "
                           "shared or local memory){}", size, addr,
                           addr < 0x10000 ? " - a null or small-integer pointer?" : ""));
}

// Compile-time-size forms of read/write for the hot load/store paths. Same checks and messages.
template <Space S, uint32_t Size>
inline void read_t(ExecCtx& c, int lane, bool frame, uint64_t addr, void* dst, GlobalCache& gc) {
  if constexpr (S == Space::Global || S == Space::Const) {
    if (addr & (Size - 1)) misaligned(c, lane, S, false, addr, Size);
    check_global(c, lane, addr, Size, false, S == Space::Const, gc);
    c.part->overlay().template read_n<Size>(*c.launch->gm, addr, dst);
  } else if constexpr (S == Space::Shared || S == Space::SharedCluster) {
    if (addr & (Size - 1)) misaligned(c, lane, S, false, addr, Size);
    std::memcpy(dst, shared_ptr(c, lane, addr, Size, false, S == Space::SharedCluster), Size);
  } else if constexpr (S == Space::Generic) {
    switch (addr::classify(addr)) {
      case addr::Window::Global: return read_t<Space::Global, Size>(c, lane, false, addr, dst, gc);
      case addr::Window::Shared: return read_t<Space::SharedCluster, Size>(c, lane, false, generic_to_shared(addr), dst, gc);
      default: return read(c, lane, Space::Generic, false, addr, dst, Size, gc);
    }
  } else {
    read(c, lane, S, frame, addr, dst, Size, gc);
  }
}

template <Space S, uint32_t Size>
inline void write_t(ExecCtx& c, int lane, bool frame, uint64_t addr, const void* src, GlobalCache& gc) {
  if constexpr (S == Space::Global) {
    if (addr & (Size - 1)) misaligned(c, lane, S, true, addr, Size);
    check_global(c, lane, addr, Size, true, false, gc);
    c.part->overlay().template write_n<Size>(*c.launch->gm, addr, src);
  } else if constexpr (S == Space::Shared || S == Space::SharedCluster) {
    if (addr & (Size - 1)) misaligned(c, lane, S, true, addr, Size);
    std::memcpy(shared_ptr(c, lane, addr, Size, true, S == Space::SharedCluster), src, Size);
  } else if constexpr (S == Space::Generic) {
    switch (addr::classify(addr)) {
      case addr::Window::Global: return write_t<Space::Global, Size>(c, lane, false, addr, src, gc);
      case addr::Window::Shared: return write_t<Space::SharedCluster, Size>(c, lane, false, generic_to_shared(addr), src, gc);
      default: return write(c, lane, Space::Generic, false, addr, src, Size, gc);
    }
  } else {
    write(c, lane, S, frame, addr, src, Size, gc);
  }
}

// The address of an ExecOperand memory operand for one lane.
inline uint64_t lane_address(ExecCtx& c, const ExecOperand& a, int lane) {
  switch (a.base) {
    case AddrBase::None: return static_cast<uint64_t>(a.offset);
    case AddrBase::Reg: {
      uint64_t v = c.src(a.ref)[lane];
      if (a.reg_bits == 32) v = static_cast<uint32_t>(v);
      return v + static_cast<uint64_t>(a.offset);
    }
    case AddrBase::Frame: return c.warp->frame_base(lane) + static_cast<uint64_t>(a.offset);
    // A shared variable: its offset plus the executing CTA's own rank (models/machine/shared_memory.h).
    case AddrBase::Shared: return mem::own_shared_address(*c.cta, 0) + static_cast<uint64_t>(a.offset);
  }
  return 0;
}

}  // namespace tcsim::sim::mem
