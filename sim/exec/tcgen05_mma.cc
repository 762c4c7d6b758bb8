// PTX ISA §9.7.16.10 tcgen05.mma (forms: §9.7.16.10.9.1 dense and block-scaled, .10.9.2 .sp,
// .10.9.3 .ws, .10.9.4 .ws.sp):
//   tcgen05.mma.cta_group.kind{.ashift}{.collector_usage}
//       [d-tmem], a-desc | [a-tmem], b-desc, idesc, { disable-output-lane }, enable-input-d {, scale-input-d};
//   tcgen05.mma.cta_group.kind.block_scale{.scale_vectorsize}{.collector_usage}
//       [d-tmem], a-desc | [a-tmem], b-desc, idesc, [scale-A-tmem], [scale-B-tmem], enable-input-d;
//   tcgen05.mma.sp.cta_group.kind{.ashift}{.collector_usage}
//       [d-tmem], a-desc | [a-tmem], b-desc, [sp-meta-tmem], idesc, { disable-output-lane }, enable-input-d
//       {, scale-input-d};
//   tcgen05.mma.sp.cta_group.kind.block_scale{.scale_vectorsize}{.collector_usage}
//       [d-tmem], a-desc | [a-tmem], b-desc, [sp-meta-tmem], idesc, [scale-A-tmem], [scale-B-tmem], enable-input-d;
//   tcgen05.mma.ws{.sp}.cta_group::1.kind{.collector_usage}
//       [d-tmem], a-desc | [a-tmem], b-desc, {[sp-meta-tmem],} idesc, enable-input-d {, zero-column-mask-desc};
//   .kind = { .kind::f16, .kind::tf32, .kind::f8f6f4, .kind::i8, .kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4 }
//   .scale_vectorsize = { .scale_vec::1X, .scale_vec::2X, .scale_vec::4X, .block16, .block32 }
//   .collector_usage = .collector::a::{fill, use, lastuse, discard}        (non-.ws)
//                    | .collector::b{0,1,2,3}::{fill, use, lastuse, discard} (.ws)
//
// D = A * B + D (enable-input-d true) or A * B. This file binds the form (modifiers, operands; the
// rules ptxas also enforces); tcgen05_mma_issue.cc validates the descriptors and plans one MMA at
// issue, and the tensor core unit (sim/units/tensor_core_mma.cc) computes it at completion.
//
// Binding rules (§9.7.16.10.9.1-4): the block-scaled kinds need .block_scale and take no
// disable-output-lane or scale-input-d; .kind::mxf4nvf4 must state its scale vector size, kind::mxf4
// defaults to .block32 (2X), kind::mxf8f6f4 to 1X; .ws is cta_group::1 only and not for the
// block-scaled kinds; .ashift takes A from TMEM and is illegal with .collector::a::fill / ::use;
// enable-input-d is a predicate (!p allowed) or an immediate (ptxas 13.0 accepts 0 / 1).
#include <optional>

#include "sim/exec/tcgen05_common.h"
#include "sim/exec/tcgen05_mma.h"

