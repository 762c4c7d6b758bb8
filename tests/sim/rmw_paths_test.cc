// One element ALU for every reduction path (sim/memory/rmw.h, docs/reductions.md): the same element
// operation through red/atom, red.async, cp.reduce.async.bulk (into global and shared::cluster) and
// the TMA reduction cp.reduce.async.bulk.tensor gives the same bits — NaNs, infinities, signed zeros
// and f32 subnormals (flushed on the ftz paths) included — with 1 and 4 host threads; and one global
// RMW log orders atomics and bulk reductions of many CTAs onto the same addresses the same way with
// any number of host threads.
//
// Truth: for finite rows the host's own IEEE arithmetic on values whose exact sum fits the wider
// host type (so the host rounds once, to nearest even); the NaN, infinity, zero and subnormal rows
// are hand-worked in the comments, from the rules of rmw.h (PTX ISA §9.7.13.5: atom.add.f32 on
// global memory flushes subnormal inputs and results to sign-preserving zero, on shared memory it
// keeps them; NaN results 0x7fffffff for f32, 0x7fff for f16/bf16, f64 the first NaN operand
// quieted). Before this ALU, cp.reduce.async.bulk{.tensor}.add.f32/.f64 replayed host arithmetic
// (a NaN kept its payload: 0x7fc00001 + 1 gave 0x7fc00001) and a FLOAT32_FTZ map did not flush.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isa/descriptors/tensor_map.h"
#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// ---- the kernels: one per path, all over 256 bytes of elements, one thread per element ----------

struct Ty {
  const char* name;     // f32, f64, f16, bf16, u32
  uint32_t bytes;
  const char* reg;      // register type
  const char* ld;       // ld/st suffix
  const char* red;      // red/atom modifier + type ("add.f32", "add.noftz.f16", "inc.u32")
  const char* bulk;     // cp.reduce.async.bulk op + type
  const char* tma_op;   // cp.reduce.async.bulk.tensor op
};

