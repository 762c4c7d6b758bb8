// State spaces and addressing: global (incl. module .global and .const data with initializers and
// address relocations), shared (static and dynamic), local, kernel parameters, generic addressing
// through cvta and isspacep, vector loads/stores, sign/zero extension into wide registers, and
// the exact messages for out-of-bounds and misaligned accesses.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;

TEST_CASE("memory: module .global/.const data, initializers, relocations, symbols") {
  test::Harness h;
  h.load(test::ptx_header() + R"(
.const .align 4 .u32 ctab[4] = {10, 20, 30, 40};
.global .align 8 .u64 gptr = generic(gval);
.global .align 4 .u32 gval = 1234;
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.const.u32 %r1, [ctab+8];
  mov.u64 %rd2, ctab;
  ld.const.u32 %r2, [%rd2+12];
  ld.global.u64 %rd3, [gptr];
  ld.u32 %r3, [%rd3];
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r2;
  st.global.u32 [%rd1+8], %r3;
  cvta.const.u64 %rd4, %rd2;
  ld.u32 %r4, [%rd4+4];
  st.global.u32 [%rd1+12], %r4;
  ret;
}
)");
  uint64_t out = h.zeros(16);
  h.launch("k", {1, 1, 1}, {1, 1, 1}, test::Params().add(out));
  CHECK(h.download<uint32_t>(out, 4) == std::vector<uint32_t>{30, 40, 1234, 20});
  // Host access to symbols (cuModuleGetGlobal): overwrite a __constant__ table before a launch.
  sim::SymbolInfo s = h.dev.symbol(*h.mod, "ctab");
  CHECK(s.size == 16);
  std::vector<uint32_t> nt = {1, 2, 3, 4};
  h.dev.copy_to_device(s.address, nt.data(), 16);
  h.launch("k", {1, 1, 1}, {1, 1, 1}, test::Params().add(out));
  CHECK(h.download<uint32_t>(out, 4) == std::vector<uint32_t>{3, 4, 1234, 2});
  CHECK_THROWS_WITH_AS(h.dev.symbol(*h.mod, "nope"), doctest::Contains("unknown symbol 'nope'"), sim::SimError);
}

TEST_CASE("memory: shared static+dynamic, generic addressing, cvta/isspacep, vectors, extension") {
  test::Harness h;
  h.load(test::ptx_header() + R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b16 %rs<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .local .align 8 .b8 loc[32];
  .shared .align 16 .b8 stat[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  // static shared through a 32-bit shared address, dynamic shared through a generic address
  mov.u32 %r1, stat;
  shl.b32 %r2, %r0, 2;
  add.s32 %r3, %r1, %r2;
  st.shared.u32 [%r3], %r0;
  mov.u64 %rd2, dyn;
  cvta.shared.u64 %rd3, %rd2;
  mul.wide.u32 %rd4, %r0, 4;
  add.s64 %rd5, %rd3, %rd4;
  mul.lo.s32 %r4, %r0, 10;
  st.u32 [%rd5], %r4;
  bar.sync 0;
  ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [stat];
  add.s32 %r5, %r5, %r6;
  add.s32 %r5, %r5, %r7;
  add.s32 %r5, %r5, %r8;
  ld.u32 %r9, [%rd3+12];
  // isspacep on generic addresses
  isspacep.shared %p1, %rd3;
  isspacep.global %p2, %rd3;
  isspacep.global %p3, %rd1;
  // local memory through a generic address, then sign extension of a byte load
  mov.u64 %rd6, loc;
  cvta.local.u64 %rd7, %rd6;
  mov.u32 %r10, -3;
  st.u8 [%rd7+5], %r10;
  isspacep.local %p4, %rd7;
  ld.local.s8 %r11, [%rd6+5];
  ld.local.u8 %r12, [%rd6+5];
  ld.local.s8 %rs1, [%rd6+5];
  cvt.u32.u16 %r13, %rs1;
  mul.wide.u32 %rd8, %r0, 64;
  add.s64 %rd9, %rd1, %rd8;
  st.global.v4.u32 [%rd9], {%r5, %r9, %r11, %r12};
  selp.u32 %r14, 1, 0, %p1;
  selp.u32 %r15, 1, 0, %p2;
  st.global.v2.u32 [%rd9+16], {%r14, %r15};
  selp.u32 %r14, 1, 0, %p3;
  selp.u32 %r15, 1, 0, %p4;
  st.global.v2.u32 [%rd9+24], {%r14, %r15};
  st.global.u32 [%rd9+32], %r13;
  ret;
}
)");
  uint64_t out = h.zeros(64 * 8);
  h.launch("k", {1, 1, 1}, {8, 1, 1}, test::Params().add(out), /*dyn_smem=*/64);
  auto v = h.download<uint32_t>(out, 16 * 8);
  for (int t = 0; t < 8; ++t) {
    const uint32_t* r = &v[16 * t];
    CHECK(r[0] == 0 + 1 + 2 + 3);  // stat[0..3] = tid
    CHECK(r[1] == 30);             // dyn[3] = 3 * 10
    CHECK(r[2] == 0xfffffffdu);    // ld.s8 of -3 into a 32-bit register: sign-extended
    CHECK(r[3] == 0xfdu);          // ld.u8: zero-extended
    CHECK(r[4] == 1);              // generic shared address is shared
    CHECK(r[5] == 0);              // ... and not global
    CHECK(r[6] == 1);              // a cudaMalloc pointer is global
    CHECK(r[7] == 1);              // generic local address is local
    CHECK(r[8] == 0xfffdu);        // ld.s8 into a 16-bit register: sign-extended to 16 bits
  }
}

