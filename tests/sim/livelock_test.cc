// Livelock detection (sim/livelock.h): warps that keep spinning while nothing in the machine can
// change end the launch with a report of where they spin (PTX line, loop, what they last read);
// legitimate long waits do not: a producer that stores, a time-out loop on %clock64, a warp that
// computes in registers, an asynchronous operation still in flight. Truth: the PTX ISA's rules of
// what a thread can observe (a value changes only by a store, an atomic, an asynchronous
// completion; §8 Memory Consistency Model), and the kernels' own termination (a kernel that ends on
// the GPU must end here with its result).
#include <doctest/doctest.h>

#include <functional>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

using test::error_of;

const char* kKernels = R"(
.visible .entry spin_flag(.param .u64 flag)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [flag];
$Lspin:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $Lspin;
  ret;
}
.visible .entry spin_sleep(.param .u64 flag)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [flag];
$Lspin:
  nanosleep.u32 1000;
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $Lspin;
  ret;
}
// Warp 1 counts to n, storing each step, then sets the flag warp 0 spins on.
.visible .entry producer(.param .u64 flag, .param .u64 work, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [flag];
  ld.param.u64 %rd2, [work];
  ld.param.u32 %r5, [n];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $Lconsumer;
  mov.u32 %r2, 0;
$Lwork:
  add.u32 %r2, %r2, 1;
  st.volatile.global.u32 [%rd2], %r2;
  nanosleep.u32 100;
  setp.lt.u32 %p2, %r2, %r5;
  @%p2 bra $Lwork;
  st.volatile.global.u32 [%rd1], 1;
  ret;
$Lconsumer:
  ld.volatile.global.u32 %r3, [%rd1];
  setp.eq.u32 %p2, %r3, 0;
  @%p2 bra $Lconsumer;
  ret;
}
// Warp 1 computes in registers for n iterations, then sets the flag warp 0 spins on.
.visible .entry computer(.param .u64 flag, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [flag];
  ld.param.u32 %r5, [n];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $Lconsumer;
  mov.u32 %r2, 0;
  mov.u32 %r4, 1;
$Lwork:
  mad.lo.u32 %r4, %r4, 1664525, 1013904223;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, %r5;
  @%p2 bra $Lwork;
  st.volatile.global.u32 [%rd1], %r4;
  ret;
$Lconsumer:
  ld.volatile.global.u32 %r3, [%rd1];
  setp.eq.u32 %p2, %r3, 0;
  @%p2 bra $Lconsumer;
  ret;
}
// A time-out loop: spins on a flag nobody sets until %clock64 says `cycles` have passed.
.visible .entry timeout(.param .u64 flag, .param .u64 cycles)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [flag];
  ld.param.u64 %rd2, [cycles];
  mov.u64 %rd3, %clock64;
$Lspin:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Ldone;
  mov.u64 %rd4, %clock64;
  sub.s64 %rd5, %rd4, %rd3;
  setp.lt.u64 %p2, %rd5, %rd2;
  @%p2 bra $Lspin;
$Ldone:
  ret;
}
)";

sim::DeviceOptions window(uint64_t cycles) {
  sim::DeviceOptions o;
  o.livelock_cycles = cycles;
  return o;
}

}  // namespace