std::string kernels(const Ty& t) {
  const std::string e = std::to_string(t.bytes), reg = t.reg, ld = t.ld, red = t.red, bulk = t.bulk;
  // Prologue: %r1 = tid, %rd4 = &acc[tid], %rd5 = &ops[tid], %r4 = &buf[tid], %r2 = buf, %v = ops[tid].
  auto head = [&](const std::string& name) {
    return ".visible .entry " + name + R"((.param .align 64 .b8 tmap[128], .param .u64 acc, .param .u64 ops)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .reg )" + reg + R"( %v, %w, %t;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [acc];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u64 %rd2, [ops];
  cvta.to.global.u64 %rd2, %rd2;
  mul.wide.u32 %rd3, %r1, )" + e + R"(;
  add.u64 %rd4, %rd1, %rd3;
  add.u64 %rd5, %rd2, %rd3;
  mov.u32 %r2, buf;
  mul.lo.u32 %r3, %r1, )" + e + R"(;
  add.u32 %r4, %r2, %r3;
  mov.u32 %r5, bar;
  ld.global.)" + ld + R"( %v, [%rd5];
)";
  };
  const std::string tail = "$Ldone:\n  ret;\n}\n";
  // Thread 0 issues a bulk-group operation and waits for it; the others wait at the barrier first.
  const std::string issue0 = R"(  )" "st.shared." + ld + R"( [%r4], %v;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Ldone;
)";
  const std::string wait0 = "  cp.async.bulk.commit_group;\n  cp.async.bulk.wait_group 0;\n";
  std::string k = test::ptx_header() + ".shared .align 128 .b8 buf[256];\n.shared .align 128 .b8 buf2[256];\n"
                                       ".shared .align 8 .b64 bar;\n";
  // red.global
  k += head("p_red") + "  red.global." + red + " [%rd4], %v;\n" + tail;
  // atom.global (the old value is discarded)
  k += head("p_atom") + "  atom.global." + red + " %t, [%rd4], %v;\n" + tail;
  // atom.shared on a copy of acc in shared memory
  k += head("p_atom_shared") + "  ld.global." + ld + " %w, [%rd4];\n  st.shared." + ld + " [%r4], %w;\n  bar.sync 0;\n"
       "  atom.shared." + red + " %t, [%r4], %v;\n  bar.sync 0;\n  ld.shared." + ld + " %w, [%r4];\n  st.global." + ld +
       " [%rd4], %w;\n" + tail;
  // cp.reduce.async.bulk into global memory
  k += head("p_bulk") + issue0 + "  cp.reduce.async.bulk.global.shared::cta.bulk_group." + bulk +
       " [%rd1], [%r2], 256;\n" + wait0 + tail;
  // cp.reduce.async.bulk.tensor (the map over acc gives the element type)
  k += head("p_tma") + issue0 + "  mov.u64 %rd6, tmap;\n  cvta.param.u64 %rd6, %rd6;\n  mov.u32 %r9, 0;\n"
       "  cp.reduce.async.bulk.tensor.1d.global.shared::cta." + std::string(t.tma_op) +
       ".tile.bulk_group [%rd6, {%r9}], [%r2];\n" + wait0 + tail;
  if (std::string(t.name) == "u32") {
    // red.async into the own CTA's shared memory (a .shared::cta address is a .shared::cluster
    // address of the executing CTA), completed on an mbarrier: 64 x 4 bytes.
    const std::string copy_in = "  ld.global.u32 %w, [%rd4];\n  st.shared.u32 [%r4], %w;\n";
    const std::string bar_init = R"(  setp.ne.u32 %p2, %r1, 0;
  @!%p2 mbarrier.init.shared::cta.b64 [%r5], 1;
  @!%p2 fence.mbarrier_init.release.cluster;
  bar.sync 0;
  @!%p2 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r5], 256;
  bar.sync 0;
)";
    const std::string wait_copy_out = R"($Lwait:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r5], 0;
  @!%p3 bra $Lwait;
  bar.sync 0;
  ld.shared.u32 %w, [%r4];
  st.global.u32 [%rd4], %w;
)";
    k += head("p_red_async") + copy_in + bar_init +
         "  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r4], %v, [%r5];\n" +
         wait_copy_out + tail;
    // cp.reduce.async.bulk into shared::cluster (the own CTA's buf), operands in buf2.
    k += head("p_bulk_cluster") + copy_in + "  mov.u32 %r6, buf2;\n  add.u32 %r7, %r6, %r3;\n  st.shared.u32 [%r7], %v;\n"
         "  fence.proxy.async.shared::cta;\n" + bar_init +
         "  @!%p2 cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.inc.u32 [%r2], [%r6], 256, "
         "[%r5];\n" + wait_copy_out + tail;
  }
  return k;
}

const Ty kF32{"f32", 4, ".f32", "f32", "add.f32", "add.f32", "add"};
const Ty kF64{"f64", 8, ".f64", "f64", "add.f64", "add.f64", "add"};
const Ty kF16{"f16", 2, ".b16", "b16", "add.noftz.f16", "add.noftz.f16", "add"};
const Ty kBF16{"bf16", 2, ".b16", "b16", "add.noftz.bf16", "add.noftz.bf16", "add"};
const Ty kU32{"u32", 4, ".b32", "u32", "inc.u32", "inc.u32", "inc"};

