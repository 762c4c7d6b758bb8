// Walks the opcode table (isa/ptx/opcodes.def) and proves for every row: a parser rule (the sample
// instruction parses to exactly this row), a timing class, and either an execute function that
// computes the hand-worked value below (Impl rows; each family also has its own deeper tests), or
// the explicit "not implemented yet" error naming the instruction and its PTX line (Todo rows,
// listed by this test). A row without a sample fails the test, so adding an instruction to the table
// forces adding its test here.
//
// Sample inputs (one thread): integer rows %x0..%x3 = 7, 3, 5, 2; float rows (kFloatRow)
// %x0..%x3 = 1.5f, 2.0f, 0.25f, -4.0f.
#include <doctest/doctest.h>

#include <map>
#include <optional>

#include <fmt/format.h>

#include "isa/ptx/opcodes.h"
#include "isa/ptx/parser.h"
#include "tests/sim/harness.h"

using namespace tcsim;
using isa::ptx::Op;

namespace {

struct Sample {
  std::string text;
  std::optional<uint32_t> want;  // Impl: the value left in %y0
  bool float_row = false;
  std::string error;             // Impl rows expected to fail (trap, brkpt): substring of the error
};

const test::Row kIntRow = {7, 3, 5, 2};
const test::Row kFloatRow = {0x3fc00000, 0x40000000, 0x3e800000, 0xc0800000};

const char* kPrelude = R"(
.shared .align 8 .b64 sbar[4];
.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %t<2>;
  ld.param.b32 %t0, [x];
  add.s32 %t1, %t0, %t0;
  st.param.b32 [r], %t1;
  ret;
}
)";

const char* kCall = "{\n .param .b32 a;\n .param .b32 b;\n st.param.b32 [a], %x0;\n call.uni (b), twice, (a);\n ld.param.b32 %y0, [b];\n }";

