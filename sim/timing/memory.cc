#include "sim/timing/memory.h"

#include <algorithm>

#include "models/machine/shared_memory.h"
#include "sim/address_space.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/timing/atomic_words.h"
#include "sim/timing/model.h"
#include "sim/timing/state.h"

namespace tcsim::sim::timing {

using isa::ptx::Space;

namespace {

constexpr uint64_t kLine = 128;  // L1/L2 line (bytes); 32-byte sectors
constexpr uint64_t kConstLine = 64;

// Delay (cycles) of `bytes` through a bandwidth queue of `per_clk` bytes per cycle, from now.
uint64_t queue(uint64_t& free_q, double per_clk, uint64_t bytes, uint64_t now_q) {
  const uint64_t start = std::max(now_q, free_q);
  free_q = start + to_q(static_cast<double>(bytes) / per_clk);
  return (start - now_q) / kQ;
}

// Shared-memory wavefronts of one warp access (PTX ISA §9.7.9.8; bank structure per the H200
// measurement kernels/ubench smem,ld_u32_stride*: 32 banks of 4 bytes, one 128-byte wavefront per
// clock; a phase is the lanes whose accesses fill 128 bytes). Lanes reading the same word share it.
uint32_t wavefronts(const uint64_t* addr, uint32_t mask, uint32_t size) {
  const uint32_t lanes_per_phase = size >= 4 ? std::max<uint32_t>(1, 128 / size) : 32;
  const uint32_t words = std::max<uint32_t>(1, size / 4);
  uint32_t total = 0;
  for (uint32_t p0 = 0; p0 < 32; p0 += lanes_per_phase) {
    uint32_t rows[32][32];
    uint8_t n[32] = {};
    uint32_t worst = 0;
    bool any = false;
    for (uint32_t l = p0; l < p0 + lanes_per_phase && l < 32; ++l) {
      if (!(mask >> l & 1)) continue;
      any = true;
      for (uint32_t w = 0; w < words; ++w) {
        const uint64_t word = addr[l] / 4 + w;
        const uint32_t bank = static_cast<uint32_t>(word % 32), row = static_cast<uint32_t>(word / 32);
        bool seen = false;
        for (uint32_t k = 0; k < n[bank]; ++k) seen = seen || rows[bank][k] == row;
        if (!seen && n[bank] < 32) rows[bank][n[bank]++] = row;
        worst = std::max<uint32_t>(worst, n[bank]);
      }
    }
    if (any) total += std::max<uint32_t>(worst, 1);
  }
  return std::max<uint32_t>(total, 1);
}

uint64_t translate(const Model& M, SmTiming& S, uint64_t addr) {
  const uint64_t page = addr / static_cast<uint64_t>(M.p.tlb_page_bytes);
  return S.pages.insert(page).second ? static_cast<uint64_t>(M.p.tlb_miss_cycles) : 0;
}

uint64_t shared_cost(ExecCtx& c, const uint64_t* addr, uint32_t mask, uint32_t size, bool atomic,
                     AtomKind kind = AtomKind::Int) {
  const Model& M = *c.launch->timing;
  SmTiming& S = c.sm->timing();
  const uint64_t now_q = c.now.count() * kQ;
  uint32_t wf = wavefronts(addr, mask, size);
  uint64_t serial = 0;
  if (atomic) {  // lanes on one word serialise in the atomic unit
    uint32_t worst = 1;
    for (uint32_t l = 0; l < 32; ++l) {
      if (!(mask >> l & 1)) continue;
      uint32_t k = 0;
      for (uint32_t j = 0; j < 32; ++j) k += (mask >> j & 1) && addr[j] / 4 == addr[l] / 4;
      worst = std::max(worst, k);
    }
    // Floating-point adds are a compare-and-swap loop in SASS (ATOMS.CAST.SPIN): a fixed cost per
    // warp instruction and a retry per extra lane on a word (kernels/ubench atom_shared_add_* rows).
    const bool f64 = kind == AtomKind::F64;
    const bool fp = f64 || kind == AtomKind::Float || kind == AtomKind::Emulated16;
    const double per_lane = !fp ? M.p.smem_atom_same_word_cycles
                                : (f64 ? M.p.smem_atom_f64_same_word_cycles : M.p.smem_atom_f32_same_word_cycles);
    const double fixed = !fp ? 0.0 : (f64 ? M.p.smem_atom_f64_cycles : M.p.smem_atom_f32_cycles) - wf;
    serial = static_cast<uint64_t>((worst - 1) * per_lane + std::max(0.0, fixed) + 0.5);
  }
  const uint64_t start = std::max(now_q, S.smem_free_q);
  const uint64_t busy = wf * kQ + serial * kQ;
  S.smem_free_q = start + busy;
  S.smem_busy_q += busy;
  const uint64_t base = atomic ? static_cast<uint64_t>(M.p.smem_atom_latency) : static_cast<uint64_t>(M.p.smem_latency);
  return (start - now_q) / kQ + base + (wf - 1) + serial;
}

struct Line {
  uint64_t line;
  uint8_t sectors;
};

// The sectors an L2 miss fetches from DRAM: those asked for, widened to aligned l2.fill_bytes
// groups (H200: 64 bytes, kernels/ubench sector,after_miss_* rows).
uint8_t fill_sectors(const Model& M, uint8_t want) {
  const uint32_t group = std::clamp<uint32_t>(static_cast<uint32_t>(M.p.l2_fill_bytes / 32), 1, 4);
  uint8_t fill = want;
  for (uint32_t g = 0; g < 4; g += group) {
    const uint8_t m = static_cast<uint8_t>(((1u << group) - 1) << g);
    if (want & m) fill |= m;
  }
  return fill;
}

uint64_t global_cost(ExecCtx& c, const Line* lines, uint32_t n, bool bypass, bool store) {
  const Model& M = *c.launch->timing;
  SmTiming& S = c.sm->timing();
  PartitionTiming& P = c.part->timing();
  const uint64_t now = c.now.count(), now_q = now * kQ;
  uint64_t start;
  if (store) {
    // The store path: store.line_cycles per line touched, store.bytes_per_clk of data (kernels/ubench
    // store rows); a warp waits while the path is more than store.queue_cycles behind.
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < n; ++i) bytes += 32ull * static_cast<uint64_t>(__builtin_popcount(lines[i].sectors));
    start = std::max(now_q, S.store_free_q);
    S.store_free_q = start + to_q(std::max(n * M.p.store_line_cycles, static_cast<double>(bytes) / M.p.store_bytes_per_clk));
    const uint64_t backlog = (S.store_free_q - now_q) / kQ;
    if (backlog > M.p.store_queue_cycles) c.busy = std::max<uint32_t>(c.busy, static_cast<uint32_t>(backlog - M.p.store_queue_cycles));
    S.last_store = std::max(S.last_store, from_q(S.store_free_q).count());
  } else {
    start = std::max(now_q, S.lsu_free_q);
    S.lsu_free_q = start + to_q(n / M.p.l1_lines_per_clk);
  }
  uint64_t tlb = 0, worst = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t line = lines[i].line;
    const uint64_t bytes = 32ull * static_cast<uint64_t>(__builtin_popcount(lines[i].sectors));
    tlb = std::max(tlb, translate(M, S, line * kLine));
    uint64_t lat;
    const uint8_t want = lines[i].sectors;
    if (!store && !bypass && S.l1.contains(line, want)) {
      ++P.l1_hits;
      lat = static_cast<uint64_t>(M.p.l1_latency);
    } else {
      if (!store && !bypass) ++P.l1_misses;
      P.l2_bytes += bytes;
      const uint64_t q2 = queue(P.l2_free_q, P.l2_share, bytes, now_q);
      const PartitionTiming::Pending* pend = P.pending.find(line);
      const bool pending = pend && (pend->sectors & want) == want;
      if (pending || P.l2->contains(line, want)) {
        ++P.l2_hits;
        const uint64_t ready = pending ? pend->ready : 0;
        lat = std::max<uint64_t>(static_cast<uint64_t>(M.p.l2_latency) + q2, ready > now ? ready - now : 0);
      } else {
        ++P.l2_misses;
        if (store) {
          // A write allocates in the L2 without reading DRAM (write-back); it costs L2 bandwidth.
          lat = static_cast<uint64_t>(M.p.l2_latency) + q2;
        }
        uint8_t fill = want;
        if (!store) {
          fill = fill_sectors(M, want);
          const uint64_t fill_bytes = 32ull * static_cast<uint64_t>(__builtin_popcount(fill));
          P.hbm_bytes += fill_bytes;
          lat = static_cast<uint64_t>(M.p.hbm_latency) + std::max(q2, queue(P.hbm_free_q, P.hbm_share, fill_bytes, now_q));
        }
        // The widened sectors are in the L2 once the fill lands (the next quantum's view); a request
        // for one of them while the miss is in flight is not served by it (not measured: the
        // ubench loads 4000 cycles after the miss; the model keeps such a request a miss).
        PartitionTiming::Pending& pe = P.pending[line];
        pe.ready = std::max(pe.ready, now + lat);
        pe.sectors |= want;
        P.fills.push_back(line << 4 | fill);
      }
      if (!store && !bypass) S.l1.insert(line, want);
    }
    worst = std::max(worst, lat);
  }
  if (store) return 0;
  return (start - now_q) / kQ + tlb + worst + static_cast<uint64_t>((n - 1) / M.p.l1_lines_per_clk);
}

