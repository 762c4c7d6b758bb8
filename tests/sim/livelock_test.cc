// Livelock detection (sim/livelock.h): warps that keep spinning while nothing in the machine can
// change end the launch with a report of where they spin (PTX line, loop, what they last read);
// legitimate long waits do not: a producer that stores, a time-out loop on %clock64, a warp that
// computes in registers, an asynchronous operation still in flight. Truth: the PTX ISA's rules of
// what a thread can observe (a value changes only by a store, an atomic, an asynchronous
// completion; §8 Memory Consistency Model), and the kernels' own termination (a kernel that ends on
// the GPU must end here with its result).
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "models/machine/machine_config.h"
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

// Exact-repeat detection (sim/livelock.h): loops whose registers come back to an earlier state.
const char* kRepeatKernels = R"(
// Spins on two flags: each load reads another address than the last one, so each is a fresh read
// (progress for the window), but the state repeats.
.visible .entry spin_two(.param .u64 flag)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [flag];
$Lspin:
  ld.volatile.global.u32 %r1, [%rd1];
  ld.volatile.global.u32 %r2, [%rd1+4];
  or.b32 %r3, %r1, %r2;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra $Lspin;
  ret;
}
// Lanes 0-15 spin on a flag, lanes 16-31 wait at a CTA barrier the spinners never reach.
.visible .entry spin_half(.param .u64 flag)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [flag];
  mov.u32 %r2, %tid.x;
  setp.lt.u32 %p2, %r2, 16;
  @%p2 bra $Lspin;
  bar.sync 0;
  ret;
$Lspin:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $Lspin;
  ret;
}
// Polls a flag nobody sets and counts the polls in a register; leaves after n of them with the count.
// (The flag is in shared memory: a short load latency keeps the 2^20 polls' simulation short.)
.visible .entry count_polls(.param .u64 out, .param .u32 n)
{
  .shared .align 4 .b32 sflag;
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r5, [n];
  mov.u32 %r2, 0;
  st.shared.u32 [sflag], %r2;
$Lspin:
  ld.volatile.shared.u32 %r1, [sflag];
  add.u32 %r2, %r2, 1;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Ldone;
  setp.lt.u32 %p2, %r2, %r5;
  @%p2 bra $Lspin;
$Ldone:
  st.global.u32 [%rd2], %r2;
  ret;
}
// The same with the count in local memory: at the backward branch every register and predicate is
// the same each time (the count was reloaded and overwritten); only the local store differs.
.visible .entry count_local(.param .u64 out, .param .u32 n)
{
  .shared .align 4 .b32 sflag;
  .local .align 4 .b32 cnt;
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r5, [n];
  mov.u32 %r2, 0;
  st.shared.u32 [sflag], %r2;
  st.local.u32 [cnt], %r2;
$Lspin:
  ld.volatile.shared.u32 %r1, [sflag];
  ld.local.u32 %r2, [cnt];
  add.u32 %r2, %r2, 1;
  st.local.u32 [cnt], %r2;
  setp.lt.u32 %p2, %r2, %r5;
  mov.u32 %r2, 0;
  @%p2 bra $Lspin;
  ld.local.u32 %r2, [cnt];
  st.global.u32 [%rd2], %r2;
  ret;
}
// mbarrier test_wait polling on a phase that needs 64 arrivals; 32 threads arrive once.
.visible .entry poll_mbarrier()
{
  .shared .align 8 .b64 bar;
  .reg .pred %p<3>;
  .reg .b64 %rd<4>;
  mbarrier.init.shared::cta.b64 [bar], 64;
  mbarrier.arrive.shared::cta.b64 %rd3, [bar];
$Lspin:
  mbarrier.test_wait.shared::cta.b64 %p1, [bar], %rd3;
  @!%p1 bra $Lspin;
  ret;
}
)";

// The simulated cycles a livelock report says the warps ran without change ("kept running for N").
uint64_t idle_cycles(const std::string& e) {
  const std::string key = "kept running for ";
  const size_t at = e.find(key);
  return at == std::string::npos ? ~uint64_t{0} : std::stoull(e.substr(at + key.size()));
}

const char* const kProven = "every spinning warp came back to a state it had been in, exactly";

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

