// Kernel launches and occupancy (CUDA Driver API "Execution Control", "Occupancy"). A launch is
// checked the way the driver checks it (dimensions, shared memory against the kernel's attribute,
// cluster shape), its parameter buffer is assembled from kernelParams or `extra`, and it is queued;
// it runs at the next synchronisation (driver.h).
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "models/machine/machine_config.h"
#include "models/machine/shared_memory.h"
#include "sim/report/finding.h"
#include "tools/cuda_driver/driver.h"

using namespace tcsim::cudrv;
using tcsim::sim::Dim3;

namespace {

struct LaunchRequest {
  Dim3 grid, block, cluster{1, 1, 1};
  bool cluster_given = false;   // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
  Dim3 preferred{0, 0, 0};      // CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION
  bool cooperative = false;
  uint32_t smem = 0;
  CUstream stream = nullptr;
  std::vector<Event*> events;   // recorded when the kernel completes (programmatic / completion events)
};

std::string dims(const Dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

// The CTA's shared-memory layout for a launch with `dynamic` bytes (models/machine/shared_memory.h).
tcsim::models::SmemLayout layout_of(const tcsim::models::MachineConfig& m, const Function& f, uint64_t dynamic) {
  return tcsim::models::smem_layout(m, f.info.static_end, f.info.extern_smem_align, static_cast<uint32_t>(dynamic));
}
uint64_t cta_smem(const tcsim::models::MachineConfig& m, const Function& f, uint64_t dynamic) {
  return layout_of(m, f, dynamic).cta_bytes();
}

// CTAs of `f` one SM holds at once: the machine's residency rule (models::ctas_per_sm, what the
// simulator's CTA placement obeys), and registers only where the kernel bounds them (.maxnreg: 64K
// per SM, allocated per warp in units of 256) — PTX has no other register count.
int blocks_per_sm(const tcsim::models::MachineConfig& m, const Function& f, uint64_t threads, uint64_t dynamic) {
  if (threads == 0 || threads > m.max_threads_per_cta) return 0;
  uint64_t b = tcsim::models::ctas_per_sm(m, static_cast<uint32_t>(threads), static_cast<uint32_t>(cta_smem(m, f, dynamic)));
  if (f.info.maxnreg) {
    const uint64_t warps = (threads + 31) / 32;
    const uint64_t per_warp = (uint64_t{f.info.maxnreg} * 32 + 255) / 256 * 256;
    b = std::min<uint64_t>(b, 65536 / (per_warp * warps));
  }
  return static_cast<int>(b);
}

int max_threads(const Function& f) {
  auto n = [](const Dim3& d) { return uint64_t{d.x} * (d.y ? d.y : 1) * (d.z ? d.z : 1); };
  uint64_t t = 1024;
  if (f.info.maxntid.x) t = std::min(t, n(f.info.maxntid));
  if (f.info.reqntid.x) t = std::min(t, n(f.info.reqntid));
  return static_cast<int>(t);
}

// The CUresult a GPU returns for the fault the simulator reports (sim/memory/access.h wording):
// an out-of-bounds or freed address is an illegal address, a misaligned one a misaligned address,
// `trap` and everything else (deadlock, watchdog, a broken rule) an unspecified launch failure.
CUresult classify_fault(const std::string& msg) {
  if (msg.find("out-of-bounds") != std::string::npos || msg.find("outside device memory") != std::string::npos ||
      msg.find("which was freed") != std::string::npos)
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (msg.find(": misaligned ") != std::string::npos) return CUDA_ERROR_MISALIGNED_ADDRESS;
  return CUDA_ERROR_LAUNCH_FAILED;
}

// The parameter buffer: each kernelParams[i] at its offset, or the caller's packed buffer (extra).
CUresult param_buffer(Driver& drv, const Function& f, void** kernel_params, void** extra, std::vector<std::byte>& out) {
  out.assign(f.param_bytes, std::byte{0});
  if (extra) {
    const void* buf = nullptr;
    size_t size = 0;
    bool have_size = false;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (i > 64) return drv.fail(CUDA_ERROR_INVALID_VALUE, "cuLaunchKernel: `extra` has no CU_LAUNCH_PARAM_END");
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
      else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
        size = *static_cast<const size_t*>(extra[i + 1]);
        have_size = true;
      } else {
        return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuLaunchKernel: unknown `extra` key {}", extra[i]));
      }
    }
    if (!buf || !have_size) return drv.fail(CUDA_ERROR_INVALID_VALUE, "cuLaunchKernel: `extra` needs BUFFER_POINTER and BUFFER_SIZE");
    if (size != f.param_bytes)
      return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuLaunchKernel: kernel {} takes {} parameter bytes, `extra` "
                                                            "gives {}", f.name, f.param_bytes, size));
    if (kernel_params)
      return drv.fail(CUDA_ERROR_INVALID_VALUE, "cuLaunchKernel: both kernelParams and extra given");
    if (size) std::memcpy(out.data(), buf, size);  // no parameters: out.data() may be null
    return CUDA_SUCCESS;
  }
  if (f.params.empty()) return CUDA_SUCCESS;
  if (!kernel_params)
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuLaunchKernel: kernel {} takes {} parameters, kernelParams is NULL",
                                                          f.name, f.params.size()));
  for (size_t i = 0; i < f.params.size(); ++i) {
    if (!kernel_params[i])
      return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuLaunchKernel: kernel {} parameter {} ({}): kernelParams[{}] is NULL",
                                                            f.name, i, f.params[i].name, i));
    std::memcpy(out.data() + f.param_offsets[i], kernel_params[i], f.params[i].size);
  }
  return CUDA_SUCCESS;
}

