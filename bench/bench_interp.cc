// Interpreter throughput: thread-instructions per second per host core on an ALU-heavy kernel
// (integer hash + f32 FMA loop) and a memory-heavy kernel (grid-stride saxpy on 16 MB), with one
// host thread (the per-core figure) and with all host threads. Prints; asserts nothing.
#include <cstdio>
#include <cstring>
#include <ctime>
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

.visible .entry alu(.param .u64 out, .param .u32 iters)
{
  .reg .pred %p<2>;
  .reg .b32 %r<20>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
  ld.param.u32 %r1, [iters];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r14, %ntid.x;
  mad.lo.s32 %r4, %r3, %r14, %r2;
  mov.u32 %r5, %r4;
  mov.u32 %r6, -1640531527;
  cvt.rn.f32.u32 %f1, %r4;
  mov.f32 %f2, 0f3F800000;
  mov.u32 %r7, 0;
$Lloop:
  xor.b32 %r5, %r5, %r6;
  shl.b32 %r8, %r5, 5;
  shr.u32 %r9, %r5, 3;
  add.s32 %r5, %r8, %r9;
  mul.lo.s32 %r6, %r6, 1664525;
  add.s32 %r6, %r6, 1013904223;
  and.b32 %r10, %r5, 255;
  or.b32 %r11, %r10, %r6;
  fma.rn.f32 %f1, %f1, %f2, 0f3F000000;
  mul.rn.f32 %f2, %f2, 0f3F7FFFFF;
  add.rn.f32 %f3, %f1, %f2;
  max.s32 %r12, %r11, %r10;
  min.u32 %r13, %r12, %r5;
  add.s32 %r5, %r5, %r13;
  add.s32 %r7, %r7, 1;
  setp.lt.u32 %p1, %r7, %r1;
  @%p1 bra $Lloop;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.b32 %r15, %f3;
  xor.b32 %r16, %r15, %r5;
  st.global.u32 [%rd3], %r16;
  ret;
}

.visible .entry saxpy(.param .u64 x, .param .u64 y, .param .f32 a, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .f32 %f<6>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.f32 %f1, [a];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %nctaid.x;
  mad.lo.s32 %r6, %r3, %r4, %r2;
  mul.lo.s32 %r7, %r4, %r5;
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra $Ldone;
$Lloop:
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  fma.rn.f32 %f4, %f1, %f2, %f3;
  st.global.f32 [%rd5], %f4;
  add.s32 %r6, %r6, %r7;
  setp.lt.u32 %p1, %r6, %r1;
  @%p1 bra $Lloop;
$Ldone:
  ret;
}
)";

struct Figure {
  double wall, cpu;  // seconds: elapsed, and CPU time of the whole process (all its threads)
  sim::LaunchResult r;
};

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

template <class F>
Figure time_launch(F&& f) {
  bench::Timer t;
  const double c0 = cpu_seconds();
  sim::LaunchResult r = f();
  return {t.seconds(), cpu_seconds() - c0, r};
}

// "Per core" divides by CPU seconds actually consumed, so the figure stays meaningful on a shared,
// loaded machine; the wall-clock rate is printed too.
void report(const char* name, unsigned threads, const Figure& f) {
  fmt::print("{:<6} host threads {}: {:>11} thread-instr ({} warp-instr, {} cycles): wall {:.3f} s = {:.1f} M "
             "thread-instr/s; CPU {:.3f} s = {:.1f} M thread-instr/s per core\n",
             name, threads, f.r.thread_instructions, f.r.warp_instructions, f.r.cycles, f.wall,
             f.r.thread_instructions / f.wall / 1e6, f.cpu, f.r.thread_instructions / f.cpu / 1e6);
}

}  // namespace

int main() {
  fmt::print("{}\n", bench::machine_context());
  for (unsigned threads : {1u, 0u}) {
    sim::DeviceOptions opts;
    opts.host_threads = threads;
    sim::Device dev(isa::Arch::Sm100a, opts);
    const unsigned used = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    const sim::Module& m = dev.load_ptx(kPtx, "bench_interp.ptx");
    {
      const uint32_t ctas = 148, block = 256, iters = 200;
      uint64_t out = dev.malloc(ctas * block * 4);
      std::vector<std::byte> p(16);
      std::memcpy(p.data(), &out, 8);
      std::memcpy(p.data() + 8, &iters, 4);
      sim::LaunchConfig cfg;
      cfg.grid = {ctas, 1, 1};
      cfg.block = {block, 1, 1};
      auto f = time_launch([&] { return dev.launch(m, "alu", cfg, std::span<const std::byte>(p.data(), 12)); });
      report("ALU", used, f);
    }
    {
      const uint32_t n = 4 << 20;
      uint64_t x = dev.malloc(n * 4), y = dev.malloc(n * 4);
      std::vector<float> h(n, 1.5f);
      dev.copy_to_device(x, h.data(), n * 4);
      dev.copy_to_device(y, h.data(), n * 4);
      std::vector<std::byte> p(24);
      float a = 2.0f;
      std::memcpy(p.data(), &x, 8);
      std::memcpy(p.data() + 8, &y, 8);
      std::memcpy(p.data() + 16, &a, 4);
      std::memcpy(p.data() + 20, &n, 4);
      sim::LaunchConfig cfg;
      cfg.grid = {296, 1, 1};
      cfg.block = {256, 1, 1};
      auto f = time_launch([&] { return dev.launch(m, "saxpy", cfg, p); });
      report("memory", used, f);
    }
  }
}
