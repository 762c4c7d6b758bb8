// Bit-exact multiply-adds per second of whole Hopper GEMMs in the simulator (issue 6, Performance):
//  1. the warp-specialised bf16 wgmma GEMM of kernels/hopper (TMA + mbarrier pipeline, 2 consumer
//     warpgroups, m64n128k16) at 1024^3 and 2048^3, run from its launch specs
//     (kernels/hopper/specs/bench/gemm_bf16_ws__*.json) exactly as `tcsim run` runs them;
//  2. a synthetic wgmma loop (no TMA: shared memory filled once, 2 warpgroups per CTA issuing
//     m64n128k16 back to back, 132 CTAs) that isolates the tensor-core path;
//  3. the mma.sync path: a synthetic loop (4 warps per CTA, each a 32x32 warp tile = 8 mma.sync
//     m16n8k16 bf16 -> f32 per k-step, operands in registers) and the Ampere-style cp.async +
//     ldmatrix + mma.sync GEMM of kernels/hopper (gemm_mma_bf16_tn) at 1024^3 from its bench spec.
// Each line: multiply-adds / wall second, and / CPU second of the process (all host threads: the
// "per core" figure). The machine is shared, so CPU time is the fair per-core measure; `--repeat N`
// runs each measurement N times and reports the fastest (the others were slowed by the load of
// other processes). Prints; asserts nothing. Arguments: `--quick` skips the 2048^3 GEMM; `--spec
// FILE` runs that spec instead of the default ones; `--loops` runs only the two synthetic loops.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "bench/bench_util.h"
#include "sim/api.h"
#include "tools/spec/launch_spec.h"
#include "tools/tcsim/sim_backend.h"

using namespace tcsim;

namespace {

int g_repeat = 1;

double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void report(std::string_view what, double macs, double wall, double cpu, uint64_t cycles);

// Runs `once` (returns simulated cycles) g_repeat times; prints the fastest run by CPU time.
template <class F>
void measure(std::string_view what, double macs, F once) {
  double best_wall = 0, best_cpu = 0;
  uint64_t cycles = 0;
  for (int r = 0; r < g_repeat; ++r) {
    const bench::Timer t;
    const double c0 = cpu_seconds();
    cycles = once();
    const double cpu = cpu_seconds() - c0, wall = t.seconds();
    if (r == 0 || cpu < best_cpu) best_cpu = cpu, best_wall = wall;
  }
  report(what, macs, best_wall, best_cpu, cycles);
}

void report(std::string_view what, double macs, double wall, double cpu, uint64_t cycles) {
  fmt::print("{:<58} {:>8.2f} G multiply-adds in {:6.2f} s wall, {:6.2f} s CPU: {:7.1f} M/s wall, {:7.1f} M/s per "
             "core (CPU), {} simulated cycles\n",
             what, macs / 1e9, wall, cpu, macs / wall / 1e6, macs / cpu / 1e6, cycles);
}

void run_spec(const std::string& path) {
  try {
    const spec::LaunchSpec s = spec::load_spec(path);
    // M, N, K from the last three u32 arguments (gemm_ws.cuh, gemm_mma_sync.cu: ..., M, N, K).
    std::vector<uint64_t> mnk;
    for (const auto& a : s.args)
      if (a.kind == spec::ArgKind::Scalar && a.scalar == spec::SpecDType::U32) mnk.push_back(a.scalar_bits);
    if (mnk.size() < 3) {
      fmt::print("{}: cannot read M, N, K from the spec's arguments\n", path);
      return;
    }
    const double macs = double(mnk[mnk.size() - 3]) * double(mnk[mnk.size() - 2]) * double(mnk[mnk.size() - 1]);
    const std::string ptx = spec::read_ptx(s);
    cli::DevicePool pool({});
    sim::Device& dev = pool.device(isa::Arch::Sm90a);
    cli::SimBackend backend(dev, s.path, &pool);
    backend.load_module(ptx, s.ptx_path);  // parse + bind outside the timed region
    measure(fmt::format("{} ({})", s.kernel, path.substr(path.find_last_of('/') + 1)), macs,
            [&] { return spec::run_spec(s, ptx, backend).outcome.cycles.value_or(0); });
  } catch (const std::exception& e) {
    fmt::print("{}: not run: {}\n", path, e.what());
  }
}

// 2 warpgroups x `iters` x 4 wgmma m64n128k16 (bf16 -> f32) per CTA, operands in 128B-swizzled
// shared memory (A: 128 rows, one 64-row half per warpgroup; B: 128 rows), K-stepping by moving
// the descriptor start 32 bytes along the swizzled row, as the GEMM does.
std::string loop_ptx() {
  std::string regs, st;
  for (int i = 0; i < 64; ++i) regs += fmt::format("{}%f{}", i ? ", " : "", i);
  for (int i = 0; i < 64; ++i) st += fmt::format("  add.f32 %f64, %f64, %f{};\n", i);
  std::string mma;
  for (int kk = 0; kk < 4; ++kk)
    mma += fmt::format("  add.s64 %rd8, %rd4, {};\n  add.s64 %rd9, %rd5, {};\n"
                       "  wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{}}}, %rd8, %rd9, 1, 1, 1, 0, 0;\n",
                       2 * kk, 2 * kk, regs);
  return R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry wgloop(.param .u64 out, .param .u32 iters)
.maxntid 256, 1, 1
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<65>;
  .shared .align 1024 .b8 smem[32768];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [iters];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, smem;
  // fill: word w = two bf16 of +-1/64 (signs from w), 32 KB by 256 threads
  mov.u32 %r4, %r2;
$Lfill:
  shl.b32 %r5, %r4, 2;
  add.u32 %r6, %r3, %r5;
  and.b32 %r7, %r4, 1;
  setp.eq.u32 %p1, %r7, 0;
  selp.b32 %r8, 0x3c80bc80, 0xbc803c80, %p1;
  st.shared.u32 [%r6], %r8;
  add.u32 %r4, %r4, 256;
  setp.lt.u32 %p2, %r4, 8192;
  @%p2 bra $Lfill;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  // descriptors: 128B swizzle (1 << 62), SBO 1024 (64 << 32), LBO 16 (1 << 16); A half per warpgroup
  shr.u32 %r9, %r2, 7;
  shl.b32 %r10, %r9, 13;
  add.u32 %r11, %r3, %r10;
  shr.u32 %r11, %r11, 4;
  cvt.u64.u32 %rd2, %r11;
  or.b64 %rd4, %rd2, 0x4000004000010000;
  add.u32 %r12, %r3, 16384;
  shr.u32 %r12, %r12, 4;
  cvt.u64.u32 %rd3, %r12;
  or.b64 %rd5, %rd3, 0x4000004000010000;
)" + [&] {
    std::string z;
    for (int i = 0; i < 64; ++i) z += fmt::format("  mov.f32 %f{}, 0f00000000;\n", i);
    return z;
  }() + R"(  mov.u32 %r13, 0;
  wgmma.fence.sync.aligned;