// Runs path `kernel` on acc = old, ops = operand (host_threads host threads); returns acc.
template <class T>
std::vector<T> run_path(const Ty& t, const std::string& kernel, const std::vector<T>& old, const std::vector<T>& operand,
                        isa::TensorMapDataType map_type, unsigned host_threads) {
  sim::DeviceOptions o;
  o.host_threads = host_threads;
  test::Harness h(isa::Arch::Sm100a, o);
  h.load(kernels(t), std::string("rmw_") + t.name + ".ptx");
  const uint64_t acc = h.upload(old), ops = h.upload(operand);
  isa::TensorMapParams m;
  m.data_type = map_type;
  m.rank = 1;
  m.global_address = acc;
  m.global_dim[0] = old.size();
  m.box_dim[0] = static_cast<uint32_t>(old.size());
  m.element_strides[0] = 1;
  const auto bytes = isa::encode_tensor_map(m);
  REQUIRE(bytes);
  const uint32_t n = static_cast<uint32_t>(old.size());
  const auto r = h.launch(kernel, {1, 1, 1}, {n, 1, 1},
                          test::Params().raw(bytes->data(), bytes->size(), 64).add(acc).add(ops));
  for (const auto& w : r.finding_lines()) MESSAGE(w);
  CHECK(r.findings.empty());
  return h.download<T>(acc, old.size());
}

// Every (path, map type) of a type with its expected rows; checks 1 and 4 host threads.
template <class T>
void check_paths(const Ty& t, const std::vector<std::pair<const char*, isa::TensorMapDataType>>& paths,
                 const std::vector<T>& old, const std::vector<T>& operand, const std::vector<T>& want) {
  for (const auto& [kernel, map] : paths)
    for (unsigned threads : {1u, 4u}) {
      const std::string path = std::string(kernel) + " (map " + std::string(isa::tensor_map_dtype_name(map)) + ")";
      CAPTURE(path);
      CAPTURE(threads);
      const std::vector<T> got = run_path<T>(t, kernel, old, operand, map, threads);
      for (size_t i = 0; i < want.size(); ++i) {
        CAPTURE(i);
        CHECK_MESSAGE(got[i] == want[i], fmt::format("old 0x{:x} operand 0x{:x}: got 0x{:x}, want 0x{:x}", old[i],
                                                     operand[i], got[i], want[i]));
      }
    }
}

uint32_t f32_bits(float f) { return std::bit_cast<uint32_t>(f); }
float f32_of(uint32_t u) { return std::bit_cast<float>(u); }

// Random finite floats with exponents in [-20, 20]: their exact sum fits a double.
std::vector<uint32_t> random_f32(std::mt19937& g, size_t n) {
  std::uniform_real_distribution<double> m(1.0, 2.0);
  std::uniform_int_distribution<int> e(-20, 20), s(0, 1);
  std::vector<uint32_t> v;
  for (size_t i = 0; i < n; ++i) v.push_back(f32_bits(static_cast<float>((s(g) ? -1 : 1) * std::ldexp(m(g), e(g)))));
  return v;
}

}  // namespace