CUresult launch(Driver& drv, const char* call, CUfunction hf, LaunchRequest q, void** kernel_params, void** extra) {
  Function* f = drv.function(hf);
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, fmt::format("{}: invalid function handle", call));
  Context* ctx = nullptr;
  if (CUresult r = drv.need_context(ctx)) return r;
  Stream* s = nullptr;
  if (!drv.stream(q.stream, s)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, fmt::format("{}: invalid stream handle", call));
  if (drv.sticky()) return drv.sticky();
  const tcsim::models::MachineConfig& m = tcsim::models::machine_config(drv.arch());
  auto bad = [&](CUresult r, const std::string& what) {
    return drv.fail(r, fmt::format("{} of {}: {}", call, f->name, what));
  };
  const Dim3 g = q.grid, b = q.block;
  if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z) return bad(CUDA_ERROR_INVALID_VALUE, "grid and block dimensions must be positive");
  if (g.x > m.max_grid[0] || g.y > m.max_grid[1] || g.z > m.max_grid[2])
    return bad(CUDA_ERROR_INVALID_VALUE, fmt::format("grid {} exceeds the limits ({}, {}, {})", dims(g), m.max_grid[0],
                                                     m.max_grid[1], m.max_grid[2]));
  if (b.x > m.max_block[0] || b.y > m.max_block[1] || b.z > m.max_block[2] || b.count() > m.max_threads_per_cta)
    return bad(CUDA_ERROR_INVALID_VALUE, fmt::format("block {} exceeds the limits ({}, {}, {}; {} threads)", dims(b),
                                                     m.max_block[0], m.max_block[1], m.max_block[2], m.max_threads_per_cta));
  if (b.count() > static_cast<uint64_t>(max_threads(*f)))
    return bad(CUDA_ERROR_INVALID_VALUE, fmt::format("block of {} threads exceeds the kernel's maximum of {} (.maxntid/.reqntid)",
                                                     b.count(), max_threads(*f)));
  if (q.smem > static_cast<uint32_t>(f->max_dynamic_smem))
    return bad(CUDA_ERROR_INVALID_VALUE,
               fmt::format("{} bytes of dynamic shared memory exceed the kernel's MAX_DYNAMIC_SHARED_SIZE_BYTES of {} (raise it "
                           "with cuFuncSetAttribute / cudaFuncSetAttribute; the default is 48 KiB)", q.smem, f->max_dynamic_smem));
  if (uint64_t{q.smem} + f->info.static_smem_bytes > m.max_smem_per_cta)
    return bad(CUDA_ERROR_INVALID_VALUE, fmt::format("{} static + {} dynamic bytes of shared memory exceed the {} a CTA may use",
                                                     f->info.static_smem_bytes, q.smem, m.max_smem_per_cta));
  // Cluster shape: the launch attribute, the kernel attribute, or the compiled dimensions.
  const Dim3 compiled = f->info.reqnctapercluster;
  Dim3 c = q.cluster;
  if (compiled.x) {
    if (q.cluster_given && (c.x != compiled.x || c.y != compiled.y || c.z != compiled.z) && c.count() != 1)
      return bad(CUDA_ERROR_INVALID_CLUSTER_SIZE, fmt::format("cluster {} differs from the kernel's compiled cluster dimensions {}",
                                                             dims(c), dims(compiled)));
    c = compiled;
  } else if (!q.cluster_given && f->required_cluster.x) {
    c = f->required_cluster;
  }
  if (!c.x || !c.y || !c.z) return bad(CUDA_ERROR_INVALID_CLUSTER_SIZE, "cluster dimensions must be positive");
  if (q.preferred.x) {
    // Blackwell's preferred cluster (CUDA Driver API, CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION):
    // a GPU with room launches clusters of the preferred shape; the idle simulated GPU always does.
    const Dim3 p = q.preferred;
    if (p.x % c.x || p.y % c.y || p.z % c.z || g.x % p.x || g.y % p.y || g.z % p.z)
      return bad(CUDA_ERROR_INVALID_CLUSTER_SIZE, fmt::format("preferred cluster {} must be a multiple of the cluster {} and "
                                                             "divide the grid {}", dims(p), dims(c), dims(g)));
    c = p;
  }
  if (g.x % c.x || g.y % c.y || g.z % c.z)
    return bad(CUDA_ERROR_INVALID_CLUSTER_SIZE, fmt::format("cluster {} does not divide the grid {}", dims(c), dims(g)));
  const uint64_t csize = c.count();
  if (csize > m.max_cluster_ctas_portable && !(f->non_portable_cluster && csize <= m.max_cluster_ctas_nonportable))
    return bad(CUDA_ERROR_INVALID_CLUSTER_SIZE,
               fmt::format("a cluster of {} CTAs exceeds the portable maximum of {}{}", csize, m.max_cluster_ctas_portable,
                           csize <= m.max_cluster_ctas_nonportable
                               ? fmt::format(" (set CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED for up to {})",
                                             m.max_cluster_ctas_nonportable)
                               : fmt::format(" ({} with the non-portable attribute)", m.max_cluster_ctas_nonportable)));
  const int per_sm = blocks_per_sm(m, *f, b.count(), q.smem);
  if (per_sm == 0)
    return bad(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, fmt::format("a CTA of {} threads with {} bytes of shared memory does not fit on an SM",
                                                        b.count(), cta_smem(m, *f, q.smem)));
  if (q.cooperative && g.count() > static_cast<uint64_t>(per_sm) * m.num_sms)
    return bad(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, fmt::format("a cooperative grid of {} CTAs exceeds the {} that can be "
                                                                    "resident at once", g.count(), per_sm * m.num_sms));
  std::vector<std::byte> params;
  if (CUresult r = param_buffer(drv, *f, kernel_params, extra, params)) return r;

  tcsim::sim::LaunchConfig cfg;
  cfg.grid = g;
  cfg.block = b;
  cfg.cluster = c;
  cfg.explicit_cluster = q.cluster_given || q.preferred.x || f->required_cluster.x;
  cfg.dynamic_smem_bytes = q.smem;
  // cudaDeviceSetLimit(cudaLimitStackSize) reaches the driver as cuCtxSetLimit(CU_LIMIT_STACK_SIZE);
  // the value in force when the launch is made applies to it (api_device.cc bounds it).
  if (auto it = ctx->limits.find(CU_LIMIT_STACK_SIZE); it != ctx->limits.end())
    cfg.stack_size_bytes = static_cast<uint32_t>(it->second);
  const unsigned long long seq = ++drv.launches;
  drv.enqueue(s, fmt::format("launch of {}", f->name), [&drv, f, cfg, params = std::move(params), events = q.events, seq] {
    const tcsim::sim::Module* mod = f->module->sim;
    try {
      const tcsim::sim::LaunchResult r = drv.device().launch(*mod, f->name, cfg, params);
      const double ms = static_cast<double>(r.cycles) / (tcsim::models::machine_config(drv.arch()).clock_mhz * 1e3);
      drv.advance_ms(ms);
      // Findings (sim/report): one line per rule and site with its count, the first ones in full.
      if (!r.findings.empty()) {
        // The kernel named once (mangled C++ names run to kilobytes: the first 120 characters),
        // then the summary's lines indented under it.
        const std::string sum = tcsim::sim::summarize_findings(r.findings, drv.reporting() ? r.findings.size() : 4, 1);
        const std::string name = f->name.size() > 120 ? f->name.substr(0, 117) + "..." : f->name;
        std::string text = fmt::format("launch {} of kernel {}:", seq, name);
        size_t b = 0;
        for (size_t e; (e = sum.find('\n', b)) != std::string::npos; b = e + 1) text += "\n  " + sum.substr(b, e - b);
        drv.fail(CUDA_SUCCESS, text);
      }
      drv.launch_log.push_back({f->name, r.cycles, tcsim::sim::total_occurrences(r.findings)});
      drv.report(fmt::format("launch {} of {}: grid {} block {} cluster {} smem {}: {} cycles ({:.6f} ms simulated){}", seq,
                             f->name, dims(cfg.grid), dims(cfg.block), dims(cfg.cluster), cfg.dynamic_smem_bytes, r.cycles, ms,
                             r.approx_ops.empty() ? std::string()
                                                  : fmt::format("; approximate instructions ran: {}", fmt::join(r.approx_ops, ", "))));
    } catch (const std::exception& e) {
      const CUresult code = classify_fault(e.what());
      const char* name = nullptr;
      cuGetErrorName(code, &name);
      drv.fail(code, fmt::format("kernel {} failed ({}): {}", f->name, name ? name : "?", e.what()));
      return code;
    }
    for (Event* ev : events) drv.complete_event(ev);
    return CUDA_SUCCESS;
  });
  for (Event* ev : q.events) drv.mark_event_pending(ev);
  return CUDA_SUCCESS;
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                             unsigned int by, unsigned int bz, unsigned int smem, CUstream s, void** params,
                                             void** extra) {
  TCSIM_CU_ENTER();
  LaunchRequest q;
  q.grid = {gx, gy, gz};
  q.block = {bx, by, bz};
  q.smem = smem;
  q.stream = s;
  return launch(drv, "cuLaunchKernel", f, q, params, extra);
}