std::map<std::string, Sample> samples() {
  auto v = [](std::string t, uint32_t w) { return Sample{std::move(t), w, false, ""}; };
  auto f = [](std::string t, uint32_t w) { return Sample{std::move(t), w, true, ""}; };
  auto todo = [](std::string t) { return Sample{std::move(t), std::nullopt, false, ""}; };
  return {
      // 9.7.1 integer: 7+3, 3-7, 7*3, 7*3+5, 5+|3-7|, 7/2, 7%2, |3-7|, -7, popc(7), clz(7), msb(7),
      // 2nd set bit of 7 from bit 0, brev(7), bits 1..2 of 7, 2 inserted at bit 4, 7 as a 3-bit
      // signed value, bits 2..4 set.
      {"add_int", v("add.s32 %y0, %x0, %x1;", 10)},
      {"sub_int", v("sub.s32 %y0, %x1, %x0;", 0xfffffffcu)},
      {"mul_int", v("mul.lo.u32 %y0, %x0, %x1;", 21)},
      {"mad_int", v("mad.lo.u32 %y0, %x0, %x1, %x2;", 26)},
      {"mul24", v("mul24.lo.u32 %y0, %x0, %x1;", 21)},
      {"mad24", v("mad24.lo.u32 %y0, %x0, %x1, %x2;", 26)},
      {"sad", v("sad.u32 %y0, %x1, %x0, %x2;", 9)},
      {"div_int", v("div.u32 %y0, %x0, %x3;", 3)},
      {"rem", v("rem.u32 %y0, %x0, %x3;", 1)},
      {"abs_int", v("sub.s32 %y1, %x1, %x0;\n abs.s32 %y0, %y1;", 4)},
      {"neg_int", v("neg.s32 %y0, %x0;", 0xfffffff9u)},
      {"min_int", v("min.u32 %y0, %x0, %x1;", 3)},
      {"max_int", v("max.s32 %y0, %x0, %x1;", 7)},
      {"popc", v("popc.b32 %y0, %x0;", 3)},
      {"clz", v("clz.b32 %y0, %x0;", 29)},
      {"bfind", v("bfind.u32 %y0, %x0;", 2)},
      {"fns", v("fns.b32 %y0, %x0, 0, 2;", 1)},
      {"brev", v("brev.b32 %y0, %x0;", 0xe0000000u)},
      {"bfe", v("bfe.u32 %y0, %x0, 1, 2;", 3)},
      {"bfi", v("bfi.b32 %y0, %x3, 0, 4, 4;", 0x20)},
      {"szext", v("szext.wrap.s32 %y0, %x0, 3;", 0xffffffffu)},
      {"bmsk", v("bmsk.wrap.b32 %y0, %x3, %x1;", 0x1c)},
      // dp4a: bytes of 0xff02ff03 as s8 (3, -1, 2, -1) . (1, 2, 3, 4) = 3 - 2 + 6 - 4 = 3, + 10;
      // dp2a.lo: halves (7, 0) . bytes (3, 0) of b = 21, + 5.
      {"dp4a", v("dp4a.s32.u32 %y0, 0xff02ff03, 0x04030201, 10;", 13)},
      {"dp2a", v("dp2a.lo.u32.u32 %y0, %x0, %x1, %x2;", 26)},
      // 9.7.2: 7 + 0xfffffffd carries into 3 + 0 (+1); 3 - 7 borrows from 5 - 0 (-1); 7*2^30 + 2^30
      // = 2^33 carries into 3*1 + 0 (+1).
      {"addc", v("add.cc.u32 %y1, %x0, 0xfffffffd;\n addc.u32 %y0, %x1, 0;", 4)},
      {"subc", v("sub.cc.u32 %y1, %x1, %x0;\n subc.u32 %y0, %x2, 0;", 4)},
      {"madc", v("mad.lo.cc.u32 %y1, %x0, 0x40000000, 0x40000000;\n madc.lo.u32 %y0, %x1, 1, 0;", 4)},
      // 9.7.3 float (1.5, 2, 0.25, -4): 3.5, -0.5, 3, 1.5*2+0.25 = 3.25, |-4|, -1.5, min = -4, max = 2,
      // 0.75, 1/2, sqrt(0.25) = 0.5, copysign(-4 -> 1.5) = -1.5.
      {"testp", f("testp.finite.f32 %p0, %x0;\n selp.u32 %y0, 1, 0, %p0;", 1)},
      {"copysign", f("copysign.f32 %y0, %x3, %x0;", 0xbfc00000u)},
      {"add_float", f("add.rn.f32 %y0, %x0, %x1;", 0x40600000u)},
      {"sub_float", f("sub.f32 %y0, %x0, %x1;", 0xbf000000u)},
      {"mul_float", f("mul.rz.f32 %y0, %x0, %x1;", 0x40400000u)},
      {"fma_float", f("fma.rn.f32 %y0, %x0, %x1, %x2;", 0x40500000u)},
      {"mad_float", f("mad.rn.f32 %y0, %x0, %x1, %x2;", 0x40500000u)},
      {"abs_float", f("abs.f32 %y0, %x3;", 0x40800000u)},
      {"neg_float", f("neg.f32 %y0, %x0;", 0xbfc00000u)},
      {"min_float", f("min.f32 %y0, %x0, %x3;", 0xc0800000u)},
      {"max_float", f("max.f32 %y0, %x0, %x1;", 0x40000000u)},
      {"div_float", f("div.rn.f32 %y0, %x0, %x1;", 0x3f400000u)},
      {"rcp", f("rcp.rn.f32 %y0, %x1;", 0x3f000000u)},
      {"sqrt", f("sqrt.rn.f32 %y0, %x2;", 0x3f000000u)},
      // .approx (exact cases): rsqrt(0.25) = 2, sin(-0) = -0, cos(0) = 1, lg2(0.25) = -2, 2^-4 = 0.0625,
      // tanh(+inf) = 1 (PTX ISA §9.7.3 tables).
      {"rsqrt", f("rsqrt.approx.f32 %y0, %x2;", 0x40000000u)},
      {"sin", f("sin.approx.f32 %y0, 0f80000000;", 0x80000000u)},
      {"cos", f("cos.approx.ftz.f32 %y0, 0f00000000;", 0x3f800000u)},
      {"lg2", f("lg2.approx.f32 %y0, %x2;", 0xc0000000u)},
      {"ex2_float", f("ex2.approx.ftz.f32 %y0, %x3;", 0x3d800000u)},
      {"tanh_float", f("tanh.approx.f32 %y0, 0f7f800000;", 0x3f800000u)},
      // 9.7.4 half precision (%h0..%h3 = 7, 3, 5, 2: f16 subnormals of 7, 3, 5, 2 units of 2^-24):
      // 7 + 3 units; x2 lanes (7 - 3, 0 - 0); bf16 3 * 3 = 9 (0x4110); f16 1.5 * 1.5 + 1.5 = 3.75
      // (0x4380); -(7 units); |0xc000| = 2, |0x8001| = 0x0001; min/max of 7 and 3 units; tanh(+inf) =
      // 1; 2^2 = 4 (0x4400); 7 units > 3 units.
      {"add_half", v("add.f16 %w0, %h0, %h1;\n cvt.u32.u16 %y0, %w0;", 0x000a)},
      {"sub_half", v("sub.f16x2 %y0, %x0, %x1;", 0x00000004u)},
      {"mul_half", v("mov.b16 %w1, 0x4040;\n mul.bf16 %w0, %w1, %w1;\n cvt.u32.u16 %y0, %w0;", 0x4110)},
      {"fma_half", v("mov.b16 %w1, 0x3e00;\n fma.rn.f16 %w0, %w1, %w1, %w1;\n cvt.u32.u16 %y0, %w0;", 0x4380)},
      {"neg_half", v("neg.f16 %w0, %h0;\n cvt.u32.u16 %y0, %w0;", 0x8007)},
      {"abs_half", v("mov.b32 %y1, 0x8001c000;\n abs.bf16x2 %y0, %y1;", 0x00014000u)},
      {"min_half", v("min.f16 %w0, %h0, %h1;\n cvt.u32.u16 %y0, %w0;", 3)},
      {"max_half", v("max.bf16 %w0, %h0, %h1;\n cvt.u32.u16 %y0, %w0;", 7)},
      {"tanh_half", v("mov.b16 %w1, 0x7c00;\n tanh.approx.f16 %w0, %w1;\n cvt.u32.u16 %y0, %w0;", 0x3c00)},
      {"ex2_half", v("mov.b16 %w1, 0x4000;\n ex2.approx.f16 %w0, %w1;\n cvt.u32.u16 %y0, %w0;", 0x4400)},
      {"set_half", v("set.gt.u32.f16 %y0, %h0, %h1;", 0xffffffffu)},
      {"setp_half", v("setp.gt.f16 %p0, %h0, %h1;\n selp.u32 %y0, 1, 0, %p0;", 1)},
      // 9.7.6: 7 > 3 -> all ones; 3 < 7; 7 != 0 selects 3; 2 >= 0 selects 7.
      {"set", v("set.gt.u32.u32 %y0, %x0, %x1;", 0xffffffffu)},
      {"setp", v("setp.lt.u32 %p0, %x1, %x0;\n selp.u32 %y0, 1, 0, %p0;", 1)},
      {"selp", v("setp.ne.u32 %p1, %x0, 0;\n selp.u32 %y0, %x1, %x2, %p1;", 3)},
      {"slct", v("slct.u32.s32 %y0, %x0, %x1, %x3;", 7)},
      // 9.7.8: 7&3, 7|2, 7^3, ~7, !7, 7^3^5 (lut 0x96), ({3,7} << 4) >> 32 = 48, 7<<2, 7>>2.
      {"and_", v("and.b32 %y0, %x0, %x1;", 3)},
      {"or_", v("or.b32 %y0, %x0, %x3;", 7)},
      {"xor_", v("xor.b32 %y0, %x0, %x1;", 4)},
      {"not_", v("not.b32 %y0, %x0;", 0xfffffff8u)},
      {"cnot", v("cnot.b32 %y0, %x0;", 0)},
      {"lop3", v("lop3.b32 %y0, %x0, %x1, %x2, 0x96;", 1)},
      {"shf", v("shf.l.wrap.b32 %y0, %x0, %x1, 4;", 48)},
      {"shl", v("shl.b32 %y0, %x0, %x3;", 28)},
      {"shr", v("shr.u32 %y0, %x0, %x3;", 1)},
      // 9.7.9: mov; shuffle from lane 0 (the only thread); prmt selector 0x0004: byte0 = b.b0 (3),
      // bytes 1..3 = a.b0 (7); store/load round trips; 7 -> 7.0f.
      {"mov", v("mov.u32 %y0, %x1;", 3)},
      {"shfl_sync", v("shfl.sync.idx.b32 %y0, %x0, 0, 31, -1;", 7)},
      {"prmt", v("prmt.b32 %y0, %x0, %x1, 0x4;", 0x07070703u)},
      {"ld", v("st.global.u32 [%rdi5+24], %x2;\n ld.global.u32 %y0, [%rdi5+24];", 5)},
      {"ldu", v("st.global.u32 [%rdi5+24], %x2;\n ldu.global.u32 %y0, [%rdi5+24];", 5)},
      {"st", v("st.global.v2.u32 [%rdi5+24], {%x2, %x3};\n ld.global.u32 %y0, [%rdi5+28];", 2)},
      // 9.7.9.12 (cluster of one): init(1), arrive.expect_tx(4); st.async of 41 completes the 4 bytes;
      // try_wait suspends until then and the load sees 41.
      {"st_async", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 1;\n mbarrier.arrive.expect_tx.shared::cta.b64 %z0, [%y1], 4;\n add.u32 %y2, %y1, 16;\n mapa.shared::cluster.u32 %y3, %y2, 0;\n mapa.shared::cluster.u32 %y4, %y1, 0;\n st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%y3], 41, [%y4];\n mbarrier.try_wait.parity.shared::cta.b64 %p0, [%y1], 0;\n ld.shared.u32 %y0, [%y2];", 41)},
      {"st_bulk", todo("st.bulk.weak.shared::cta [%y0], 16, 0;")},
      {"multimem_ld_reduce", todo("multimem.ld_reduce.relaxed.gpu.global.add.u32 %y0, [%rdi5];")},
      {"multimem_st", todo("multimem.st.relaxed.gpu.global.b32 [%rdi5], %y0;")},
      {"multimem_red", todo("multimem.red.relaxed.gpu.global.add.u32 [%rdi5], %y0;")},
      {"prefetch", v("prefetch.global.L2 [%rdi5];\n mov.u32 %y0, 1;", 1)},
      {"prefetchu", v("prefetchu.L1 [%rdi5];\n mov.u32 %y0, 1;", 1)},
      {"applypriority", v("applypriority.global.L2::evict_normal [%rdi5], 128;\n mov.u32 %y0, 1;", 1)},
      {"discard", v("discard.global.L2 [%rdi5], 128;\n mov.u32 %y0, 1;", 1)},
      {"createpolicy", v("createpolicy.fractional.L2::evict_last.b64 %z0, 1.0;\n mov.u32 %y0, 1;", 1)},
      {"isspacep", v("isspacep.global %p0, %rdi5;\n selp.u32 %y0, 1, 0, %p0;", 1)},
      {"cvta", v("cvta.to.global.u64 %z1, %rdi5;\n setp.eq.u64 %p0, %z1, %rdi5;\n selp.u32 %y0, 1, 0, %p0;", 1)},
      {"cvt", v("cvt.rn.f32.u32 %y0, %x0;", 0x40e00000u)},
      // 9.7.9.23-24 (a cluster of one CTA): 77 stored at sbar, read back through its mapa'd
      // .shared::cluster address of rank 0; getctarank of a .shared::cta address is the own rank 0.
      {"mapa", v("mov.u32 %y1, sbar;\n st.shared.u32 [%y1], 77;\n mapa.shared::cluster.u32 %y2, %y1, 0;\n ld.shared::cluster.u32 %y0, [%y2];", 77)},
      {"getctarank", v("mov.u32 %y1, sbar;\n mapa.shared::cluster.u32 %y2, %y1, 0;\n getctarank.shared::cluster.u32 %y3, %y2;\n getctarank.shared::cluster.u32 %y0, %y1;\n add.u32 %y0, %y0, %y3;", 0)},
      // cp.async (one thread): the row's first value (7, at %rdi4) copied into shared memory lands
      // only after the wait; 3 bytes of src-size zero-fill the 4th; ignore-src writes zeros.
      {"cp_async", v("{\n .shared .align 16 .b8 cpbuf[16];\n cp.async.cg.shared.global [cpbuf], [%rdi4], 16, 3;\n"
                     " cp.async.wait_all;\n ld.shared.u32 %y0, [cpbuf];\n }", 7)},
      {"cp_async_commit_group", v("{\n .shared .align 16 .b8 cpbuf[16];\n cp.async.ca.shared.global [cpbuf], [%rdi4+8], 4;\n"
                                  " cp.async.commit_group;\n cp.async.wait_group 0;\n ld.shared.u32 %y0, [cpbuf];\n }", 3)},
      {"cp_async_wait_group", v("{\n .shared .align 16 .b8 cpbuf[16];\n st.shared.u32 [cpbuf], 9;\n setp.eq.u32 %p1, %x0, 7;\n"
                                " cp.async.ca.shared.global [cpbuf], [%rdi4], 4, %p1;\n cp.async.commit_group;\n"
                                " cp.async.wait_group 0;\n ld.shared.u32 %y0, [cpbuf];\n }", 0)},
      {"cp_async_wait_all", v("{\n .shared .align 16 .b8 cpbuf[16];\n cp.async.ca.shared.global [cpbuf], [%rdi4+16], 8;\n"
                              " cp.async.wait_all;\n ld.shared.u32 %y0, [cpbuf];\n }", 5)},
      // One thread: init(1); the 4-byte copy of 7 (at %rdi4) then the .noinc arrive, which completes
      // phase 0 only after the copy landed, so the wait returns and the load sees 7 (not the 0 before).
      {"cp_async_mbarrier_arrive", v("{\n .shared .align 16 .b8 cpbuf[16];\n mov.u32 %y1, sbar;\n"
                                     " mbarrier.init.shared::cta.b64 [%y1], 1;\n cp.async.ca.shared.global [cpbuf], [%rdi4], 4;\n"
                                     " cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%y1];\n"
                                     " mbarrier.try_wait.parity.shared::cta.b64 %p0, [%y1], 0;\n ld.shared.u32 %y0, [cpbuf];\n }", 7)},
      // Bulk copies: sbar+0 holds an mbarrier, sbar+16 a 16-byte buffer; [%rdi5] is this thread's
      // global slot. global 5 -> shared; shared 3 + global 5 (reduce add); shared 7 -> global.
      {"cp_async_bulk", v("st.global.u32 [%rdi5], %x2;\n mov.u32 %y1, sbar;\n add.u32 %y2, %y1, 16;\n mbarrier.init.shared::cta.b64 [%y1], 1;\n mbarrier.arrive.expect_tx.shared::cta.b64 %z0, [%y1], 16;\n cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%y2], [%rdi5], 16, [%y1];\n mbarrier.try_wait.parity.shared::cta.b64 %p0, [%y1], 0;\n ld.shared.u32 %y0, [%y2];", 5)},
      {"cp_reduce_async_bulk", v("st.global.u32 [%rdi5], %x2;\n mov.u32 %y1, sbar;\n add.u32 %y2, %y1, 16;\n st.shared.u32 [%y2], %x1;\n fence.proxy.async.shared::cta;\n cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rdi5], [%y2], 16;\n cp.async.bulk.commit_group;\n cp.async.bulk.wait_group 0;\n ld.global.u32 %y0, [%rdi5];", 8)},
      {"cp_async_bulk_prefetch", v("cp.async.bulk.prefetch.L2.global [%rdi5], 16;\n mov.u32 %y0, 1;", 1)},
      {"cp_async_bulk_commit_group", v("mov.u32 %y1, sbar;\n add.u32 %y2, %y1, 16;\n st.shared.u32 [%y2], %x0;\n fence.proxy.async.shared::cta;\n cp.async.bulk.global.shared::cta.bulk_group [%rdi5], [%y2], 16;\n cp.async.bulk.commit_group;\n cp.async.bulk.wait_group 0;\n ld.global.u32 %y0, [%rdi5];", 7)},
      {"cp_async_bulk_wait_group", v("mov.u32 %y1, sbar;\n add.u32 %y2, %y1, 16;\n st.shared.u32 [%y2], %x1;\n fence.proxy.async.shared::cta;\n cp.async.bulk.global.shared::cta.bulk_group [%rdi5], [%y2], 16;\n cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n st.shared.u32 [%y2], %x0;\n cp.async.bulk.wait_group 0;\n ld.global.u32 %y0, [%rdi5];", 3)},
      // Tensor copies whose tensorMap operand is not a map: misaligned, past the end of the 64-byte
      // output buffer, in shared memory.
      // (Real maps: the kernels/tma goldens, tests/cli/kernels_tma_golden.cmake.)
      {"cp_async_bulk_tensor", Sample{"cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%y0], [%rdi5+16, {%y1}], [%y2];", std::nullopt, false, "not 64-byte aligned"}},
      {"cp_reduce_async_bulk_tensor", Sample{"cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rdi5+64, {%y1}], [%y0];", std::nullopt, false, "out-of-bounds global load of 8 bytes"}},
      {"cp_async_bulk_prefetch_tensor", Sample{"mov.u64 %z1, sbar;\n cvta.shared.u64 %z2, %z1;\n cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%z2, {%y1}];", std::nullopt, false, "is not in .param, .const or .global memory"}},
      // tensormap.replace on 128 zero bytes of shared memory (not an encoded map: its framing check);
      // cp_fenceproxy copies 128 bytes into the 64-byte output buffer (the global store faults at byte 64).
      // (Valid maps: kernels/tma/tensormap_replace.json golden.)
      {"tensormap_replace", Sample{"mov.u32 %y1, sbar;\n tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%y1], %z0;", std::nullopt, false, "not a tcsim-encoded tensor map"}},
      {"tensormap_cp_fenceproxy", Sample{"mov.u32 %y1, sbar;\n tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rdi5], [%y1], 128;", std::nullopt, false, "out-of-bounds global store of 8 bytes"}},
      // Warp-collective matrix moves need the whole warp (.sync.aligned); one thread is an error.
      // Values: tests/sim/matrix_move_test.cc and the H200 goldens of kernels/hopper.
      {"ldmatrix", Sample{"ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%y0}, [%y1];", std::nullopt, false,
                          "ldmatrix.sync.aligned must be executed by all 32 threads"}},
      {"stmatrix", Sample{"stmatrix.sync.aligned.m8n8.x1.shared.b16 [%y1], {%y0};", std::nullopt, false,
                          "stmatrix.sync.aligned must be executed by all 32 threads"}},
      {"movmatrix", Sample{"movmatrix.sync.aligned.m8n8.trans.b16 %y0, %y1;", std::nullopt, false,
                           "movmatrix.sync.aligned must be executed by all 32 threads"}},
      {"tex", todo("tex.1d.v4.f32.s32 {%y0, %y1, %y2, %y3}, [%rdi5, {%x0}];")},
      {"tld4", todo("tld4.r.2d.v4.f32.f32 {%y0, %y1, %y2, %y3}, [%rdi5, {%x0, %x1}];")},
      {"txq", todo("txq.width.b32 %y0, [%rdi5];")},
      {"suld", todo("suld.b.1d.v4.b32.trap {%y0, %y1, %y2, %y3}, [%rdi5, {%x0}];")},
      {"sust", todo("sust.b.1d.v4.b32.trap [%rdi5, {%x0}], {%y0, %y1, %y2, %y3};")},
      {"sured", todo("sured.b.add.1d.u32.trap [%rdi5, {%x0}], %y0;")},
      {"suq", todo("suq.width.b32 %y0, [%rdi5];")},
      {"istypep", todo("istypep.texref %p0, %rdi5;")},
      // 9.7.12: a branch skips the store of 2; brx.idx with index 2 takes the third target; the call
      // doubles 7; a taken exit leaves the output untouched (0).
      {"bra", v("mov.u32 %y0, 1;\n bra.uni $Lx;\n mov.u32 %y0, 2;\n$Lx:", 1)},
      {"brx_idx", v("mov.u32 %y0, 0;\n brx.idx %x3, $Lt;\n$Lt: .branchtargets $L0, $L1, $L2;\n$L0:\n mov.u32 %y0, 10;\n bra.uni $Le;\n"
                    "$L1:\n mov.u32 %y0, 11;\n bra.uni $Le;\n$L2:\n mov.u32 %y0, 12;\n$Le:", 12)},
      {"call", v(kCall, 14)},
      {"ret", v(kCall, 14)},
      {"exit", v("setp.eq.u32 %p1, %x0, 7;\n mov.u32 %y0, 9;\n @%p1 exit;", 0)},
      // 9.7.13: one thread; barriers complete with the threads that have not exited.
      {"bar_sync", v("bar.sync 0;\n mov.u32 %y0, 1;", 1)},
      {"bar_arrive", v("bar.arrive 1, 32;\n mov.u32 %y0, 1;", 1)},
      // bar.red with one participating thread whose predicate (7 == 7) is true: popc = 1; .and over
      // !true = false selects 9.
      {"bar_red", v("setp.eq.u32 %p1, %x0, 7;\n bar.red.popc.u32 %y0, 0, %p1;", 1)},
      {"barrier_sync", v("barrier.sync.aligned 0;\n mov.u32 %y0, 1;", 1)},
      {"barrier_arrive", v("barrier.arrive 1, 32;\n mov.u32 %y0, 1;", 1)},
      {"barrier_red", v("setp.eq.u32 %p1, %x0, 7;\n barrier.red.and.pred %p2, 0, !%p1;\n selp.u32 %y0, 5, 9, %p2;", 9)},
      {"bar_warp_sync", v("bar.warp.sync -1;\n mov.u32 %y0, 1;", 1)},
      // 9.7.13.3: the only CTA of the cluster arrives and waits: the wait returns, 5 is written.
      {"barrier_cluster_arrive", v("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;\n mov.u32 %y0, 5;", 5)},
      {"barrier_cluster_wait", v("barrier.cluster.arrive.relaxed;\n barrier.cluster.wait;\n barrier.cluster.arrive;\n barrier.cluster.wait;\n mov.u32 %y0, 6;", 6)},
      {"membar", v("membar.gl;\n mov.u32 %y0, 1;", 1)},
      {"fence", v("fence.acq_rel.gpu;\n fence.proxy.async.shared::cta;\n mov.u32 %y0, 1;", 1)},
      // atom: 7 stored, += 3 returns the old 7 and leaves 10 -> 7*100 + 10; red: 7 ^ 3 = 4.
      {"atom", v("st.global.u32 [%rdi5+24], %x0;\n atom.global.add.u32 %y1, [%rdi5+24], %x1;\n"
                 " ld.global.u32 %y2, [%rdi5+24];\n mad.lo.u32 %y0, %y1, 100, %y2;", 710)},
      {"red", v("st.global.u32 [%rdi5+24], %x0;\n red.global.xor.b32 [%rdi5+24], %x1;\n ld.global.u32 %y0, [%rdi5+24];", 4)},
      // 9.7.13.7: as st.async, 5 + 37 = 42.
      {"red_async", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 1;\n mbarrier.arrive.expect_tx.shared::cta.b64 %z0, [%y1], 4;\n add.u32 %y2, %y1, 16;\n mapa.shared::cluster.u32 %y3, %y2, 0;\n mapa.shared::cluster.u32 %y4, %y1, 0;\n st.shared.u32 [%y2], 5;\n red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%y3], 37, [%y4];\n mbarrier.try_wait.parity.shared::cta.b64 %p0, [%y1], 0;\n ld.shared.u32 %y0, [%y2];", 42)},
      {"vote_sync", v("setp.eq.u32 %p1, %x0, 7;\n vote.sync.ballot.b32 %y0, %p1, -1;", 1)},
      // One thread (lane 0; the other lanes exited): match.any = {lane 0} = 1, redux.add = 7, elect.sync
      // elects lane 0: its lane id 0 + (p ? 5 : 9) = 5.
      {"match_sync", v("match.any.sync.b32 %y0, %x0, -1;", 1)},
      {"activemask", v("activemask.b32 %y0;", 1)},
      {"redux_sync", v("redux.sync.add.u32 %y0, %x0, -1;", 7)},
      {"griddepcontrol", v("griddepcontrol.wait;\n mov.u32 %y0, 1;", 1)},
      {"elect_sync", v("elect.sync %y1|%p0, -1;\n selp.u32 %y2, 5, 9, %p0;\n add.u32 %y0, %y1, %y2;", 5)},
      // 9.7.13.15: init(3); the .noComplete arrive's state carries the pending count before it: 3.
      {"mbarrier_init", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 3;\n mbarrier.arrive.noComplete.shared::cta.b64 %z0, [%y1], 1;\n mbarrier.pending_count.b64 %y0, %z0;", 3)},
      // init(1), inval, init(2): the new object has 2 pending arrivals.
      {"mbarrier_inval", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 1;\n mbarrier.inval.shared::cta.b64 [%y1];\n mbarrier.init.shared::cta.b64 [%y1], 2;\n mbarrier.arrive.noComplete.shared::cta.b64 %z0, [%y1], 1;\n mbarrier.pending_count.b64 %y0, %z0;", 2)},
      // init(3), arrive: 2 pending.
      {"mbarrier_arrive", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 3;\n mbarrier.arrive.shared::cta.b64 %z1, [%y1];\n mbarrier.arrive.noComplete.shared::cta.b64 %z0, [%y1], 1;\n mbarrier.pending_count.b64 %y0, %z0;", 2)},
      // init(4), arrive_drop(2): expected 2; arrive(2) completes phase 0 and phase 1 starts with 2
      // pending (4 without the drop).
      {"mbarrier_arrive_drop", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 4;\n mbarrier.arrive_drop.shared::cta.b64 %z1, [%y1], 2;\n mbarrier.arrive.shared::cta.b64 %z1, [%y1], 2;\n mbarrier.arrive.noComplete.shared::cta.b64 %z0, [%y1], 1;\n mbarrier.pending_count.b64 %y0, %z0;", 2)},
      // init(1), expect_tx(16), arrive: pending 0 but tx 16, phase 0 open (0); complete_tx(16)
      // completes it (1): 10*0 + 1.
      {"mbarrier_expect_tx", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 1;\n mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%y1], 16;\n mbarrier.arrive.shared::cta.b64 %z0, [%y1];\n mbarrier.test_wait.parity.shared::cta.b64 %p0, [%y1], 0;\n mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%y1], 16;\n mbarrier.test_wait.parity.shared::cta.b64 %p1, [%y1], 0;\n selp.u32 %y2, 10, 0, %p0;\n selp.u32 %y3, 1, 0, %p1;\n add.u32 %y0, %y2, %y3;", 1)},
      // init(1), complete_tx(16) first: tx -16; the arrive leaves the phase open (0); expect_tx(16)
      // brings tx to 0 and completes it (1).
      {"mbarrier_complete_tx", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 1;\n mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%y1], 16;\n mbarrier.arrive.shared::cta.b64 %z0, [%y1];\n mbarrier.test_wait.parity.shared::cta.b64 %p0, [%y1], 0;\n mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%y1], 16;\n mbarrier.test_wait.parity.shared::cta.b64 %p1, [%y1], 0;\n selp.u32 %y2, 10, 0, %p0;\n selp.u32 %y3, 1, 0, %p1;\n add.u32 %y0, %y2, %y3;", 1)},
      // init(1): the state of the only arrive names phase 0, which that arrive completed.
      {"mbarrier_test_wait", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 1;\n mbarrier.arrive.shared::cta.b64 %z0, [%y1];\n mbarrier.test_wait.shared::cta.b64 %p0, [%y1], %z0;\n selp.u32 %y0, 1, 0, %p0;", 1)},
      // init(1): try_wait.parity(0) with a 100 ns hint times out False (0); after the arrive True (1).
      {"mbarrier_try_wait", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 1;\n mbarrier.try_wait.parity.shared::cta.b64 %p0, [%y1], 0, 100;\n mbarrier.arrive.shared::cta.b64 %z0, [%y1];\n mbarrier.try_wait.parity.shared::cta.b64 %p1, [%y1], 0;\n selp.u32 %y2, 10, 0, %p0;\n selp.u32 %y3, 1, 0, %p1;\n add.u32 %y0, %y2, %y3;", 1)},
      // init(5), .noComplete arrive of 2: its state holds the 5 arrivals pending before it.
      {"mbarrier_pending_count", v("mov.u32 %y1, sbar;\n mbarrier.init.shared::cta.b64 [%y1], 5;\n mbarrier.arrive.noComplete.shared::cta.b64 %z0, [%y1], 2;\n mbarrier.pending_count.b64 %y0, %z0;", 5)},
      // clusterlaunchcontrol: the one-CTA grid has no cluster left to cancel, so the response is
      // "not canceled" (selp gives 9); a response built by hand (tcsim's encoding, x = 5, y = 3,
      // z = 2, canceled) decodes to its y = 3.
      {"clusterlaunchcontrol_try_cancel",
       v("{\n .shared .align 16 .b8 resp[16];\n mbarrier.init.shared::cta.b64 [sbar], 1;\n"
         " mbarrier.arrive.expect_tx.shared::cta.b64 %z0, [sbar], 16;\n"
         " clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [resp], [sbar];\n"
         "$Lclc:\n mbarrier.try_wait.parity.shared::cta.b64 %p0, [sbar], 0;\n @!%p0 bra $Lclc;\n"
         " ld.shared.b128 %q0, [resp];\n"
         " clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %q0;\n selp.u32 %y0, 7, 9, %p1;\n }",
         9)},
      {"clusterlaunchcontrol_query_cancel",
       v("mov.b64 %z2, 0x0000000300000005;\n mov.b64 %z3, 0x0000000100000002;\n mov.b128 %q0, {%z2, %z3};\n"
         " clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 %y0, %q0;",
         3)},
      // 9.7.14-16: tensor core instructions.
      // mma.sync needs a whole warp (one thread is an error) and wgmma an sm_90a device (this
      // table runs on sm_100a). Values:
      // tests/sim/mma_sync_test.cc, wgmma_test.cc and the H200 goldens of kernels/hopper.
      {"mma", Sample{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%y0, %y1, %y2, %y3}, {%x0, %x1, %x2, %x3}, {%x0, %x1}, {%y0, %y1, %y2, %y3};",
                     std::nullopt, false, "mma.sync.aligned must be executed by all 32 threads"}},
      {"wmma_load", todo("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7}, [%rdi5];")},
      {"wmma_store", todo("wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rdi5], {%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7};")},
      {"wmma_mma", todo("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7}, {%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7}, {%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7}, {%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7};")},
      {"wgmma_mma_async", Sample{"wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%y0, %y1, %y2, %y3}, %z0, %z1, %p0, 1, 1, 0, 0;",
                                 std::nullopt, false, "exists only on sm_90a"}},
      {"wgmma_fence", Sample{"wgmma.fence.sync.aligned;", std::nullopt, false, "exists only on sm_90a"}},
      {"wgmma_commit_group", Sample{"wgmma.commit_group.sync.aligned;", std::nullopt, false, "exists only on sm_90a"}},
      {"wgmma_wait_group", Sample{"wgmma.wait_group.sync.aligned 0;", std::nullopt, false, "exists only on sm_90a"}},
      {"tcgen05_alloc", Sample{"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%y0], 32;", std::nullopt, false, "is .sync.aligned"}},
      {"tcgen05_dealloc", Sample{"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %y0, 32;", std::nullopt, false, "is .sync.aligned"}},
      {"tcgen05_relinquish_alloc_permit", Sample{"tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;", std::nullopt, false, "is .sync.aligned"}},
      {"tcgen05_ld", Sample{"tcgen05.ld.sync.aligned.32x32b.x1.b32 {%y1}, [%y0];", std::nullopt, false, "is .sync.aligned"}},
      {"tcgen05_st", Sample{"tcgen05.st.sync.aligned.32x32b.x1.b32 [%y0], {%y1};", std::nullopt, false, "is .sync.aligned"}},
      {"tcgen05_wait_ld", Sample{"tcgen05.wait::ld.sync.aligned;", std::nullopt, false, "is .sync.aligned"}},
      {"tcgen05_wait_st", Sample{"tcgen05.wait::st.sync.aligned;", std::nullopt, false, "is .sync.aligned"}},
      {"tcgen05_cp", Sample{"tcgen05.cp.cta_group::1.128x256b [%y0], %z0;", std::nullopt, false, "must be the fixed constant 0b001"}},
      {"tcgen05_shift", Sample{"tcgen05.shift.cta_group::1.down [%y0];", std::nullopt, false, "are not allocated"}},
      {"tcgen05_mma", Sample{"tcgen05.mma.cta_group::1.kind::f16 [%y0], %z0, %z1, %y1, %p0;", std::nullopt, false, "instruction descriptor 0x00000000 breaks"}},
      {"tcgen05_commit", Sample{"tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%y0];", std::nullopt, false, "tcgen05.commit"}},
      {"tcgen05_fence_before", v("tcgen05.fence::before_thread_sync;\n mov.u32 %y0, 1;", 1)},
      {"tcgen05_fence_after", v("tcgen05.fence::after_thread_sync;\n mov.u32 %y0, 1;", 1)},
      // 9.7.17-18.
      {"stacksave", todo("stacksave.u64 %z0;")},
      {"stackrestore", todo("stackrestore.u64 %z0;")},
      {"alloca", todo("alloca.u64 %z0, 16;")},
      // 9.7.18 video (7, 3, 5, 2): 7+3, 7-3, |3-7|, min, max, 7<<3, 7>>2, 7*3+5, 7 > 3; the SIMD forms
      // act on lane 0 (the high lanes are 0 op 0): (7+3+1)>>1 = 5 for vavrg.
      {"vadd", v("vadd.s32.s32.s32 %y0, %x0, %x1;", 10)},
      {"vsub", v("vsub.s32.s32.s32 %y0, %x0, %x1;", 4)},
      {"vabsdiff", v("vabsdiff.s32.s32.s32 %y0, %x1, %x0;", 4)},
      {"vmin", v("vmin.s32.s32.s32 %y0, %x0, %x1;", 3)},
      {"vmax", v("vmax.s32.s32.s32 %y0, %x0, %x1;", 7)},
      {"vshl", v("vshl.u32.u32.u32.clamp %y0, %x0, %x1;", 56)},
      {"vshr", v("vshr.u32.u32.u32.clamp %y0, %x0, %x3;", 1)},
      {"vmad", v("vmad.s32.s32.s32 %y0, %x0, %x1, %x2;", 26)},
      {"vset", v("vset.s32.s32.gt %y0, %x0, %x1;", 1)},
      {"vadd2", v("vadd2.s32.s32.s32 %y0, %x0, %x1, %x2;", 10)},
      {"vsub2", v("vsub2.s32.s32.s32 %y0, %x0, %x1, %x2;", 4)},
      {"vavrg2", v("vavrg2.s32.s32.s32 %y0, %x0, %x1, %x2;", 5)},
      {"vabsdiff2", v("vabsdiff2.s32.s32.s32 %y0, %x1, %x0, %x2;", 4)},
      {"vmin2", v("vmin2.s32.s32.s32 %y0, %x0, %x1, %x2;", 3)},
      {"vmax2", v("vmax2.s32.s32.s32 %y0, %x0, %x1, %x2;", 7)},
      {"vset2", v("vset2.s32.s32.gt %y0, %x0, %x1, %x2;", 1)},
      {"vadd4", v("vadd4.s32.s32.s32 %y0, %x0, %x1, %x2;", 10)},
      {"vsub4", v("vsub4.s32.s32.s32 %y0, %x0, %x1, %x2;", 4)},
      {"vavrg4", v("vavrg4.s32.s32.s32 %y0, %x0, %x1, %x2;", 5)},
      {"vabsdiff4", v("vabsdiff4.s32.s32.s32 %y0, %x1, %x0, %x2;", 4)},
      {"vmin4", v("vmin4.s32.s32.s32 %y0, %x0, %x1, %x2;", 3)},
      {"vmax4", v("vmax4.s32.s32.s32 %y0, %x0, %x1, %x2;", 7)},
      {"vset4", v("vset4.s32.s32.gt %y0, %x0, %x1, %x2;", 1)},
      // 9.7.19.
      {"brkpt", Sample{"brkpt;", std::nullopt, false, "brkpt: the kernel hit a breakpoint"}},
      {"nanosleep", v("nanosleep.u32 100;\n mov.u32 %y0, 1;", 1)},
      {"pmevent", v("pmevent 1;\n mov.u32 %y0, 1;", 1)},
      {"trap", Sample{"trap;", std::nullopt, false, "trap: the kernel executed `trap`"}},
      {"setmaxnreg", v("setmaxnreg.inc.sync.aligned.u32 64;\n mov.u32 %y0, 1;", 1)},
  };
}

}  // namespace

TEST_CASE("opcode table: every row has a parser rule, a timing class, an execute function or an explicit Todo, and a test") {
  const auto all = samples();
  std::vector<std::string> todo_rows;
  for (const isa::ptx::OpInfo& row : isa::ptx::all_ops()) {
    CAPTURE(row.ident);
    const std::string ident(row.ident);
    // Timing class and family are valid enumerators; Impl rows belong to an existing family.
    CHECK(static_cast<int>(row.timing) <= static_cast<int>(isa::ptx::Timing::Misc));
    const isa::ptx::FamilyInfo& fam = isa::ptx::family_info(row.family);
    if (row.status == isa::ptx::OpStatus::Impl) CHECK_MESSAGE(fam.exists, "Impl row in a family without a file");
    auto it = all.find(ident);
    REQUIRE_MESSAGE(it != all.end(), "no sample for opcode row " << ident << ": add one to opcode_table_test.cc");
    const Sample& s = it->second;
    // Parser rule: the sample parses, and to this very row.
    const std::string body = s.text;
    const std::string ptx = test::ptx_header() + kPrelude + ".visible .entry p()\n{\n .reg .b32 %y<8>;\n .reg .b32 %x<4>;\n"
                            " .reg .b16 %w<4>;\n .reg .b16 %h<4>;\n .reg .b64 %z<4>;\n .reg .b64 %rdi<8>;\n .reg .pred %p<4>;\n"
                            " .reg .b128 %q<2>;\n" + body + "\n ret;\n}\n";
    auto parsed = isa::ptx::parse(ptx, "sample.ptx");
    REQUIRE_MESSAGE(parsed.has_value(), (parsed ? "" : parsed.error().message));
    bool found = false;
    for (const auto& in : parsed->find_function("p")->instrs) found = found || in.op == row.op;
    CHECK_MESSAGE(found, "the sample `" << s.text << "` does not parse to row " << ident);
    // Execute function: run it.
    const test::Row row_in = s.float_row ? kFloatRow : kIntRow;
    if (row.status == isa::ptx::OpStatus::Todo) {
      todo_rows.push_back(ident);
      try {
        test::eval32(s.text, {row_in}, kPrelude);
        FAIL_CHECK("Todo row " << ident << " ran without the not-implemented error");
      } catch (const sim::SimError& e) {
        const std::string m = e.what();
        CHECK_MESSAGE(m.find("is not implemented yet") != std::string::npos, m);
        CHECK_MESSAGE(m.find(fmt::format("opcode row {}", ident)) != std::string::npos, m);
        CHECK_MESSAGE(m.find("eval.ptx:") != std::string::npos, m);  // names the PTX line
      }
      continue;
    }
    if (!s.error.empty()) {
      CHECK_THROWS_WITH_AS(test::eval32(s.text, {row_in}, kPrelude), doctest::Contains(s.error.c_str()), sim::SimError);
      continue;
    }
    REQUIRE(s.want.has_value());
    std::vector<uint32_t> got;
    try {
      got = test::eval32(s.text, {row_in}, kPrelude);
    } catch (const sim::SimError& e) {
      FAIL_CHECK(ident << ": " << e.what());
      continue;
    }
    CHECK_MESSAGE(got[0] == *s.want, ident << ": `" << s.text << "` gave 0x" << std::hex << got[0] << ", expected 0x" << *s.want);
  }
  // The list of rows that parse but are not executed yet (the remaining work).
  std::string list;
  for (const auto& t : todo_rows) list += " " + t;
  MESSAGE("not implemented yet (" << todo_rows.size() << " rows):" << list);
}