TEST_CASE("livelock: a spin on a flag nobody sets ends with where the warps spin and what they read") {
  test::Harness h;
  h.load(test::ptx_header() + kKernels, "k.ptx");
  const uint64_t flag = h.dev.malloc(4);
  const std::string e = error_of([&] { h.launch("spin_flag", {2, 1, 1}, {64, 1, 1}, test::Params().add(flag)); });
  INFO(e);
  CHECK(e.find("kernel spin_flag: livelock: 4 warps of 2 CTAs kept running for ") == 0);
  CHECK(e.find("simulated cycles in which nothing changed") != std::string::npos);
  // One line for the four identical warps: state, PTX line, loop, the value read; one example.
  CHECK(e.find("where the warps spin (1 group of identical states over 4 warps or parts of warps in 2 CTAs)") !=
        std::string::npos);
  CHECK(e.find("4 warps (128 lanes) in 2 CTAs: ready at k.ptx:") != std::string::npos);
  CHECK(e.find("its loop: k.ptx:") != std::string::npos);
  CHECK(e.find("last read: global by line ") != std::string::npos);
  CHECK(e.find(", value 0x0; e.g. CTA (0,0,0) warp 0 lanes 0-31, read address 0x") != std::string::npos);
  // Deterministic: the same report with another host-thread count.
  sim::DeviceOptions o;
  o.host_threads = 3;
  test::Harness h3(isa::Arch::Sm100a, o);
  h3.load(test::ptx_header() + kKernels, "k.ptx");
  const uint64_t flag3 = h3.dev.malloc(4);
  CHECK(error_of([&] { h3.launch("spin_flag", {2, 1, 1}, {64, 1, 1}, test::Params().add(flag3)); }) == e);
}

TEST_CASE("livelock: a nanosleep polling loop, and the window is an option") {
  test::Harness h(isa::Arch::Sm100a, window(200'000));
  h.load(test::ptx_header() + kKernels, "k.ptx");
  const uint64_t flag = h.dev.malloc(4);
  const std::string e = error_of([&] { h.launch("spin_sleep", {1, 1, 1}, {32, 1, 1}, test::Params().add(flag)); });
  INFO(e);
  CHECK(e.find("kernel spin_sleep: livelock: 1 warp of 1 CTA kept running for ") == 0);
  CHECK(e.find("DeviceOptions::livelock_cycles") != std::string::npos);
  CHECK(e.find("`nanosleep.u32 1000;`") != std::string::npos);  // a sleeping warp is shown at its nanosleep
}

TEST_CASE("livelock: legitimate long waits are not livelocks") {
  // Each producer step stores: progress, however long the consumer spins (the window is 20000
  // cycles, the producer needs far more).
  test::Harness h(isa::Arch::Sm100a, window(20'000));
  h.load(test::ptx_header() + kKernels, "k.ptx");
  const uint64_t flag = h.dev.malloc(4), work = h.dev.malloc(4);
  const sim::LaunchResult r = h.launch("producer", {1, 1, 1}, {64, 1, 1}, test::Params().add(flag).add(work).add(2000u));
  CHECK(r.cycles > 100'000);
  uint32_t f = 0, w = 0;
  h.dev.copy_from_device(&f, flag, 4);
  h.dev.copy_from_device(&w, work, 4);
  CHECK(f == 1);
  CHECK(w == 2000);
  // A warp computing in registers (no store for longer than the window: 20000 iterations of about
  // 20 cycles) before it sets the flag. It has run more than kComputeStretch instructions when the
  // 200000-cycle window ends.
  test::Harness hc(isa::Arch::Sm100a, window(200'000));
  hc.load(test::ptx_header() + kKernels, "k.ptx");
  const uint64_t flag2 = hc.dev.malloc(4);
  const sim::LaunchResult c = hc.launch("computer", {1, 1, 1}, {64, 1, 1}, test::Params().add(flag2).add(20000u));
  CHECK(c.cycles > 200'000);
  // A time-out loop on %clock64 ends by itself after its 100000 cycles.
  const uint64_t flag3 = h.dev.malloc(4);
  const sim::LaunchResult t = h.launch("timeout", {1, 1, 1}, {32, 1, 1}, test::Params().add(flag3).add(uint64_t{100'000}));
  CHECK(t.cycles > 100'000);
}

TEST_CASE("livelock: off when the window is kLivelockOff (the step watchdog still ends the spin)") {
  sim::DeviceOptions o = window(sim::DeviceOptions::kLivelockOff);
  o.max_steps = 50'000;
  test::Harness h(isa::Arch::Sm100a, o);
  h.load(test::ptx_header() + kKernels, "k.ptx");
  const uint64_t flag = h.dev.malloc(4);
  const std::string e = error_of([&] { h.launch("spin_flag", {1, 1, 1}, {32, 1, 1}, test::Params().add(flag)); });
  CHECK(e.find("kernel spin_flag: watchdog:") == 0);
}