TEST_CASE("rmw: f32 .add through red/atom, atom.shared, cp.reduce.async.bulk and TMA (f32, f32_ftz maps): same bits") {
  // Hand-worked rows: {old, operand, result without ftz, result with ftz}.
  struct Row {
    uint32_t a, b, keep, ftz;
  };
  const std::vector<Row> special = {
      {0x3fc00000, 0x40100000, 0x40700000, 0x40700000},  // 1.5 + 2.25 = 3.75
      {0x7fc00001, 0x3f800000, 0x7fffffff, 0x7fffffff},  // quiet NaN with payload + 1: the canonical NaN
      {0x3f800000, 0xffa00000, 0x7fffffff, 0x7fffffff},  // 1 + a negative signalling NaN
      {0x7f800000, 0xff800000, 0x7fffffff, 0x7fffffff},  // +inf + -inf: invalid
      {0x7f800000, 0x3f800000, 0x7f800000, 0x7f800000},  // +inf + 1 = +inf
      {0x00000001, 0x00000002, 0x00000003, 0x00000000},  // subnormals 1 + 2 ulps; ftz: +0 + +0 = +0
      {0x80000005, 0x80000000, 0x80000005, 0x80000000},  // -subnormal + -0; ftz: -0 + -0 = -0
      {0x00800000, 0x80800001, 0x80000001, 0x80000000},  // 2^-126 - (2^-126 + 2^-149): a -subnormal result
      {0x3f800000, 0x33800000, 0x3f800000, 0x3f800000},  // 1 + 2^-24: the tie rounds to even
      {0x3f800000, 0x33800001, 0x3f800001, 0x3f800001},  // 1 + a bit more than half an ulp
      {0x80000000, 0x00000000, 0x00000000, 0x00000000},  // -0 + +0 = +0
      {0xc0490fdb, 0x40490fdb, 0x00000000, 0x00000000},  // x + (-x) = +0
  };
  std::mt19937 g(11);
  std::vector<uint32_t> old, operand, keep, ftz;
  for (const Row& r : special) {
    old.push_back(r.a), operand.push_back(r.b), keep.push_back(r.keep), ftz.push_back(r.ftz);
  }
  const std::vector<uint32_t> ra = random_f32(g, 64 - special.size()), rb = random_f32(g, 64 - special.size());
  for (size_t i = 0; i < ra.size(); ++i) {
    const uint32_t s = f32_bits(static_cast<float>(double(f32_of(ra[i])) + double(f32_of(rb[i]))));
    old.push_back(ra[i]), operand.push_back(rb[i]), keep.push_back(s), ftz.push_back(s);
  }
  using T = isa::TensorMapDataType;
  // Global red/atom flush (PTX ISA §9.7.13.5), as a FLOAT32_FTZ map does.
  check_paths<uint32_t>(kF32, {{"p_red", T::Float32}, {"p_atom", T::Float32}, {"p_tma", T::Float32Ftz}}, old, operand,
                        ftz);
  // Shared-memory atomics keep subnormals; so do cp.reduce.async.bulk.add.f32 and a FLOAT32 map.
  check_paths<uint32_t>(kF32, {{"p_atom_shared", T::Float32}, {"p_bulk", T::Float32}, {"p_tma", T::Float32}}, old,
                        operand, keep);
}

TEST_CASE("rmw: f64 .add through every path: same bits, NaN operands quieted in order") {
  const std::vector<std::array<uint64_t, 3>> special = {
      {0x3ff8000000000000, 0x4002000000000000, 0x400e000000000000},  // 1.5 + 2.25 = 3.75
      {0x7ff0000000000001, 0x3ff0000000000000, 0x7ff8000000000001},  // sNaN + 1: the sNaN quieted
      {0x3ff0000000000000, 0xfff4000000000000, 0xfffc000000000000},  // 1 + NaN: b quieted
      {0x7ff8000000000123, 0xfff8000000000456, 0x7ff8000000000123},  // two NaNs: the memory value's
      {0x7ff0000000000000, 0xfff0000000000000, 0xfff8000000000000},  // +inf + -inf: the default NaN
      {0x0000000000000001, 0x0000000000000001, 0x0000000000000002},  // subnormals are kept
      {0x8000000000000000, 0x0000000000000000, 0x0000000000000000},  // -0 + +0 = +0
  };
  std::mt19937 g(12);
  std::uniform_real_distribution<double> d(-1e6, 1e6);
  std::vector<uint64_t> old, operand, want;
  for (const auto& r : special) old.push_back(r[0]), operand.push_back(r[1]), want.push_back(r[2]);
  while (old.size() < 32) {
    const double a = d(g), b = d(g);
    old.push_back(std::bit_cast<uint64_t>(a)), operand.push_back(std::bit_cast<uint64_t>(b));
    want.push_back(std::bit_cast<uint64_t>(a + b));  // the host's IEEE add (round to nearest even)
  }
  using T = isa::TensorMapDataType;
  check_paths<uint64_t>(kF64,
                        {{"p_red", T::Float64}, {"p_atom", T::Float64}, {"p_atom_shared", T::Float64},
                         {"p_bulk", T::Float64}, {"p_tma", T::Float64}},
                        old, operand, want);
}