uint64_t global_lines_cost(ExecCtx& c, const uint64_t* gl, uint32_t gl_mask, uint32_t size, bool bypass, bool store) {
  Line lines[64];
  uint32_t n = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(gl_mask >> l & 1)) continue;
    for (uint64_t a = gl[l]; a < gl[l] + size; a = (a / 32 + 1) * 32) {
      const uint64_t line = a / kLine;
      const uint8_t sector = static_cast<uint8_t>(1u << (a % kLine / 32));
      uint32_t k = 0;
      while (k < n && lines[k].line != line) ++k;
      if (k == n && n < 64) lines[n++] = {line, 0};
      if (k < n) lines[k].sectors |= sector;
    }
  }
  return n ? global_cost(c, lines, n, bypass, store) : 0;
}

// ld.const / ld.param: the constant cache serves one address per const.cycles_per_address
// (kernels/ubench const rows); kernel parameters arrive with the launch (never miss), other
// constant-bank lines miss on an SM's first touch.
uint64_t const_cost(ExecCtx& c, const uint64_t* addr, uint32_t mask, uint32_t size, bool param) {
  const Model& M = *c.launch->timing;
  SmTiming& S = c.sm->timing();
  bool miss = false;
  uint32_t distinct = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    bool seen = false;
    for (uint32_t j = 0; j < l && !seen; ++j) seen = (mask >> j & 1) && addr[j] == addr[l];
    distinct += !seen;
    if (!param)
      for (uint64_t a = addr[l] / kConstLine; a <= (addr[l] + size - 1) / kConstLine; ++a)
        miss = S.const_lines.insert(a).second || miss;
  }
  const uint64_t now_q = c.now.count() * kQ;
  const uint64_t start = std::max(now_q, S.const_free_q);
  S.const_free_q = start + to_q(distinct * M.p.const_cycles_per_address);
  return (start - now_q) / kQ + static_cast<uint64_t>(miss ? M.p.const_miss_latency : M.p.const_hit_latency) +
         static_cast<uint64_t>((distinct - 1) * M.p.const_cycles_per_address);
}

}  // namespace

