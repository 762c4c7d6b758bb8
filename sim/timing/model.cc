#include "sim/timing/model.h"

#include <algorithm>

namespace tcsim::sim::timing {

namespace {

PipeCost fixed(double latency, double per_clk, double schedulers) {
  // A warp instruction is 32 thread instructions; the SM's rate is shared by its schedulers.
  PipeCost c;
  c.latency = static_cast<uint32_t>(latency + 0.5);
  c.interval_q = static_cast<uint32_t>(std::max<uint64_t>(kQ, to_q(32.0 * schedulers / per_clk)));
  return c;
}

PipeCost unit(double latency) {
  PipeCost c;
  c.latency = static_cast<uint32_t>(std::max(1.0, latency + 0.5));
  c.interval_q = kQ;
  return c;
}

}  // namespace

Model::Model(const models::timing::Profile& prof, double clock) : p(prof) {
  clock_pinned = clock > 0;
  clock_mhz = clock > 0 ? clock : p.clock_boost_mhz;
  const double s = p.sm_schedulers;
  auto set = [&](Pipe x, PipeCost c) { pipe[static_cast<int>(x)] = c; };
  set(Pipe::Alu, fixed(p.alu_latency, p.alu_per_clk, s));
  set(Pipe::Alu64, fixed(p.alu64_latency, p.alu64_per_clk, s));
  set(Pipe::Imad, fixed(p.imad_latency, p.imad_per_clk, s));
  set(Pipe::Imul64, fixed(p.imul64_latency, p.imul64_per_clk, s));
  set(Pipe::Bitop, fixed(p.bitop_latency, p.bitop_per_clk, s));
  set(Pipe::Fp32, fixed(p.fp32_latency, p.fp32_per_clk, s));
  set(Pipe::Fp64, fixed(p.fp64_latency, p.fp64_per_clk, s));
  set(Pipe::Half, fixed(p.half_latency, p.half_per_clk, s));
  set(Pipe::Mufu, fixed(p.mufu_latency, p.mufu_per_clk, s));
  set(Pipe::Cvt, fixed(p.cvt_latency, p.cvt_per_clk, s));
  set(Pipe::CvtHalf, fixed(p.cvt_half_latency, p.cvt_half_per_clk, s));
  set(Pipe::Cvt64, fixed(p.cvt64_latency, p.cvt64_per_clk, s));
  set(Pipe::Shfl, fixed(p.shfl_latency, p.shfl_per_clk, s));
  set(Pipe::Vote, fixed(p.vote_latency, p.vote_per_clk, s));
  set(Pipe::Redux, fixed(p.redux_latency, p.redux_per_clk, s));
  set(Pipe::Idiv, fixed(p.idiv_latency, p.idiv_per_clk, s));
  set(Pipe::Idiv64, fixed(p.idiv64_latency, p.idiv64_per_clk, s));
  set(Pipe::Fdiv, fixed(p.fdiv_latency, p.fdiv_per_clk, s));
  set(Pipe::Fsqrt, fixed(p.fsqrt_latency, p.fsqrt_per_clk, s));
  set(Pipe::FdivApprox, fixed(p.fdiv_approx_latency, p.fdiv_approx_per_clk, s));
  set(Pipe::Ddiv, fixed(p.ddiv_latency, p.ddiv_per_clk, s));
  set(Pipe::Sreg, fixed(p.sreg_latency, p.sreg_per_clk, s));
  set(Pipe::Control, unit(1));
  set(Pipe::Mem, unit(p.l1_latency));  // the memory system replaces it per access
  set(Pipe::Atomic, unit(p.atom_latency));
  set(Pipe::Barrier, unit(1));
  set(Pipe::MbarArrive, unit(p.mbarrier_arrive_latency));
  set(Pipe::MbarWait, unit(p.mbarrier_wait_latency));
  set(Pipe::Fence, unit(p.fence_cta_cycles));
  set(Pipe::FenceGpu, unit(p.fence_gpu_cycles));
  set(Pipe::FenceProxy, unit(p.fence_proxy_cycles));
  set(Pipe::AsyncCopy, unit(1));
  set(Pipe::Tensor, unit(1));
  PipeCost mma = unit(p.mma_latency);
  mma.interval_q = static_cast<uint32_t>(to_q(p.mma_interval));
  set(Pipe::Mma, mma);
  set(Pipe::TmemLd, unit(p.tc_ld_latency));
  set(Pipe::TmemAlloc, unit(p.tc_alloc_cycles));
  set(Pipe::Misc, unit(1));
  // GB/s -> bytes per SM cycle at the modelled clock (the memory clock does not scale with it).
  hbm_bytes_per_clk = p.hbm_bandwidth * 1e3 / clock_mhz;
  l2_bytes_per_clk = p.l2_bandwidth * 1e3 / clock_mhz;
  atom_same_word_cycles = p.atom_same_word_ns * clock_mhz * 1e-3;
  atom_float_same_word_cycles = p.atom_float_same_word_ns * clock_mhz * 1e-3;
  atom_emulated_same_word_cycles = p.atom_emulated_same_word_ns * clock_mhz * 1e-3;
  atom_f64_same_word_cycles = p.atom_f64_same_word_ns * clock_mhz * 1e-3;
  atom_cas_same_word_cycles = p.atom_cas_same_word_ns * clock_mhz * 1e-3;
}

Model::Tcgen05Mma Model::tcgen05_mma(int cta_group, uint32_t m, uint32_t n, bool ts) const {
  // Per SM: the tensor pipe finishes cols_per_clk accumulator columns of 128 rows x 32 bytes of K
  // per clock (every kind: K is always 32 bytes, PTX ISA §9.7.16.10.9.1 Table 52); M = 64 with
  // cta_group::1 still takes the time of 128 rows. Shared memory feeds smem.bytes_per_clk: A (M
  // rows x 32 B, unless A is in TMEM) and B (N rows x 32 B; cta_group::2: each SM reads half).
  const double cols = p.tc_cols_per_clk, port = p.smem_bytes_per_clk;
  Tcgen05Mma r{};
  if (cta_group == 2) {
    const uint32_t m_sm = m / 2;
    const double math = n / cols * (m_sm <= 64 ? 0.5 : 1.0);
    r.smem_cycles = ((ts ? 0.0 : m_sm * 32.0) + n / 2.0 * 32.0) / port;
    r.ii = std::max(math, r.smem_cycles) + p.tc_ii_overhead_cta2;
    if (ts && m_sm <= 64) r.ii = std::max(r.ii, p.tc_ii_min_cta2_ts);
    if (m_sm <= 64) r.latency = (ts ? p.tc_ts2_m128_latency : p.tc_ss2_m128_latency) + n / 4.0;
    else r.latency = (ts ? p.tc_ts2_m256_latency : p.tc_ss2_m256_latency) + n / 2.0;
  } else {
    const double math = n / cols;
    r.smem_cycles = ((ts ? 0.0 : m * 32.0) + n * 32.0) / port;
    r.ii = std::max(math, r.smem_cycles) + p.tc_ii_overhead_cta1;
    r.latency = (ts ? p.tc_ts1_latency : (m <= 64 ? p.tc_ss1_m64_latency : p.tc_ss1_m128_latency)) + n / 2.0;
  }
  return r;
}

Model::Wgmma Model::wgmma(uint32_t n, bool a_regs) const {
  // m64nNk(32 B): N * cycles_per_n of math; A (64 x 32 B unless in registers) and B (N x 32 B)
  // read through the shared-memory port.
  Wgmma r{};
  const double math = n * p.wgmma_cycles_per_n;
  r.smem_cycles = ((a_regs ? 0.0 : 64 * 32.0) + n * 32.0) / p.smem_bytes_per_clk;
  r.ii = std::max(math, r.smem_cycles);
  r.latency = p.wgmma_latency + math;
  return r;
}

}  // namespace tcsim::sim::timing
