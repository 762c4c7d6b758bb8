// The C++ API of the simulator: load PTX, allocate and fill device memory, launch, read back.
// `tcsim run` (tools/) is a thin layer over this; so is any embedding program or test.
// It mirrors the CUDA driver API's shape (cuModuleLoadData, cuMemAlloc, cuMemcpy, cuModuleGetGlobal,
// cuLaunchKernelEx) so a launch spec maps onto both the same way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "isa/arch.h"
#include "sim/dim3.h"
#include "sim/report/finding.h"
#include "sim/timing/report.h"

namespace tcsim::sim {

struct LaunchConfig {
  Dim3 grid, block, cluster;
  uint32_t dynamic_smem_bytes = 0;
  // Launched with an explicit cluster attribute (cudaLaunchKernelEx with a cluster dimension, as
  // tcsim-hw does when the spec names a cluster): %is_explicit_cluster is then true even for a
  // 1x1x1 cluster. Cluster dims above one, or dims compiled into the kernel, imply it.
  bool explicit_cluster = false;
  // The device printf FIFO's size for this launch (cudaLimitPrintfFifoSize), at least 512 KiB as on
  // the H200; 0: the device's default (docs/printf.md "FIFO"). printf calls whose record does not
  // fit are dropped and counted (LaunchResult::printf_dropped).
  uint64_t printf_fifo_bytes = 0;
  // The per-thread stack for this launch (cudaLimitStackSize, set through the CUDA driver layer's
  // cuCtxSetLimit(CU_LIMIT_STACK_SIZE)); 0: DeviceOptions::stack_size_bytes.
  uint32_t stack_size_bytes = 0;
  // Optional names for byte ranges of the parameter buffer (a launch spec's tensor maps: "tmA" at
  // offset 0, 128 bytes), used in messages: the misread report names the tensor map TMA loaded with.
  struct ParamLabel {
    uint32_t offset = 0, size = 0;
    std::string name;
  };
  std::vector<ParamLabel> param_labels;
};

// Warp scheduling and asynchronous latencies (DESIGN.md "Deterministic by default, adversarial on
// request").
enum class Schedule : uint8_t {
  Default,  // greedy-then-oldest issue, fixed latencies: the same run every time
  Random,   // seeded perturbation (DeviceOptions::seed) of warp interleavings and async latencies
            // within legal bounds: still deterministic per seed
};

// One parameter of an .entry, in declaration order (PTX ISA §5.1.6 "Kernel parameters").
struct ParamInfo {
  std::string name;
  uint32_t size;   // bytes
  uint32_t align;  // bytes
};

// What a driver reports about a kernel (cuFuncGetAttribute, occupancy): the PTX performance
// directives (PTX ISA §11.4 "Performance-Tuning Directives") and the bound program's layout.
struct KernelInfo {
  uint32_t static_smem_bytes = 0;     // static .shared bytes as ptxas -v reports them (models::SmemLayout)
  uint32_t static_end = 0;            // end of the static variables (before the extern alignment)
  uint32_t extern_smem_align = 0;     // largest alignment of an extern .shared array of the module (0: none)
  uint32_t param_bytes = 0;           // the parameter buffer
  uint32_t local_bytes = 0;           // the kernel's own .local frame per thread (callees not included)
  Dim3 maxntid{0, 0, 0}, reqntid{0, 0, 0}, reqnctapercluster{0, 0, 0};  // 0: not given
  uint32_t minnctapersm = 0, maxnreg = 0, maxclusterrank = 0;            // 0: not given
  bool explicitcluster = false;
  uint32_t ptx_version = 0;           // major * 10 + minor (.version)
  std::string target;                 // .target, e.g. "sm_100a"
};

struct SymbolInfo {
  uint64_t address;  // device address (global or const bank, as the driver would return)
  uint64_t size;     // bytes, from the PTX declaration
};

// How far a running launch has got (DeviceOptions::progress): a front end shows it on a terminal.
struct LaunchProgress {
  uint64_t ctas_done = 0, ctas_total = 0;
  uint64_t cycles = 0;              // simulated cycles so far
  uint64_t warp_instructions = 0;   // executed so far
  double elapsed_seconds = 0;       // wall time since the launch started
};

struct DeviceOptions {
  Schedule schedule = Schedule::Default;
  uint64_t seed = 0;            // schedule perturbation seed (Schedule::Random)
  // Watchdog (sim/launch.h): the launch stops with a report of where every warp is (and the loop
  // it spins in) when the warps together have executed max_steps warp-instructions, or one warp
  // max_warp_steps. 0 = the defaults kDefaultMaxSteps and kDefaultMaxWarpSteps; a max_steps given
  // and max_warp_steps left 0 set the per-warp limit to max_steps too (one knob to raise both).
  uint64_t max_steps = 0;
  uint64_t max_warp_steps = 0;
  // Wall-clock limit in seconds (0: none). Not deterministic, so off by default: a run that passes
  // it ends with the same report as the step watchdog.
  double max_seconds = 0;
  // Livelock detection (sim/livelock.h): the launch ends with a report of where the warps spin when
  // nothing in the machine makes progress (a store, an atomic, a barrier arrival, an asynchronous
  // operation, an exit: docs/hostile_input.md "Livelock") for this many simulated cycles.
  // 0 = the default models::kLivelockWindowCycles; kLivelockOff = never.
  uint64_t livelock_cycles = 0;
  static constexpr uint64_t kLivelockOff = ~uint64_t{0};
  // Called from the launch loop about every progress_interval_seconds of wall time (not at all when
  // empty); it must not throw. Has no effect on results.
  std::function<void(const LaunchProgress&)> progress;
  double progress_interval_seconds = 0.5;
  unsigned host_threads = 0;    // CTAs simulated in parallel (0 = hardware concurrency)
  // Timing model (docs/timing_model.md). The GPU's profile: empty = the built-in one of the
  // arch (models/timing/<gpu>.txt); else the text of a profile file (named `timing_profile_name`
  // in errors), e.g. an edited copy.
  std::string timing_profile;
  std::string timing_profile_name;
  double clock_mhz = 0;         // pin the SM clock (MHz; 0 = the model's clock)
  // The kernel runs back-to-back for longer than clock.throttle_after_us (a benchmark loop): a
  // tensor-bound kernel runs at clock.sustained_mhz throughout (`tcsim run --steady-clock`).
  bool steady_clock = false;
  // No MMA arithmetic and no output values, the same cycles: estimates at production sizes.
  bool timing_only = false;
  // With timing_only: still copy each TMA tile's bytes into shared memory. Off, a tile load only
  // marks its box (sim/units/uncopied_smem.h) and a read that needs its values throws
  // TimingOnlyNeedsCopies; the cycles are the same either way.
  bool timing_only_copies = false;
  uint64_t trace_events = 0;    // record up to this many trace events (0 = no trace)
  // The checker's hazard tracking (docs/checker.md): the proxy shadow of shared memory, the
  // in-flight windows of asynchronous operations, TMEM access windows and fences, descriptor
  // diagnosis. Off (`tcsim run --no-check`) for speed: results, cycles, faults and the findings
  // that come from executing an instruction (tolerated forms, mbarrier state) are unchanged.
  bool check = true;
  // Per-thread stack for what ptxas cannot size statically: the activations of recursive functions
  // (cudaLimitStackSize; the driver's default is 1024 bytes: CUDA Driver API, cuCtxSetLimit).
  // A call past it ends the launch with an error naming the depth, the function and the lane
  // (docs/hostile_input.md, "Stack").
  uint32_t stack_size_bytes = 1024;
};

// A finished launch. A kernel error (out-of-bounds, trap, deadlock, watchdog) is a SimError
// thrown by launch(); what does not stop the kernel (findings) lands here.
struct LaunchResult {
  uint64_t cycles = 0;                     // simulated cycles
  uint64_t warp_instructions = 0;          // instructions issued (one per thread group per step)
  uint64_t thread_instructions = 0;        // sum over issues of the threads executing
  // Findings: rules of the PTX ISA the kernel broke while it ran to completion (sim/report), by
  // (rule, site), earliest first, each with its count and first occurrences.
  std::vector<FindingGroup> findings;
  std::vector<std::string> approx_ops;     // .approx instructions executed (not bit-exact by design)
  timing::TimingReport timing;             // cycles, time, FLOP rate, utilisation, bottleneck
  std::vector<timing::TraceEvent> trace;   // DeviceOptions::trace_events > 0: the timeline
  // Device printf (vprintf) output of the launch, formatted as CUDA formats it, in a fixed order:
  // CTA linear id, warp, lane, then the thread's calls in program order (docs/printf.md).
  std::string printf_output;
  uint64_t printf_records = 0;             // printf calls whose output is in printf_output
  uint64_t printf_dropped = 0;             // printf calls dropped: the FIFO was full (or a text limit)
  uint64_t printf_fifo_bytes = 0;          // the FIFO's capacity in effect
  // Every kept occurrence as one line (Finding::str()), in group order: for logs and tests.
  std::vector<std::string> finding_lines() const;
};

// An error in the simulated program or its launch: message names the PTX line, the CTA/warp/lane
// and the offending values. The CLI prints it and exits 2.
struct SimError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A --timing-only launch that skipped TMA tile copies read the bytes it skipped in a way that could
// change its control flow, addresses or memory (sim/units/uncopied_smem.h): run it again with
// DeviceOptions::timing_only_copies (tools/tcsim/sim_backend.h run_timing_only_safe does).
struct TimingOnlyNeedsCopies : SimError {
  using SimError::SimError;
};

class Module;  // a parsed, decoded PTX module

class Device {
 public:
  Device(isa::Arch arch, DeviceOptions opts = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  isa::Arch arch() const;

  // Parses and decodes PTX text; `source_name` appears in diagnostics (file:line:col).
  const Module& load_ptx(std::string_view ptx_text, std::string source_name);
  std::vector<std::string> kernel_names(const Module& m) const;
  std::vector<ParamInfo> kernel_params(const Module& m, std::string_view kernel) const;
  SymbolInfo symbol(const Module& m, std::string_view name) const;  // throws SimError if unknown
  KernelInfo kernel_info(const Module& m, std::string_view kernel) const;  // throws SimError if unknown

  // Global memory. Addresses look like real 64-bit device pointers; accesses outside an
  // allocation are reported by the simulator, never a host crash.
  uint64_t malloc(uint64_t bytes, uint64_t align = 256);
  // Releases an allocation made by malloc (cuMemFree): later accesses to it are reported as
  // use-after-free; its address range is never handed out again. SimError if `address` is not the
  // start of a live malloc allocation.
  void free(uint64_t address);
  // True when [address, address + bytes) lies inside one live allocation (malloc or a module
  // variable): what copy_to_device / copy_from_device accept.
  bool contains(uint64_t address, uint64_t bytes) const;
  void copy_to_device(uint64_t dst, const void* src, uint64_t bytes);
  // The host bytes of [dst, dst + bytes) inside one live allocation (the simulator's global memory
  // is host memory): a loader fills a buffer there without a host image and a copy. SimError as
  // copy_to_device when the range is not inside one allocation. Valid until the allocation is freed.
  std::span<std::byte> host_bytes(uint64_t dst, uint64_t bytes);
  // The host wrote [dst, dst + bytes) without a copy (a memset of zeros the fresh allocation
  // already holds): from now on the bytes count as initialised for initcheck
  // (docs/checker.md "uninitialised-global-read"). copy_to_device and host_bytes imply it; a malloc'd
  // byte nothing wrote is reported when a kernel reads it. SimError as copy_to_device.
  void host_wrote(uint64_t dst, uint64_t bytes);
  // The name findings give the allocation starting at `address` (a launch spec's buffer name;
  // default "allocation #N"). SimError if no live allocation starts there.
  void name_allocation(uint64_t address, std::string name);
  void copy_from_device(void* dst, uint64_t src, uint64_t bytes) const;
  // Device-to-device copy of [src, src + bytes) to dst (each inside one live allocation; they may
  // overlap, as cuMemcpy's do not need to). For initcheck a copied byte counts as written only when
  // its source byte was: copying bytes nothing wrote does not make them defined (CUDA Driver API
  // cuMemAlloc: the contents of a fresh allocation are undefined). SimError as copy_to_device.
  void copy_on_device(uint64_t dst, uint64_t src, uint64_t bytes);

  // `params` holds the parameter bytes laid out as the .entry's .param list (each at its
  // alignment), exactly what cuLaunchKernel would copy into the constant bank.
  LaunchResult launch(const Module& m, std::string_view kernel, const LaunchConfig& cfg,
                      std::span<const std::byte> params);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tcsim::sim
