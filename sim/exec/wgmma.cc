// PTX ISA §9.7.15 Asynchronous warpgroup-level matrix instructions (sm_90a):
//   wgmma.fence.sync.aligned;
//   wgmma.commit_group.sync.aligned;
//   wgmma.wait_group.sync.aligned N;
//   wgmma.mma_async.sync.aligned.m64nNk16.{f16,f32}.f16.f16    d, a-desc|a, b-desc, scale-d, imm-scale-a, imm-scale-b{, imm-trans-a}, imm-trans-b;
//   wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16        (same operands)
//   wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32         d, a-desc|a, b-desc, scale-d, imm-scale-a, imm-scale-b;
//   wgmma.mma_async.sync.aligned.m64nNk32.{f16,f32}.{e4m3,e5m2}.{e4m3,e5m2}   (same as tf32)
//   wgmma.mma_async.sync.aligned.m64nNk32{.satfinite}.s32.{s8,u8}.{s8,u8}      d, a-desc|a, b-desc, scale-d;
//   wgmma.mma_async.sync.aligned.m64nNk256.s32.b1.b1.and.popc  d, a-desc|a, b-desc, scale-d;
// N: 8..256 step 8 (integer and b1: 8, 16, 24, 32, 48..256 step 16) (§9.7.15.5.2). A from
// registers (4 x .b32) has no imm-trans-a; imm-trans is legal only for .f16/.bf16. scale-d is a
// predicate (`p`, `!p`) or 0/1; imm-scale-a/b are 1 or -1, imm-trans-a/b 0 or 1.
// The operation itself, its groups and its checker rules: sim/units/wgmma_unit.h.
// Not here: wgmma.mma_async.sp (sparse A, §9.7.15.6).
#include <array>
#include <cstdio>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "models/mma/param_table.h"
#include "sim/exec/lane_ops.h"
#include "sim/units/wgmma_unit.h"

