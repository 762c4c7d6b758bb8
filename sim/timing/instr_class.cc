// Binding-time timing facts of every instruction (sim/timing/instr_timing.h): its pipe, from the
// opcode, types and modifiers (the classes the H200 microbenchmarks measure, kernels/ubench/pipes.cu),
// and the register slots it reads and writes, from its operands. PTX puts the destination first
// (PTX ISA §9.1 "Instruction format": "the destination operand is the first"), except for
// instructions whose first operand is an address (st, red, mbarrier.*, cp.async.bulk.*, tcgen05.*
// [taddr]) and those the opcode table's signature gives no destination.
#include "sim/timing/instr_class.h"

#include <algorithm>
#include <string_view>

#include "isa/ptx/opcodes.h"
#include "isa/ptx/types.h"
#include "sim/timing/load_hoist.h"

namespace tcsim::sim::timing {

using isa::ptx::Instr;
using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::Operand;
using isa::ptx::OperandKind;
using isa::ptx::Space;
using isa::ptx::Type;

namespace {

bool has(const Instr& in, Mod m) { return std::find(in.mods.begin(), in.mods.end(), m) != in.mods.end(); }
int bits0(const Instr& in) { return in.ntypes ? isa::ptx::type_bits(in.types[0]) : 32; }
bool any_type(const Instr& in, auto pred) {
  for (int i = 0; i < in.ntypes; ++i)
    if (pred(in.types[i])) return true;
  return false;
}
bool is_narrow_float(Type t) {
  return isa::ptx::is_float(t) && t != Type::F32 && t != Type::F64 && t != Type::TF32 && t != Type::F32x2;
}
bool is64(Type t) { return isa::ptx::type_bits(t) == 64 && t != Type::F32x2; }

bool reads_sreg(const Instr& in) {
  for (size_t i = 1; i < in.ops.size(); ++i)
    if (in.ops[i].kind == OperandKind::SReg) return true;
  return false;
}

// The K bytes and M x N tile of an mma.sync/wmma shape modifier ("m16n8k16"), in units of
// m16n8 x 32 bytes of K (what kernels/ubench measured: mma.interval); `flops` = 2 M N K.
uint16_t mma_units(const Instr& in, uint32_t* flops) {
  for (Mod m : in.mods) {
    const std::string_view s = isa::ptx::mod_name(m);
    unsigned mm = 0, nn = 0, kk = 0;
    if (s.size() < 6 || s[0] != 'm') continue;
    size_t i = 1;
    auto num = [&](unsigned& v) {
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') v = v * 10 + unsigned(s[i++] - '0');
    };
    num(mm);
    if (i >= s.size() || s[i++] != 'n') continue;
    num(nn);
    if (i >= s.size() || s[i++] != 'k') continue;
    num(kk);
    if (i != s.size() || !mm || !nn || !kk) continue;
    // The A/B element width: the last-but-one type on mma.sync (.dtype.atype.btype.ctype).
    int ebits = 16;
    if (in.ntypes >= 3) ebits = isa::ptx::type_bits(in.types[1]);
    if (in.ntypes == 2) ebits = isa::ptx::type_bits(in.types[1]);
    if (ebits <= 0) ebits = 16;
    const unsigned kbytes = kk * static_cast<unsigned>(ebits) / 8;
    *flops = 2 * mm * nn * kk;
    const unsigned u = (mm * nn * kbytes + 16 * 8 * 32 - 1) / (16 * 8 * 32);
    return static_cast<uint16_t>(std::clamp(u, 1u, 64u));
  }
  return 1;
}

uint8_t l1_bypass(const Instr& in) {
  if (has(in, Mod::cg) || has(in, Mod::cs) || has(in, Mod::cv) || has(in, Mod::lu) || has(in, Mod::volatile_))
    return kFlagBypassL1;
  if ((in.sem == isa::ptx::Sem::Relaxed || in.sem == isa::ptx::Sem::Acquire) &&
      (in.scope == isa::ptx::Scope::Gpu || in.scope == isa::ptx::Scope::Sys))
    return kFlagBypassL1;
  return 0;
}

}  // namespace

Pipe classify(const Instr& in) {
  switch (in.op) {
    case Op::mul_int: case Op::mad_int: case Op::madc:
      return bits0(in) == 64 ? Pipe::Imul64 : Pipe::Imad;  // mul.wide.u32 is .u32: one IMAD.WIDE
    case Op::mul24: case Op::mad24: case Op::dp4a: case Op::dp2a:
      return Pipe::Imad;
    case Op::div_int: case Op::rem:
      return bits0(in) == 64 ? Pipe::Idiv64 : Pipe::Idiv;
    case Op::popc: case Op::clz: case Op::bfind: case Op::fns: case Op::brev: case Op::bfe: case Op::bfi:
      return Pipe::Bitop;
    case Op::testp: case Op::copysign: case Op::add_float: case Op::sub_float: case Op::mul_float:
    case Op::fma_float: case Op::mad_float: case Op::abs_float: case Op::neg_float: case Op::min_float:
    case Op::max_float:
      return bits0(in) == 64 && in.types[0] == Type::F64 ? Pipe::Fp64 : Pipe::Fp32;
    case Op::div_float:
      if (in.types[0] == Type::F64) return Pipe::Ddiv;
      return has(in, Mod::approx) || has(in, Mod::full) ? Pipe::FdivApprox : Pipe::Fdiv;
    case Op::rcp: case Op::sqrt:
      if (in.types[0] == Type::F64) return has(in, Mod::approx) ? Pipe::Fp64 : Pipe::Ddiv;
      return has(in, Mod::approx) ? Pipe::Mufu : Pipe::Fsqrt;
    case Op::rsqrt: case Op::sin: case Op::cos: case Op::lg2: case Op::ex2_float: case Op::tanh_float:
    case Op::tanh_half: case Op::ex2_half:
      return Pipe::Mufu;
    case Op::add_half: case Op::sub_half: case Op::mul_half: case Op::fma_half: case Op::neg_half:
    case Op::abs_half: case Op::min_half: case Op::max_half: case Op::set_half: case Op::setp_half:
      return Pipe::Half;
    case Op::cvt: {
      const bool f64 = any_type(in, [](Type t) { return t == Type::F64; });
      const bool narrow = any_type(in, is_narrow_float);
      const bool fl = any_type(in, [](Type t) { return isa::ptx::is_float(t); });
      const bool wide = any_type(in, is64);
      if (!fl) return wide ? Pipe::Alu64 : Pipe::Alu;  // integer <-> integer: moves and extensions
      if (f64 || wide) return Pipe::Cvt64;
      if (narrow) return Pipe::CvtHalf;
      return Pipe::Cvt;
    }
    case Op::mov:
      return reads_sreg(in) ? Pipe::Sreg : Pipe::Alu;
    case Op::shfl_sync: case Op::match_sync: case Op::activemask: case Op::movmatrix:
      return Pipe::Shfl;
    case Op::vote_sync: case Op::elect_sync:
      return Pipe::Vote;
    case Op::redux_sync:
      return Pipe::Redux;
    case Op::ld: case Op::ldu: case Op::st: case Op::prefetch: case Op::prefetchu: case Op::applypriority:
    case Op::discard: case Op::ldmatrix: case Op::stmatrix: case Op::tex: case Op::tld4: case Op::txq:
    case Op::suld: case Op::sust: case Op::sured: case Op::suq: case Op::wmma_load: case Op::wmma_store:
    case Op::tensormap_replace:
      return Pipe::Mem;
    case Op::atom: case Op::red: case Op::multimem_ld_reduce: case Op::multimem_st: case Op::multimem_red:
      return Pipe::Atomic;
    case Op::st_async: case Op::st_bulk: case Op::red_async: case Op::cp_async: case Op::cp_async_bulk:
    case Op::cp_reduce_async_bulk: case Op::cp_async_bulk_prefetch: case Op::cp_async_bulk_tensor:
    case Op::cp_reduce_async_bulk_tensor: case Op::cp_async_bulk_prefetch_tensor:
    case Op::clusterlaunchcontrol_try_cancel:
      return Pipe::AsyncCopy;
    case Op::cp_async_commit_group: case Op::cp_async_wait_group: case Op::cp_async_wait_all:
    case Op::cp_async_bulk_commit_group: case Op::cp_async_bulk_wait_group: case Op::wgmma_commit_group:
    case Op::wgmma_wait_group: case Op::tcgen05_wait_ld: case Op::tcgen05_wait_st: case Op::bar_warp_sync:
    case Op::bra: case Op::brx_idx: case Op::call: case Op::ret: case Op::exit: case Op::trap: case Op::brkpt:
      return Pipe::Control;
    case Op::bar_sync: case Op::bar_arrive: case Op::bar_red: case Op::barrier_sync: case Op::barrier_arrive:
    case Op::barrier_red: case Op::barrier_cluster_arrive: case Op::barrier_cluster_wait:
      return Pipe::Barrier;
    case Op::membar:
      return has(in, Mod::cta) ? Pipe::Fence : Pipe::FenceGpu;  // membar.gl/.sys
    case Op::fence:
      for (Mod m : in.mods) {
        const std::string_view s = isa::ptx::mod_name(m);
        if (s.starts_with("proxy") || s.starts_with("mbarrier_init")) return Pipe::FenceProxy;
      }
      // ptxas (CUDA 13, sm_90a) emits MEMBAR.ALL.GPU for cluster scope too; MEMBAR.*.CTA for .cta.
      return in.scope == isa::ptx::Scope::Cta ? Pipe::Fence : Pipe::FenceGpu;
    case Op::tensormap_cp_fenceproxy: case Op::wgmma_fence: case Op::tcgen05_fence_before:
    case Op::tcgen05_fence_after:
      return Pipe::FenceProxy;
    case Op::mbarrier_test_wait: case Op::mbarrier_try_wait:
      return Pipe::MbarWait;
    case Op::mbarrier_init: case Op::mbarrier_inval: case Op::mbarrier_arrive: case Op::mbarrier_arrive_drop:
    case Op::mbarrier_expect_tx: case Op::mbarrier_complete_tx: case Op::mbarrier_pending_count:
    case Op::cp_async_mbarrier_arrive:
      return Pipe::MbarArrive;
    case Op::mma: case Op::wmma_mma:
      return Pipe::Mma;
    case Op::wgmma_mma_async: case Op::tcgen05_mma: case Op::tcgen05_cp: case Op::tcgen05_shift:
    case Op::tcgen05_commit:
      return Pipe::Tensor;
    case Op::tcgen05_ld: case Op::tcgen05_st:
      return Pipe::TmemLd;
    case Op::tcgen05_alloc: case Op::tcgen05_dealloc: case Op::tcgen05_relinquish_alloc_permit:
      return Pipe::TmemAlloc;
    case Op::griddepcontrol: case Op::nanosleep: case Op::pmevent: case Op::setmaxnreg:
    case Op::stacksave: case Op::stackrestore: case Op::alloca:
      return Pipe::Misc;
    default: break;
  }
  // Integer and bit-level ALU work (add/sub/logic/shifts/compare/select/prmt/video/...).
  return bits0(in) == 64 && in.op != Op::setp && in.op != Op::selp ? Pipe::Alu64
         : in.op == Op::setp && bits0(in) == 64                      ? Pipe::Alu64
                                                                     : Pipe::Alu;
}

namespace {

struct Collect {
  const Program& prog;
  const std::vector<uint32_t>& slots;  // isa register -> slot or predicate index
  const isa::ptx::Function& f;
  std::vector<Ref>& out;
  void reg(isa::ptx::RegId r) {
    if (r == isa::ptx::kNoReg || r >= slots.size() || r >= f.regs.size()) return;
    const Type t = f.regs[r].type;
    if (t == Type::Pred) {
      out.push_back(prog.num_slots + slots[r]);
      return;
    }
    const uint32_t s = slots[r];
    if (s == kSinkSlot) return;
    out.push_back(s);
    if (isa::ptx::type_bits(t) == 128) out.push_back(s + 1);
  }
  void operand(const Operand& o) {
    if (o.kind == OperandKind::Reg) reg(o.reg);
    for (const Operand& e : o.elems) operand(e);
  }
};

// Whether the first operand is a destination: PTX's destination-first order, unless it is an
// address, the opcode's signature starts with a source, or the instruction writes nothing.
bool first_is_dst(const Instr& in) {
  if (in.ops.empty()) return false;
  const Operand& o = in.ops[0];
  if (o.kind == OperandKind::Address || o.kind == OperandKind::Label || o.kind == OperandKind::Func ||
      o.kind == OperandKind::Imm)
    return false;
  const std::string_view sig = isa::ptx::op_info(in.op).signature;
  if (!sig.empty() && sig != "*") {
    const char c = sig[0];
    if (c != 'd' && c != 'p' && c != 'D') return false;
  }
  switch (isa::ptx::op_info(in.op).timing) {
    case isa::ptx::Timing::Control:
    case isa::ptx::Timing::Barrier:
    case isa::ptx::Timing::Fence:
      return in.op == Op::bar_red || in.op == Op::barrier_red;
    default: return true;
  }
}

}  // namespace

void annotate_timing(Program& prog) {
  const isa::ptx::Module& m = *prog.module;
  prog.timing.assign(prog.code.size(), InstrTiming{});
  prog.timing_deps.clear();
  for (uint32_t pc = 0; pc < prog.code.size(); ++pc) {
    const SourceRef& sr = prog.sources[prog.code[pc].src];
    const isa::ptx::Function& f = m.functions[sr.function];
    InstrTiming& t = prog.timing[pc];
    if (sr.instr >= f.instrs.size()) {  // the implicit ret after a body
      t.pipe = Pipe::Control;
      continue;
    }
    const Instr& in = f.instrs[sr.instr];
    t.pipe = classify(in);
    if (in.op == Op::ld || in.op == Op::ldu) t.flags |= l1_bypass(in);
    if (in.op == Op::st || in.op == Op::red || in.op == Op::stmatrix || in.op == Op::st_async ||
        in.op == Op::red_async)
      t.flags |= kFlagStore;
    if (in.op == Op::tcgen05_wait_ld || in.op == Op::tcgen05_wait_st) t.flags |= kFlagWaitLd;
    if ((in.op == Op::barrier_cluster_arrive && in.sem != isa::ptx::Sem::Relaxed) ||
        ((in.op == Op::mbarrier_arrive || in.op == Op::mbarrier_arrive_drop || in.op == Op::mbarrier_expect_tx) &&
         in.sem == isa::ptx::Sem::Release && (in.scope == isa::ptx::Scope::Cluster || in.scope == isa::ptx::Scope::Gpu)))
      t.flags |= kFlagReleaseGpu;
    if (in.op == Op::tcgen05_mma || in.op == Op::wgmma_mma_async || in.op == Op::mma || in.op == Op::wmma_mma)
      t.flags |= kFlagMmaRole;
    if (in.op == Op::cp_async_bulk_tensor || in.op == Op::cp_async_bulk || in.op == Op::cp_async) {
      const bool store = in.nspaces >= 1 && in.spaces[0] == Space::Global;  // .global.shared::cta: a store
      t.flags |= store ? kFlagEpilogue : kFlagTmaRole;
    }
    if (in.op == Op::tcgen05_ld || in.op == Op::cp_reduce_async_bulk_tensor) t.flags |= kFlagEpilogue;
    if (in.op == Op::tcgen05_mma || in.op == Op::tcgen05_cp || in.op == Op::tcgen05_shift) t.queue = QueueKind::TensorCore;
    if (in.op == Op::cp_async_bulk || in.op == Op::cp_async_bulk_tensor || in.op == Op::cp_reduce_async_bulk ||
        in.op == Op::cp_reduce_async_bulk_tensor)
      t.queue = QueueKind::Tma;
    if (t.pipe == Pipe::Mma) t.units = mma_units(in, &t.flops);
    const std::vector<uint32_t>& slots = prog.reg_slots[sr.function];
    std::vector<Ref> srcs, dsts;
    Collect cs{prog, slots, f, srcs};
    Collect cd{prog, slots, f, dsts};
    const bool dst0 = first_is_dst(in);
    // A shared store's data sources go last (InstrTiming::defer, sim/timing/load_hoist.h).
    const bool shared_store = in.op == Op::st && in.ops.size() == 2 && in.nspaces >= 1 &&
                              (in.spaces[0] == Space::Shared || in.spaces[0] == Space::SharedCta);
    for (size_t i = 0; i < in.ops.size(); ++i)
      if (!(shared_store && i == 1)) (i == 0 && dst0 ? cd : cs).operand(in.ops[i]);
    if (in.guard != isa::ptx::kNoReg) cs.reg(in.guard);
    if (shared_store) {
      const size_t before = srcs.size();
      cs.operand(in.ops[1]);
      t.defer = static_cast<uint8_t>(std::min<size_t>(srcs.size() - before, kDeferMask));
    }
    if (t.pipe == Pipe::TmemLd && in.op == Op::tcgen05_ld) t.units = static_cast<uint16_t>(std::max<size_t>(1, dsts.size()));
    if (t.pipe == Pipe::TmemLd && in.op == Op::tcgen05_st) t.units = static_cast<uint16_t>(std::max<size_t>(1, srcs.size()));
    // Asynchronous units own their registers until their wait (wgmma accumulators): no
    // destination latency here (sim/units/wgmma_unit.h); but the unit reads them (C), so it
    // issues only once their pending writes (a load of C, say) are done: they count as sources.
    if (t.pipe == Pipe::Tensor) {
      srcs.insert(srcs.end(), dsts.begin(), dsts.end());
      dsts.clear();
    }
    // A register divisor (the third operand of div/rem) goes first among the sources, for
    // Model::idiv_divisor_extra (sim/sm.cc reads its ready cycle at issue).
    if (t.pipe == Pipe::Idiv && in.ops.size() >= 3 && in.ops[2].kind == OperandKind::Reg) {
      std::vector<Ref> dv;
      Collect{prog, slots, f, dv}.operand(in.ops[2]);
      if (dv.size() == 1) {
        const auto it = std::find(srcs.begin(), srcs.end(), dv[0]);
        if (it != srcs.end()) {
          std::rotate(srcs.begin(), it, it + 1);
          t.flags |= kFlagRegDivisor;
        }
      }
    }
    t.dep_off = static_cast<uint32_t>(prog.timing_deps.size());
    t.nsrc = static_cast<uint8_t>(std::min<size_t>(srcs.size(), 255));
    t.ndst = static_cast<uint8_t>(std::min<size_t>(dsts.size(), 255));
    prog.timing_deps.insert(prog.timing_deps.end(), srcs.begin(), srcs.begin() + t.nsrc);
    prog.timing_deps.insert(prog.timing_deps.end(), dsts.begin(), dsts.begin() + t.ndst);
  }
  annotate_load_hoist(prog);
}

}  // namespace tcsim::sim::timing
