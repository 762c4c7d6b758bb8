// The GPU's shape and limits, one row per arch (DESIGN.md "Data, not code, for the machine's
// numbers"): SM / TPC / GPC counts, per-SM resources, shared-memory reservations, launch and
// cluster limits, clock. Every value has a source in machine_table.cc (`field_sources`), and a
// value nobody measured or published is marked assumed there. docs/machine.md explains the rows.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "isa/arch.h"

namespace tcsim::models {

inline constexpr uint32_t kMaxGpcs = 16;

struct MachineConfig {
  const char* name;
  isa::Arch arch;
  // ---- SMs, TPCs, GPCs ----
  uint32_t num_sms;
  uint32_t num_gpcs;  // cluster placement groups: a cluster's CTAs always share one (CUDA Programming Guide)
  // SMs of each GPC, whole TPCs (two SMs each). tcsim numbers SMs GPC by GPC, TPC t of a GPC being
  // its SMs 2t and 2t+1 (the H200 numbers %smid across GPCs: docs/machine.md).
  std::array<uint32_t, kMaxGpcs> gpc_sms;
  // ---- per SM ----
  uint32_t max_threads_per_sm;
  uint32_t max_ctas_per_sm;
  uint32_t max_warps_per_sm;
  uint32_t max_cluster_ctas_per_sm;  // CTAs of cluster launches an SM holds at once
  uint32_t smem_per_sm;              // bytes, the 1 KiB reserves of its CTAs included
  // ---- shared memory of one CTA ----
  uint32_t max_smem_per_cta;         // static + dynamic bytes with the opt-in attribute (reserve excluded)
  uint32_t default_max_dynamic_smem; // dynamic bytes without the opt-in attribute
  uint32_t reserved_smem_per_cta;    // system reserve at the start of every CTA's shared memory
  uint32_t reserved_smem_end;        // %reserved_smem_offset_end
  uint32_t smem_alloc_granularity;   // %total_smem_size rounds static + dynamic up to this
  // ---- launch limits ----
  uint32_t max_threads_per_cta;
  std::array<uint32_t, 3> max_block;  // x, y, z
  std::array<uint32_t, 3> max_grid;   // x, y, z
  uint32_t max_cluster_ctas_portable;
  uint32_t max_cluster_ctas_nonportable;  // with the non-portable cluster-size attribute
  // ---- clock ----
  uint32_t clock_mhz;  // for %globaltimer (ns) and time-outs from cycles

  std::span<const uint32_t> gpcs() const { return {gpc_sms.data(), num_gpcs}; }
};

// Where a value of a row comes from. `assumed`: neither measured nor published for this machine.
struct FieldSource {
  const char* field;
  const char* source;
  bool assumed;
};

const MachineConfig& machine_config(isa::Arch arch);
// The sources of the row's values, one per field of MachineConfig (name and arch excepted).
std::span<const FieldSource> field_sources(isa::Arch arch);
// Every arch with a row of its own (sm_100f runs on the B200 and shares its row).
std::span<const isa::Arch> machine_archs();

// Host-memory guard, not a hardware number: resident CTAs of one SM may hold at most this many
// bytes of simulated registers (PTX virtual registers, 8 bytes x 32 lanes each per warp). Unoptimised
// (-G) code declares thousands of registers; without the cap a full machine would need gigabytes.
// Lowers occupancy (timing) for such kernels only; never blocks a launch (one CTA always fits).
inline constexpr uint64_t kMaxRegisterBytesPerSm = uint64_t{4} << 20;

// Livelock detection (sim/livelock.h, docs/hostile_input.md "Livelock"): a launch ends with a
// livelock report when for this many simulated cycles no thread of any CTA stored, ran an atomic,
// arrived at a barrier, issued an asynchronous operation, read a clock or exited, no CTA was
// launched and no asynchronous completion landed or is still scheduled. Not a hardware number but
// sized by hardware facts: twice the longest nanosleep (1 ms; PTX ISA §9.7.19 Miscellaneous
// Instructions: nanosleep), 2 x 10^6 cycles at a 2 GHz SM clock, is the longest legitimate
// wait with nothing happening; the window is 5 times that (about 5 ms of GPU time). A
// single-warp spin loop reaches it after a few 10^5 instructions (well under a second of host time).
inline constexpr uint64_t kLivelockWindowCycles = 10'000'000;
// Exact-repeat livelock detection (sim/livelock.h): after this many simulated cycles with no
// progress but fresh-address loads and no asynchronous completion scheduled (or after the window,
// when it is shorter) warps start comparing their states at backward branches. Not a hardware
// number but a cost knob: a repeat is a proof whenever it is found, the threshold only keeps the
// comparisons out of working kernels (which rarely go this long, about 16 us of GPU time, without
// a store, an atomic, a barrier or an asynchronous operation). A full machine of spinning warps
// (132 x 1024 threads) simulates 2^15 cycles in about 1 s of host time here, 2^17 in about 4 s
// (docs/hostile_input.md "Livelock").
inline constexpr uint64_t kLivelockRepeatCycles = uint64_t{1} << 15;

// ---- residency ----
// CTAs of `threads` threads and `smem` bytes (reserve included, see SmemLayout::cta_bytes) one SM
// holds at once, by the per-SM limits (registers are not modelled).
uint32_t ctas_per_sm(const MachineConfig& m, uint32_t threads, uint32_t smem);
// Clusters of `cluster_ctas` CTAs the machine runs at once: every CTA of a cluster on a different
// SM of one GPC, at most min(ctas_per_sm, max_cluster_ctas_per_sm) CTAs per SM; per GPC of S SMs
// floor(slots * S / k) clusters when k <= S, none otherwise. The rule reproduces the H200's
// cudaOccupancyMaxActiveClusters for every configuration measured (docs/machine.md).
uint32_t max_active_clusters(const MachineConfig& m, uint32_t threads, uint32_t smem, uint32_t cluster_ctas);

}  // namespace tcsim::models