TEST_CASE("rmw: f16 and bf16 .add.noftz through every path: same bits, subnormals kept, NaN 0x7fff") {
  std::mt19937 g(13);
  std::uniform_int_distribution<int> small(-60, 60);
  using T = isa::TensorMapDataType;
  // f16: {old, operand, result}; integers |x| <= 120 and their sums are exact in f16.
  {
    std::vector<uint16_t> old = {0x3c00, 0x7e01, 0x3c00, 0x7c00, 0x0001, 0x3c00, 0x8000},
                          op = {0x4000, 0x3c00, 0xfc01, 0xfc00, 0x0001, 0x1000, 0x0000},
                          want = {0x4200,   // 1 + 2 = 3
                                  0x7fff,   // NaN + 1
                                  0x7fff,   // 1 + NaN
                                  0x7fff,   // +inf + -inf
                                  0x0002,   // subnormal + subnormal, kept (.noftz)
                                  0x3c00,   // 1 + 2^-11: the tie rounds to even
                                  0x0000};  // -0 + +0 = +0
    while (old.size() < 128) {
      const int a = small(g), b = small(g);
      auto h = [](double x) { return std::bit_cast<uint16_t>(static_cast<_Float16>(x)); };
      old.push_back(h(a)), op.push_back(h(b)), want.push_back(h(a + b));
    }
    check_paths<uint16_t>(kF16,
                          {{"p_red", T::Float16}, {"p_atom", T::Float16}, {"p_atom_shared", T::Float16},
                           {"p_bulk", T::Float16}, {"p_tma", T::Float16}},
                          old, op, want);
  }
  // bf16: values with 8 significant bits whose exact sum fits a float; float -> bf16 rounds to
  // nearest even (the host's float, then the bit rounding below).
  {
    auto bf = [](float x) {
      const uint32_t u = std::bit_cast<uint32_t>(x);
      return static_cast<uint16_t>((u + 0x7fff + (u >> 16 & 1)) >> 16);
    };
    std::vector<uint16_t> old = {0x3f80, 0x7fc1, 0x7f80, 0x0001, 0x3f80},
                          op = {0x4000, 0x3f80, 0xff80, 0x0001, 0x3b80},
                          want = {0x4040,   // 1 + 2 = 3
                                  0x7fff,   // NaN + 1
                                  0x7fff,   // +inf + -inf
                                  0x0002,   // subnormals kept
                                  0x3f80};  // 1 + 2^-8: the tie rounds to even
    std::uniform_int_distribution<int> mant(128, 255), ex(-10, 10), sg(0, 1);
    while (old.size() < 128) {
      const float a = std::ldexp(float(mant(g)), ex(g)) * (sg(g) ? -1.f : 1.f);
      const float b = std::ldexp(float(mant(g)), ex(g)) * (sg(g) ? -1.f : 1.f);
      old.push_back(bf(a)), op.push_back(bf(b)), want.push_back(bf(a + b));
    }
    check_paths<uint16_t>(kBF16,
                          {{"p_red", T::BFloat16}, {"p_atom", T::BFloat16}, {"p_atom_shared", T::BFloat16},
                           {"p_bulk", T::BFloat16}, {"p_tma", T::BFloat16}},
                          old, op, want);
  }
}

TEST_CASE("rmw: u32 .inc through red, red.async, cp.reduce.async.bulk (global and shared::cluster) and TMA") {
  // inc(r, s) = (r >= s) ? 0 : r + 1 (PTX ISA §9.7.13.5).
  std::mt19937 g(14);
  std::uniform_int_distribution<uint32_t> v(0, 9);
  std::vector<uint32_t> old, op, want;
  for (int i = 0; i < 64; ++i) {
    const uint32_t a = i == 0 ? 0xffffffffu : v(g), b = i == 1 ? 0 : v(g);
    old.push_back(a), op.push_back(b), want.push_back(a >= b ? 0 : a + 1);
  }
  using T = isa::TensorMapDataType;
  check_paths<uint32_t>(kU32,
                        {{"p_red", T::UInt32}, {"p_atom", T::UInt32}, {"p_atom_shared", T::UInt32},
                         {"p_red_async", T::UInt32}, {"p_bulk", T::UInt32}, {"p_bulk_cluster", T::UInt32},
                         {"p_tma", T::UInt32}},
                        old, op, want);
}

