// The proxy checker (see proxy.h for the rules).
#include "sim/checker/proxy.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/partition.h"
#include "sim/report/report.h"
#include "sim/units/tma_cta_state.h"
#include "sim/warp.h"

namespace tcsim::sim::proxy {

void ProxyShadow::generic_write(uint32_t addr, uint32_t n, uint32_t thread, uint32_t pc) {
  if (n == 0) return;
  const uint32_t g0 = addr / 16, g1 = (addr + n - 1) / 16;
  if (granules_.size() <= g1) granules_.resize(g1 + 1);
  for (uint32_t g = g0; g <= g1; ++g) granules_[g] = Write{epoch_, pc, thread};
}

void ProxyShadow::async_wrote(uint32_t addr, uint32_t n) {
  if (n == 0) return;
  const uint32_t g0 = addr / 16;
  const uint32_t g1 = std::min<uint32_t>((addr + n - 1) / 16 + 1, static_cast<uint32_t>(granules_.size()));
  for (uint32_t g = g0; g < g1; ++g) granules_[g] = Write{};
}

void ProxyShadow::fence(uint32_t thread) {
  // Each fence opens a new epoch: a write is ordered before an async read by a fence of its writer
  // (or of the issuing thread) whose epoch is later than the write's.
  ++epoch_;
  if (last_fence_.size() <= thread) last_fence_.resize(thread + 1, 0);
  last_fence_[thread] = epoch_;
}

const ProxyShadow::Write* ProxyShadow::unfenced(uint32_t addr, uint32_t n, uint32_t issuer,
                                                uint32_t* granule_addr) const {
  if (n == 0) return nullptr;
  const uint32_t g0 = addr / 16;
  const uint32_t g1 = std::min<uint32_t>((addr + n - 1) / 16 + 1, static_cast<uint32_t>(granules_.size()));
  auto fenced_by = [&](uint32_t t) { return t < last_fence_.size() ? last_fence_[t] : 0u; };
  const uint32_t issuer_fence = fenced_by(issuer);
  for (uint32_t g = g0; g < g1; ++g) {
    const Write& w = granules_[g];
    if (w.epoch == 0) continue;
    if (fenced_by(w.thread) > w.epoch || issuer_fence > w.epoch) continue;
    *granule_addr = g * 16;
    return &w;
  }
  return nullptr;
}

const ProxyShadow::InFlight* ProxyShadow::conflict_read(uint32_t addr, uint32_t n, Cycles now) {
  if (inflight_.empty()) return nullptr;
  std::erase_if(inflight_, [&](const InFlight& f) { return f.until <= now; });
  for (const InFlight& f : inflight_)
    if (addr < f.hi && addr + n > f.lo && !f.write) return &f;
  return nullptr;
}

const ProxyShadow::InFlight* ProxyShadow::conflict(uint32_t addr, uint32_t n, bool write, Cycles now) {
  if (inflight_.empty()) return nullptr;
  std::erase_if(inflight_, [&](const InFlight& f) { return f.until <= now; });
  for (const InFlight& f : inflight_)
    if (addr < f.hi && addr + n > f.lo && (write || f.write)) return &f;
  return nullptr;
}

namespace {

// An instruction's location (the one format, sim/report/finding.h), or the engine's.
std::string where(const ExecCtx& c, uint32_t pc) {
  return pc < c.prog->code.size() ? pc_location(*c.launch, pc) : "an asynchronous engine";
}

uint32_t src_of(const ExecCtx& c, uint32_t pc) { return pc < c.prog->code.size() ? c.prog->code[pc].src : kNoSite; }

std::string who(const Cta& cta, uint32_t thread) {
  const Dim3 id = cta.ctaid();
  return fmt::format("CTA ({},{},{}) warp {} lane {}", id.x, id.y, id.z, thread / 32, thread % 32);
}

}  // namespace

void on_generic_access(ExecCtx& c, int lane, uint64_t addr, uint32_t n, bool write) {
  ProxyShadow& s = c.cta->tma_state().proxy;
  const uint32_t a = static_cast<uint32_t>(addr);
  const uint32_t pc = c.prog->pc_of(*c.warp->current());
  const uint32_t thread = c.warp->id() * 32 + static_cast<uint32_t>(lane);
  if (const ProxyShadow::InFlight* f = s.conflict(a, n, write, c.now)) {
    report(c, Rule::AsyncAccessInFlight, lane, [&] {
      return fmt::format(
          "race: {} {} {} bytes of shared::cta [0x{:x}, 0x{:x}) at {} while the {} issued at {} {} them is in flight "
          "(it {} at cycle {}); {} (PTX ISA §9.7.9.25.1: accessing the memory of an asynchronous operation before "
          "its completion is observed is undefined)",
          who(*c.cta, thread), write ? "writes" : "reads", n, a, a + n, where(c, pc), f->what, where(c, f->pc),
          f->write ? "writing" : "reading", f->write ? "lands" : "finishes reading", f->until.count(),
          f->write ? "wait on the operation's mbarrier (or cp.async.bulk.wait_group) first"
          : f->what.find("mma") != std::string::npos
              ? "wait for the MMA's completion (its tcgen05.commit mbarrier, or wgmma.wait_group) before overwriting "
                "its operand"
              : "wait with cp.async.bulk.wait_group.read before reusing the source");
    }, src_of(c, f->pc));
  }
  if (write) s.generic_write(a, n, thread, pc);
}

void on_proxy_fence(ExecCtx& c, uint32_t mask) {
  if (!c.checking()) return;
  ProxyShadow& s = c.cta->tma_state().proxy;
  for (uint32_t m = mask; m; m &= m - 1) s.fence(c.warp->id() * 32 + static_cast<uint32_t>(__builtin_ctz(m)));
}

void check_async_read(ExecCtx& c, int lane, Cta& cta, uint32_t addr, uint32_t n, const std::string& what) {
  if (!c.checking()) return;
  ProxyShadow& s = cta.tma_state().proxy;
  // A fence of the issuing thread counts only when it is a thread of the CTA whose memory is read.
  const uint32_t issuer = &cta == c.cta ? c.warp->id() * 32 + static_cast<uint32_t>(lane) : ~0u;
  uint32_t g = 0;
  const ProxyShadow::Write* w = s.unfenced(addr, n, issuer, &g);
  if (!w) return;
  const uint32_t pc = c.prog->pc_of(*c.warp->current());
  report(c, Rule::ProxyFenceMissing, lane, [&] {
    return fmt::format(
        "proxy race: the async-proxy {} at {} reads shared::cta [0x{:x}, 0x{:x}) of {}, whose bytes at 0x{:x} were "
        "written by the generic proxy at {} ({}) with no fence.proxy.async between the write and the read: the "
        "asynchronous copy may read stale data (PTX ISA §9.7.13.4 fence.proxy.async, §8.6 proxies: the writing "
        "threads must execute fence.proxy.async.shared::cta before the barrier that precedes the issue)",
        what, where(c, pc), addr, addr + n, cta.name(), g, where(c, w->pc), who(cta, w->thread));
  }, src_of(c, w->pc));
}

void mark_async(ExecCtx& c, Cta& cta, uint32_t addr, uint32_t n, Cycles until, bool write, const std::string& what) {
  if (n == 0 || !c.checking()) return;
  ProxyShadow& s = cta.tma_state().proxy;
  // An asynchronous write over bytes an in-flight asynchronous read (an MMA's operand, a TMA store's
  // source) has not finished reading: the stage was refilled before its consumer released it.
  if (write)
    if (const ProxyShadow::InFlight* r = s.conflict_read(addr, n, c.now)) {
      report(c, Rule::AsyncWriteWhileRead, __builtin_ctz(c.mask), [&] {
        return fmt::format(
            "race: the {} issued at {} writes shared::cta [0x{:x}, 0x{:x}) of {} (landing by cycle {}) while the {} "
            "issued at {} still reads [0x{:x}, 0x{:x}) (until cycle {}): {} (PTX ISA §9.7.9.25.1)",
            what, where(c, c.prog->pc_of(*c.warp->current())), addr, addr + n, cta.name(), until.count(), r->what,
            where(c, r->pc), r->lo, r->hi, r->until.count(),
            r->what.find("mma") != std::string::npos
                ? "the writer did not wait for the MMA's release of the stage (its empty mbarrier, which the "
                  "MMA's tcgen05.commit or the consumer's arrive after wgmma.wait_group signals) before refilling it"
                : "the source of the store is reused before cp.async.bulk.wait_group.read said its reads are done");
      }, src_of(c, r->pc));
    }
  ProxyShadow::InFlight f;
  f.lo = addr;
  f.hi = addr + n;
  f.until = until;
  f.write = write;
  f.pc = c.prog->pc_of(*c.warp->current());
  f.what = what;
  s.add_in_flight(std::move(f));
}

void mma_operand(ExecCtx& c, int lane, Cta& cta, uint32_t addr, uint32_t n, Cycles until, const std::string& what) {
  if (n == 0 || !c.checking()) return;
  check_async_read(c, lane, cta, addr, n, what);
  ProxyShadow& s = cta.tma_state().proxy;
  // Read-after-write: the operand's bytes are still being written by an asynchronous copy (the MMA
  // was issued before the copy's mbarrier phase was observed complete).
  if (const ProxyShadow::InFlight* w = s.conflict(addr, n, false, c.now)) {
    const uint32_t pc = c.prog->pc_of(*c.warp->current());
    report(c, Rule::AsyncAccessInFlight, lane, [&] {
      return fmt::format(
          "race: the {} at {} reads shared::cta [0x{:x}, 0x{:x}) of {} while the {} issued at {} is still writing "
          "[0x{:x}, 0x{:x}) (it lands at cycle {}): no wait on the copy's mbarrier (its full barrier) orders the "
          "copy before this MMA (PTX ISA §9.7.9.25.1)",
          what, where(c, pc), addr, addr + n, cta.name(), w->what, where(c, w->pc), w->lo, w->hi, w->until.count());
    }, src_of(c, w->pc));
  }
  mark_async(c, cta, addr, n, until, false, what);
}

}  // namespace tcsim::sim::proxy
