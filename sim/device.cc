// sim::Device (sim/api.h): modules, global memory, symbols, launches.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "isa/ptx/parser.h"
#include "sim/api.h"
#include "sim/launch.h"
#include "models/machine/machine_config.h"
#include "models/machine/shared_memory.h"
#include "sim/timing/model.h"
#include "sim/memory/global_memory.h"
#include "sim/program.h"
#include "sim/thread_pool.h"

namespace tcsim::sim {

using namespace isa::ptx;

class Module {
 public:
  isa::ptx::Module ir;
  std::string name;
  std::vector<std::string> lines;
  uint32_t id = 0;
  LoadedSymbols syms;
  std::map<std::string, std::unique_ptr<Program>, std::less<>> programs;  // per kernel
};

struct Device::Impl {
  isa::Arch arch;
  DeviceOptions opts;
  std::unique_ptr<models::timing::Profile> profile;  // DeviceOptions::timing_profile, parsed once
  const MachineConfig* machine;
  GlobalMemory gm;
  std::vector<std::unique_ptr<Module>> modules;
  std::unique_ptr<ThreadPool> pool;
  uint64_t launches = 0;
  uint64_t mallocs = 0;
  std::vector<uint64_t> malloc_bases;  // live malloc allocations (sorted), the ones free() accepts

  void check_range(uint64_t addr, uint64_t bytes, std::string_view what) const {
    if (bytes == 0) return;
    if (!gm.find(addr, bytes))
      throw SimError(fmt::format("{} of {} bytes at 0x{:x} is outside device memory: {}", what, bytes, addr,
                                 gm.describe_miss(addr, bytes)));
  }
};

Device::Device(isa::Arch arch, DeviceOptions opts) : impl_(std::make_unique<Impl>()) {
  impl_->arch = arch;
  impl_->opts = opts;
  impl_->machine = &models::machine_config(arch);
  impl_->pool = std::make_unique<ThreadPool>(opts.host_threads);
}

Device::~Device() = default;

isa::Arch Device::arch() const { return impl_->arch; }

namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> r;
  size_t b = 0;
  while (b <= text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    r.emplace_back(text.substr(b, e - b));
    if (e == text.size()) break;
    b = e + 1;
  }
  return r;
}

const Function& find_kernel(const sim::Module& m, std::string_view kernel) {
  for (const Function& f : m.ir.functions)
    if (f.is_entry && f.has_body && f.name == kernel) return f;
  std::string names;
  for (const Function& f : m.ir.functions)
    if (f.is_entry) names += fmt::format("{}{}", names.empty() ? "" : ", ", f.name);
  throw SimError(fmt::format("unknown kernel '{}' in {} (its .entry functions: {})", kernel, m.name,
                             names.empty() ? "none" : names));
}

}  // namespace

const Module& Device::load_ptx(std::string_view ptx_text, std::string source_name) {
  auto parsed = isa::ptx::parse(ptx_text, source_name);
  if (!parsed) throw SimError(parsed.error().message);
  auto mod = std::make_unique<Module>();
  mod->ir = std::move(*parsed);
  mod->name = source_name;
  mod->lines = split_lines(ptx_text);
  mod->id = static_cast<uint32_t>(impl_->modules.size() + 1);
  if (auto t = isa::parse_arch(mod->ir.target); t && *t != impl_->arch &&
      !(isa::has_tcgen05(*t) && isa::has_tcgen05(impl_->arch) && *t == isa::Arch::Sm100f))
    throw SimError(fmt::format("{}: the PTX targets {} but the device models {}; arch-specific ('a') PTX only "
                               "runs on its own architecture",
                               source_name, mod->ir.target, isa::arch_name(impl_->arch)));
  // Module variables: each .global / .const variable is its own allocation (so an overrun of one
  // is never a silent access to its neighbour), initialised, then relocations applied.
  auto& syms = mod->syms;
  syms.module_id = mod->id;
  syms.arch = impl_->arch;
  syms.address.assign(mod->ir.symbols.size(), 0);
  for (size_t i = 0; i < mod->ir.symbols.size(); ++i) {
    const Symbol& s = mod->ir.symbols[i];
    if (s.function >= 0 || (s.space != Space::Global && s.space != Space::Const)) continue;
    if (s.is_extern && s.size == 0) continue;
    const bool is_const = s.space == Space::Const;
    syms.address[i] = impl_->gm.allocate(std::max<uint64_t>(s.size, 1), std::max<uint32_t>(s.align, 16),
                                         fmt::format(".{} {}", is_const ? "const" : "global", s.name), is_const);
    if (!s.init.empty()) std::memcpy(impl_->gm.host(syms.address[i]), s.init.data(), s.init.size());
  }
  for (size_t i = 0; i < mod->ir.symbols.size(); ++i) {
    const Symbol& s = mod->ir.symbols[i];
    if (!syms.address[i]) continue;
    for (const Reloc& r : s.relocs) {
      uint64_t v = r.is_function ? function_address(mod->id, r.symbol)
                                 : syms.address[r.symbol] + static_cast<uint64_t>(r.addend);
      if (!r.is_function && !syms.address[r.symbol])
        throw SimError(fmt::format("{}: initializer of '{}' takes the address of '{}', which has no global address",
                                   source_name, s.name, mod->ir.symbols[r.symbol].name));
      const int bytes = std::max(1, type_bits(s.type) / 8);
      std::memcpy(impl_->gm.host(syms.address[i] + r.offset), &v, std::min(bytes, 8));
    }
  }
  // Decode every kernel now: illegal PTX is reported at load, with its line.
  for (uint32_t fi = 0; fi < mod->ir.functions.size(); ++fi) {
    const Function& f = mod->ir.functions[fi];
    if (!f.is_entry || !f.has_body) continue;
    mod->programs[f.name] = std::make_unique<Program>(bind_program(mod->ir, fi, syms, source_name));
  }
  impl_->modules.push_back(std::move(mod));
  return *impl_->modules.back();
}