TCSIM_CU_API CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                                                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem,
                                                        CUstream s, void** params) {
  TCSIM_CU_ENTER();
  LaunchRequest q;
  q.grid = {gx, gy, gz};
  q.block = {bx, by, bz};
  q.smem = smem;
  q.stream = s;
  q.cooperative = true;
  return launch(drv, "cuLaunchCooperativeKernel", f, q, params, nullptr);
}

TCSIM_CU_API CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) {
  TCSIM_CU_ENTER();
  if (!config) return drv.fail(CUDA_ERROR_INVALID_VALUE, "cuLaunchKernelEx: config is NULL");
  LaunchRequest q;
  q.grid = {config->gridDimX, config->gridDimY, config->gridDimZ};
  q.block = {config->blockDimX, config->blockDimY, config->blockDimZ};
  q.smem = config->sharedMemBytes;
  q.stream = config->hStream;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute& a = config->attrs[i];
    switch (a.id) {
      case CU_LAUNCH_ATTRIBUTE_IGNORE: break;
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        q.cluster = {a.value.clusterDim.x, a.value.clusterDim.y, a.value.clusterDim.z};
        q.cluster_given = true;
        break;
      case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
        q.preferred = {a.value.preferredClusterDim.x, a.value.preferredClusterDim.y, a.value.preferredClusterDim.z};
        break;
      case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: q.cooperative = a.value.cooperative != 0; break;
      // Programmatic dependent launch (PDL): the kernel may start before its predecessor ends.
      // Kernels run one after another here, which every PDL program must also accept (the
      // griddepcontrol instructions then never wait).
      case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION: break;
      case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
      case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT: {
        CUevent e = a.id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT ? a.value.programmaticEvent.event
                                                                   : a.value.launchCompletionEvent.event;
        Event* ev = drv.valid(drv.events, e) ? reinterpret_cast<Event*>(e) : nullptr;
        if (!ev) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuLaunchKernelEx: invalid event in a launch attribute");
        q.events.push_back(ev);  // triggered when the kernel completes: the latest moment allowed
        break;
      }
      // Scheduling and cache hints with no effect on results.
      case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
      case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      case CU_LAUNCH_ATTRIBUTE_PRIORITY:
      case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
      case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        break;
      default:
        return drv.not_supported(fmt::format("cuLaunchKernelEx launch attribute {}", static_cast<int>(a.id)));
    }
  }
  return launch(drv, "cuLaunchKernelEx", f, q, params, extra);
}