void note_access(ExecCtx& c, Space space, const uint64_t* addr, uint32_t mask, uint32_t size, bool store,
                 uint8_t flags) {
  if (!mask) return;
  const Model& M = *c.launch->timing;
  uint64_t sh[32], gl[32];
  uint32_t sh_mask = 0, gl_mask = 0, local_lanes = 0, const_mask = 0, cluster_mask = 0;
  bool param = false;
  uint64_t cst[32];
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    Space s = space;
    uint64_t a = addr[l];
    if (s == Space::Generic) {
      switch (addr::classify(a)) {
        case addr::Window::Shared: s = Space::Shared; a -= addr::kSharedWindow; break;
        case addr::Window::Local: s = Space::Local; break;
        case addr::Window::Param: s = Space::Param; break;
        default: s = Space::Global; break;
      }
    }
    switch (s) {
      case Space::Shared: case Space::SharedCta: case Space::SharedCluster:
        // The 32-bit shared address carries the CTA's cluster rank itself (bits 24..31,
        // models/machine/shared_memory.h; sim/memory/dsmem.h decodes it the same way): the
        // executing CTA's rank is its own memory, any other rank another CTA's (DSMEM).
        if (models::smem_rank(static_cast<uint32_t>(a)) != c.cta->cluster_rank()) {
          cluster_mask |= 1u << l;
        } else {
          sh[l] = models::smem_offset(static_cast<uint32_t>(a));
          sh_mask |= 1u << l;
        }
        break;
      case Space::Local: ++local_lanes; break;
      case Space::Param: case Space::ParamEntry: case Space::ParamFunc:
        param = true;
        [[fallthrough]];
      case Space::Const:
        cst[l] = a;
        const_mask |= 1u << l;
        break;
      default: gl[l] = a; gl_mask |= 1u << l; break;
    }
  }
  uint64_t lat = 0;
  if (sh_mask) lat = std::max(lat, shared_cost(c, sh, sh_mask, size, false));
  if (cluster_mask) lat = std::max(lat, static_cast<uint64_t>(M.p.dsmem_remote_latency));
  if (const_mask) lat = std::max(lat, const_cost(c, cst, const_mask, size, param));
  if (local_lanes) {
    // Local memory is interleaved so that a warp's lanes at one offset share lines (PTX ISA §5.1.5:
    // per-thread, but laid out by the driver for coalescing); served by the L1.
    const uint64_t lines = std::max<uint64_t>(1, (local_lanes * size + kLine - 1) / kLine);
    SmTiming& S = c.sm->timing();
    const uint64_t now_q = c.now.count() * kQ;
    const uint64_t start = std::max(now_q, S.lsu_free_q);
    S.lsu_free_q = start + to_q(lines / M.p.l1_lines_per_clk);
    lat = std::max(lat, (start - now_q) / kQ + static_cast<uint64_t>(M.p.l1_latency) + lines - 1);
  }
  if (gl_mask) lat = std::max(lat, global_lines_cost(c, gl, gl_mask, size, (flags & kFlagBypassL1) != 0, store));
  if (!store) c.latency = static_cast<uint32_t>(std::max<uint64_t>(c.latency, lat));
}