$Lloop:
)" + mma + R"(  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 1;
  add.u32 %r13, %r13, 1;
  setp.lt.u32 %p3, %r13, %r1;
  @%p3 bra $Lloop;
  wgmma.wait_group.sync.aligned 0;
  mov.f32 %f64, 0f00000000;
)" + st + R"(  mov.u32 %r14, %ctaid.x;
  mad.lo.u32 %r15, %r14, 256, %r2;
  mul.wide.u32 %rd6, %r15, 4;
  add.s64 %rd7, %rd1, %rd6;
  st.global.f32 [%rd7], %f64;
  ret;
}
)";
}

// Launches a loop kernel `entry(.u64 out, .u32 iters)` of `threads` threads per CTA on `ctas` CTAs
// and measures it; each thread writes one f32 of `out`.
void run_ptx_loop(const std::string& ptx, const char* file, const char* entry, uint32_t threads,
                  uint32_t ctas, uint32_t iters, double macs, const std::string& label) {
  sim::Device dev(isa::Arch::Sm90a);
  const sim::Module& m = dev.load_ptx(ptx, file);
  const uint64_t out = dev.malloc(uint64_t{ctas} * threads * 4);
  std::vector<std::byte> params(12);
  std::memcpy(params.data(), &out, 8);
  std::memcpy(params.data() + 8, &iters, 4);
  sim::LaunchConfig cfg;
  cfg.grid = {ctas, 1, 1};
  cfg.block = {threads, 1, 1};
  measure(label, macs, [&] { return dev.launch(m, entry, cfg, params).cycles; });
}

void run_loop(uint32_t ctas, uint32_t iters) {
  const double macs = double(ctas) * 2 * iters * 4 * 64 * 128 * 16;
  run_ptx_loop(loop_ptx(), "wgloop.ptx", "wgloop", 256, ctas, iters, macs,
               fmt::format("wgmma loop: {} CTAs x 2 warpgroups x {} x 4 m64n128k16", ctas, iters));
}

