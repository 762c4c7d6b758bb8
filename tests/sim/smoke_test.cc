#include <doctest/doctest.h>

#include "tests/sim/harness.h"

using namespace tcsim;

TEST_CASE("sim smoke: each thread writes 2*tid + ctaid") {
  test::Harness h;
  h.load(test::ptx_header() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  shl.b32 %r5, %r1, 1;
  add.s32 %r5, %r5, %r2;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r5;
  ret;
}
)");
  const int n = 3 * 100;
  uint64_t out = h.zeros(n * 4);
  auto r = h.launch("k", {3, 1, 1}, {100, 1, 1}, test::Params().add(out));
  auto v = h.download<uint32_t>(out, n);
  for (int i = 0; i < n; ++i) CHECK(v[i] == uint32_t(2 * (i % 100) + i / 100));
  CHECK(r.cycles > 0);
}
