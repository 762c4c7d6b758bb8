// Atomic throughput of the interpreter: global atomics (deferred to the quantum boundary and applied
// there in (cycle, SM, CTA, warp, lane) order, sim/memory/rmw_log.h) and shared-memory atomics
// (applied at once), each in a loop of `iters` atomics per thread on 256 bins. Prints host atomics
// per second (one host thread and all host threads) and the simulated cycles per global atomic
// round trip that the quantum-boundary design costs a warp. Asserts nothing.
#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "bench/bench_util.h"
#include "sim/api.h"

using namespace tcsim;

namespace {

const char* kPtx = R"(
.version 9.0
.target sm_100a
.address_size 64

.visible .entry global_atoms(.param .u64 bins, .param .u32 iters)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [bins];
  ld.param.u32 %r1, [iters];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mad.lo.s32 %r4, %r3, 977, %r2;
  mov.u32 %r5, 0;
$Lloop:
  mul.lo.s32 %r4, %r4, 1664525;
  add.s32 %r4, %r4, 1013904223;
  shr.u32 %r6, %r4, 24;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd3, %rd1, %rd2;
  atom.global.add.u32 %r7, [%rd3], 1;
  add.s32 %r5, %r5, 1;
  setp.lt.u32 %p1, %r5, %r1;
  @%p1 bra $Lloop;
  ret;
}

.visible .entry shared_atoms(.param .u64 bins, .param .u32 iters)
{
  .reg .pred %p<3>;
  .reg .b32 %r<14>;
  .reg .b64 %rd<6>;
  .shared .align 4 .b8 sh[1024];
  ld.param.u64 %rd1, [bins];
  ld.param.u32 %r1, [iters];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r10, sh;
  shl.b32 %r11, %r2, 2;
  add.u32 %r12, %r10, %r11;
  st.shared.u32 [%r12], 0;
  bar.sync 0;
  mad.lo.s32 %r4, %r3, 977, %r2;
  mov.u32 %r5, 0;
$Lloop:
  mul.lo.s32 %r4, %r4, 1664525;
  add.s32 %r4, %r4, 1013904223;
  shr.u32 %r6, %r4, 24;
  shl.b32 %r7, %r6, 2;
  add.u32 %r8, %r10, %r7;
  atom.shared.add.u32 %r9, [%r8], 1;
  add.s32 %r5, %r5, 1;
  setp.lt.u32 %p1, %r5, %r1;
  @%p1 bra $Lloop;
  bar.sync 0;
  ld.shared.u32 %r13, [%r12];
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  red.global.add.u32 [%rd3], %r13;
  ret;
}
)";

}  // namespace

int main() {
  fmt::print("{}\n", bench::machine_context());
  const uint32_t ctas = 148, block = 256, iters = 64;
  const double atomics = double(ctas) * block * iters;
  for (unsigned threads : {1u, 0u}) {
    sim::DeviceOptions opts;
    opts.host_threads = threads;
    sim::Device dev(isa::Arch::Sm100a, opts);
    const unsigned used = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    const sim::Module& m = dev.load_ptx(kPtx, "bench_atomics.ptx");
    for (const char* k : {"global_atoms", "shared_atoms"}) {
      const uint64_t bins = dev.malloc(1024);
      std::vector<uint32_t> zero(256, 0), got(256);
      dev.copy_to_device(bins, zero.data(), 1024);
      std::vector<std::byte> p(16);
      std::memcpy(p.data(), &bins, 8);
      std::memcpy(p.data() + 8, &iters, 4);
      sim::LaunchConfig cfg;
      cfg.grid = {ctas, 1, 1};
      cfg.block = {block, 1, 1};
      bench::Timer t;
      const sim::LaunchResult r = dev.launch(m, k, cfg, std::span<const std::byte>(p.data(), 12));
      const double s = t.seconds();
      dev.copy_from_device(got.data(), bins, 1024);
      uint64_t total = 0;
      for (uint32_t v : got) total += v;
      fmt::print("{:<13} host threads {}: {:.0f} atomics in {:.3f} s = {:.2f} M atomics/s, {:.1f} M thread-instr/s; "
                 "{} simulated cycles ({:.1f} per atomic per warp); bins total {} ({})\n",
                 k, used, atomics, s, atomics / s / 1e6, r.thread_instructions / s / 1e6, r.cycles,
                 double(r.cycles) / iters, total, total == uint64_t(atomics) ? "exact" : "WRONG");
    }
  }
}