TEST_CASE("rmw log: red.global, cp.reduce.async.bulk and TMA reductions of 8 CTAs onto one tile, any host threads") {
  // 8 CTAs (one per GPC: different partitions) each add their own inexact f32 values to the same 64
  // elements three times: red.global.add.f32 per thread, then one cp.reduce.async.bulk and one TMA
  // reduction of the same values. Float addition does not commute bit for bit, so the final bits
  // depend on the order of all 24 contributions per element: the one RMW log key (cycle, SM, CTA,
  // warp, lane) must give the same order with 1, 2 and 4 host threads. Every contribution must have
  // landed: the result is within a few ulps of the exact sum.
  const std::string ptx = test::ptx_header() + R"(
.shared .align 128 .b8 buf[256];
.visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 acc, .param .u64 ops)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<16>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r8, %ctaid.x;
  ld.param.u64 %rd1, [acc];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u64 %rd2, [ops];
  cvta.to.global.u64 %rd2, %rd2;
  mad.lo.u32 %r10, %r8, 64, %r1;
  mul.wide.u32 %rd3, %r10, 4;
  add.u64 %rd5, %rd2, %rd3;
  mul.wide.u32 %rd7, %r1, 4;
  add.u64 %rd4, %rd1, %rd7;
  ld.global.f32 %f1, [%rd5];
  red.global.add.f32 [%rd4], %f1;
  mov.u32 %r2, buf;
  mul.lo.u32 %r3, %r1, 4;
  add.u32 %r4, %r2, %r3;
  st.shared.f32 [%r4], %f1;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Ldone;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r2], 256;
  mov.u64 %rd6, tmap;
  cvta.param.u64 %rd6, %rd6;
  mov.u32 %r9, 0;
  cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd6, {%r9}], [%r2];
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group 0;
$Ldone:
  ret;
}
)";
  std::mt19937 g(15);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> vals(8 * 64);
  for (float& x : vals) x = d(g) * 1000.f;
  std::vector<std::vector<uint32_t>> results;
  for (unsigned threads : {1u, 2u, 4u}) {
    sim::DeviceOptions o;
    o.host_threads = threads;
    test::Harness h(isa::Arch::Sm100a, o);
    h.load(ptx, "rmw_log.ptx");
    const uint64_t acc = h.zeros(256), ops = h.upload(vals);
    isa::TensorMapParams m;
    m.data_type = isa::TensorMapDataType::Float32;
    m.rank = 1;
    m.global_address = acc;
    m.global_dim[0] = 64;
    m.box_dim[0] = 64;
    m.element_strides[0] = 1;
    const auto bytes = isa::encode_tensor_map(m);
    REQUIRE(bytes);
    const auto r = h.launch("k", {8, 1, 1}, {64, 1, 1}, test::Params().raw(bytes->data(), bytes->size(), 64).add(acc).add(ops));
    CHECK(r.findings.empty());
    const std::vector<float> got = h.download<float>(acc, 64);
    for (int i = 0; i < 64; ++i) {
      double exact = 0;
      for (int c = 0; c < 8; ++c) exact += 3.0 * vals[c * 64 + i];
      CAPTURE(i);
      CHECK(std::fabs(got[i] - exact) <= 24 * std::ldexp(1.0, -9));  // 24 roundings of sums below 2^15
    }
    std::vector<uint32_t> bits;
    for (float f : got) bits.push_back(f32_bits(f));
    results.push_back(bits);
  }
  CHECK(results[0] == results[1]);
  CHECK(results[0] == results[2]);
}