std::vector<std::string> Device::kernel_names(const Module& m) const {
  std::vector<std::string> r;
  for (const Function& f : m.ir.functions)
    if (f.is_entry && f.has_body) r.push_back(f.name);
  return r;
}

std::vector<ParamInfo> Device::kernel_params(const Module& m, std::string_view kernel) const {
  const Function& f = find_kernel(m, kernel);
  std::vector<ParamInfo> r;
  for (uint32_t s : f.params) {
    const Symbol& sy = m.ir.symbols[s];
    r.push_back({sy.name, static_cast<uint32_t>(sy.size), sy.align});
  }
  return r;
}

SymbolInfo Device::symbol(const Module& m, std::string_view name) const {
  for (size_t i = 0; i < m.ir.symbols.size(); ++i) {
    const Symbol& s = m.ir.symbols[i];
    if (s.function < 0 && s.name == name && m.syms.address[i]) return {m.syms.address[i], s.size};
  }
  std::string names;
  for (size_t i = 0; i < m.ir.symbols.size(); ++i)
    if (m.syms.address[i]) names += fmt::format("{}{}", names.empty() ? "" : ", ", m.ir.symbols[i].name);
  throw SimError(fmt::format("unknown symbol '{}' in {} (its .global/.const variables: {})", name, m.name,
                             names.empty() ? "none" : names));
}

uint64_t Device::malloc(uint64_t bytes, uint64_t align) {
  try {
    // cuMemAlloc: the contents are undefined until the host or a kernel writes them (initcheck,
    // sim/checker/global_init.h); the simulator's fresh pages hold zeros.
    const uint64_t a = impl_->gm.allocate(bytes, align, fmt::format("allocation #{}", ++impl_->mallocs),
                                          /*is_const=*/false, /*initialised=*/false);
    impl_->malloc_bases.push_back(a);  // bump allocation: addresses grow, the vector stays sorted
    return a;
  } catch (const std::runtime_error& e) {
    throw SimError(e.what());
  }
}

void Device::free(uint64_t address) {
  auto& b = impl_->malloc_bases;
  auto it = std::lower_bound(b.begin(), b.end(), address);
  if (it == b.end() || *it != address || !impl_->gm.release(address))
    throw SimError(fmt::format("free of 0x{:x}: not the start of a live device allocation{}", address,
                               impl_->gm.find(address, 1) ? " (it lies inside one)" : ""));
  b.erase(it);
}

KernelInfo Device::kernel_info(const Module& m, std::string_view kernel) const {
  const Function& f = find_kernel(m, kernel);
  const Program& prog = *m.programs.at(f.name);
  KernelInfo k;
  const models::SmemLayout l = models::smem_layout(*impl_->machine, prog.static_smem, prog.extern_smem_align, 0);
  k.static_smem_bytes = l.static_bytes;
  k.static_end = prog.static_smem;
  k.extern_smem_align = prog.extern_smem_align;
  k.param_bytes = prog.param_bytes;
  if (prog.entry < prog.funcs.size()) k.local_bytes = prog.funcs[prog.entry].frame_size;
  const PerfDirectives& p = f.perf;
  k.maxntid = {p.maxntid[0], p.maxntid[1], p.maxntid[2]};
  k.reqntid = {p.reqntid[0], p.reqntid[1], p.reqntid[2]};
  k.reqnctapercluster = {p.reqnctapercluster[0], p.reqnctapercluster[1], p.reqnctapercluster[2]};
  k.minnctapersm = p.minnctapersm;
  k.maxnreg = p.maxnreg;
  k.maxclusterrank = p.maxclusterrank;
  k.explicitcluster = p.explicitcluster;
  k.ptx_version = m.ir.version_major * 10 + m.ir.version_minor;
  k.target = m.ir.target;
  return k;
}

