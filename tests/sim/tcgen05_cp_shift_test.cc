// tcgen05.cp (PTX ISA §9.7.16.9.2) of every shape and warp multicast, the decompressing forms
// (§9.7.16.9.1), and tcgen05.shift (§9.7.16.9.3), against independent statements of where the data
// goes: the lane maps of CUTLASS's UTCCP copy traits (cute/atom/copy_traits_sm100.hpp, restated:
//   128dp256bit / 128dp128bit   source row r -> lane r
//   4dp256bit                   row r (0..3) -> lane 32 r (the first lane of each sub-partition)
//   4x32dp128bit  (.32x128b.warpx4)        row r (0..31) -> lanes r + 32 q, q = 0..3
//   2x64dp128bitlw0213 (.64x128b.warpx2::02_13) row r (0..63) -> lanes r, r + 64
//   2x64dp128bitlw0123 (.64x128b.warpx2::01_23) row r -> lanes 64 (r/32) + r%32, and + 32),
// the canonical K-major no-swizzle layout of the source (16-byte unit u of row r at
// (r/8)*SBO + (r%8)*16 + u*LBO, §9.7.16.3), the decompression formats (16 fp4 in the low 8 bytes /
// 16 fp6 in the low 12 bytes of each 16-byte unit, element e at bit b*e, into 8-bit containers:
// fp4 at bits 5:2, fp6 at 5:0 — the container convention tcgen05.mma reads A with), and the
// .31x256b shape of tcgen05.shift (§9.7.16.2.3). Every TMEM cell the operation does not write must
// keep its old value.
#include <doctest/doctest.h>

#include <cstring>
#include <functional>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

