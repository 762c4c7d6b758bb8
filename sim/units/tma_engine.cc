// The TMA / bulk-copy engine's shared parts (see tma_engine.h).
#include "sim/units/tma_engine.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "sim/address_space.h"
#include "sim/cluster.h"
#include "sim/cta.h"
#include "sim/memory/access.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/units/mbarrier.h"
#include "sim/units/tma_cta_state.h"

namespace tcsim::sim::tma {

isa::TensorMapParams read_tensor_map(ExecCtx& c, int lane, uint64_t addr, const char* what) {
  // PTX ISA §5.5.8: the tensor-map object lives in .param (a kernel parameter), .const or .global
  // memory and is 64-byte aligned (CUtensorMap is declared alignas(64) in cuda.h).
  if (addr % 64 != 0)
    c.fail(lane, fmt::format("{}: the tensor map at 0x{:x} is not 64-byte aligned (a CUtensorMap object is 128 bytes "
                             "aligned to 64: PTX ISA §5.5.8, cuda.h)",
                             what, addr));
  const addr::Window w = addr::classify(addr);
  if (w != addr::Window::Global && w != addr::Window::Param)
    c.fail(lane, fmt::format("{}: the tensor-map address 0x{:x} is not in .param, .const or .global memory (PTX ISA "
                             "§9.7.9.25.5.2: tensorMap is a generic address of one of those spaces){}",
                             what, addr, w == addr::Window::Shared ? "; a map edited in shared memory must be copied "
                                                                     "to global memory first (tensormap.cp_fenceproxy)"
                                                                   : ""));
  std::array<uint8_t, isa::kTensorMapBytes> bytes{};
  mem::GlobalCache gc;
  for (uint32_t i = 0; i < isa::kTensorMapBytes; i += 8)
    mem::read(c, lane, isa::ptx::Space::Generic, false, addr + i, bytes.data() + i, 8, gc);
  auto p = isa::decode_tensor_map(bytes, c.launch->arch);
  if (!p)
    c.fail(lane, fmt::format("{}: invalid tensor map at 0x{:x}: {}", what, addr, p.error().message));
  return *p;
}

// The reserve plus %total_smem_size (models/machine/shared_memory.h SmemLayout::limit).
uint32_t async_smem_limit(const ExecCtx& c) { return c.launch->smem.limit(); }

void check_smem_range(ExecCtx& c, int lane, uint32_t lo, uint64_t hi, const char* what, const std::string& detail) {
  const uint32_t lim = async_smem_limit(c);
  if (hi <= lim) return;
  c.fail(lane, fmt::format("{}: shared memory [0x{:x}, 0x{:x}) is outside the CTA's shared memory [0, 0x{:x}) "
                           "({} reserved + {} static + {} dynamic bytes, rounded up to {}){}; the H200 faults with "
                           "an illegal (out-of-range) shared-memory address",
                           what, lo, hi, lim, c.launch->smem.reserved, c.launch->smem.static_bytes,
                           c.launch->smem.dynamic_bytes, c.launch->smem.granularity, detail));
}

void check_global_range(ExecCtx& c, int lane, uint64_t addr, uint64_t n, const char* what) {
  if (n == 0) return;
  const Allocation* a = c.launch->gm->find(addr, 1);
  if (!a || n > a->size - (addr - a->base))
    c.fail(lane, fmt::format("{}: global memory [0x{:x}, 0x{:x}) is out of bounds: {}", what, addr, addr + n,
                             c.launch->gm->describe_miss(addr, static_cast<uint32_t>(std::min<uint64_t>(n, 1u << 30)))));
}

void read_global(Partition& part, const LaunchState& L, uint64_t addr, void* dst, uint64_t n) {
  auto* out = static_cast<uint8_t*>(dst);
  while (n) {
    const uint64_t room = StoreOverlay::kPageSize - (addr & (StoreOverlay::kPageSize - 1));
    const uint32_t k = static_cast<uint32_t>(std::min(n, room));
    part.overlay().read(*L.gm, addr, out, k);
    addr += k;
    out += k;
    n -= k;
  }
}

void note_hint(Cta& cta, bool has_policy, uint64_t policy) {
  if (!has_policy) return;
  TmaCtaState& s = cta.tma_state();
  ++s.l2_hinted_copies;
  s.last_l2_policy = policy;
}

Timing issue_timing(ExecCtx& c) {
  const Cycles read = c.now + kReadLatency + Cycles(c.part->jitter(16));
  const Cycles land = max(read, c.now + kLandLatency + Cycles(c.part->jitter(64)));
  return {read, land};
}

// The copy's writes into the target CTA's shared memory happen before its complete_tx, so a wait that
// observes the phase is ordered after them: the complete_tx releases the issuing CTA's clock, and
// the DSMEM exit check (sim/cluster.h) sees a CTA that waited for a peer's multicast TMA and then
// exits as ordered after that peer's writes into it (the CuTe 2-SM tutorials exit so; no cluster
// barrier is needed once the bytes have landed).
void post_complete_tx(ExecCtx& c, Cycles when, const CtaRef& target, uint32_t mbar, uint32_t bytes,
                      const char* what) {
  const VClock rc = c.cta->cluster().release(c.cta->cluster_rank());
  post_mbarrier_complete_tx(*c.part, when, target, mbar, bytes, &rc, what);
}

}  // namespace tcsim::sim::tma
