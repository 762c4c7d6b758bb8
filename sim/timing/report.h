// What a launch reports about its timing (sim/api.h LaunchResult::timing): cycles, time at the
// modelled clock, achieved FLOP rate, per-unit utilisation, where each warp role's cycles went and
// the critical resource (docs/timing_model.md "Report"); and the optional trace (Chrome/Perfetto
// trace-event records, written by tools: tools/tcsim/trace_json.h).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tcsim::sim::timing {

// One trace record.
struct TraceEvent {
  uint64_t ts = 0, dur = 0;   // cycles
  uint32_t sm = 0;
  uint32_t track = 0;         // kTrackTma, kTrackTensor, kTrackMbarrier, or kTrackWarp + warp track
  char ph = 'X';              // 'X' span, 'i' instant
  std::string name;
  std::string args;           // a JSON object's members ("\"bytes\": 16384"), or empty
};
inline constexpr uint32_t kTrackTma = 0, kTrackTensor = 1, kTrackMbarrier = 2, kTrackWarp = 16;

struct TimingReport {
  std::string profile;          // "h200"
  double clock_mhz = 0;         // the clock the time is computed at
  bool clock_pinned = false;    // --clock-mhz
  std::string clock_note;       // how the clock was chosen
  uint64_t cycles = 0;
  double seconds = 0;
  double flops = 0;             // 2 * M * N * K summed over every MMA
  double tflops = 0;
  uint32_t sms_used = 0;
  uint64_t busy_cycles = 0;     // SM-cycles with CTAs resident (summed over SMs)
  // Utilisation, fractions of the SM-cycles with CTAs resident:
  double tensor_busy = 0;       // tensor pipe busy (wgmma / tcgen05.mma / mma.sync)
  double smem_busy = 0;         // shared-memory port busy (ld/st/atom.shared, MMA operand reads)
  double issue_busy = 0;        // issue slots used (schedulers x cycles)
  double tma_busy = 0;          // TMA fill port busy
  uint64_t tma_load_bytes = 0, tma_store_bytes = 0, hbm_bytes = 0, l2_bytes = 0;
  double tma_gbps = 0, hbm_gbps = 0, l2_gbps = 0;
  uint64_t l1_hits = 0, l1_misses = 0, l2_hits = 0, l2_misses = 0;
  struct Role {
    std::string name;           // producer, mma, epilogue, other
    uint32_t warps = 0;
    uint64_t issued = 0;
    uint64_t cycles = 0;        // summed over the role's warps
    std::vector<std::pair<std::string, uint64_t>> where;  // reason -> cycles, largest first
  };
  std::vector<Role> roles;
  std::string critical;         // the critical resource, one line
};

}  // namespace tcsim::sim::timing