bool Device::contains(uint64_t address, uint64_t bytes) const {
  return impl_->gm.find(address, std::max<uint64_t>(bytes, 1)) != nullptr;
}

void Device::copy_to_device(uint64_t dst, const void* src, uint64_t bytes) {
  impl_->check_range(dst, bytes, "copy to device");
  if (bytes) std::memcpy(impl_->gm.host(dst), src, bytes);
  impl_->gm.mark_initialised(dst, bytes);
}

void Device::copy_on_device(uint64_t dst, uint64_t src, uint64_t bytes) {
  impl_->check_range(src, bytes, "copy on device (source)");
  impl_->check_range(dst, bytes, "copy on device (destination)");
  if (!bytes) return;
  std::memmove(impl_->gm.host(dst), impl_->gm.host(src), bytes);
  impl_->gm.mark_copied(dst, src, bytes);
}

void Device::host_wrote(uint64_t dst, uint64_t bytes) {
  impl_->check_range(dst, bytes, "write on device");
  impl_->gm.mark_initialised(dst, bytes);
}

void Device::name_allocation(uint64_t address, std::string name) {
  if (!impl_->gm.set_label(address, std::move(name)))
    throw SimError(fmt::format("name of 0x{:x}: not the start of a live device allocation", address));
}

std::span<std::byte> Device::host_bytes(uint64_t dst, uint64_t bytes) {
  impl_->check_range(dst, bytes, "fill on device");
  if (!bytes) return {};
  impl_->gm.mark_initialised(dst, bytes);  // the caller fills them
  return {reinterpret_cast<std::byte*>(impl_->gm.host(dst)), bytes};
}

void Device::copy_from_device(void* dst, uint64_t src, uint64_t bytes) const {
  impl_->check_range(src, bytes, "copy from device");
  if (bytes) std::memcpy(dst, impl_->gm.host(src), bytes);
}

std::vector<std::string> LaunchResult::finding_lines() const {
  std::vector<std::string> out;
  for (const FindingGroup& g : findings)
    for (const Finding& f : g.first) out.push_back(f.str());
  return out;
}