TEST_CASE("livelock: exact repeats end a spin of many CTAs long before the window") {
  // 8 CTAs of 1024 threads spin on a flag nobody sets: every warp's state repeats at its first
  // backward branches once the quiet epoch opens (models::kLivelockRepeatCycles), far below the
  // 10^7-cycle window.
  test::Harness h;
  h.load(test::ptx_header() + kKernels, "k.ptx");
  const uint64_t flag = h.dev.malloc(4);
  const std::string e = error_of([&] { h.launch("spin_flag", {8, 1, 1}, {1024, 1, 1}, test::Params().add(flag)); });
  INFO(e);
  CHECK(e.find("kernel spin_flag: livelock: 256 warps of 8 CTAs kept running for ") == 0);
  CHECK(e.find(kProven) != std::string::npos);
  CHECK(idle_cycles(e) >= models::kLivelockRepeatCycles);
  CHECK(idle_cycles(e) < 2 * models::kLivelockRepeatCycles);
  // Where they spin and on what: the PTX line, the loop, the address read.
  CHECK(e.find("256 warps (8192 lanes) in 8 CTAs: ready at k.ptx:") != std::string::npos);
  CHECK(e.find("its loop: k.ptx:") != std::string::npos);
  CHECK(e.find("read address 0x") != std::string::npos);
  // Deterministic: the same report with another host-thread count.
  sim::DeviceOptions o;
  o.host_threads = 2;
  test::Harness h2(isa::Arch::Sm100a, o);
  h2.load(test::ptx_header() + kKernels, "k.ptx");
  const uint64_t flag2 = h2.dev.malloc(4);
  CHECK(error_of([&] { h2.launch("spin_flag", {8, 1, 1}, {1024, 1, 1}, test::Params().add(flag2)); }) == e);
}

TEST_CASE("livelock: exact repeats: fresh-address loads, a half-warp at a barrier, nanosleep, mbarrier polls") {
  // Alternating between two flags makes every load a fresh read (progress for the window): before
  // exact repeats only the watchdog ended this loop (max_steps here, so that it fails fast).
  sim::DeviceOptions o;
  o.max_steps = 20'000'000;
  test::Harness h(isa::Arch::Sm100a, o);
  h.load(test::ptx_header() + kKernels + kRepeatKernels, "k.ptx");
  const uint64_t flags = h.dev.malloc(8);
  std::string e = error_of([&] { h.launch("spin_two", {2, 1, 1}, {128, 1, 1}, test::Params().add(flags)); });
  INFO(e);
  CHECK(e.find("kernel spin_two: livelock: 8 warps of 2 CTAs") == 0);
  CHECK(e.find(kProven) != std::string::npos);
  CHECK(idle_cycles(e) < 2 * models::kLivelockRepeatCycles);
  // Half a warp spins while the other half waits at bar.sync with no time-out.
  e = error_of([&] { h.launch("spin_half", {1, 1, 1}, {32, 1, 1}, test::Params().add(flags)); });
  CHECK(e.find("kernel spin_half: livelock: 1 warp of 1 CTA") == 0);
  CHECK(e.find(kProven) != std::string::npos);
  CHECK(e.find("barrier 0") != std::string::npos);
  // The spinning group rotates with the waiting one every Warp::kSpinLimit + 1 backward branches
  // (sim/warp.h), and that counter is part of the state: the state repeats after one rotation, a
  // few 10^6 cycles for a global-memory spin, still well inside the window.
  CHECK(idle_cycles(e) < models::kLivelockWindowCycles / 2);
  // A nanosleep polling loop ends as fast, with the default window.
  e = error_of([&] { h.launch("spin_sleep", {4, 1, 1}, {256, 1, 1}, test::Params().add(flags)); });
  CHECK(e.find("kernel spin_sleep: livelock: 32 warps of 4 CTAs") == 0);
  CHECK(e.find(kProven) != std::string::npos);
  CHECK(idle_cycles(e) < 2 * models::kLivelockRepeatCycles);
  // A test_wait poll changes the barrier's count of fruitless polls (sim/warp.cc is_mbarrier_wait):
  // never a repeat; the warp is suspended after MbarrierUnit::kMaxFruitlessPolls and the launch ends
  // in the deadlock report, which shows the barrier's state.
  e = error_of([&] { h.launch("poll_mbarrier", {1, 1, 1}, {32, 1, 1}, test::Params()); });
  CHECK(e.find("kernel poll_mbarrier: deadlock:") == 0);
  CHECK(e.find("shared::cta 0x") != std::string::npos);
}

TEST_CASE("livelock: a quiet loop that changes a counter is not a repeat: 2^20 polls end with their count") {
  // Each iteration only loads the same flag and branches, nothing another thread could see, but
  // the count changes the state (in a register, or in local memory with every register the same
  // at the branch): no exact repeat, and the window is set beyond the loop's length.
  // 2^20 polls with the count in a register, 2^17 with it in local memory (each far past the start of
  // the quiet epoch; fewer, to keep the test short).
  test::Harness h(isa::Arch::Sm100a, window(uint64_t{1} << 40));
  h.load(test::ptx_header() + kKernels + kRepeatKernels, "k.ptx");
  const uint64_t out = h.dev.malloc(4);
  for (const char* k : {"count_polls", "count_local"}) {
    INFO(k);
    const uint32_t n = std::string(k) == "count_polls" ? 1u << 20 : 1u << 17;
    uint32_t got = 0;
    h.dev.copy_to_device(out, &got, 4);
    const sim::LaunchResult r = h.launch(k, {1, 1, 1}, {32, 1, 1}, test::Params().add(out).add(n));
    h.dev.copy_from_device(&got, out, 4);
    CHECK(got == n);
    CHECK(r.cycles > 4 * models::kLivelockRepeatCycles);  // long past the start of the quiet epoch
  }
}