TCSIM_CU_API CUresult CUDAAPI cuLaunchHostFunc(CUstream hs, CUhostFn fn, void* user) {
  TCSIM_CU_ENTER();
  Stream* s = nullptr;
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  if (!drv.stream(hs, s)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuLaunchHostFunc: invalid stream handle");
  drv.enqueue(s, "host function", [fn, user] {
    fn(user);
    return CUDA_SUCCESS;
  });
  return CUDA_SUCCESS;
}

// --- occupancy --------------------------------------------------------------------------------

TCSIM_CU_API CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* n, CUfunction hf, int block,
                                                                                  size_t smem, unsigned int) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(hf);
  if (!n || block <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuOccupancyMaxActiveBlocksPerMultiprocessor: invalid function handle");
  *n = block > max_threads(*f) ? 0 : blocks_per_sm(tcsim::models::machine_config(drv.arch()), *f, block, smem);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, CUfunction f, int block, size_t smem) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, block, smem, 0);
}

TCSIM_CU_API CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid, int* block_size, CUfunction hf,
                                                                       CUoccupancyB2DSize smem_of, size_t smem, int limit,
                                                                       unsigned int) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(hf);
  if (!min_grid || !block_size) return CUDA_ERROR_INVALID_VALUE;
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuOccupancyMaxPotentialBlockSize: invalid function handle");
  const auto& m = tcsim::models::machine_config(drv.arch());
  int hi = max_threads(*f);
  if (limit > 0) hi = std::min(hi, limit);
  int best = 0, best_threads = 0, best_blocks = 0;
  // The block size with the most resident threads per SM; ties go to the larger block.
  for (int t = (hi + 31) / 32 * 32; t >= 32; t -= 32) {
    const int bs = std::min(t, hi);
    const size_t dyn = smem_of ? smem_of(bs) : smem;
    const int per = blocks_per_sm(m, *f, bs, dyn);
    if (per * bs > best_threads) {
      best_threads = per * bs;
      best = bs;
      best_blocks = per;
    }
  }
  *block_size = best;
  *min_grid = best_blocks * static_cast<int>(m.num_sms);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, CUfunction f,
                                                               CUoccupancyB2DSize smem_of, size_t smem, int limit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block_size, f, smem_of, smem, limit, 0);
}

