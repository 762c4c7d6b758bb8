// One clear error for every bad-input class: malformed PTX, wrong target, unknown kernel, wrong
// parameter size, bad launch geometry, too much shared memory, an infinite loop (watchdog), a
// barrier some threads never reach (deadlock report naming who waits where), trap, an
// instruction that is parsed but not implemented yet (named with its PTX line), a call to an
// external function, illegal PTX caught at load (register width).
#include <doctest/doctest.h>

#include <functional>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

using test::error_of;

const char* kKernels = R"(
.visible .entry spin(.param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [n];
$Lloop:
  add.s32 %r2, %r2, 1;
  setp.ne.u32 %p1, %r1, 12345;
  @%p1 bra $Lloop;
  ret;
}
.visible .entry deadlock()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $Lskip;
  bar.sync 0;
$Lskip:
  bar.sync 1;
  ret;
}
.visible .entry trapper()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 37;
  @%p1 trap;
  ret;
}
.visible .entry unimplemented(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  suq.width.b32 %r1, [%rd1];
  ret;
}
.extern .func (.param .b64 rv) malloc(.param .b64 a, .param .b64 b);
.visible .entry printer()
{
  .reg .b32 %r<2>;
  {
  .param .b64 a;
  .param .b64 b;
  .param .b64 r;
  st.param.b64 [a], 0;
  st.param.b64 [b], 0;
  call.uni (r), malloc, (a, b);
  }
  ret;
}
)";

}  // namespace

TEST_CASE("errors: malformed PTX names file:line:col and the token") {
  test::Harness h;
  CHECK(error_of([&] { h.load(test::ptx_header() + ".visible .entry k()\n{\n  frob.u32 %r1;\n}\n", "bad.ptx"); }) ==
        "bad.ptx:6:3: error: unknown instruction 'frob', at 'frob'");
  CHECK(error_of([&] { h.load(".version 9.0\n.target sm_90a\n.address_size 64\n", "t.ptx"); }) ==
        "t.ptx: the PTX targets sm_90a but the device models sm_100a; arch-specific ('a') PTX only runs on its own "
        "architecture");
}

TEST_CASE("errors: load-time rejection of illegal PTX names the line") {
  test::Harness h;
  CHECK(error_of([&] {
          h.load(test::ptx_header() + ".visible .entry k()\n{\n  .reg .b64 %rd<2>;\n  add.s32 %rd1, %rd1, 1;\n  ret;\n}\n", "w.ptx");
        }) == "w.ptx:7: `add`: register %rd1 is 64-bit, the instruction needs a 32-bit register");
  CHECK(error_of([&] {
          h.load(test::ptx_header() + ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  add.sat.u32 %r1, %r1, 1;\n  ret;\n}\n", "s.ptx");
        }) == "s.ptx:7: `add`: .sat applies only to .s32");
}

TEST_CASE("errors: unknown kernel, wrong parameter size, bad geometry, too much shared memory") {
  test::Harness h;
  h.load(test::ptx_header() + kKernels, "k.ptx");
  CHECK(error_of([&] { h.launch("nope", {1, 1, 1}, {1, 1, 1}, test::Params()); }) ==
        "unknown kernel 'nope' in k.ptx (its .entry functions: spin, deadlock, trapper, unimplemented, printer)");
  CHECK(error_of([&] { h.launch("spin", {1, 1, 1}, {1, 1, 1}, test::Params().add(uint64_t{1})); }) ==
        "launch of spin: 8 bytes of parameters given, the kernel takes 4: n (4 bytes at offset 0)");
  CHECK(error_of([&] { h.launch("spin", {1, 1, 1}, {2048, 1, 1}, test::Params().add(12345u)); }) ==
        "launch of spin: block (2048,1,1) exceeds the limits of B200 (sm_100a) (x <= 1024, y <= 1024, z <= 64, x*y*z "
        "<= 1024 threads)");
  CHECK(error_of([&] { h.launch("spin", {3, 1, 1}, {32, 1, 1}, test::Params().add(12345u), 0, {2, 1, 1}); }) ==
        "launch of spin: cluster (2,1,1) does not divide the grid (3,1,1)");
  CHECK(error_of([&] { h.launch("spin", {1, 1, 1}, {32, 1, 1}, test::Params().add(12345u), 300000); })
            .find("300000 bytes of shared memory (0 static + 300000 dynamic) exceed the 232448 bytes") != std::string::npos);
}

TEST_CASE("errors: an infinite loop hits the watchdog, which says where the warps are") {
  sim::DeviceOptions o;
  o.max_steps = 20000;
  test::Harness h(isa::Arch::Sm100a, o);
  h.load(test::ptx_header() + kKernels, "k.ptx");
  const std::string e = error_of([&] { h.launch("spin", {1, 1, 1}, {64, 1, 1}, test::Params().add(1u)); });
  CHECK(e.find("kernel spin: watchdog:") == 0);
  CHECK(e.find("over the limit of 20000 (DeviceOptions::max_steps, --max-steps)") != std::string::npos);
  CHECK(e.find("warp 0 lanes 0-31: ready at k.ptx:") != std::string::npos);
}

TEST_CASE("errors: a barrier that some threads never reach is a deadlock report, not a hang") {
  test::Harness h;
  h.load(test::ptx_header() + kKernels, "k.ptx");
  const std::string e = error_of([&] { h.launch("deadlock", {1, 1, 1}, {64, 1, 1}, test::Params()); });
  CHECK(e.find("kernel deadlock: deadlock: every remaining warp waits and nothing can wake it") == 0);
  CHECK(e.find("1 CTA (e.g. CTA (0,0,0)): barrier 0: 1 of 2 warps arrived (all non-exited threads of the CTA)") !=
        std::string::npos);
  CHECK(e.find("1 CTA (e.g. CTA (0,0,0)): barrier 1: 1 of 2 warps arrived") != std::string::npos);
  CHECK(e.find("CTA (0,0,0) warp 0 lanes 0-31: waiting at CTA barrier 1 at k.ptx:") != std::string::npos);
  CHECK(e.find("CTA (0,0,0) warp 1 lanes 0-31: waiting at CTA barrier 0 at k.ptx:") != std::string::npos);
  CHECK(e.find("`bar.sync 0;`") != std::string::npos);
}

TEST_CASE("errors: trap, not-implemented instructions and external calls name the instruction and line") {
  test::Harness h;
  h.load(test::ptx_header() + kKernels, "k.ptx");
  const std::string t = error_of([&] { h.launch("trapper", {2, 1, 1}, {64, 1, 1}, test::Params()); });
  CHECK(t.find("kernel trapper: k.ptx:") == 0);
  CHECK(t.find("`@%p1 trap;`: CTA (0,0,0) warp 1 lane 5") != std::string::npos);
  CHECK(t.find("trap: the kernel executed `trap` and was aborted") != std::string::npos);
  uint64_t buf = h.dev.malloc(4);
  // (surface instructions: a family no issue implements yet.)
  const std::string a = error_of([&] { h.launch("unimplemented", {1, 1, 1}, {32, 1, 1}, test::Params().add(buf)); });
  CHECK(a.find("`suq.width.b32 %r1, [%rd1];`") != std::string::npos);
  CHECK(a.find("is not implemented yet") != std::string::npos);
  CHECK(a.find("opcode row suq, family texture") != std::string::npos);
  const std::string p = error_of([&] { h.launch("printer", {1, 1, 1}, {1, 1, 1}, test::Params()); });
  CHECK(p.find("call to 'malloc', which is declared but not defined in this module (of the device runtime's "
               "functions tcsim provides vprintf only)") != std::string::npos);
}
