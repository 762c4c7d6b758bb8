// match.sync, redux.sync, elect.sync (sim/exec/warp_misc.cc, PTX ISA §9.7.13.9-11) and bar.red
// (sim/exec/barrier.cc, §9.7.13.1) against host computations of the definitions: each lane's
// result is recomputed on the host from the lanes' inputs and the membermask.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// One warp: lane i loads in[i] into %r1 (and %rd1 as 64-bit), runs `body` when bit i of `run`
// is set, and stores %r2 and %r3 to out[2i], out[2i+1].
std::vector<uint32_t> run_warp(const std::string& body, const std::vector<uint32_t>& in, uint32_t run,
                               uint32_t threads = 32) {
  test::Harness h;
  h.load(test::ptx_header() + R"(
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 run)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  .reg .f32 %f<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd8, [pin];
  ld.param.u64 %rd9, [pout];
  ld.param.u32 %r10, [run];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd8, %rd8, %rd10;
  ld.global.u32 %r1, [%rd8];
  cvt.u64.u32 %rd1, %r1;
  mov.u32 %r2, 0xdead;
  mov.u32 %r3, 0xdead;
  and.b32 %r11, %r0, 31;
  shr.u32 %r11, %r10, %r11;
  and.b32 %r11, %r11, 1;
  setp.eq.u32 %p3, %r11, 0;
  @%p3 bra $Lskip;
)" + body + R"(
$Lskip:
  mul.wide.u32 %rd10, %r0, 8;
  add.s64 %rd9, %rd9, %rd10;
  st.global.v2.u32 [%rd9], {%r2, %r3};
  ret;
}
)");
  const uint64_t din = h.upload(in), dout = h.zeros(threads * 8);
  h.launch("k", {1, 1, 1}, {threads, 1, 1}, test::Params().add(din).add(dout).add(run));
  return h.download<uint32_t>(dout, threads * 2);
}

std::vector<uint32_t> lane_values(uint32_t (*f)(uint32_t)) {
  std::vector<uint32_t> v(32);
  for (uint32_t i = 0; i < 32; ++i) v[i] = f(i);
  return v;
}

}  // namespace

TEST_CASE("match.any / match.all: masks of equal values among the participants") {
  const auto in = lane_values([](uint32_t i) { return i % 3 == 0 ? 7u : i % 3 == 1 ? 0x80000000u : i * 0u + 5u; });
  for (uint32_t run : {0xffffffffu, 0x0000ffffu, 0x5555aaaau}) {
    CAPTURE(run);
    // Members are the running lanes (membermask = run), so the host recomputes over them.
    const std::string mm = fmt::format("0x{:08x}", run);
    auto out = run_warp("match.any.sync.b32 %r2, %r1, " + mm + ";\n match.all.sync.b64 %r3|%p1, %rd1, " + mm +
                            ";\n @!%p1 add.u32 %r3, %r3, 1;",
                        in, run);
    bool all_eq = true;
    uint32_t first = in[std::countr_zero(run)];
    for (uint32_t j = 0; j < 32; ++j) all_eq = all_eq && (!(run >> j & 1) || in[j] == first);
    for (uint32_t i = 0; i < 32; ++i) {
      CAPTURE(i);
      if (!(run >> i & 1)) {
        CHECK(out[2 * i] == 0xdead);
        continue;
      }
      uint32_t m = 0;
      for (uint32_t j = 0; j < 32; ++j) m |= ((run >> j & 1) && in[j] == in[i] ? 1u : 0u) << j;
      CHECK(out[2 * i] == m);
      CHECK(out[2 * i + 1] == (all_eq ? run : 1u));  // d = 0 and p false (+1) when not all equal
    }
  }
  // All equal: match.all gives the membermask and p = true.
  auto out = run_warp("match.all.sync.b32 %r3|%p1, 42, 0xf0f0f0f0;\n selp.u32 %r2, 1, 0, %p1;",
                      lane_values([](uint32_t) { return 0u; }), 0xf0f0f0f0u);
  CHECK(out[2 * 4] == 1);
  CHECK(out[2 * 4 + 1] == 0xf0f0f0f0u);
}

TEST_CASE("redux.sync: add/min/max (signed, unsigned), and/or/xor over the participants") {
  const auto in = lane_values([](uint32_t i) { return (i * 2654435761u) ^ (i << 28); });
  struct Case {
    const char* instr;
    uint32_t (*host)(const std::vector<uint32_t>&);
  };
  const Case cases[] = {
      {"redux.sync.add.u32", [](const std::vector<uint32_t>& v) { uint32_t s = 0; for (auto x : v) s += x; return s; }},
      {"redux.sync.min.u32", [](const std::vector<uint32_t>& v) { return *std::min_element(v.begin(), v.end()); }},
      {"redux.sync.max.u32", [](const std::vector<uint32_t>& v) { return *std::max_element(v.begin(), v.end()); }},
      {"redux.sync.min.s32", [](const std::vector<uint32_t>& v) {
         int32_t m = INT32_MAX;
         for (auto x : v) m = std::min(m, static_cast<int32_t>(x));
         return static_cast<uint32_t>(m);
       }},
      {"redux.sync.max.s32", [](const std::vector<uint32_t>& v) {
         int32_t m = INT32_MIN;
         for (auto x : v) m = std::max(m, static_cast<int32_t>(x));
         return static_cast<uint32_t>(m);
       }},
      {"redux.sync.and.b32", [](const std::vector<uint32_t>& v) { uint32_t s = ~0u; for (auto x : v) s &= x; return s; }},
      {"redux.sync.or.b32", [](const std::vector<uint32_t>& v) { uint32_t s = 0; for (auto x : v) s |= x; return s; }},
      {"redux.sync.xor.b32", [](const std::vector<uint32_t>& v) { uint32_t s = 0; for (auto x : v) s ^= x; return s; }},
  };
  for (const Case& k : cases) {
    for (uint32_t run : {0xffffffffu, 0x000000f0u, 0x80000001u}) {
      CAPTURE(k.instr);
      CAPTURE(run);
      auto out = run_warp(std::string(k.instr) + " %r2, %r1, " + fmt::format("0x{:08x}", run) + ";", in, run);
      std::vector<uint32_t> part;
      for (uint32_t j = 0; j < 32; ++j)
        if (run >> j & 1) part.push_back(in[j]);
      const uint32_t want = k.host(part);
      for (uint32_t i = 0; i < 32; ++i)
        if (run >> i & 1) CHECK(out[2 * i] == want);
    }
  }
}