// 4 warps x `iters` x 8 mma.sync m16n8k16 (bf16 -> f32) per CTA: each warp a 32x32 tile (2 A
// fragments of 16 rows, 4 B fragments of 8 columns, 8 accumulators), operands in registers as after
// ldmatrix, so only the simulated tensor-core arithmetic and the issue loop are measured.
std::string mma_loop_ptx() {
  std::string decl, init, mma, st;
  for (int i = 0; i < 8; ++i)  // A: a<2i..>, 4 regs per fragment; B: b<i>, 2 regs per fragment
    init += fmt::format("  add.u32 %a{0}, %r3, {1};\n  add.u32 %b{0}, %r3, {2};\n", i, 0x00050003 * i,
                        0x00030007 * i);
  for (int i = 0; i < 32; ++i) init += fmt::format("  mov.f32 %f{}, 0f00000000;\n", i);
  for (int mt = 0; mt < 2; ++mt)
    for (int nt = 0; nt < 4; ++nt) {
      const int acc = 4 * (4 * mt + nt);
      mma += fmt::format(
          "  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{%f{0}, %f{1}, %f{2}, %f{3}}}, {{%a{4}, %a{5}, "
          "%a{6}, %a{7}}}, {{%b{8}, %b{9}}}, {{%f{0}, %f{1}, %f{2}, %f{3}}};\n",
          acc, acc + 1, acc + 2, acc + 3, 4 * mt, 4 * mt + 1, 4 * mt + 2, 4 * mt + 3, 2 * nt, 2 * nt + 1);
    }
  for (int i = 0; i < 32; ++i) st += fmt::format("  add.f32 %f32, %f32, %f{};\n", i);
  return R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry mmaloop(.param .u64 out, .param .u32 iters)
.maxntid 128, 1, 1
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b32 %a<8>;
  .reg .b32 %b<8>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<33>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [iters];
  mov.u32 %r2, %tid.x;
  // two bf16 near 2^-7 with mantissas varying by thread
  mad.lo.u32 %r3, %r2, 0x00010001, 0x3c00bc00;
)" + init + R"(  mov.u32 %r13, 0;
$Lloop:
)" + mma + R"(  add.u32 %r13, %r13, 1;
  setp.lt.u32 %p3, %r13, %r1;
  @%p3 bra $Lloop;
  mov.f32 %f32, 0f00000000;
)" + st + R"(  mov.u32 %r14, %ctaid.x;
  mad.lo.u32 %r15, %r14, 128, %r2;
  mul.wide.u32 %rd6, %r15, 4;
  add.s64 %rd7, %rd1, %rd6;
  st.global.f32 [%rd7], %f32;
  ret;
}
)";
}

void run_mma_loop(uint32_t ctas, uint32_t iters) {
  const double macs = double(ctas) * 4 * iters * 8 * 16 * 8 * 16;
  run_ptx_loop(mma_loop_ptx(), "mmaloop.ptx", "mmaloop", 128, ctas, iters, macs,
               fmt::format("mma.sync loop: {} CTAs x 4 warps x {} x 8 m16n8k16", ctas, iters));
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, loops_only = false;
  std::vector<std::string> specs;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--loops") loops_only = true;
    else if (a == "--spec" && i + 1 < argc) specs.emplace_back(argv[++i]);
    else if (a == "--repeat" && i + 1 < argc) g_repeat = std::max(1, std::atoi(argv[++i]));
    else {
      fmt::print(stderr, "usage: bench_wgmma_gemm [--quick] [--loops] [--repeat N] [--spec FILE]...\n");
      return 2;
    }
  }
  fmt::print("{}\n", bench::machine_context());
  fmt::print("bit-exact multiply-adds per second of whole GEMMs in the simulator (models/mma tile() fast path, "
             "CTAs simulated on all host threads)\n");
  run_loop(132, 16);
  run_mma_loop(132, 64);
  if (loops_only) return 0;
  if (specs.empty()) {
    const std::string dir = std::string(TCSIM_SOURCE_DIR) + "/kernels/hopper/specs/bench/";
    specs.push_back(dir + "gemm_mma_bf16_tn__1024x1024x1024.json");
    specs.push_back(dir + "gemm_bf16_ws__1024x1024x1024.json");
    if (!quick) specs.push_back(dir + "gemm_bf16_ws__2048x2048x2048.json");
  }
  for (const auto& s : specs) run_spec(s);
  return 0;
}