uint32_t global_atomic_latency(ExecCtx& c, const uint64_t* addr, uint32_t mask, AtomKind kind) {
  const Model& M = *c.launch->timing;
  PartitionTiming& P = c.part->timing();
  SmTiming& S = c.sm->timing();
  const uint64_t now = c.now.count();
  uint64_t worst = 0, tlb = 0;
  // A scalar f16/bf16 add is a compare-and-swap loop on the aligned 32-bit word that holds it
  // (cuobjdump -sass: ATOM.E.CAS, kernels/ubench/results/h200-2026-12-02-outliers): lanes on the
  // two halves of one word contend. Other kinds: one 8-byte word.
  const bool emulated = kind == AtomKind::Emulated16;
  const uint64_t wbytes = emulated ? 4 : 8;
  const size_t first_queued = P.atom_queued.size();
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    tlb = std::max(tlb, translate(M, S, addr[l]));
    uint32_t k = 0, first = 32;
    for (uint32_t j = 0; j < 32; ++j)
      if ((mask >> j & 1) && addr[j] / wbytes == addr[l] / wbytes) {
        ++k;
        first = std::min(first, j);
      }
    if (first != l) continue;  // one queue entry per word
    // The L2's atomic unit performs the word's operations one after another, at the rate of the
    // operation's kind (kernels/ubench mem,red_global_same: 1.35 per ns for integers; gaps.cu atom
    // rows: f32 0.56 per ns, cas; outliers.cu contend rows: one CAS-loop round per scalar f16/bf16
    // add), across warps too (this partition's view). Emulated words get their own key space (the
    // top bit) so that a 4-byte index never aliases an 8-byte one.
    // This partition's view starts from the GPU-wide queue of the last boundary; the boundary
    // replays every partition's batches in one order (sim/timing/atomic_words.h).
    const uint64_t key = emulated ? (addr[l] / 4) | (1ull << 63) : addr[l] / 8;
    uint64_t& free = P.atom_word_free[key];
    if (P.atom_words) free = std::max(free, P.atom_words->free_at(key));
    const uint64_t arrive = now + static_cast<uint64_t>(M.p.atom_latency) / 2;
    const uint64_t start = std::max(arrive, free);
    const uint64_t busy = static_cast<uint64_t>(k * M.atom_word_cycles(kind) + 0.5);
    free = start + busy;
    worst = std::max(worst, free - arrive);
    if (P.atom_words)
      P.atom_queued.push_back({arrive, key, busy, 0, c.sm->id(), c.cta->linear_id(), c.warp->id(), l, c.warp});
  }
  const uint64_t extra = emulated ? static_cast<uint64_t>(M.p.atom_emulated_cycles) : 0;
  const uint64_t fixed = static_cast<uint64_t>(M.p.atom_latency) + tlb + extra;
  // Results return at now + fixed + (done - arrive), i.e. `tail` after the word's queue is done.
  for (size_t i = first_queued; i < P.atom_queued.size(); ++i)
    P.atom_queued[i].tail = fixed - static_cast<uint64_t>(M.p.atom_latency) / 2;
  return static_cast<uint32_t>(fixed + worst);
}