TCSIM_CU_API CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t* out, CUfunction hf, int blocks, int block) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(hf);
  if (!out || blocks <= 0 || block <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuOccupancyAvailableDynamicSMemPerBlock: invalid function handle");
  const auto& m = tcsim::models::machine_config(drv.arch());
  const uint64_t fixed = cta_smem(m, *f, 0);
  const uint64_t per = m.smem_per_sm / static_cast<uint64_t>(blocks);
  uint64_t avail = per > fixed ? per - fixed : 0;
  avail = std::min<uint64_t>(avail, m.max_smem_per_cta - f->info.static_smem_bytes);
  *out = blocks_per_sm(m, *f, block, 0) >= blocks ? avail : 0;
  return CUDA_SUCCESS;
}

namespace {

CUresult cluster_config(Driver& drv, const CUlaunchConfig* config, const Function& f, Dim3& c, const char* call) {
  c = f.info.reqnctapercluster.x ? f.info.reqnctapercluster : f.required_cluster.x ? f.required_cluster : Dim3{1, 1, 1};
  for (unsigned i = 0; config && i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      c = {config->attrs[i].value.clusterDim.x, config->attrs[i].value.clusterDim.y, config->attrs[i].value.clusterDim.z};
  if (!c.x || !c.y || !c.z) return drv.fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, fmt::format("{}: cluster dimensions must be positive", call));
  return CUDA_SUCCESS;
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuOccupancyMaxActiveClusters(int* n, CUfunction hf, const CUlaunchConfig* config) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(hf);
  if (!n || !config) return CUDA_ERROR_INVALID_VALUE;
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuOccupancyMaxActiveClusters: invalid function handle");
  Dim3 c;
  if (CUresult r = cluster_config(drv, config, *f, c, "cuOccupancyMaxActiveClusters")) return r;
  const auto& m = tcsim::models::machine_config(drv.arch());
  const uint64_t threads = uint64_t{config->blockDimX} * config->blockDimY * config->blockDimZ;
  *n = threads > static_cast<uint64_t>(max_threads(*f))
           ? 0
           : static_cast<int>(tcsim::models::max_active_clusters(m, static_cast<uint32_t>(threads),
                                                                 static_cast<uint32_t>(cta_smem(m, *f, config->sharedMemBytes)),
                                                                 static_cast<uint32_t>(c.count())));
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuOccupancyMaxPotentialClusterSize(int* n, CUfunction hf, const CUlaunchConfig* config) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(hf);
  if (!n || !config) return CUDA_ERROR_INVALID_VALUE;
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuOccupancyMaxPotentialClusterSize: invalid function handle");
  const auto& m = tcsim::models::machine_config(drv.arch());
  const uint64_t threads = uint64_t{config->blockDimX} * config->blockDimY * config->blockDimZ;
  const uint32_t cap = f->non_portable_cluster ? m.max_cluster_ctas_nonportable : m.max_cluster_ctas_portable;
  const uint32_t smem = static_cast<uint32_t>(cta_smem(m, *f, config->sharedMemBytes));
  int best = 0;
  for (uint32_t s = 1; s <= cap; ++s)
    if (threads <= static_cast<uint64_t>(max_threads(*f)) &&
        tcsim::models::max_active_clusters(m, static_cast<uint32_t>(threads), smem, s) > 0)
      best = static_cast<int>(s);
  *n = best;
  return CUDA_SUCCESS;
}