LaunchResult Device::launch(const Module& m, std::string_view kernel, const LaunchConfig& cfg,
                            std::span<const std::byte> params) {
  const Function& f = find_kernel(m, kernel);
  const Program& prog = *m.programs.at(f.name);
  const MachineConfig& mc = *impl_->machine;
  auto bad = [&](const std::string& what) { throw SimError(fmt::format("launch of {}: {}", f.name, what)); };
  // Launch geometry: the machine's launch limits (models/machine/machine_config.h; PTX ISA §2.2).
  const Dim3 b = cfg.block, g = cfg.grid;
  if (!b.x || !b.y || !b.z || !g.x || !g.y || !g.z) bad("grid and block dimensions must be positive");
  if (b.count() > mc.max_threads_per_cta || b.x > mc.max_block[0] || b.y > mc.max_block[1] || b.z > mc.max_block[2])
    bad(fmt::format("block ({},{},{}) exceeds the limits of {} (x <= {}, y <= {}, z <= {}, x*y*z <= {} threads)", b.x,
                    b.y, b.z, mc.name, mc.max_block[0], mc.max_block[1], mc.max_block[2], mc.max_threads_per_cta));
  if (g.x > mc.max_grid[0] || g.y > mc.max_grid[1] || g.z > mc.max_grid[2])
    bad(fmt::format("grid ({},{},{}) exceeds the limits of {} (x <= {}, y <= {}, z <= {})", g.x, g.y, g.z, mc.name,
                    mc.max_grid[0], mc.max_grid[1], mc.max_grid[2]));
  Dim3 c = cfg.cluster;
  if (!c.x || !c.y || !c.z) bad("cluster dimensions must be positive");
  const PerfDirectives& p = f.perf;
  if (p.reqnctapercluster[0]) {
    const Dim3 r{p.reqnctapercluster[0], p.reqnctapercluster[1], p.reqnctapercluster[2]};
    if (c.count() == 1) c = r;
    else if (c.x != r.x || c.y != r.y || c.z != r.z)
      bad(fmt::format("cluster ({},{},{}) differs from the kernel's .reqnctapercluster {} {} {}", c.x, c.y, c.z, r.x, r.y, r.z));
  }
  if (g.x % c.x || g.y % c.y || g.z % c.z)
    bad(fmt::format("cluster ({},{},{}) does not divide the grid ({},{},{})", c.x, c.y, c.z, g.x, g.y, g.z));
  if (c.count() > mc.max_cluster_ctas_nonportable)
    bad(fmt::format("cluster of {} CTAs exceeds the maximum of {} on {} ({} portable, {} with the non-portable "
                    "cluster-size attribute)", c.count(), mc.max_cluster_ctas_nonportable, mc.name,
                    mc.max_cluster_ctas_portable, mc.max_cluster_ctas_nonportable));
  if (p.reqntid[0] && (b.x != p.reqntid[0] || b.y != p.reqntid[1] || b.z != p.reqntid[2]))
    bad(fmt::format("block ({},{},{}) differs from the kernel's .reqntid {} {} {}", b.x, b.y, b.z, p.reqntid[0], p.reqntid[1], p.reqntid[2]));
  if (p.maxntid[0] && b.count() > uint64_t{p.maxntid[0]} * p.maxntid[1] * p.maxntid[2])
    bad(fmt::format("block of {} threads exceeds the kernel's .maxntid {} {} {}", b.count(), p.maxntid[0], p.maxntid[1], p.maxntid[2]));
  const models::SmemLayout smem = models::smem_layout(mc, prog.static_smem, prog.extern_smem_align, cfg.dynamic_smem_bytes);
  if (uint64_t{smem.static_bytes} + smem.dynamic_bytes > mc.max_smem_per_cta)
    bad(fmt::format("{} bytes of shared memory ({} static + {} dynamic) exceed the {} bytes a CTA may use on {}",
                    uint64_t{smem.static_bytes} + smem.dynamic_bytes, smem.static_bytes, cfg.dynamic_smem_bytes,
                    mc.max_smem_per_cta, mc.name));
  if (params.size() != prog.param_bytes) {
    std::string layout;
    uint64_t off = 0;
    for (uint32_t s : f.params) {
      const Symbol& sy = m.ir.symbols[s];
      off = (off + sy.align - 1) / sy.align * sy.align;
      layout += fmt::format("{}{} ({} bytes at offset {})", layout.empty() ? "" : ", ", sy.name, sy.size, off);
      off += sy.size;
    }
    bad(fmt::format("{} bytes of parameters given, the kernel takes {}: {}", params.size(), prog.param_bytes,
                    layout.empty() ? "no parameters" : layout));
  }
  LaunchState L;
  L.smem = smem;
  L.prog = &prog;
  L.cfg = cfg;
  L.cfg.cluster = c;
  L.cluster = c;
  // %is_explicit_cluster (PTX ISA §10.x): launched with a cluster attribute (LaunchConfig), with
  // cluster dims above one, or compiled with cluster dims (.reqnctapercluster / .explicitcluster).
  L.explicit_cluster = cfg.explicit_cluster || c.count() > 1 || p.explicitcluster || p.reqnctapercluster[0] != 0;
  L.perturb = impl_->opts.schedule == Schedule::Random;
  L.check = impl_->opts.check;
  L.schedule_seed = impl_->opts.seed;
  L.stack_size_bytes = cfg.stack_size_bytes ? cfg.stack_size_bytes : impl_->opts.stack_size_bytes;
  L.machine = &mc;
  L.arch = impl_->arch;
  L.gm = &impl_->gm;
  L.params.assign(reinterpret_cast<const uint8_t*>(params.data()),
                  reinterpret_cast<const uint8_t*>(params.data()) + params.size());
  L.kernel = f.name;
  L.ptx_name = m.name;
  L.ptx_lines = &m.lines;
  L.module_id = m.id;
  L.grid_id = ++impl_->launches;
  // The timing model (the one seam through which the simulator reads the GPU's numbers).
  const models::timing::Profile* prof = &models::timing::for_arch(impl_->arch);
  if (!impl_->opts.timing_profile.empty()) {
    if (!impl_->profile) {
      auto parsed = models::timing::parse_profile(impl_->opts.timing_profile, impl_->opts.timing_profile_name.empty()
                                                                                  ? "the timing profile"
                                                                                  : impl_->opts.timing_profile_name);
      if (!parsed) throw SimError(parsed.error().message);
      impl_->profile = std::make_unique<models::timing::Profile>(std::move(*parsed));
    }
    prof = impl_->profile.get();
  }
  timing::Model model(*prof, impl_->opts.clock_mhz);
  model.steady_clock = impl_->opts.steady_clock;
  L.timing = &model;
  L.timing_only = impl_->opts.timing_only;
  L.skip_tma_copies = L.timing_only && !impl_->opts.timing_only_copies;
  L.trace_events = impl_->opts.trace_events;
  return run_launch(L, *impl_->pool, impl_->opts);
}

}  // namespace tcsim::sim
