// PTX ISA §9.7.12 Control Flow Instructions:
//   bra{.uni} tgt;                      {@p} bra
//   brx.idx{.uni} index, tlist;         tlist: a .branchtargets label
//   call{.uni} (ret-param), func, (param-list);   call{.uni} func, (param-list);   call{.uni} func;
//   call{.uni} (ret-param), fptr, (param-list), flist|fproto;                      (indirect)
//   ret{.uni};
//   exit;
// Divergence and reconvergence are handled by the warp (sim/warp.h); the call ABI (parameters
// copied through per-thread stack frames, PTX ISA §7 "Abstracting the ABI") by Warp::do_call/do_ret.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/device_calls.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::OperandKind;
using isa::ptx::Type;

void exec_bra(ExecCtx& c, const ExecInstr& in) {
  c.flow = Flow::Branch;
  c.target = static_cast<uint32_t>(in.aux);
  c.rpc = in.o[1];
}

void exec_brx(ExecCtx& c, const ExecInstr& in) {
  const std::vector<uint32_t>& table = c.prog->branch_tables[in.aux];
  const uint64_t* idx = c.src(in.o[0]);
  for_lanes(c.mask, [&](int i) {
    const uint32_t k = static_cast<uint32_t>(idx[i]);
    if (k >= table.size())
      c.fail(i, fmt::format("brx.idx index {} is beyond the {} targets of the .branchtargets list", k, table.size()));
    c.lane_target[i] = table[k];
  });
  c.flow = Flow::PerLane;
  c.rpc = in.o[1];
}

void exec_call(ExecCtx& c, const ExecInstr& in) {
  c.flow = Flow::Call;
  c.target = static_cast<uint32_t>(in.aux);
  const CallSite& cs = c.prog->call_sites[in.aux];
  if (cs.callee >= 0) return;
  const uint64_t* t = c.src(cs.target);
  for_lanes(c.mask, [&](int i) {
    uint32_t fi;
    if (!decode_function_address(t[i], c.launch->module_id, &fi) || fi >= c.prog->layout_of.size() ||
        c.prog->layout_of[fi] < 0)
      c.fail(i, fmt::format("indirect call through 0x{:x}, which is not the address of a function of this module", t[i]));
    c.lane_target[i] = static_cast<uint32_t>(c.prog->layout_of[fi]);
  });
}

void exec_ret(ExecCtx& c, const ExecInstr&) { c.flow = Flow::Ret; }
void exec_exit(ExecCtx& c, const ExecInstr&) { c.flow = Flow::Exit; }

}  // namespace

void bind_control_flow(BindCtx& b) {
  using isa::ptx::Op;
  switch (b.in.op) {
    case Op::bra:
      b.only_mods({Mod::uni});
      b.out.fn = exec_bra;
      b.out.aux = b.label_pc(0);
      b.out.o[1] = b.reconverge_pc();
      return;
    case Op::brx_idx: {
      b.only_mods({Mod::uni});
      const isa::ptx::Operand& t = b.operand(1);
      if (t.kind != OperandKind::BranchTable) b.fail("brx.idx needs a .branchtargets label");
      const auto& targets = b.f.branch_tables[t.index].targets;
      std::vector<uint32_t> pcs;
      for (uint32_t x : targets) pcs.push_back(b.prog.funcs[b.layout()].entry_pc + x);
      b.out.aux = b.prog.branch_tables.size();
      b.prog.branch_tables.push_back(std::move(pcs));
      b.out.o[0] = b.src(0, Type::U32);
      b.out.o[1] = b.reconverge_pc();
      b.out.fn = exec_brx;
      return;
    }
    case Op::call: {
      b.only_mods({Mod::uni});
      CallSite cs;
      cs.caller = b.layout();
      cs.return_pc = b.pc() + 1;
      size_t i = 0;
      const auto& ops = b.in.ops;
      auto param_off = [&](const isa::ptx::Operand& o, uint32_t* size) -> uint32_t {
        if (o.kind != OperandKind::Symbol || b.sym(o.index).kind != SymLoc::Frame)
          b.fail("call parameters must be .param variables declared by the caller");
        *size = static_cast<uint32_t>(b.m.symbols[o.index].size);
        return static_cast<uint32_t>(b.sym(o.index).off);
      };
      if (i < ops.size() && ops[i].kind == OperandKind::ParamList && i + 1 < ops.size() &&
          (ops[i + 1].kind == OperandKind::Func || ops[i + 1].kind == OperandKind::Reg)) {
        if (ops[i].elems.size() > 1) b.fail("a call returns at most one parameter");
        if (ops[i].elems.size() == 1) {
          uint32_t sz;
          cs.ret_off = param_off(ops[i].elems[0], &sz);
          cs.ret_size = sz;
        }
        ++i;
      }
      if (i >= ops.size()) b.fail("call needs a target");
      if (ops[i].kind == OperandKind::Func) {
        const int32_t l = b.prog.layout_of[ops[i].index];
        if (l < 0) b.fail("internal: call target not bound");
        cs.callee = l;
      } else if (ops[i].kind == OperandKind::Reg) {
        cs.target = b.src_of(ops[i], Type::U64);
      } else {
        b.fail("the call target must be a function name or a register");
      }
      ++i;
      if (i < ops.size() && ops[i].kind == OperandKind::ParamList) {
        for (const isa::ptx::Operand& a : ops[i].elems) {
          uint32_t sz;
          cs.arg_off.push_back(param_off(a, &sz));
          cs.arg_size.push_back(sz);
        }
        ++i;
      }
      if (i < ops.size() && (ops[i].kind == OperandKind::Prototype || ops[i].kind == OperandKind::Label)) ++i;
      if (i != ops.size()) b.fail("unexpected operands after the call's parameter list");
      b.out.aux = b.prog.call_sites.size();
      b.prog.call_sites.push_back(std::move(cs));
      b.out.fn = exec_call;
      // A declared, undefined function the device runtime provides (vprintf): the simulator runs it.
      if (const CallSite& c = b.prog.call_sites.back(); c.callee >= 0) {
        const FunctionLayout& f = b.prog.funcs[static_cast<size_t>(c.callee)];
        if (!f.has_body) bind_device_call(b, c, f.name);
      }
      return;
    }
    case Op::ret:
      b.only_mods({Mod::uni});
      b.out.fn = exec_ret;
      return;
    case Op::exit:
      b.only_mods({});
      b.out.fn = exec_exit;
      return;
    default:
      b.fail("internal: not a control_flow row");
  }
}

}  // namespace tcsim::sim
