// Binding a kernel: reachable functions, register slots, stack frames, static shared memory,
// special-register slots, call sites, and every instruction through its family binder.
#include "sim/program.h"
#include "sim/timing/instr_class.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include <fmt/format.h>

#include "isa/ptx/cfg.h"
#include "isa/ptx/dump.h"
#include "models/machine/machine_config.h"
#include "sim/address_space.h"
#include "sim/api.h"
#include "sim/exec/bind.h"
#include "sim/exec/exec.h"
#include "sim/livelock.h"

namespace tcsim::sim {

using namespace isa::ptx;

uint64_t function_address(uint32_t module_id, uint32_t isa_function) {
  return addr::kFuncBase | (uint64_t{module_id} << 20) | (uint64_t{isa_function} << 4);
}

bool decode_function_address(uint64_t a, uint32_t module_id, uint32_t* isa_function) {
  if ((a & ~((uint64_t{1} << 32) - 1)) != addr::kFuncBase || (a & 15) != 0) return false;
  if (((a >> 20) & 0xfff) != module_id) return false;
  *isa_function = static_cast<uint32_t>((a >> 4) & 0xffff);
  return true;
}

// ---------------------------------------------------------------------------------------------
// BindCtx

std::string BindCtx::text() const { return dump_instr(m, f, in); }

void BindCtx::fail(const std::string& what) const {
  const std::string where = cuda_location(m, in.cuda);
  const std::string cuda = where.empty() ? "" : fmt::format(" ({})", where);
  throw SimError(fmt::format("{}:{}{}: `{}`: {}", source_name_, in.loc.line, cuda, op_mnemonic(in.op), what));
}

void BindCtx::not_implemented(const std::string& why) {
  out.fn = exec_not_implemented;
  out.aux = prog.notes.size();
  prog.notes.push_back(why);
}

isa::ptx::Type BindCtx::need_type(std::initializer_list<Type> allowed) const {
  const Type t = type(0);
  for (Type a : allowed)
    if (a == t) return t;
  std::string legal;
  bool optional = false;
  for (Type a : allowed) {
    if (a == Type::None) {
      optional = true;
      continue;
    }
    legal += fmt::format("{}.{}", legal.empty() ? "" : " or ", type_name(a));
  }
  fail(t == Type::None ? fmt::format("the type suffix is missing (the form takes {})", legal)
                       : fmt::format("type .{} is not legal here (the form takes {}{})", type_name(t), legal,
                                     optional ? ", or no type" : ""));
}

const Operand& BindCtx::operand(int i) const {
  if (i >= static_cast<int>(in.ops.size())) fail(fmt::format("missing operand {}", i + 1));
  return in.ops[i];
}

void BindCtx::only_mods(std::initializer_list<Mod> allowed) const {
  for (Mod md : in.mods) {
    if (mod_info(md).category != ModCategory::Other) continue;
    if (std::find(allowed.begin(), allowed.end(), md) == allowed.end())
      fail(fmt::format("modifier .{} is not valid here", mod_name(md)));
  }
}

int BindCtx::reg_bits(const Operand& o) const {
  const Type t = f.regs[o.reg].type;
  return t == Type::Pred ? 1 : std::max(8, type_bits(t));
}

bool BindCtx::is_pred_reg(const Operand& o) const {
  return o.kind == OperandKind::Reg && f.regs[o.reg].type == Type::Pred;
}

Ref BindCtx::dst_of(const Operand& o, int bits, bool wider_ok) const {
  if (o.kind == OperandKind::Sink) return kSinkSlot;
  if (o.kind != OperandKind::Reg || o.negate) fail("the destination must be a register");
  if (is_pred_reg(o)) fail(fmt::format("destination {} is a .pred register", f.regs[o.reg].name));
  const int rb = reg_bits(o);
  if (rb != bits && !(wider_ok && rb > bits) && !(bits == 8 && rb == 16))
    fail(fmt::format("register {} is {}-bit, the instruction needs a {}-bit register", f.regs[o.reg].name, rb, bits));
  return t_.reg_slot[fidx_][o.reg];
}

Ref BindCtx::dst(int i, int bits, bool wider_ok) const { return dst_of(operand(i), bits, wider_ok); }

Ref BindCtx::shared_value(uint32_t offset, int bits) {
  const uint8_t w = static_cast<uint8_t>(bits);
  for (const Program::SharedValueSlot& v : prog.smem_value_slots)
    if (v.offset == offset && v.bits == w) return v.slot;
  const Ref slot = prog.num_slots++;
  prog.smem_value_slots.push_back({slot, offset, w});
  return slot;
}

Ref BindCtx::imm(uint64_t bits) {
  const uint32_t idx = static_cast<uint32_t>(prog.imm_pool.size() / 32);
  prog.imm_pool.insert(prog.imm_pool.end(), 32, bits);
  return kRefImm | idx;
}

uint64_t truncate_to(Type t, uint64_t v) {
  const int b = type_bits(t);
  return b >= 64 ? v : v & ((uint64_t{1} << b) - 1);
}

namespace {
uint64_t f32_bits(double d) {
  float f = static_cast<float>(d);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
}  // namespace

Ref BindCtx::src_of(const Operand& o, Type t, bool wider_ok) {
  const int bits = t == Type::Pred ? 1 : std::max(8, type_bits(t));
  switch (o.kind) {
    case OperandKind::Reg: {
      if (o.negate) fail("'!' is only allowed on predicate operands");
      if (is_pred_reg(o)) fail(fmt::format("source {} is a .pred register", f.regs[o.reg].name));
      check_reg_kind(o, t, "source");
      const int rb = reg_bits(o);
      if (rb != bits && !(wider_ok && rb > bits) && !(bits == 8 && rb == 16))
        fail(fmt::format("register {} is {}-bit, the instruction needs a {}-bit value", f.regs[o.reg].name, rb, bits));
      return t_.reg_slot[fidx_][o.reg];
    }
    case OperandKind::Imm: {
      uint64_t v = static_cast<uint64_t>(o.imm);
      // Immediate kinds (ptxas: "Arguments mismatch"): integer types take integer literals only; bit
      // types also take a floating-point constant of their own width: 0fXXXXXXXX for .b32, 0d... or
      // a decimal literal (an f64 value, PTX ISA §4.5.2 "Floating-Point Constants") for .b64.
      if (o.imm_kind == ImmKind::Int && is_half(t))
        fail(fmt::format("an integer immediate for a .{} operand (half-precision operands take registers)",
                         type_name(t)));
      if (o.imm_kind != ImmKind::Int) {
        const TypeKind k = type_kind(t);
        if (k == TypeKind::Pred) fail("a floating-point immediate where a predicate value is expected");
        if (is_half(t)) fail(fmt::format("an immediate for a .{} operand (half-precision operands take registers)",
                                         type_name(t)));
        if (k == TypeKind::Signed || k == TypeKind::Unsigned)
          fail(fmt::format("a floating-point immediate where a .{} integer is expected", type_name(t)));
        if (k == TypeKind::Bit && (o.imm_kind == ImmKind::F32 ? 32 : 64) != type_bits(t))
          fail(fmt::format("a {} immediate for a .{} operand (a bit type takes an integer, or a floating-point "
                           "constant of its own width: 0f for 32 bits, 0d or a decimal for 64)",
                           o.imm_decimal ? "decimal floating-point" : "floating-point bit-pattern",
                           type_name(t)));
      }
      if (is_float(t) && (t == Type::F32 || t == Type::F64)) {
        if (o.imm_kind == ImmKind::Int) {
          fail("an integer immediate where a floating-point value is expected (write 0fXXXXXXXX or a decimal with a '.')");
        } else if (o.imm_kind == ImmKind::F64 && t == Type::F32) {
          double d;
          std::memcpy(&d, &v, 8);
          v = f32_bits(d);  // decimal literal: rounded to f32 (PTX ISA §4.5.1)
        } else if (o.imm_kind == ImmKind::F32 && t == Type::F64) {
          uint32_t b = static_cast<uint32_t>(v);
          float fl;
          std::memcpy(&fl, &b, 4);
          double d = fl;
          std::memcpy(&v, &d, 8);
        }
      }
      return imm(truncate_to(t, v));
    }
    case OperandKind::SReg: {
      const SRegInfo& si = sreg_info(o.sreg);
      if (si.varying != SRegVarying::Warp)
        fail(fmt::format("{} can only be read with mov", si.spelling));
      if (si.type == Type::Pred) fail(fmt::format("{} is a predicate", si.spelling));
      const Ref slot = prog.sreg_slot[static_cast<size_t>(o.sreg)];
      return slot;
    }
    case OperandKind::Symbol: {
      const SymLoc& l = t_.sym[o.index];
      switch (l.kind) {
        case SymLoc::Global:
        case SymLoc::KernelParam: return imm(truncate_to(t, static_cast<uint64_t>(l.off + o.imm)));
        case SymLoc::Shared: return shared_value(static_cast<uint32_t>(l.off + o.imm), type_bits(t));
        case SymLoc::Frame:
          fail(fmt::format("the address of {} is per thread; only mov can take it", m.symbols[o.index].name));
        case SymLoc::None: break;
      }
      fail(fmt::format("'{}' has no address here", m.symbols[o.index].name));
    }
    case OperandKind::Func:
      return imm(function_address(syms_.module_id, o.index));
    default: break;
  }
  fail(fmt::format("operand `{}` cannot be used as a value", dump_operand(m, f, o)));
}

Ref BindCtx::src(int i, Type t, bool wider_ok) { return src_of(operand(i), t, wider_ok); }

// Register kinds (PTX ISA §9.4 "Type Information for Instructions and Operands", its type-checking
// rules, confirmed with ptxas: docs/ptxas_differential.md): an integer-typed operand takes a .b, .u or
// .s register, a .f32/.f64 operand a .b or .f register of the size; .b operands take any kind.
void BindCtx::check_reg_kind(const Operand& o, Type t, std::string_view role) const {
  if (o.kind != OperandKind::Reg) return;
  const Type rt = f.regs[o.reg].type;
  const TypeKind want = type_kind(t), have = type_kind(rt);
  bool ok = true;
  if (want == TypeKind::Signed || want == TypeKind::Unsigned) ok = have != TypeKind::Float;
  else if (t == Type::F32 || t == Type::F64) ok = have == TypeKind::Bit || have == TypeKind::Float;
  if (!ok)
    fail(fmt::format("{} {} is a .{} register; a .{} operand needs a .b{}, {} register", role, f.regs[o.reg].name,
                     type_name(rt), type_name(t), type_bits(t),
                     want == TypeKind::Float ? fmt::format(".f{}", type_bits(t))
                                             : fmt::format(".u{0} or .s{0}", type_bits(t))));
}

Ref BindCtx::pred_dst_of(const Operand& o) const {
  if (o.kind == OperandKind::Sink) return 0;
  if (!is_pred_reg(o) || o.negate) fail("the destination must be a .pred register");
  return t_.reg_slot[fidx_][o.reg];
}
Ref BindCtx::pred_dst(int i) const { return pred_dst_of(operand(i)); }

Ref BindCtx::pred_src(int i, bool* negated) const {
  const Operand& o = operand(i);
  if (!is_pred_reg(o)) fail(fmt::format("operand {} must be a .pred register", i + 1));
  if (negated) *negated = o.negate;
  else if (o.negate) fail("'!' is not allowed here");
  return t_.reg_slot[fidx_][o.reg];
}

uint32_t BindCtx::push(const ExecOperand& e) {
  prog.operands.push_back(e);
  return static_cast<uint32_t>(prog.operands.size() - 1);
}

uint32_t BindCtx::reconverge_pc() const {
  const uint32_t i = static_cast<uint32_t>(&in - f.instrs.data());
  const uint32_t p = t_.ipdom[fidx_][i];
  return p == isa::ptx::kNoPostDom ? 0xffffffffu : prog.funcs[layout_].entry_pc + p;
}

uint32_t BindCtx::pc() const { return prog.funcs[layout_].entry_pc + static_cast<uint32_t>(&in - f.instrs.data()); }

uint32_t BindCtx::label_pc(int i) const {
  const Operand& o = operand(i);
  if (o.kind != OperandKind::Label) fail(fmt::format("operand {} must be a label", i + 1));
  return prog.funcs[layout_].entry_pc + o.index;
}

ExecOperand BindCtx::address(int i, Space space) const {
  const Operand& o = operand(i);
  if (o.kind != OperandKind::Address) fail(fmt::format("operand {} must be a memory operand [...]", i + 1));
  ExecOperand e;
  e.offset = o.imm;
  const Operand* base = o.address_base();
  if (!base) return e;
  if (base->kind == OperandKind::Reg) {
    if (is_pred_reg(*base)) fail("an address register cannot be a .pred");
    e.base = AddrBase::Reg;
    e.ref = t_.reg_slot[fidx_][base->reg];
    e.reg_bits = static_cast<uint8_t>(reg_bits(*base));
    if (e.reg_bits < 32) fail("an address register must be 32 or 64 bits wide");
    // With .address_size 64 generic and global addresses are 64-bit (ptxas: "Program uses 32-bit
    // address ... conflicting with .address_size 64"); shared-window offsets may be 32-bit.
    const Family fam = op_info(in.op).family;  // memory accesses; tcgen05 takes 32-bit TMEM addresses
    if (e.reg_bits == 32 && (space == Space::Generic || space == Space::Global) &&
        (fam == Family::load_store || fam == Family::atomic || fam == Family::mbarrier))
      fail(fmt::format("{} is a 32-bit register; a {} address is 64 bits wide (.address_size 64)",
                       f.regs[base->reg].name, space == Space::Generic ? "generic" : ".global"));
    return e;
  }
  if (base->kind != OperandKind::Symbol) fail("a memory operand's base must be a register or a variable");
  const SymLoc& l = t_.sym[base->index];
  const Symbol& s = m.symbols[base->index];
  auto mismatch = [&] {
    fail(fmt::format("variable '{}' is in .{}, not in the instruction's state space .{}", s.name,
                     space_name(s.space), space_name(space)));
  };
  switch (l.kind) {
    case SymLoc::Global:
      if (space == Space::Global || space == Space::Generic || (space == Space::Const && s.space == Space::Const)) {
        if (space == Space::Const && s.space != Space::Const) mismatch();
        e.offset += l.off;
        return e;
      }
      mismatch();
      break;
    case SymLoc::Shared:
      // The CTA's own rank is added when the address is formed (AddrBase::Shared).
      if (is_shared(space)) {
        e.base = AddrBase::Shared;
        e.offset += l.off;
        return e;
      }
      if (space == Space::Generic) {
        e.base = AddrBase::Shared;
        e.offset += static_cast<int64_t>(addr::kSharedWindow) + l.off;
        return e;
      }
      mismatch();
      break;
    case SymLoc::KernelParam:
      if (is_param(space)) {
        e.offset += l.off;
        return e;
      }
      // A kernel parameter is named only by ld.param (PTX ISA §5.1.6.1 "Kernel Function
      // Parameters"); a generic ld/st of its name is ptxas's "State space mismatch". Its generic
      // address comes from cvta.param or mov, through a register.
      if (space == Space::Generic)
        fail(fmt::format("kernel parameter '{}' is in .param: a generic access cannot name it (use ld.param, or take "
                         "a generic address with cvta.param)", s.name));
      mismatch();
      break;
    case SymLoc::Frame:
      e.base = AddrBase::Frame;
      if (space == Space::Local || is_param(space)) {
        e.offset += l.off;
        return e;
      }
      // Function and call parameters are named by ld.param/st.param only, like kernel parameters.
      if (space == Space::Generic && s.space == Space::Param)
        fail(fmt::format("parameter '{}' is in .param: a generic access cannot name it (use ld.param/st.param)",
                         s.name));
      if (space == Space::Generic) {
        e.offset += static_cast<int64_t>(addr::kLocalWindow) + l.off;
        return e;
      }
      mismatch();
      break;
    case SymLoc::None: break;
  }
  fail(fmt::format("variable '{}' has no address", s.name));
}

// ---------------------------------------------------------------------------------------------
// Typed modifier categories a family's forms can carry. BindCtx::only_mods checks the untyped
// modifiers; the typed ones (rounding, comparison, state space, memory semantics, scope, vector)
// land in Instr fields, and a family that has no such field in its syntax never looks at them, so
// `shl.rp.b32`, `mul.lo.v4.s32`, `ret.gpu` or `add.s64.volatile` would run with the modifier ignored.
// ptxas rejects them. Families absent here are not restricted (their binders check their forms).

namespace {
uint32_t category_bit(ModCategory c) { return 1u << static_cast<uint32_t>(c); }

// Bit set of the typed categories family f's syntax lines allow (PTX ISA §9.7, per family).
// Rounding and comparison modifiers belong to a few families only; the others default to every
// category but those two (their binders check spaces, semantics, scopes and vectors).
uint32_t typed_categories(Family f) {
  const uint32_t R = category_bit(ModCategory::Rounding), C = category_bit(ModCategory::Cmp),
                 S = category_bit(ModCategory::Space), M = category_bit(ModCategory::Sem),
                 O = category_bit(ModCategory::Scope), V = category_bit(ModCategory::Vec);
  switch (f) {
    case Family::int_arith:
    case Family::int_bits:
    case Family::int_dot:
    case Family::ext_precision:
    case Family::logic_shift:
    case Family::prmt:
    case Family::shfl:
    case Family::vote:
    case Family::warp_misc:
    case Family::misc:
    case Family::control_flow:
    case Family::float_approx: return 0;
    case Family::float_arith:
    case Family::float_div_sqrt:
    case Family::convert: return R;
    case Family::half_arith: return R | C;  // setp/set of half types ride on this family
    case Family::compare_select:
    case Family::video: return C;
    case Family::data_move: return S;  // cvta, isspacep
    case Family::load_store:
    case Family::atomic: return S | M | O | V;
    case Family::fence:
    case Family::mbarrier: return S | M | O;
    case Family::barrier: return O;  // only the .cta of barrier{.cta}.sync (bind_barrier checks it)
    case Family::cluster_barrier: return M | O;
    default: return ~(R | C);
  }
}
}  // namespace

void check_typed_modifiers(const BindCtx& b) {
  const uint32_t allowed = typed_categories(op_info(b.in.op).family);
  for (Mod md : b.in.mods) {
    const ModCategory c = mod_info(md).category;
    if (c == ModCategory::Other || (allowed & category_bit(c))) continue;
    b.fail(fmt::format("modifier .{} is not valid for this instruction", mod_name(md)));
  }
}

// ---------------------------------------------------------------------------------------------
// Dispatch table generated from opcodes.def.

namespace {
#define PTX_OP(id, mn, tc, fam, timing, sig, status) PTX_OP_BINDER_##status(fam),
#define PTX_OP_BINDER_Impl(fam) &bind_##fam
#define PTX_OP_BINDER_Todo(fam) nullptr
constexpr BindFn kBinders[] = {
#include "isa/ptx/opcodes.def"
};
#undef PTX_OP
#undef PTX_OP_BINDER_Impl
#undef PTX_OP_BINDER_Todo
static_assert(std::size(kBinders) == static_cast<size_t>(Op::Count_));
}  // namespace

BindFn binder_for(Op op) { return kBinders[static_cast<size_t>(op)]; }

void exec_implicit_ret(ExecCtx& ctx, const ExecInstr&) { ctx.flow = Flow::Ret; }

void exec_not_implemented(ExecCtx& ctx, const ExecInstr& in) {
  const Instr& ins = ctx.prog->instr_of(in);
  const OpInfo& oi = op_info(ins.op);
  const FamilyInfo& fi = family_info(oi.family);
  ctx.fail(-1, fmt::format("`{}` is not implemented yet ({}; opcode row {}, family {}: PTX ISA {})", oi.mnemonic,
                           in.aux < ctx.prog->notes.size() ? ctx.prog->notes[in.aux] : std::string("not implemented"),
                           oi.ident, fi.name, fi.section));
}

// ---------------------------------------------------------------------------------------------
// bind_program

namespace {

uint32_t align_up(uint64_t v, uint64_t a) { return static_cast<uint32_t>((v + a - 1) / a * a); }

void collect_sregs(const Operand& o, std::vector<bool>& used) {
  if (o.kind == OperandKind::SReg) used[static_cast<size_t>(o.sreg)] = true;
  for (const Operand& e : o.elems) collect_sregs(e, used);
}

void collect_calls(const Operand& o, std::vector<uint32_t>& out) {
  if (o.kind == OperandKind::Func) out.push_back(o.index);
  for (const Operand& e : o.elems) collect_calls(e, out);
}

}  // namespace

Program bind_program(const isa::ptx::Module& m, uint32_t entry, const LoadedSymbols& syms, const std::string& source_name) {
  Program prog;
  prog.module = &m;
  prog.kernel = m.functions[entry].name;
  prog.source_name = source_name;
  prog.imm_pool.reserve(32 * 64);

  // 1. Reachable functions: direct calls and taken addresses (mov, initializers), transitively.
  const size_t nf = m.functions.size();
  std::vector<std::vector<uint32_t>> callees(nf);
  std::vector<bool> address_taken(nf, false);
  std::vector<bool> has_indirect(nf, false);
  for (size_t fi = 0; fi < nf; ++fi) {
    for (const Instr& in : m.functions[fi].instrs) {
      std::vector<uint32_t> refs;
      for (const Operand& o : in.ops) collect_calls(o, refs);
      if (in.op == Op::call) {
        bool direct = false;
        for (const Operand& o : in.ops)
          if (o.kind == OperandKind::Func) direct = true;
        if (!direct) has_indirect[fi] = true;
        for (uint32_t r : refs) callees[fi].push_back(r);
      } else {
        for (uint32_t r : refs) address_taken[r] = true;
      }
    }
  }
  for (const Symbol& s : m.symbols)
    for (const Reloc& r : s.relocs)
      if (r.is_function) address_taken[r.symbol] = true;
  for (size_t fi = 0; fi < nf; ++fi)
    if (has_indirect[fi])
      for (size_t g = 0; g < nf; ++g)
        if (address_taken[g]) callees[fi].push_back(static_cast<uint32_t>(g));
  std::vector<bool> reach(nf, false);
  std::vector<uint32_t> order{entry}, stack{entry};
  reach[entry] = true;
  auto visit = [&](uint32_t g) {
    if (!reach[g]) {
      reach[g] = true;
      order.push_back(g);
      stack.push_back(g);
    }
  };
  while (!stack.empty()) {
    uint32_t fi = stack.back();
    stack.pop_back();
    for (uint32_t g : callees[fi]) visit(g);
    for (const Instr& in : m.functions[fi].instrs) {
      std::vector<uint32_t> refs;
      for (const Operand& o : in.ops) collect_calls(o, refs);
      for (uint32_t r : refs) visit(r);
    }
  }
  for (size_t g = 0; g < nf; ++g)
    if (address_taken[g]) visit(static_cast<uint32_t>(g));
  while (!stack.empty()) {
    uint32_t fi = stack.back();
    stack.pop_back();
    for (uint32_t g : callees[fi]) visit(g);
  }

  // 2. Recursion: functions on a cycle of the call graph (Tarjan's SCCs).
  std::vector<int> idx(nf, -1), low(nf, 0);
  std::vector<bool> on(nf, false), recursive(nf, false);
  std::vector<uint32_t> st;
  int counter = 0;
  std::function<void(uint32_t)> scc = [&](uint32_t v) {
    idx[v] = low[v] = counter++;
    st.push_back(v);
    on[v] = true;
    for (uint32_t w : callees[v]) {
      if (w == v) recursive[v] = true;
      if (idx[w] < 0) {
        scc(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on[w]) {
        low[v] = std::min(low[v], idx[w]);
      }
    }
    if (low[v] == idx[v]) {
      std::vector<uint32_t> comp;
      uint32_t w;
      do {
        w = st.back();
        st.pop_back();
        on[w] = false;
        comp.push_back(w);
      } while (w != v);
      if (comp.size() > 1)
        for (uint32_t c : comp) recursive[c] = true;
    }
  };
  for (uint32_t fi : order)
    if (idx[fi] < 0) scc(fi);

  // 3. Layouts: registers, frames; symbols.
  BindTables tables;
  tables.sym.assign(m.symbols.size(), SymLoc{});
  tables.reg_slot.assign(nf, {});
  tables.ipdom.assign(nf, {});
  for (uint32_t fi : order) tables.ipdom[fi] = immediate_post_dominators(m.functions[fi]);
  prog.layout_of.assign(nf, -1);
  uint32_t next_slot = 1, next_pred = 1;  // slot 0 / pred 0: sinks
  for (uint32_t fi : order) {
    const Function& f = m.functions[fi];
    FunctionLayout fl;
    fl.isa_index = fi;
    fl.name = f.name;
    fl.has_body = f.has_body;
    fl.recursive = recursive[fi];
    fl.slot_base = next_slot;
    fl.pred_base = next_pred;
    auto& rs = tables.reg_slot[fi];
    for (const Register& r : f.regs) {
      if (r.type == Type::Pred) {
        rs.push_back(next_pred++);
        ++fl.npreds;
      } else {
        rs.push_back(next_slot);
        const uint32_t n = type_bits(r.type) > 64 ? 2 : 1;  // .b128 takes two slots
        next_slot += n;
        fl.nslots += n;
      }
    }
    uint64_t off = 0;
    auto place = [&](uint32_t sym) {
      const Symbol& s = m.symbols[sym];
      off = align_up(off, std::max<uint32_t>(1, s.align));
      tables.sym[sym] = SymLoc{SymLoc::Frame, static_cast<int64_t>(off)};
      off += std::max<uint64_t>(s.size, 1);
    };
    if (!f.is_entry) {
      for (uint32_t s : f.params) {
        place(s);
        fl.param_off.push_back(static_cast<uint32_t>(tables.sym[s].off));
        fl.param_size.push_back(static_cast<uint32_t>(m.symbols[s].size));
      }
      for (uint32_t s : f.retvals) {
        place(s);
        fl.retval_off.push_back(static_cast<uint32_t>(tables.sym[s].off));
        fl.retval_size.push_back(static_cast<uint32_t>(m.symbols[s].size));
      }
    }
    for (uint32_t s : f.locals)
      if (m.symbols[s].space == Space::Local || m.symbols[s].space == Space::Param) place(s);
    if (fl.recursive) {
      off = align_up(off, 8);
      fl.save_off = static_cast<uint32_t>(off);
      off += 8 * fl.nslots + fl.npreds;
    }
    fl.stack_bytes = static_cast<uint32_t>(align_up(fl.recursive ? fl.save_off : off, 16)) + kCallOverheadBytes;
    fl.frame_size = align_up(off, 16);
    if (fl.frame_size) prog.uses_local = true;
    prog.layout_of[fi] = static_cast<int32_t>(prog.funcs.size());
    prog.funcs.push_back(std::move(fl));
  }
  prog.num_slots = next_slot;
  prog.num_preds = next_pred;
  if (prog.funcs.size() > 1) prog.uses_local = true;  // calls pass parameters on the stack

  // Kernel parameters, module variables, static shared memory.
  const Function& kf = m.functions[entry];
  uint64_t poff = 0;
  for (uint32_t s : kf.params) {
    poff = align_up(poff, std::max<uint32_t>(1, m.symbols[s].align));
    tables.sym[s] = SymLoc{SymLoc::KernelParam, static_cast<int64_t>(poff)};
    poff += m.symbols[s].size;
  }
  prog.param_bytes = static_cast<uint32_t>(poff);
  // Shared variables (models/machine/shared_memory.h): after the system reserve, in declaration
  // order, each at its alignment; an extern array at the end of them, aligned to its own alignment.
  const uint32_t reserve = models::machine_config(syms.arch).reserved_smem_per_cta;
  uint64_t smem = 0;
  uint32_t ext_align = 0;
  std::vector<uint32_t> externs;
  auto place_shared = [&](uint32_t sym) {
    const Symbol& s = m.symbols[sym];
    if (s.is_extern || s.unsized) {
      ext_align = std::max(ext_align, std::max<uint32_t>(1, s.align));
      externs.push_back(sym);
      return;
    }
    smem = align_up(smem, std::max<uint32_t>(1, s.align));
    tables.sym[sym] = SymLoc{SymLoc::Shared, static_cast<int64_t>(reserve + smem)};
    smem += s.size;
  };
  for (size_t s = 0; s < m.symbols.size(); ++s) {
    const Symbol& sy = m.symbols[s];
    if (sy.function < 0 && sy.space == Space::Shared) place_shared(static_cast<uint32_t>(s));
    if (sy.function < 0 && (sy.space == Space::Global || sy.space == Space::Const) && s < syms.address.size() &&
        syms.address[s])
      tables.sym[s] = SymLoc{SymLoc::Global, static_cast<int64_t>(syms.address[s])};
  }
  for (uint32_t fi : order)
    for (uint32_t s : m.functions[fi].locals)
      if (m.symbols[s].space == Space::Shared) place_shared(s);
  prog.static_smem = static_cast<uint32_t>(smem);
  prog.extern_smem_align = ext_align;
  for (uint32_t s : externs)
    tables.sym[s] = SymLoc{SymLoc::Shared, static_cast<int64_t>(reserve + align_up(smem, std::max<uint32_t>(1, m.symbols[s].align)))};

  // 4. Special registers constant per warp: hidden slots.
  std::vector<bool> used(static_cast<size_t>(SReg::Count_), false);
  for (uint32_t fi : order)
    for (const Instr& in : m.functions[fi].instrs)
      for (const Operand& o : in.ops) collect_sregs(o, used);
  for (size_t s = 0; s < used.size(); ++s) {
    if (!used[s]) continue;
    const SRegInfo& si = sreg_info(static_cast<SReg>(s));
    if (si.varying != SRegVarying::Warp) continue;
    prog.sreg_slot[s] = si.type == Type::Pred ? prog.num_preds++ : prog.num_slots++;
    prog.used_sregs.push_back(static_cast<SReg>(s));
  }

  // 5. Code: each function's instructions in order, plus one implicit `ret` after the last (so
  // that running off the end of a body returns instead of running into the next function).
  uint32_t pc = 0;
  for (FunctionLayout& fl : prog.funcs) {
    fl.entry_pc = pc;
    pc += static_cast<uint32_t>(m.functions[fl.isa_index].instrs.size()) + 1;
    fl.end_pc = pc;
  }
  prog.code.resize(pc);
  prog.progress.assign(pc, 0);
  prog.sources.reserve(pc);
  for (uint32_t li = 0; li < prog.funcs.size(); ++li) {
    const FunctionLayout fl = prog.funcs[li];
    const Function& f = m.functions[fl.isa_index];
    for (uint32_t ii = 0; ii < f.instrs.size(); ++ii) {
      const Instr& in = f.instrs[ii];
      ExecInstr& e = prog.code[fl.entry_pc + ii];
      e.src = static_cast<uint32_t>(prog.sources.size());
      prog.sources.push_back({fl.isa_index, ii});
      e.timing = static_cast<uint8_t>(op_info(in.op).timing);
      prog.progress[fl.entry_pc + ii] = progress_kind(in);
      if (in.guard != kNoReg) e.guard = tables.reg_slot[fl.isa_index][in.guard] | (in.guard_negated ? kGuardNegated : 0);
      BindCtx b(prog, m, fl.isa_index, ii, li, tables, syms, source_name, e);
      if (BindFn bf = binder_for(in.op)) {
        bf(b);
        if (!e.fn) b.fail("internal: the family binder bound no execute function");
        // The destination's register kind against the instruction type (the binders check widths).
        if (e.fn != exec_not_implemented && !in.ops.empty() && !op_info(in.op).signature.empty() &&
            (op_info(in.op).signature[0] == 'd' || op_info(in.op).signature[0] == 'D')) {
          const Operand& d = in.ops[0];
          if (d.kind == OperandKind::Reg) b.check_reg_kind(d, in.type(0), "destination");
          if (d.kind == OperandKind::Vector)
            for (const Operand& el : d.elems) b.check_reg_kind(el, in.type(0), "destination");
        }
        if (e.fn != exec_not_implemented) check_typed_modifiers(b);
        if (e.fn != exec_not_implemented && in.ntypes > b.types_read())
          b.fail(fmt::format("unexpected type suffix .{}: this form takes {} type suffix{}",
                             type_name(in.type(b.types_read())), b.types_read(), b.types_read() == 1 ? "" : "es"));
      } else {
        b.not_implemented("no family implements this instruction yet");
      }
    }
    ExecInstr& end = prog.code[fl.end_pc - 1];
    end.fn = exec_implicit_ret;
    end.timing = static_cast<uint8_t>(Timing::Control);
    end.src = static_cast<uint32_t>(prog.sources.size());
    prog.sources.push_back({fl.isa_index, static_cast<uint32_t>(f.instrs.size())});
  }
  prog.entry = static_cast<uint32_t>(prog.layout_of[entry]);
  prog.reg_slots = std::move(tables.reg_slot);
  timing::annotate_timing(prog);
  // The memory-order class of each pc for the race detector (sim/checker/race.h): atom/red are
  // morally strong (relaxed without .sem), ld/st with .relaxed/.acquire/.release/.volatile/.mmio are
  // (PTX ISA §8.7; volatile is relaxed at system scope, §8.4).
  prog.mem_order.assign(prog.code.size(), 0);
  for (size_t pc = 0; pc < prog.code.size(); ++pc) {
    const ExecInstr& e = prog.code[pc];
    if (!e.fn || e.src >= prog.sources.size()) continue;
    const SourceRef& sr = prog.sources[e.src];
    if (sr.instr >= m.functions[sr.function].instrs.size()) continue;  // the implicit ret
    const Instr& in = prog.instr_of(e);
    const isa::ptx::Sem sem = in.sem;
    uint8_t o = 0;
    const bool acq = sem == isa::ptx::Sem::Acquire || sem == isa::ptx::Sem::AcqRel || sem == isa::ptx::Sem::Sc;
    const bool rel = sem == isa::ptx::Sem::Release || sem == isa::ptx::Sem::AcqRel || sem == isa::ptx::Sem::Sc;
    const bool strong_sem = sem != isa::ptx::Sem::None && sem != isa::ptx::Sem::Weak;
    if (in.op == Op::atom) o = 1 | 8 | 16 | (acq ? 2 : 0) | (rel ? 4 : 0);
    else if (in.op == Op::red) o = 1 | 16 | (rel ? 4 : 0);
    else if ((in.op == Op::ld || in.op == Op::ldu) && strong_sem) o = 1 | 8 | (acq ? 2 : 0);
    else if (in.op == Op::st && strong_sem) o = 1 | 16 | (rel ? 4 : 0);
    prog.mem_order[pc] = o;
    if (o) prog.has_strong_access = true;
  }
  return prog;
}

}  // namespace tcsim::sim