uint32_t global_read_latency(ExecCtx& c, const uint64_t* addr, uint32_t mask, uint32_t size, bool bypass_l1) {
  return mask ? static_cast<uint32_t>(global_lines_cost(c, addr, mask, size, bypass_l1, false)) : 0;
}

uint32_t shared_atomic_latency(ExecCtx& c, const uint64_t* addr, uint32_t mask, uint32_t size, AtomKind kind) {
  return mask ? static_cast<uint32_t>(shared_cost(c, addr, mask, size, true, kind)) : 0;
}

GlobalReader::GlobalReader(ExecCtx& c) : c_(&c) {}

void GlobalReader::add(uint64_t addr, uint64_t n) {
  if (!n) return;
  const Model& M = *c_->launch->timing;
  SmTiming& S = c_->sm->timing();
  PartitionTiming& P = c_->part->timing();
  const uint64_t now = c_->now.count();
  bytes_ += n;
  for (uint64_t line = addr / kLine; line <= (addr + n - 1) / kLine; ++line) {
    // The sectors of this line that [addr, addr + n) covers.
    const uint64_t lo = std::max(addr, line * kLine), hi = std::min(addr + n, (line + 1) * kLine);
    const uint8_t want = static_cast<uint8_t>(((1u << ((hi - 1) % kLine / 32 + 1)) - 1) & ~((1u << (lo % kLine / 32)) - 1));
    if (line == last_line_ && (last_sectors_ & want) == want) continue;
    if (line != last_line_) last_sectors_ = 0;
    last_line_ = line;
    last_sectors_ |= want;
    extra_ = std::max(extra_, translate(M, S, line * kLine));
    const PartitionTiming::Pending* pend = P.pending.find(line);
    if ((pend && (pend->sectors & want) == want) || P.l2->contains(line, want)) {
      ++P.l2_hits;
      continue;
    }
    ++P.l2_misses;
    hit_ = false;
    const uint8_t fill = fill_sectors(M, want);
    miss_bytes_ += 32ull * static_cast<uint64_t>(__builtin_popcount(fill));
    PartitionTiming::Pending& pe = P.pending[line];
    pe.ready = std::max(pe.ready, now + static_cast<uint64_t>(M.p.tma_hbm_latency));
    pe.sectors |= want;
    P.fills.push_back(line << 4 | fill);
  }
}

GlobalRead GlobalReader::finish() {
  PartitionTiming& P = c_->part->timing();
  const uint64_t now_q = c_->now.count() * kQ;
  P.l2_bytes += bytes_;
  P.hbm_bytes += miss_bytes_;
  uint64_t q = queue(P.l2_free_q, P.l2_share, bytes_, now_q);
  if (miss_bytes_) q = std::max(q, queue(P.hbm_free_q, P.hbm_share, miss_bytes_, now_q));
  return {hit_, extra_ + q};
}

void note_async_store(ExecCtx& c, uint64_t bytes, Cycles done) {
  PartitionTiming& P = c.part->timing();
  SmTiming& S = c.sm->timing();
  P.l2_bytes += bytes;
  (void)queue(P.l2_free_q, P.l2_share, bytes, c.now.count() * kQ);
  S.last_store = std::max(S.last_store, done.count());
}

}  // namespace tcsim::sim::timing