namespace tcsim::sim {
namespace {

using isa::DType;
using isa::ptx::Mod;
using isa::ptx::OperandKind;
using isa::ptx::Type;
namespace mm = models::mma;

constexpr std::string_view kSec = "PTX ISA §9.7.15.5.2";

void exec_fence(ExecCtx& c, const ExecInstr&) { wgmma_fence(c); }
void exec_commit(ExecCtx& c, const ExecInstr&) { wgmma_commit(c); }
void exec_wait(ExecCtx& c, const ExecInstr& in) { wgmma_wait(c, static_cast<uint32_t>(in.aux)); }
void exec_mma_async(ExecCtx& c, const ExecInstr& in) {
  wgmma_issue(c, in, *static_cast<const WgmmaForm*>(c.prog->family_data[in.aux].get()));
}

std::optional<DType> operand_type(Type t) {
  switch (t) {
    case Type::F16: return DType::F16;
    case Type::BF16: return DType::BF16;
    case Type::TF32: return DType::TF32;
    case Type::E4M3: return DType::E4M3;
    case Type::E5M2: return DType::E5M2;
    case Type::S8: return DType::S8;
    case Type::U8: return DType::U8;
    case Type::F32: return DType::F32;
    case Type::S32: return DType::S32;
    default: return std::nullopt;
  }
}

// An immediate operand's value (fails for anything else).
int64_t immediate(BindCtx& b, int i, std::string_view what) {
  const isa::ptx::Operand& o = b.operand(i);
  if (o.kind != OperandKind::Imm || o.imm_kind != isa::ptx::ImmKind::Int)
    b.fail(fmt::format("operand {} ({}) must be an integer constant ({})", i + 1, what, kSec));
  return o.imm;
}

void bind_mma_async(BindCtx& b) {
  if (b.has(Mod::sp)) return b.not_implemented("wgmma.mma_async.sp (sparse A, PTX ISA §9.7.15.6) is not modelled");
  b.only_mods({Mod::sync, Mod::aligned, Mod::satfinite, Mod::and_, Mod::popc,
#define X(n) Mod::m64n##n##k8, Mod::m64n##n##k16, Mod::m64n##n##k32, Mod::m64n##n##k256
               X(8), X(16), X(24), X(32), X(40), X(48), X(56), X(64), X(72), X(80), X(88), X(96), X(104), X(112),
               X(120), X(128), X(136), X(144), X(152), X(160), X(168), X(176), X(184), X(192), X(200), X(208),
               X(216), X(224), X(232), X(240), X(248), X(256)
#undef X
  });
  if (!b.has(Mod::sync) || !b.has(Mod::aligned)) b.fail(fmt::format("wgmma.mma_async needs .sync.aligned ({})", kSec));
  int m = 0, n = 0, k = 0;
  bool shape = false;
  for (Mod md : b.in.mods) {
    const std::string s(isa::ptx::mod_name(md));
    if (s.rfind("m64n", 0) == 0 && std::sscanf(s.c_str(), "m%dn%dk%d", &m, &n, &k) == 3) shape = true;
  }
  if (!shape) b.fail(fmt::format("missing the shape .m64nNkK ({})", kSec));
  if (b.in.ntypes != 3) b.fail(fmt::format("wgmma.mma_async names three types .dtype.atype.btype ({})", kSec));
  const Type dt = b.type(0), at = b.type(1), bt = b.type(2);
  const std::string form = fmt::format("m64n{}k{}.{}.{}.{}", n, k, isa::ptx::type_name(dt), isa::ptx::type_name(at),
                                       isa::ptx::type_name(bt));
  auto illegal = [&](std::string_view why) { b.fail(fmt::format("{} is not a legal wgmma form: {} ({})", form, why, kSec)); };

  auto fp = std::make_shared<WgmmaForm>();
  WgmmaForm& f = *fp;
  f.n = n;
  f.k = k;
  f.satfinite = b.has(Mod::satfinite);
  const bool is_int = at == Type::S8 || at == Type::U8;
  f.b1 = at == Type::B1;
  int want_k = 0;
  bool trans_ok = false, scale_ok = true;
  if (at == Type::F16) {
    if (bt != Type::F16 || (dt != Type::F16 && dt != Type::F32)) illegal(".f16 A needs .f16 B and an .f16/.f32 D");
    want_k = 16, trans_ok = true;
  } else if (at == Type::BF16) {
    if (bt != Type::BF16 || dt != Type::F32) illegal(".bf16 A needs .bf16 B and an .f32 D");
    want_k = 16, trans_ok = true;
  } else if (at == Type::TF32) {
    if (bt != Type::TF32 || dt != Type::F32) illegal(".tf32 A needs .tf32 B and an .f32 D");
    want_k = 8;
  } else if (at == Type::E4M3 || at == Type::E5M2) {
    if ((bt != Type::E4M3 && bt != Type::E5M2) || (dt != Type::F16 && dt != Type::F32))
      illegal("an fp8 A needs an fp8 B and an .f16/.f32 D");
    want_k = 32;
  } else if (is_int) {
    if ((bt != Type::S8 && bt != Type::U8) || dt != Type::S32) illegal("an 8-bit integer A needs an 8-bit integer B and .s32 D");
    want_k = 32, scale_ok = false;
  } else if (f.b1) {
    if (bt != Type::B1 || dt != Type::S32) illegal(".b1 A needs .b1 B and .s32 D");
    if (!b.has(Mod::and_) || !b.has(Mod::popc)) illegal(".b1 needs .and.popc");
    want_k = 256, scale_ok = false;
  } else {
    illegal("unsupported A type");
  }
  if (k != want_k) illegal(fmt::format("K must be {} for .{}", want_k, isa::ptx::type_name(at)));
  if ((is_int || f.b1) ? !(n == 8 || n == 16 || n == 24 || (n >= 32 && n <= 256 && n % 16 == 0))
                       : !(n >= 8 && n <= 256 && n % 8 == 0))
    illegal(is_int || f.b1 ? "N must be 8, 16, 24 or 32..256 in steps of 16" : "N must be 8..256 in steps of 8");
  if (f.satfinite && !is_int) illegal(".satfinite applies to .s8/.u8 only");
  if ((b.has(Mod::and_) || b.has(Mod::popc)) && !f.b1) illegal(".and.popc applies to .b1 only");

  // Operands: d, a, b, scale-d, then the immediates of the type.
  const isa::ptx::Operand& a0 = b.operand(1);
  f.a_regs = a0.kind == OperandKind::Vector;
  const int n_imm = !scale_ok ? 0 : trans_ok ? (f.a_regs ? 3 : 4) : 2;
  if (static_cast<int>(b.nops()) != 4 + n_imm)
    b.fail(fmt::format("{}: expected {} operands (d, {}, b-desc, scale-d{}), got {} ({})", form, 4 + n_imm,
                       f.a_regs ? "a" : "a-desc",
                       !scale_ok ? "" : trans_ok ? (f.a_regs ? ", imm-scale-a, imm-scale-b, imm-trans-b"
                                                             : ", imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b")
                                                 : ", imm-scale-a, imm-scale-b",
                       b.nops(), kSec));
  if (scale_ok) {
    const int64_t sa = immediate(b, 4, "imm-scale-a"), sb = immediate(b, 5, "imm-scale-b");
    if ((sa != 1 && sa != -1) || (sb != 1 && sb != -1)) illegal("imm-scale-a/b must be 1 or -1");
    f.neg_a = sa == -1;
    f.neg_b = sb == -1;
    if (trans_ok) {
      int idx = 6;
      if (!f.a_regs) {
        const int64_t ta = immediate(b, idx++, "imm-trans-a");
        if (ta != 0 && ta != 1) illegal("imm-trans-a must be 0 or 1");
        f.trans_a = ta == 1;
      }
      const int64_t tb = immediate(b, idx, "imm-trans-b");
      if (tb != 0 && tb != 1) illegal("imm-trans-b must be 0 or 1");
      f.trans_b = tb == 1;
    }
  }
  // scale-d: a predicate (possibly negated) or the constant 0 / 1.
  const isa::ptx::Operand& sd = b.operand(3);
  if (sd.kind == OperandKind::Imm) {
    if (sd.imm != 0 && sd.imm != 1) illegal("scale-d must be a predicate or 0/1");
    f.scale_d = static_cast<int>(sd.imm);
  } else {
    bool neg = false;
    b.out.o[0] = b.pred_src(3, &neg);
    f.scale_d = -1;
    f.scale_d_negated = neg;
  }

  // Types, formats, arithmetic.
  f.acc_bits = dt == Type::F16 ? 16 : 32;
  f.nd = dt == Type::F16 ? n / 4 : n / 2;
  if (f.b1) {
    f.atype = f.btype = DType::U8;  // bytes of 8 bits each
    f.dtype = DType::S32;
    f.elem_bytes = 1;
    f.k_elems = 32;
    f.fmt = isa::dense_format(8);
  } else {
    const auto ma = operand_type(at), mb = operand_type(bt), md = operand_type(dt);
    f.atype = *ma;
    f.btype = *mb;
    f.dtype = *md;
    f.elem_bytes = isa::dtype_bits(*ma) / 8;
    f.k_elems = k;
    f.fmt = isa::dense_format(isa::dtype_bits(*ma));
    const mm::MmaKind kind = at == Type::F16 || at == Type::BF16 ? mm::MmaKind::F16
                             : at == Type::TF32                   ? mm::MmaKind::TF32
                             : is_int                             ? mm::MmaKind::I8
                                                                  : mm::MmaKind::F8F6F4;
    const mm::ParamRow* row = mm::find_row(isa::Arch::Sm90a, mm::Path::Wgmma, kind, *ma, *mb, *md);
    if (!row || !row->allows_k(k))
      b.fail(fmt::format("{}: models/mma has no sm_90a wgmma numerics row for this form", form));
    mm::DotShape s;
    s.num = row->num;
    s.kind = kind;
    s.atype = *ma;
    s.btype = *mb;
    s.dtype = *md;
    s.k = k;
    s.negate_a = f.neg_a;
    s.negate_b = f.neg_b;
    s.saturate = f.satfinite;
    f.engine = std::make_unique<mm::DotEngine>(s);
  }

  // Register operands.
  const isa::ptx::Operand& d0 = b.operand(0);
  if (d0.kind != OperandKind::Vector || static_cast<int>(d0.elems.size()) != f.nd)
    b.fail(fmt::format("{}: d must be a vector of {} registers ({} accumulator elements per thread{}), got {} ({})",
                       form, f.nd, n / 2, dt == Type::F16 ? ", two .f16 per register" : "",
                       d0.kind == OperandKind::Vector ? d0.elems.size() : 1, kSec));
  uint32_t first = 0;
  for (int i = 0; i < f.nd; ++i) {
    ExecOperand e;
    e.ref = b.dst_of(d0.elems[i], 32);
    e.is_sink = d0.elems[i].kind == OperandKind::Sink;
    const uint32_t idx = b.push(e);
    if (i == 0) first = idx;
  }
  if (f.a_regs) {
    if (a0.elems.size() != 4)
      b.fail(fmt::format("{}: A from registers is a vector of 4 .b32 registers, got {} ({})", form, a0.elems.size(), kSec));
    for (const auto& e : a0.elems) {
      if (e.kind != OperandKind::Reg) b.fail("the A fragment must be registers");
      ExecOperand x;
      x.ref = b.src_of(e, Type::B32);
      b.push(x);
    }
  } else {
    ExecOperand x;
    x.ref = b.src(1, Type::B64);
    b.push(x);
  }
  ExecOperand bd;
  bd.ref = b.src(2, Type::B64);
  b.push(bd);
  b.out.first_op = first;
  b.out.nops = static_cast<uint16_t>(f.nd + (f.a_regs ? 4 : 1) + 1);
  b.out.aux = b.prog.family_data.size();
  b.prog.family_data.push_back(std::move(fp));
  b.out.fn = exec_mma_async;
}

}  // namespace

void bind_wgmma(BindCtx& b) {
  using isa::ptx::Op;
  if (b.loaded().arch != isa::Arch::Sm90a)
    b.fail(fmt::format("wgmma exists only on sm_90a; the device is {} (PTX ISA §9.7.15.5.2, §9.7.15.7: target "
                       "sm_90a)",
                       isa::arch_name(b.loaded().arch)));
  switch (b.in.op) {
    case Op::wgmma_mma_async: return bind_mma_async(b);
    case Op::wgmma_fence:
    case Op::wgmma_commit_group:
    case Op::wgmma_wait_group: {
      b.only_mods({Mod::sync, Mod::aligned});
      if (!b.has(Mod::sync) || !b.has(Mod::aligned))
        b.fail("wgmma.fence / commit_group / wait_group need .sync.aligned (PTX ISA §9.7.15.7)");
      if (b.in.op == Op::wgmma_fence) b.out.fn = exec_fence;
      else if (b.in.op == Op::wgmma_commit_group) b.out.fn = exec_commit;
      else {
        const int64_t n = immediate(b, 0, "N");
        if (n < 0 || n > 0xffff) b.fail("wgmma.wait_group N must be a non-negative integer constant (PTX ISA §9.7.15.7.3)");
        b.out.aux = static_cast<uint64_t>(n);
        b.out.fn = exec_wait;
      }
      return;
    }
    default:
      b.fail("internal: not a wgmma row");
  }
}

}  // namespace tcsim::sim
