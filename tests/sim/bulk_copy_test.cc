// Bulk copies through PTX on the simulator (sim/exec/cp_async_bulk.cc, sim/units/tma_engine.h):
// the proxy checker's reports (PTX ISA §9.7.13.4 fence.proxy.async, §9.7.9.25.6.2 wait_group.read),
// bulk groups, and global reductions from CTAs in different partitions combining at the quantum
// boundary (the RMW log, sim/memory/rmw_log.h). Expected values are hand-worked in the comments.
#include <doctest/doctest.h>

#include <numeric>
#include <string>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// One CTA: threads 0..15 each store word (tid + 1) into buf[0..63], optionally fence, bar.sync,
// then thread 0 stores buf to out with a bulk copy and waits for it.
std::string store_kernel(bool fence, bool overwrite_early) {
  std::string b = test::ptx_header("sm_90a") + R"(
.shared .align 128 .b8 buf[64];
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, buf;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  add.u32 %r5, %r1, 1;
  st.shared.u32 [%r4], %r5;
)";
  if (fence) b += "  fence.proxy.async.shared::cta;\n";
  b += R"(
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Ldone;
  cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r2], 64;
  cp.async.bulk.commit_group;
)";
  if (overwrite_early) b += "  st.shared.u32 [%r2], 99;\n";  // before wait_group.read: a race
  b += R"(
  cp.async.bulk.wait_group.read 0;
  cp.async.bulk.wait_group 0;
$Ldone:
  ret;
}
)";
  return b;
}

sim::LaunchResult run_store(bool fence, bool overwrite_early, std::vector<uint32_t>* out) {
  test::Harness h(isa::Arch::Sm90a);
  h.load(store_kernel(fence, overwrite_early), "bulk.ptx");
  const uint64_t d = h.zeros(64);
  auto r = h.launch("k", {1, 1, 1}, {16, 1, 1}, test::Params().add(d));
  *out = h.download<uint32_t>(d, 16);
  return r;
}

bool any_contains(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x.find(s) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("bulk store: generic writes read by the async proxy need fence.proxy.async") {
  std::vector<uint32_t> out;
  // Word i of out = i + 1 in both runs (the functional machine has no stale data); only the checker
  // tells them apart.
  auto r = run_store(true, false, &out);
  for (uint32_t i = 0; i < 16; ++i) CHECK(out[i] == i + 1);
  CHECK_FALSE(any_contains(r.finding_lines(), "proxy race"));

  r = run_store(false, false, &out);
  for (uint32_t i = 0; i < 16; ++i) CHECK(out[i] == i + 1);
  REQUIRE(any_contains(r.finding_lines(), "proxy race"));
  // The report names the async read, the generic write's line, and the missing fence.
  CHECK(any_contains(r.finding_lines(), "cp.async.bulk (shared::cta -> global)"));
  CHECK(any_contains(r.finding_lines(), "written by the generic proxy at bulk.ptx:"));
  CHECK(any_contains(r.finding_lines(), "no fence.proxy.async"));
}

TEST_CASE("bulk store: overwriting the source before wait_group.read is a race") {
  std::vector<uint32_t> out;
  auto r = run_store(true, true, &out);
  // The copy read its source at issue: word 0 is still 1, not 99.
  CHECK(out[0] == 1);
  CHECK(any_contains(r.finding_lines(), "race: CTA (0,0,0) warp 0 lane 0 writes 4 bytes"));
  CHECK(any_contains(r.finding_lines(), "wait with cp.async.bulk.wait_group.read before reusing the source"));
}

TEST_CASE("bulk reductions from many CTAs (several partitions) combine") {
  // 16 CTAs; CTA c reduces four words of value c + 1 into acc[0..3] with .add.u32 and four words
  // with .max.u32 into acc[4..7]: acc[0..3] = 1 + 2 + ... + 16 = 136, acc[4..7] = 16. CTAs are
  // spread over the GPCs (sim/launch.cc dispatch order), so the sums cross partitions.
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.shared .align 16 .b8 v[16];
.visible .entry k(.param .u64 acc)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [acc];
  mov.u32 %r1, %ctaid.x;
  add.u32 %r2, %r1, 1;
  mov.u32 %r3, v;
  st.shared.v4.u32 [%r3], {%r2, %r2, %r2, %r2};
  fence.proxy.async.shared::cta;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r3], 16;
  add.u64 %rd2, %rd1, 16;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u32 [%rd2], [%r3], 16;
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group 0;
  ret;
}
)";
  for (uint32_t threads : {1u, 4u}) {
    sim::DeviceOptions o;
    o.host_threads = threads;
    test::Harness h(isa::Arch::Sm90a, o);
    h.load(ptx, "red.ptx");
    const uint64_t d = h.zeros(32);
    h.launch("k", {16, 1, 1}, {1, 1, 1}, test::Params().add(d));
    const auto acc = h.download<uint32_t>(d, 8);
    for (int i = 0; i < 4; ++i) CHECK(acc[i] == 136);
    for (int i = 4; i < 8; ++i) CHECK(acc[i] == 16);
  }
}