TEST_CASE("redux.sync.f32 min/max (sm_100a): -0 < +0, .abs, NaN ignored unless .NaN") {
  // Lane i holds (i - 16) * 0.5 as f32: min -8.0 (0xc1000000), max 7.5 (0x40f00000), |x| max 8.0.
  auto in = lane_values([](uint32_t i) {
    float f = (static_cast<float>(i) - 16.0f) * 0.5f;
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  });
  auto out = run_warp("redux.sync.min.f32 %r2, %r1, -1;\n redux.sync.max.abs.f32 %r3, %r1, -1;", in, ~0u);
  CHECK(out[0] == 0xc1000000u);
  CHECK(out[1] == 0x41000000u);
  in[3] = 0x7fc00001u;  // a NaN
  out = run_warp("redux.sync.max.f32 %r2, %r1, -1;\n redux.sync.max.NaN.f32 %r3, %r1, -1;", in, ~0u);
  CHECK(out[0] == 0x40f00000u);
  CHECK(out[1] == 0x7fffffffu);
  // Only zeros of both signs: min is -0, max is +0.
  in = lane_values([](uint32_t i) { return i % 2 ? 0x80000000u : 0u; });
  out = run_warp("redux.sync.min.f32 %r2, %r1, -1;\n redux.sync.max.f32 %r3, %r1, -1;", in, ~0u);
  CHECK(out[0] == 0x80000000u);
  CHECK(out[1] == 0u);
}

TEST_CASE("elect.sync: the lowest lane of the membermask leads; every participant learns its id") {
  for (uint32_t run : {0xffffffffu, 0xaaaaaaaau, 0x00100000u, 0xff000000u}) {
    CAPTURE(run);
    auto out = run_warp("elect.sync %r2|%p1, " + fmt::format("0x{:08x}", run) + ";\n selp.u32 %r3, 1, 0, %p1;",
                        lane_values([](uint32_t) { return 0u; }), run);
    const uint32_t leader = static_cast<uint32_t>(std::countr_zero(run));
    for (uint32_t i = 0; i < 32; ++i) {
      if (!(run >> i & 1)) continue;
      CAPTURE(i);
      CHECK(out[2 * i] == leader);
      CHECK(out[2 * i + 1] == (i == leader ? 1u : 0u));
    }
  }
}

TEST_CASE("bar.red.popc / .and / .or over 4 warps, with a thread count, and with exited warps") {
  // 128 threads; c = (tid % 5 == 0): popc = 26 (0, 5, .., 125); .and of (tid != 77) is false,
  // .or of (tid == 77) is true, .and of !(tid > 200) is true. With count 64 on barrier 1 only warps
  // 0 and 1 take part: popc over tid 0..63 = 13.
  const std::string body = R"(
  rem.u32 %r4, %r0, 5;
  setp.eq.u32 %p1, %r4, 0;
  bar.red.popc.u32 %r2, 0, %p1;
  setp.ne.u32 %p1, %r0, 77;
  bar.red.and.pred %p2, 0, %p1;
  selp.u32 %r3, 1, 0, %p2;
  setp.eq.u32 %p1, %r0, 77;
  barrier.red.or.pred %p2, 0, %p1;
  selp.u32 %r5, 2, 0, %p2;
  or.b32 %r3, %r3, %r5;
  setp.gt.u32 %p1, %r0, 200;
  barrier.red.and.aligned.pred %p2, 2, !%p1;
  selp.u32 %r5, 4, 0, %p2;
  or.b32 %r3, %r3, %r5;
  setp.ge.u32 %p1, %r0, 64;
  @%p1 bra $Lrest;
  setp.eq.u32 %p1, %r4, 0;
  bar.red.popc.u32 %r5, 1, 64, %p1;
  shl.b32 %r5, %r5, 8;
  or.b32 %r3, %r3, %r5;
$Lrest:
)";
  auto out = run_warp(body, std::vector<uint32_t>(128, 0), ~0u, 128);
  for (uint32_t i = 0; i < 128; ++i) {
    CAPTURE(i);
    CHECK(out[2 * i] == 26);
    CHECK(out[2 * i + 1] == (2u | 4u | (i < 64 ? 13u << 8 : 0u)));
  }
  // Warps 2 and 3 exit first: the barrier completes with warps 0 and 1, whose 64 threads hold 13
  // multiples of 5.
  out = run_warp("setp.ge.u32 %p1, %r0, 64;\n @%p1 exit;\n rem.u32 %r4, %r0, 5;\n setp.eq.u32 %p1, %r4, 0;\n"
                 " bar.red.popc.u32 %r2, 0, %p1;", std::vector<uint32_t>(128, 0), ~0u, 128);
  for (uint32_t i = 0; i < 64; ++i) CHECK(out[2 * i] == 13);
}