const char* kCpProbe = R"(
.visible .entry cp_probe(.param .u64 out, .param .u32 shape)
{
  .reg .pred %p<16>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<16>;
  .shared .align 1024 .b8 tile[4096];
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 slot;
  mov.u32 %r0, %tid.x;
  shr.u32 %r1, %r0, 5;
  and.b32 %r2, %r0, 31;
  mov.u32 %r6, tile;
  mov.u32 %r3, %r0;
$Lf:
  mul.lo.u32 %r4, %r3, -1640531535;
  xor.b32 %r4, %r4, 1540483477;
  shl.b32 %r5, %r3, 2;
  add.u32 %r5, %r5, %r6;
  st.shared.u32 [%r5], %r4;
  add.u32 %r3, %r3, 128;
  setp.lt.u32 %p0, %r3, 1024;
  @%p0 bra $Lf;
  setp.eq.u32 %p1, %r1, 0;
  @!%p1 bra $La;
  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
$La:
  setp.eq.u32 %p2, %r0, 0;
  @!%p2 bra $Lb;
  mbarrier.init.shared::cta.b64 [bar], 1;
$Lb:
  fence.proxy.async.shared::cta;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  ld.shared.u32 %r7, [slot];
  shl.b32 %r8, %r1, 5;
  add.u32 %r8, %r8, %r2;
  shl.b32 %r9, %r8, 8;
  add.u32 %r10, %r9, 0;
  add.u32 %r11, %r9, 1;
  add.u32 %r12, %r9, 2;
  add.u32 %r13, %r9, 3;
  add.u32 %r14, %r9, 4;
  add.u32 %r15, %r9, 5;
  add.u32 %r16, %r9, 6;
  add.u32 %r17, %r9, 7;
  shl.b32 %r18, %r1, 21;
  add.u32 %r19, %r7, %r18;
  tcgen05.st.sync.aligned.32x32b.x8.b32 [%r19], {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17};
  tcgen05.wait::st.sync.aligned;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  @!%p2 bra $Lc;
  ld.param.u32 %r20, [shape];
  shr.u32 %r21, %r6, 4;
  cvt.u64.u32 %rd1, %r21;
  or.b64 %rd1, %rd1, 70437464178688;
  setp.eq.u32 %p3, %r20, 0;
  @%p3 tcgen05.cp.cta_group::1.128x256b [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 1;
  @%p3 tcgen05.cp.cta_group::1.128x128b [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 2;
  @%p3 tcgen05.cp.cta_group::1.4x256b [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 3;
  @%p3 tcgen05.cp.cta_group::1.32x128b.warpx4 [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 4;
  @%p3 tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 5;
  @%p3 tcgen05.cp.cta_group::1.64x128b.warpx2::01_23 [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 6;
  @%p3 tcgen05.cp.cta_group::1.128x256b.b8x16.b4x16_p64 [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 7;
  @%p3 tcgen05.cp.cta_group::1.128x256b.b8x16.b6x16_p32 [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 8;
  @%p3 tcgen05.cp.cta_group::1.32x128b.warpx4.b8x16.b4x16_p64 [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 9;
  @%p3 tcgen05.cp.cta_group::1.64x128b.warpx2::01_23.b8x16.b6x16_p32 [%r7], %rd1;
  setp.eq.u32 %p3, %r20, 10;
  add.u32 %r22, %r7, 2097152;
  @%p3 tcgen05.shift.cta_group::1.down [%r22];
  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];
$Lc:
$Lw:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [bar], 0;
  @!%p4 bra $Lw;
  tcgen05.fence::after_thread_sync;
  tcgen05.ld.sync.aligned.32x32b.x8.b32 {%r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30}, [%r19];
  tcgen05.wait::ld.sync.aligned;
  ld.param.u64 %rd2, [out];
  mul.wide.u32 %rd3, %r8, 32;
  add.s64 %rd4, %rd2, %rd3;
  st.global.v4.u32 [%rd4], {%r23, %r24, %r25, %r26};
  st.global.v4.u32 [%rd4+16], {%r27, %r28, %r29, %r30};
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  @!%p1 bra $Ld;
  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r7, 32;
$Ld:
  ret;
}
)";

uint32_t word(uint32_t i) { return (i * 0x9E3779B1u) ^ 0x5bd1e995u; }

// The 16 source bytes of unit u of row r (canonical K-major, no swizzle: SBO 256, LBO 128).
void unit_bytes(uint32_t r, uint32_t u, uint8_t out[16]) {
  const uint32_t addr = (r / 8) * 256 + (r % 8) * 16 + u * 128;
  for (uint32_t w = 0; w < 4; ++w) {
    const uint32_t v = word(addr / 4 + w);
    std::memcpy(out + 4 * w, &v, 4);
  }
}

// fmt: 0 copy, 4 fp4 (.b4x16_p64), 6 fp6 (.b6x16_p32).
void decompress(int fmt, const uint8_t in[16], uint8_t out[16]) {
  if (!fmt) {
    std::memcpy(out, in, 16);
    return;
  }
  for (int e = 0; e < 16; ++e) {
    uint32_t v = 0;
    for (int b = 0; b < fmt; ++b) {
      const int bit = fmt * e + b;
      v |= uint32_t((in[bit / 8] >> (bit % 8)) & 1) << b;
    }
    out[e] = static_cast<uint8_t>(fmt == 4 ? v << 2 : v);
  }
}

struct Shape {
  int id;
  const char* name;
  uint32_t rows, units;
  int fmt;
  std::function<std::vector<uint32_t>(uint32_t)> lanes;
};

}  // namespace

TEST_CASE("tcgen05.cp: every shape, multicast and decompression puts each source row where CUTLASS's UTCCP atoms say") {
  const auto one = [](uint32_t r) { return std::vector<uint32_t>{r}; };
  const auto four = [](uint32_t r) { return std::vector<uint32_t>{32 * r}; };
  const auto x4 = [](uint32_t r) { return std::vector<uint32_t>{r, r + 32, r + 64, r + 96}; };
  const auto w0213 = [](uint32_t r) { return std::vector<uint32_t>{r, r + 64}; };
  const auto w0123 = [](uint32_t r) { return std::vector<uint32_t>{64 * (r / 32) + r % 32, 64 * (r / 32) + r % 32 + 32}; };
  const Shape shapes[] = {{0, "128x256b", 128, 2, 0, one},
                          {1, "128x128b", 128, 1, 0, one},
                          {2, "4x256b", 4, 2, 0, four},
                          {3, "32x128b.warpx4", 32, 1, 0, x4},
                          {4, "64x128b.warpx2::02_13", 64, 1, 0, w0213},
                          {5, "64x128b.warpx2::01_23", 64, 1, 0, w0123},
                          {6, "128x256b.b8x16.b4x16_p64", 128, 2, 4, one},
                          {7, "128x256b.b8x16.b6x16_p32", 128, 2, 6, one},
                          {8, "32x128b.warpx4.b8x16.b4x16_p64", 32, 1, 4, x4},
                          {9, "64x128b.warpx2::01_23.b8x16.b6x16_p32", 64, 1, 6, w0123}};
  test::Harness h;
  h.load(test::ptx_header() + kCpProbe);
  for (const Shape& s : shapes) {
    CAPTURE(s.name);
    // The expected cells: the old values (lane << 8 | column), then the copy.
    std::vector<uint32_t> want(128 * 8);
    for (uint32_t l = 0; l < 128; ++l)
      for (uint32_t c = 0; c < 8; ++c) want[l * 8 + c] = l << 8 | c;
    for (uint32_t r = 0; r < s.rows; ++r)
      for (uint32_t u = 0; u < s.units; ++u) {
        uint8_t in[16], out[16];
        unit_bytes(r, u, in);
        decompress(s.fmt, in, out);
        for (uint32_t l : s.lanes(r)) std::memcpy(&want[l * 8 + 4 * u], out, 16);
      }
    const uint64_t out = h.zeros(128 * 8 * 4);
    h.launch("cp_probe", {1, 1, 1}, {128, 1, 1}, test::Params().add(out).add(uint32_t(s.id)));
    const auto got = h.download<uint32_t>(out, 128 * 8);
    int bad = 0;
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != want[i] && bad++ < 3) MESSAGE("lane " << i / 8 << " column " << i % 8 << ": got " << std::hex << got[i] << ", expected " << want[i]);
    CHECK(bad == 0);
  }
}

TEST_CASE("tcgen05.shift.down moves 31 rows of 256 bits within the 32 lanes at taddr (the .31x256b shape)") {
  test::Harness h;
  h.load(test::ptx_header() + kCpProbe);
  const uint64_t out = h.zeros(128 * 8 * 4);
  h.launch("cp_probe", {1, 1, 1}, {128, 1, 1}, test::Params().add(out).add(uint32_t(10)));
  const auto got = h.download<uint32_t>(out, 128 * 8);
  for (uint32_t l = 0; l < 128; ++l)
    for (uint32_t c = 0; c < 8; ++c) {
      // taddr lane 32: lanes 33..63 take the row above; lane 32 and every other lane keep theirs.
      const uint32_t src = l > 32 && l < 64 ? l - 1 : l;
      CHECK(got[l * 8 + c] == (src << 8 | c));
    }
}