namespace tcsim::sim {
namespace {

using namespace tcgen05_mma;
using isa::MmaKind;
using isa::ptx::Mod;
using isa::ptx::OperandKind;
using isa::ptx::Type;

void exec_mma(ExecCtx& c, const ExecInstr& in) {
  tc_note_cta_group(c, in, (in.aux & kAuxCg2) ? 2 : 1);
  for_lanes(c.mask, [&](int lane) { tcgen05_mma::issue(c, in, lane); });
}

// The .collector usage qualifier: (usage, buffer, names a B buffer), or none.
struct CollectorForm {
  Collector use = Collector::Discard;
  uint32_t buffer = 0;
  bool b = false;
  bool given = false;
};

CollectorForm bind_collector(BindCtx& b) {
  CollectorForm f;
  static constexpr struct {
    Mod mod;
    Collector use;
    int buffer;  // -1: A
  } kRows[] = {
      {Mod::collector_a_fill, Collector::Fill, -1},       {Mod::collector_a_use, Collector::Use, -1},
      {Mod::collector_a_lastuse, Collector::LastUse, -1}, {Mod::collector_a_discard, Collector::Discard, -1},
      {Mod::collector_b0_fill, Collector::Fill, 0},       {Mod::collector_b0_use, Collector::Use, 0},
      {Mod::collector_b0_lastuse, Collector::LastUse, 0}, {Mod::collector_b0_discard, Collector::Discard, 0},
      {Mod::collector_b1_fill, Collector::Fill, 1},       {Mod::collector_b1_use, Collector::Use, 1},
      {Mod::collector_b1_lastuse, Collector::LastUse, 1}, {Mod::collector_b1_discard, Collector::Discard, 1},
      {Mod::collector_b2_fill, Collector::Fill, 2},       {Mod::collector_b2_use, Collector::Use, 2},
      {Mod::collector_b2_lastuse, Collector::LastUse, 2}, {Mod::collector_b2_discard, Collector::Discard, 2},
      {Mod::collector_b3_fill, Collector::Fill, 3},       {Mod::collector_b3_use, Collector::Use, 3},
      {Mod::collector_b3_lastuse, Collector::LastUse, 3}, {Mod::collector_b3_discard, Collector::Discard, 3},
  };
  for (const auto& r : kRows)
    if (b.has(r.mod)) {
      if (f.given) b.fail("more than one .collector qualifier (PTX ISA §9.7.16.10.9.1)");
      f.given = true;
      f.use = r.use;
      f.b = r.buffer >= 0;
      f.buffer = r.buffer >= 0 ? static_cast<uint32_t>(r.buffer) : 0;
    }
  return f;
}

// The scale vector size of a block-scaled form (Table 57 defaults, §9.7.16.10.9.1).
isa::ScaleVec bind_scale_vec(BindCtx& b, MmaKind kind) {
  std::optional<isa::ScaleVec> v;
  for (auto [m, s] : {std::pair{Mod::scale_vec_1X, isa::ScaleVec::X1}, {Mod::scale_vec_2X, isa::ScaleVec::X2},
                      {Mod::scale_vec_4X, isa::ScaleVec::X4}, {Mod::block16, isa::ScaleVec::Block16},
                      {Mod::block32, isa::ScaleVec::Block32}})
    if (b.has(m)) {
      if (v) b.fail("more than one scale vector size (.scale_vec::NX / .blockN)");
      v = s;
    }
  if (v) return *v;
  if (kind == MmaKind::MXF4NVF4)
    b.fail(".kind::mxf4nvf4.block_scale must state its scale vector size: .scale_vec::2X, .scale_vec::4X, .block16 "
           "or .block32 (PTX ISA §9.7.16.10.9.1)");
  return kind == MmaKind::MXF4 ? isa::ScaleVec::Block32 : isa::ScaleVec::X1;
}

}  // namespace

void bind_tcgen05_mma(BindCtx& b) {
  std::optional<MmaKind> kind;
  for (auto [m, k] : {std::pair{Mod::kind_f16, MmaKind::F16}, {Mod::kind_tf32, MmaKind::TF32},
                      {Mod::kind_f8f6f4, MmaKind::F8F6F4}, {Mod::kind_i8, MmaKind::I8},
                      {Mod::kind_mxf8f6f4, MmaKind::MXF8F6F4}, {Mod::kind_mxf4, MmaKind::MXF4},
                      {Mod::kind_mxf4nvf4, MmaKind::MXF4NVF4}})
    if (b.has(m)) {
      if (kind) b.fail("more than one .kind");
      kind = k;
    }
  if (!kind) b.fail("tcgen05.mma needs .kind::f16, ::tf32, ::f8f6f4, ::i8, ::mxf8f6f4, ::mxf4 or ::mxf4nvf4 (PTX ISA "
                    "§9.7.16.10.9.1)");
  const int cg = tcgen05::bind_cta_group(b);
  const bool ws = b.has(Mod::ws), sp = b.has(Mod::sp), ashift = b.has(Mod::ashift);
  b.only_mods({Mod::cta_group_1, Mod::cta_group_2, Mod::kind_f16, Mod::kind_tf32, Mod::kind_f8f6f4, Mod::kind_i8,
               Mod::kind_mxf8f6f4, Mod::kind_mxf4, Mod::kind_mxf4nvf4, Mod::ws, Mod::sp, Mod::ashift,
               Mod::block_scale, Mod::scale_vec_1X, Mod::scale_vec_2X, Mod::scale_vec_4X, Mod::block16, Mod::block32,
               Mod::collector_a_fill, Mod::collector_a_use, Mod::collector_a_lastuse, Mod::collector_a_discard,
               Mod::collector_b0_fill, Mod::collector_b0_use, Mod::collector_b0_lastuse, Mod::collector_b0_discard,
               Mod::collector_b1_fill, Mod::collector_b1_use, Mod::collector_b1_lastuse, Mod::collector_b1_discard,
               Mod::collector_b2_fill, Mod::collector_b2_use, Mod::collector_b2_lastuse, Mod::collector_b2_discard,
               Mod::collector_b3_fill, Mod::collector_b3_use, Mod::collector_b3_lastuse, Mod::collector_b3_discard});
  const bool block = isa::is_block_scaled(*kind);
  if (block != b.has(Mod::block_scale))
    b.fail(block ? fmt::format(".kind::{} is block-scaled: the form is tcgen05.mma.cta_group.kind.block_scale "
                               "(PTX ISA §9.7.16.10.9.1)",
                               isa::kind_name(*kind))
                 : fmt::format(".block_scale needs a block-scaled kind (mxf8f6f4, mxf4, mxf4nvf4), not .kind::{} (PTX "
                               "ISA §9.7.16.10.9.1)",
                               isa::kind_name(*kind)));
  if (!block && (b.has(Mod::scale_vec_1X) || b.has(Mod::scale_vec_2X) || b.has(Mod::scale_vec_4X) ||
                 b.has(Mod::block16) || b.has(Mod::block32)))
    b.fail("a scale vector size (.scale_vec::NX / .blockN) belongs to .block_scale (PTX ISA §9.7.16.10.9.1)");
  if (ws && cg == 2) b.fail("tcgen05.mma.ws exists only with .cta_group::1 (PTX ISA §9.7.16.10.9.3)");
  if (ws && block)
    b.fail(fmt::format("tcgen05.mma.ws has no block-scaled form (.kind::{}; PTX ISA §9.7.16.10.9.3, Table 39)",
                       isa::kind_name(*kind)));
  if (ws && ashift) b.fail(".ashift has no .ws form (PTX ISA §9.7.16.10.9.3)");
  const CollectorForm coll = bind_collector(b);
  if (coll.given && coll.b != ws)
    b.fail(ws ? "tcgen05.mma.ws takes .collector::b0..b3::*, not .collector::a::* (PTX ISA §9.7.16.10.9.3)"
              : ".collector::bN::* belongs to tcgen05.mma.ws; tcgen05.mma takes .collector::a::* (PTX ISA "
                "§9.7.16.10.9.1)");
  CollectorForm used = coll;
  if (ws && !coll.given) used.b = true;  // .ws without a qualifier: .collector::b0::discard (§9.7.16.10.9.3)
  if (ashift && (coll.use == Collector::Fill || coll.use == Collector::Use))
    b.fail(".ashift with .collector::a::use / ::fill is illegal (PTX ISA §9.7.16.10.9.1)");
  const auto arch = isa::parse_arch(b.m.target);
  if (!arch || !isa::has_tcgen05(*arch))
    b.fail(fmt::format("tcgen05.mma needs an sm_100a / sm_100f / sm_103a target, the module targets {}", b.m.target));

  // Operands: [d-tmem], a-desc | [a-tmem], b-desc, {[sp-meta-tmem],} idesc, then the form's tail.
  const size_t n = b.nops();
  if (n < 5) b.fail("tcgen05.mma takes at least [d-tmem], a-desc or [a-tmem], b-desc, idesc, enable-input-d");
  if (b.operand(0).kind != OperandKind::Address) b.fail("the first operand of tcgen05.mma is [d-tmem]");
  uint64_t aux = (cg == 2 ? uint64_t{kAuxCg2} : 0) | (ws ? uint64_t{kAuxWs} : 0) | (uint64_t(*kind) << 12) |
                 (uint64_t(*arch) << 16) | (sp ? uint64_t{kAuxSparse} : 0) | (ashift ? uint64_t{kAuxAshift} : 0) |
                 (uint64_t(used.use) << 27) | (uint64_t(used.buffer) << 30) | (used.b ? uint64_t{kAuxCollectorB} : 0);
  if (block) aux |= kAuxBlock | (uint64_t(bind_scale_vec(b, *kind)) + 1) << 24;
  std::vector<ExecOperand> ops(kOpDisable);
  ops[kOpD] = b.address(0, isa::ptx::Space::Generic);
  if (b.operand(1).kind == OperandKind::Address) {
    aux |= kAuxATmem;
    ops[kOpA] = b.address(1, isa::ptx::Space::Generic);
  } else {
    if (ashift) b.fail(".ashift needs A in Tensor Memory ([a-tmem]), not a shared-memory descriptor (PTX ISA "
                       "§9.7.16.10.9.1)");
    ops[kOpA].ref = b.src(1, Type::B64);
  }
  ops[kOpB].ref = b.src(2, Type::B64);
  size_t i = 3;
  if (sp) {
    if (b.operand(3).kind != OperandKind::Address)
      b.fail("tcgen05.mma.sp takes [sp-meta-tmem] after b-desc (PTX ISA §9.7.16.10.9.2)");
    ops[kOpMeta] = b.address(3, isa::ptx::Space::Generic);
    ++i;
  }
  if (i >= n) b.fail("tcgen05.mma: idesc is missing");
  ops[kOpIdesc].ref = b.src(static_cast<int>(i++), Type::B32);
  std::vector<ExecOperand> disable;
  if (block) {
    if (i + 1 >= n || b.operand(static_cast<int>(i)).kind != OperandKind::Address ||
        b.operand(static_cast<int>(i + 1)).kind != OperandKind::Address)
      b.fail("tcgen05.mma .block_scale takes [scale-A-tmem], [scale-B-tmem] after idesc (PTX ISA §9.7.16.10.9.1)");
    ops[kOpSfa] = b.address(static_cast<int>(i), isa::ptx::Space::Generic);
    ops[kOpSfb] = b.address(static_cast<int>(i + 1), isa::ptx::Space::Generic);
    i += 2;
  } else if (!ws && i < n && b.operand(static_cast<int>(i)).kind == OperandKind::Vector) {
    const auto& vec = b.operand(static_cast<int>(i));
    const size_t words = cg == 2 ? 8 : 4;
    if (vec.elems.size() != words)
      b.fail(fmt::format("disable-output-lane of cta_group::{} is a vector of {} .b32 values (PTX ISA "
                         "§9.7.16.10.9.1), not {}",
                         cg, words, vec.elems.size()));
    for (const auto& e : vec.elems) {
      ExecOperand o;
      o.ref = b.src_of(e, Type::B32);
      disable.push_back(o);
    }
    aux |= kAuxDisable;
    ++i;
  }
  if (i >= n) b.fail("tcgen05.mma: enable-input-d (a predicate) is missing");
  if (b.operand(static_cast<int>(i)).kind == OperandKind::Imm) {
    aux |= kAuxEnableImm | (b.operand(static_cast<int>(i)).imm ? uint64_t{kAuxEnableImmVal} : 0);
    aux |= static_cast<uint64_t>(i & 15) << 33;
  } else {
    bool neg = false;
    ops[kOpEnable].ref = b.pred_src(static_cast<int>(i), &neg);
    if (neg) aux |= kAuxEnableNeg;
  }
  ++i;
  if (i < n) {
    if (block) b.fail("tcgen05.mma .block_scale takes no scale-input-d (PTX ISA §9.7.16.10.9.1)");
    if (ws) {
      ops[kOpZcm].ref = b.src(static_cast<int>(i), Type::B64);
      aux |= kAuxZcm;
    } else {
      const auto& o = b.operand(static_cast<int>(i));
      if (o.kind != OperandKind::Imm || o.imm < 0 || o.imm > 15)
        b.fail("scale-input-d must be an immediate in 0..15 (PTX ISA §9.7.16.10.9.1)");
      if (*kind != MmaKind::F16 && *kind != MmaKind::TF32)
        b.fail(fmt::format("scale-input-d is allowed only with .kind::f16 and .kind::tf32 (PTX ISA §9.7.16.10.9.1), "
                           "not .kind::{} (ptxas 13.0 accepts it for kind::i8; the PTX ISA does not)",
                           isa::kind_name(*kind)));
      aux |= kAuxScale | (uint64_t(o.imm) << 8);
    }
    ++i;
  }
  if (i != n) b.fail(fmt::format("tcgen05.mma: {} operands, more than this form takes", n));
  b.out.first_op = b.push(ops[0]);
  for (size_t k = 1; k < ops.size(); ++k) b.push(ops[k]);
  for (const ExecOperand& o : disable) b.push(o);
  b.out.nops = static_cast<uint16_t>(ops.size() + disable.size());
  b.out.aux = aux;
  b.out.fn = exec_mma;
}

}  // namespace tcsim::sim