TEST_CASE("memory: out-of-bounds and misaligned accesses are reported with kernel, line, CTA, warp, lane, address") {
  test::Harness h;
  h.load(test::ptx_header() + R"(
.visible .entry oob(.param .u64 p, .param .u32 n)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
.visible .entry mis(.param .u64 p)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1+2];
  ret;
}
.visible .entry sh()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 s[16];
  mov.u32 %r1, s;
  ld.shared.u32 %r2, [%r1+2000];
  ret;
}
.visible .entry nul()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 0;
  ld.u32 %r2, [%rd1];
  ret;
}
)", "mem.ptx");
  uint64_t buf = h.dev.malloc(40);  // 10 u32: threads 10..31 of warp 0 overrun it
  std::string msg;
  try {
    h.launch("oob", {2, 1, 1}, {32, 1, 1}, test::Params().add(buf).add(7u));
  } catch (const sim::SimError& e) {
    msg = e.what();
  }
  // The exact message (the cycle number is the simulated time of the fault).
  const std::string head = "kernel oob: mem.ptx:14 `st.global.u32 [%rd3], %r1;`: CTA (0,0,0) warp 0 lane 10, cycle ";
  const std::string tail = fmt::format(": out-of-bounds global store of 4 bytes at 0x{:x}: 0 bytes past the end of "
                                       "allocation #1 [0x{:x}, 0x{:x}) (40 bytes)", buf + 40, buf, buf + 40);
  REQUIRE(msg.size() > head.size() + tail.size());
  CHECK(msg.substr(0, head.size()) == head);
  CHECK(msg.substr(msg.size() - tail.size()) == tail);
  CHECK(msg.substr(head.size(), msg.size() - head.size() - tail.size()).find_first_not_of("0123456789") == std::string::npos);
  CHECK_THROWS_WITH_AS(h.launch("mis", {1, 1, 1}, {1, 1, 1}, test::Params().add(buf)),
                       doctest::Contains("misaligned global load of 4 bytes at"), sim::SimError);
  CHECK_THROWS_WITH_AS(h.launch("sh", {1, 1, 1}, {1, 1, 1}, test::Params()),
                       doctest::Contains("out-of-bounds shared load of 4 bytes at shared address 0xbd0: the CTA's shared "
                                         "memory is [0x0, 0x480) (1024 reserved + 16 static + 0 dynamic bytes, rounded "
                                         "up to 128)"),
                       sim::SimError);
  CHECK_THROWS_WITH_AS(h.launch("nul", {1, 1, 1}, {1, 1, 1}, test::Params()),
                       doctest::Contains("generic load of 4 bytes at 0x0: the address is in no state space"), sim::SimError);
  // The device survives a faulting launch.
  h.launch("oob", {1, 1, 1}, {10, 1, 1}, test::Params().add(buf).add(9u));
  CHECK(h.download<uint32_t>(buf, 10) == std::vector<uint32_t>(10, 9));
}

TEST_CASE("memory: host copies outside allocations are errors, not crashes") {
  test::Harness h;
  uint64_t a = h.dev.malloc(16);
  std::vector<uint8_t> v(32);
  CHECK_THROWS_WITH_AS(h.dev.copy_to_device(a, v.data(), 32), doctest::Contains("outside device memory"), sim::SimError);
  CHECK_THROWS_AS(h.dev.copy_from_device(v.data(), 0x1234, 4), sim::SimError);
  uint64_t b = h.dev.malloc(16);
  CHECK(b > a + 16);  // a guard gap separates allocations
  CHECK(a % 256 == 0);
  CHECK((a >> 40) == 0x7f);  // looks like a device pointer
}
