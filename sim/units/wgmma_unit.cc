// The warpgroup tensor core of sm_90a: see wgmma_unit.h for the life of an operation.
#include "sim/checker/proxy.h"
#include "sim/report/report.h"
#include "sim/units/wgmma_unit.h"
#include "sim/timing/model.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "isa/descriptors/smem_desc.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/ptx/ir.h"
#include "sim/cta.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/units/async_groups.h"
#include "sim/warp.h"

namespace tcsim::sim {

namespace {

constexpr std::string_view kSecMma = "PTX ISA §9.7.15.5.2";
constexpr std::string_view kSecDesc = "PTX ISA §9.7.15.5.1.2.2";
constexpr std::string_view kSecWarpgroup = "PTX ISA §9.7.15.1";
constexpr std::string_view kSecAsync = "PTX ISA §9.7.15.7";

// One wgmma.mma_async of a warpgroup: the k-th wgmma of each of its 4 warps.
struct WgmmaOp {
  uint64_t seq = 0;
  const ExecInstr* instr = nullptr;
  const WgmmaForm* form = nullptr;
  uint8_t arrived = 0;  // bit w: warp w of the warpgroup has issued it
  uint64_t desc_a = 0, desc_b = 0;
  std::optional<isa::CanonicalLayout> plan_a, plan_b;
  bool scale_d = true;
  std::array<Warp*, 4> warps{};
  std::array<std::array<uint32_t, 32 * 4>, 4> a_frag{};  // [warp][lane * 4 + register]
};

// Register slots of one issued, not yet waited-for operation (the checker's view).
struct Inflight {
  uint64_t seq;
  const ExecInstr* instr;
  std::vector<uint32_t> acc;   // accumulator registers
  std::vector<uint32_t> afrag; // A-fragment registers (A from registers)
};

struct WarpState {
  bool fenced = false;
  bool fence_reported = false;
  std::deque<Inflight> inflight;
  std::vector<uint64_t> watch;  // bitset over register slots: union of `inflight`
  uint64_t reported_seq = ~uint64_t{0};
};

struct WarpgroupState {
  std::deque<WgmmaOp> ops;  // operations from sequence number `completed` on
  uint64_t completed = 0;   // operations [0, completed) have landed
  Cycles last_done{0};
  std::array<WarpState, 4> warp;
};

}  // namespace

struct WgmmaState {
  std::vector<WarpgroupState> wg;
  AsyncGroups groups;  // wgmma-groups, one owner per warp of the CTA (sim/units/async_groups.h)
};

namespace {

WgmmaState& state(ExecCtx& c) {
  Cta& cta = *c.cta;
  if (!cta.wgmma) {
    cta.wgmma = std::make_shared<WgmmaState>();
    cta.wgmma->wg.resize((cta.warps().size() + 3) / 4);
  }
  return *cta.wgmma;
}

// The warpgroup of the executing warp: 4 whole warps 4g..4g+3 of the CTA, all 32 threads of this
// warp executing convergently (.sync.aligned, §9.7.15.1).
uint32_t warpgroup_of(ExecCtx& c, std::string_view what) {
  const Cta& cta = *c.cta;
  const uint32_t w = c.warp->id(), g = w / 4;
  if ((g + 1) * 4 > cta.warps().size())
    c.fail(-1, fmt::format("{}: warp {} is in warpgroup {} (warps {}-{}), but the CTA has only {} threads: a "
                           "warpgroup is 4 whole warps whose first warp index is a multiple of 4 ({})",
                           what, w, g, 4 * g, 4 * g + 3, cta.num_threads(), kSecWarpgroup));
  for (uint32_t k = 0; k < 4; ++k)
    if (cta.warps()[4 * g + k]->valid() != 0xffffffffu)
      c.fail(-1, fmt::format("{}: warp {} of warpgroup {} has fewer than 32 threads ({} threads in the CTA): a "
                             "warpgroup is 128 threads ({})",
                             what, 4 * g + k, g, cta.num_threads(), kSecWarpgroup));
  if (c.mask != 0xffffffffu)
    c.fail(__builtin_ctz(c.mask),
           fmt::format("{}.sync.aligned must be executed by all threads of the warpgroup convergently, but only "
                       "lanes 0x{:08x} of warp {} execute it here ({}: undefined otherwise)",
                       what, c.mask, w, kSecWarpgroup));
  return g;
}

uint64_t uniform_value(ExecCtx& c, Ref r, std::string_view what) {
  const uint64_t* v = c.src(r);
  for (int l = 1; l < 32; ++l)
    if (v[l] != v[0])
      c.fail(l, fmt::format("wgmma.mma_async: the {} differs between threads of the warp (lane 0: 0x{:x}, lane {}: "
                            "0x{:x}); it must be the same in every thread of the warpgroup ({})",
                            what, v[0], l, v[l], kSecMma));
  return v[0];
}

// Decodes and validates a matrix descriptor, and plans its canonical layout.
isa::CanonicalLayout make_plan(ExecCtx& c, uint64_t raw, const WgmmaForm& f, bool is_a) {
  const char* opnd = is_a ? "A" : "B";
  const isa::Major major = (is_a ? f.trans_a : f.trans_b) ? isa::Major::MN : isa::Major::K;
  const isa::SmemDesc d = isa::decode_smem_desc(raw, isa::Arch::Sm90a);
  isa::SmemDescContext ctx;
  ctx.arch = isa::Arch::Sm90a;
  ctx.major = major;
  if (!f.b1) ctx.dtype = is_a ? f.atype : f.btype;
  ctx.operand = opnd;
  const isa::Violations v = isa::validate_smem_desc(d, ctx);
  if (!v.empty()) {
    std::string why;
    for (const auto& x : v) why += fmt::format("{}{}", why.empty() ? "" : "; ", x.to_string());
    c.fail(-1, fmt::format("wgmma.mma_async: the {} descriptor 0x{:016x} is illegal: {} (fields: {})", opnd, raw, why,
                           isa::smem_desc_fields_text(raw, isa::Arch::Sm90a)));
  }
  auto p = isa::CanonicalLayout::make(d, f.fmt, major);
  if (!p)
    c.fail(-1, fmt::format("wgmma.mma_async: the {} descriptor 0x{:016x} has no canonical layout: {} (fields: {})",
                           opnd, raw, p.error().message, isa::smem_desc_fields_text(raw, isa::Arch::Sm90a)));
  if (p->max_k() && static_cast<uint32_t>(f.k_elems) > p->max_k())
    c.fail(-1, fmt::format("wgmma.mma_async: operand {} is K-major with {}: one swizzle row holds {} elements, the "
                           "instruction reads K = {} ({} bytes) from it ({}; descriptor 0x{:016x})",
                           opnd, isa::layout_label(d.layout), p->max_k(), f.k_elems, f.k_elems * f.elem_bytes,
                           kSecDesc, raw));
  return std::move(*p);
}

void set_bits(std::vector<uint64_t>& bits, const std::vector<uint32_t>& slots) {
  for (uint32_t s : slots) {
    if (s / 64 >= bits.size()) bits.resize(s / 64 + 1, 0);
    bits[s / 64] |= uint64_t{1} << (s % 64);
  }
}
bool test_bit(const std::vector<uint64_t>& bits, uint32_t s) {
  return s / 64 < bits.size() && (bits[s / 64] >> (s % 64) & 1);
}

void rebuild_watch(WarpState& ws, Warp& w);

// Warp::RegWatch of a warp with wgmmas in flight: an instruction that reads or writes one of their
// registers before wgmma.wait_group is reported (§9.7.15.7.3 calls it undefined) and waits until
// that wgmma has landed, as the GPU runs it: ptxas serialises the wgmma when the program touches
// its registers early (the H200 gives the exact product for kernels/bugs hw_no_wait_group_0 and
// hw_no_wgmma_commit: kernels/bugs/results/h200.tsv).
bool watch_registers(ExecCtx& c, const ExecInstr& in) {
  if (!c.cta->wgmma) return false;
  const uint32_t w = c.warp->id();
  WarpState& ws = c.cta->wgmma->wg[w / 4].warp[w % 4];
  if (ws.inflight.empty()) return false;
  const Program& prog = *c.prog;
  const SourceRef& src = prog.sources[in.src];
  const isa::ptx::Function& fn = prog.module->functions[src.function];
  if (src.instr >= fn.instrs.size()) return false;  // the implicit ret
  const isa::ptx::Instr& ir = fn.instrs[src.instr];
  using isa::ptx::Op;
  if (ir.op == Op::wgmma_fence || ir.op == Op::wgmma_commit_group || ir.op == Op::wgmma_wait_group) return false;
  const std::vector<uint32_t>& slots = prog.reg_slots[src.function];
  std::vector<uint32_t> touched;
  auto visit = [&](const isa::ptx::Operand& o, auto&& self) -> void {
    if (o.kind == isa::ptx::OperandKind::Reg) {
      if (fn.regs[o.reg].type != isa::ptx::Type::Pred && test_bit(ws.watch, slots[o.reg])) touched.push_back(o.reg);
      return;
    }
    for (const auto& e : o.elems) self(e, self);
  };
  for (const auto& o : ir.ops) visit(o, visit);
  if (touched.empty()) return false;
  if (ir.op == Op::wgmma_mma_async) {
    // Accumulating into the same registers as an operation in flight is the ordered exception
    // (§9.7.15.7.1: same shape, no fence needed); touching its A fragment or other registers is not.
    const ExecOperand* ops = &prog.operands[in.first_op];
    const auto* form = static_cast<const WgmmaForm*>(prog.family_data[in.aux].get());
    std::vector<uint32_t> acc;
    for (int i = 0; i < form->nd; ++i) acc.push_back(ops[i].ref);
    bool same_acc = false;
    for (const Inflight& f : ws.inflight) same_acc = same_acc || f.acc == acc;
    if (same_acc) {
      std::erase_if(touched, [&](uint32_t r) {
        return std::find(acc.begin(), acc.end(), slots[r]) != acc.end();
      });
      if (touched.empty()) return false;
    }
  }
  // The newest operation owning a touched register.
  const uint32_t slot = slots[touched.front()];
  const Inflight* owner = nullptr;
  bool is_acc = false;
  for (const Inflight& f : ws.inflight) {
    if (std::find(f.acc.begin(), f.acc.end(), slot) != f.acc.end()) owner = &f, is_acc = true;
    else if (std::find(f.afrag.begin(), f.afrag.end(), slot) != f.afrag.end()) owner = &f, is_acc = false;
  }
  if (!owner) return false;
  const bool pending = owner->seq >= c.cta->wgmma->wg[w / 4].completed;  // not landed yet: wait
  if (owner->seq == ws.reported_seq) return pending;
  ws.reported_seq = owner->seq;
  const isa::ptx::Instr& wir = prog.instr_of(*owner->instr);
  std::string names;
  for (size_t i = 0; i < touched.size() && i < 4; ++i)
    names += fmt::format("{}{}", i ? ", " : "", fn.regs[touched[i]].name);
  report(c, Rule::WgmmaRegisterInFlight, -1,
         fmt::format("checker: {} {} the {} of the wgmma.mma_async at {}:{}, which warp {} has not waited for with "
                     "wgmma.wait_group: accessing it before the wait is undefined ({}.3)",
                     names, touched.size() > 1 ? "are registers of" : "is a register of",
                     is_acc ? "accumulator" : "A fragment", c.launch->ptx_name, wir.loc.line, c.warp->id(), kSecAsync),
         owner->instr->src);
  return pending;
}

void rebuild_watch(WarpState& ws, Warp& w) {
  ws.watch.assign(ws.watch.size(), 0);
  for (const Inflight& f : ws.inflight) {
    set_bits(ws.watch, f.acc);
    set_bits(ws.watch, f.afrag);
  }
  w.reg_watch = ws.inflight.empty() ? nullptr : &watch_registers;
}

// ---- completion ------------------------------------------------------------------------------

// Reads the rows x k tile of an operand through its plan into codes (row-major).
void gather(const Cta& cta, const isa::CanonicalLayout& plan, int rows, int k, int eb, const char* opnd,
            std::vector<uint32_t>& out) {
  thread_local std::vector<isa::SmemLocation> loc;
  const size_t n = static_cast<size_t>(rows) * k;
  loc.resize(n);
  out.resize(n);
  plan.locate_tile(0, static_cast<uint32_t>(rows), 0, static_cast<uint32_t>(k), loc.data());
  const uint8_t* smem = const_cast<Cta&>(cta).shared();
  const uint32_t size = cta.smem_bytes();
  // Element width as a compile-time constant: a fixed-size memcpy is one load (the hot loop of
  // every wgmma).
  auto run = [&]<int Eb>() {
    for (size_t i = 0; i < n; ++i) {
      const uint32_t a = loc[i].byte;
      if (a > size - Eb)
        throw SimFault(-1, fmt::format("wgmma.mma_async: element ({}, {}) of operand {} is at shared address 0x{:x}, "
                                       "outside the CTA's {} bytes of shared memory (layout: {})",
                                       i / k, i % k, opnd, a, size, plan.describe()));
      uint32_t v = 0;
      std::memcpy(&v, smem + a, Eb);
      out[i] = v;
    }
  };
  switch (eb) {
    case 1: return run.template operator()<1>();
    case 2: return run.template operator()<2>();
    default: return run.template operator()<4>();
  }
}

void compute(WgmmaOp& op, Cta& cta, const Program& prog) {
  const WgmmaForm& f = *op.form;
  const int n = f.n, k = f.k_elems, eb = f.elem_bytes;
  thread_local std::vector<uint32_t> A, B, C, D;
  // A: 64 x K
  if (f.a_regs) {
    // Register j of thread t: row 16w + g + 8(j & 1), bytes [4q + 16(j >> 1), +4) of the 32-byte
    // K-step (§9.7.15.5.1.1; docs/mma_fragments.md §2).
    uint8_t bytes[64 * 32];
    for (int w = 0; w < 4; ++w)
      for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < 4; ++j) {
          const int g = lane >> 2, q = lane & 3;
          const int row = 16 * w + g + 8 * (j & 1), off = 4 * q + 16 * (j >> 1);
          std::memcpy(bytes + row * 32 + off, &op.a_frag[w][lane * 4 + j], 4);
        }
    A.resize(static_cast<size_t>(64) * k);
    for (int r = 0; r < 64; ++r)
      for (int kk = 0; kk < k; ++kk) {
        uint32_t v = 0;
        std::memcpy(&v, bytes + r * 32 + kk * eb, eb);
        A[static_cast<size_t>(r) * k + kk] = v;
      }
  } else {
    gather(cta, *op.plan_a, 64, k, eb, "A", A);
  }
  gather(cta, *op.plan_b, n, k, eb, "B", B);
  // C from the accumulators: register i of thread t (warp w, g, q): row 16w + g + 8((i >> 1) & 1),
  // column 8(i >> 2) + 2q + (i & 1); f16 D: element i in half i & 1 of register i / 2. For a given
  // (w, i) the lanes add lane_off[lane] = g * N + 2q to base(w, i).
  const ExecOperand* ops = &prog.operands[op.instr->first_op];
  const int elems = n / 2;  // accumulator elements per thread
  const size_t total = static_cast<size_t>(64) * n;
  C.resize(total);
  D.resize(total);
  uint32_t lane_off[32];
  for (int lane = 0; lane < 32; ++lane) lane_off[lane] = static_cast<uint32_t>((lane >> 2) * n + 2 * (lane & 3));
  auto base = [&](int w, int i) {
    return static_cast<size_t>(16 * w + 8 * ((i >> 1) & 1)) * n + 8 * (i >> 2) + (i & 1);
  };
  if (op.scale_d) {
    for (int w = 0; w < 4; ++w) {
      const uint64_t* regs = op.warps[w]->regs();
      for (int i = 0; i < elems; ++i) {
        uint32_t* c = C.data() + base(w, i);
        if (f.acc_bits == 16) {
          const uint64_t* r = regs + uint64_t{ops[i / 2].ref} * 32;
          const int sh = 16 * (i & 1);
          for (int lane = 0; lane < 32; ++lane) c[lane_off[lane]] = static_cast<uint32_t>(r[lane] >> sh) & 0xffff;
        } else {
          const uint64_t* r = regs + uint64_t{ops[i].ref} * 32;
          for (int lane = 0; lane < 32; ++lane) c[lane_off[lane]] = static_cast<uint32_t>(r[lane]);
        }
      }
    }
  } else {
    std::fill(C.begin(), C.end(), 0u);  // scale-d false: D = A * B (a +0 C changes nothing, ZeroSign::Positive)
  }
  if (f.b1) {
    // D = C + sum over K of popc(A AND B) (§9.7.15.5.2 .and.popc), wrapping in s32.
    for (int r = 0; r < 64; ++r)
      for (int col = 0; col < n; ++col) {
        uint32_t s = C[static_cast<size_t>(r) * n + col];
        for (int kk = 0; kk < k; ++kk)
          s += static_cast<uint32_t>(__builtin_popcount(A[static_cast<size_t>(r) * k + kk] & B[static_cast<size_t>(col) * k + kk]));
        D[static_cast<size_t>(r) * n + col] = s;
      }
  } else {
    f.engine->tile(64, n, A.data(), B.data(), C.data(), D.data());
  }
  for (int w = 0; w < 4; ++w) {
    uint64_t* regs = op.warps[w]->regs();
    if (f.acc_bits == 16) {
      for (int p = 0; p < f.nd; ++p) {
        if (ops[p].is_sink) continue;
        uint64_t* r = regs + uint64_t{ops[p].ref} * 32;
        const uint32_t* lo = D.data() + base(w, 2 * p);
        const uint32_t* hi = D.data() + base(w, 2 * p + 1);
        for (int lane = 0; lane < 32; ++lane)
          r[lane] = (lo[lane_off[lane]] & 0xffff) | (uint64_t{hi[lane_off[lane]] & 0xffff} << 16);
      }
    } else {
      for (int i = 0; i < elems; ++i) {
        if (ops[i].is_sink) continue;
        uint64_t* r = regs + uint64_t{ops[i].ref} * 32;
        const uint32_t* d = D.data() + base(w, i);
        for (int lane = 0; lane < 32; ++lane) r[lane] = d[lane_off[lane]];
      }
    }
  }
}

void land(const std::weak_ptr<WgmmaState>& weak, Cta* cta, uint32_t g, Partition* part, const LaunchState* L,
          Cycles now) {
  const std::shared_ptr<WgmmaState> s = weak.lock();
  if (!s) return;  // the CTA is gone (its warps exited without waiting)
  WarpgroupState& wg = s->wg[g];
  WgmmaOp& op = wg.ops.front();
  try {
    if (!L->timing_only) compute(op, *cta, *L->prog);  // --timing-only: no arithmetic (sim/api.h)
  } catch (const SimFault& f) {
    part->record_fault(now, cta->sm().id(), format_fault(*L, *op.warps[0], *op.instr, -1, now, f.what()));
  }
  const std::array<Warp*, 4> warps = op.warps;
  const uint64_t seq = op.seq;
  wg.ops.pop_front();
  ++wg.completed;
  for (Warp* w : warps) {
    s->groups.complete(w->id(), seq, now);
    w->wake_async();
  }
}

}  // namespace

void wgmma_fence(ExecCtx& c) {
  const uint32_t g = warpgroup_of(c, "wgmma.fence");
  state(c).wg[g].warp[c.warp->id() % 4].fenced = true;
}

void wgmma_commit(ExecCtx& c) {
  (void)warpgroup_of(c, "wgmma.commit_group");
  state(c).groups.commit(c.warp->id(), c.now);  // possibly empty (§9.7.15.7.2)
}

void wgmma_wait(ExecCtx& c, uint32_t pending_allowed) {
  const uint32_t g = warpgroup_of(c, "wgmma.wait_group");
  WgmmaState& st = state(c);
  WarpState& ws = st.wg[g].warp[c.warp->id() % 4];
  const AsyncGroups::Wait w = st.groups.wait(c.warp->id(), pending_allowed, false, c.now);
  if (!w.ready) {
    c.flow = Flow::WaitAsync;  // a completion wakes the warpgroup's warps
    return;
  }
  // Registers of the operations this wait covers are the program's again.
  const size_t before = ws.inflight.size();
  while (!ws.inflight.empty() && ws.inflight.front().seq < w.covered) ws.inflight.pop_front();
  if (ws.inflight.size() != before) rebuild_watch(ws, *c.warp);
}

void wgmma_issue(ExecCtx& c, const ExecInstr& in, const WgmmaForm& f) {
  const uint32_t g = warpgroup_of(c, "wgmma.mma_async");
  WgmmaState& st = state(c);
  WarpgroupState& wg = st.wg[g];
  const uint32_t wi = c.warp->id() % 4;
  WarpState& ws = wg.warp[wi];
  if (!ws.fenced && !ws.fence_reported) {
    ws.fence_reported = true;
    report(c, Rule::WgmmaFenceMissing, -1,
           fmt::format("checker: warp {} issues wgmma.mma_async without a wgmma.fence before it; the fence is required "
                       "before the first wgmma.mma_async and after register accesses it depends on ({}.1)",
                       c.warp->id(), kSecAsync));
  }
  const ExecOperand* ops = &c.op(in, 0);
  const ExecOperand& a_op = ops[f.nd];
  const ExecOperand& b_op = ops[f.nd + (f.a_regs ? 4 : 1)];
  const uint64_t desc_b = uniform_value(c, b_op.ref, "B descriptor");
  const uint64_t desc_a = f.a_regs ? 0 : uniform_value(c, a_op.ref, "A descriptor");
  bool scale_d = f.scale_d != 0;
  if (f.scale_d < 0) {
    const uint32_t p = c.pred(in.o[0]);
    if (p != 0 && p != 0xffffffffu)
      c.fail(-1, fmt::format("wgmma.mma_async: the scale-d predicate differs between threads (mask 0x{:08x}); it must "
                             "be the same in the whole warpgroup ({})",
                             p, kSecMma));
    scale_d = (p != 0) != f.scale_d_negated;
  }
  const uint64_t seq = st.groups.add(c.warp->id());
  const size_t idx = static_cast<size_t>(seq - wg.completed);
  while (wg.ops.size() <= idx) {
    wg.ops.emplace_back();
    wg.ops.back().seq = wg.completed + wg.ops.size() - 1;
  }
  WgmmaOp& op = wg.ops[idx];
  if (op.arrived == 0) {
    op.instr = &in;
    op.form = &f;
    op.desc_a = desc_a;
    op.desc_b = desc_b;
    op.scale_d = scale_d;
    if (!f.a_regs) op.plan_a = make_plan(c, desc_a, f, true);
    op.plan_b = make_plan(c, desc_b, f, false);
  } else {
    int first = 0;
    while (!(op.arrived >> first & 1)) ++first;
    const uint32_t other = 4 * g + static_cast<uint32_t>(first);
    if (op.instr != &in) {
      const isa::ptx::Instr& oi = c.prog->instr_of(*op.instr);
      c.fail(-1, fmt::format("wgmma.mma_async: this is wgmma #{} of warp {}, but warp {} of the warpgroup issued its "
                             "wgmma #{} at {}:{}: every warp of the warpgroup must execute the same wgmma "
                             "instructions in the same order ({})",
                             seq, c.warp->id(), other, seq, c.launch->ptx_name, oi.loc.line, kSecWarpgroup));
    }
    if (op.desc_a != desc_a || op.desc_b != desc_b)
      c.fail(-1, fmt::format("wgmma.mma_async: warp {} passes descriptors A 0x{:016x}, B 0x{:016x}, but warp {} passed A "
                             "0x{:016x}, B 0x{:016x} for the same operation; the descriptors must be identical in the "
                             "whole warpgroup ({})",
                             c.warp->id(), desc_a, desc_b, other, op.desc_a, op.desc_b, kSecMma));
    if (op.scale_d != scale_d)
      c.fail(-1, fmt::format("wgmma.mma_async: warp {} has scale-d {}, warp {} had {} for the same operation ({})",
                             c.warp->id(), int(scale_d), other, int(op.scale_d), kSecMma));
  }
  if (op.arrived >> wi & 1) c.fail(-1, "internal: warp issued the same wgmma operation twice");
  Inflight fl;
  fl.seq = seq;
  fl.instr = &in;
  for (int i = 0; i < f.nd; ++i)
    if (!ops[i].is_sink) fl.acc.push_back(ops[i].ref);
  if (f.a_regs)
    for (int j = 0; j < 4; ++j) {
      const Ref r = ops[f.nd + j].ref;
      const uint64_t* v = c.src(r);
      for (int lane = 0; lane < 32; ++lane) op.a_frag[wi][lane * 4 + j] = static_cast<uint32_t>(v[lane]);
      if (!(r & kRefImm)) fl.afrag.push_back(r);
    }
  op.warps[wi] = c.warp;
  op.arrived |= static_cast<uint8_t>(1u << wi);
  set_bits(ws.watch, fl.acc);
  set_bits(ws.watch, fl.afrag);
  ws.inflight.push_back(std::move(fl));
  c.warp->reg_watch = &watch_registers;
  if (op.arrived != 0xf) return;
  // Every warp has issued it: it enters the SM's tensor pipe (shared by every warpgroup of the SM)
  // and reads its operands through the shared-memory port (sim/timing/model.h: II = max(N/2, SMEM
  // cycles), latency wgmma.latency + N/2; kernels/ubench wgmma rows); results land in issue order.
  const timing::Model& tmodel = *c.launch->timing;
  const timing::Model::Wgmma tw = tmodel.wgmma(static_cast<uint32_t>(f.n), f.a_regs);
  timing::SmTiming& sm_t = c.sm->timing();
  const uint64_t ii_q = timing::to_q(tw.ii), smem_q = timing::to_q(tw.smem_cycles);
  const uint64_t start_q = std::max(c.now.count() * timing::kQ, sm_t.tensor_free_q);
  const uint64_t port_q = std::max(start_q, sm_t.smem_free_q);
  sm_t.smem_free_q = port_q + smem_q;
  sm_t.smem_busy_q += smem_q;
  const uint64_t end_q = std::max(start_q + ii_q, sm_t.smem_free_q);
  sm_t.tensor_free_q = end_q;
  sm_t.tensor_busy_q += end_q - start_q;
  c.part->timing().flops += 2ull * 64 * static_cast<uint64_t>(f.n) * static_cast<uint64_t>(f.k);
  if (c.part->timing().trace)
    c.part->timing().add_trace({(end_q - ii_q) / timing::kQ, ii_q / timing::kQ, c.sm->id(), timing::kTrackTensor, 'X',
                                fmt::format("wgmma n{}", f.n), ""});
  const Cycles done = max(timing::from_q(end_q - ii_q) + Cycles(static_cast<uint64_t>(tw.latency)), wg.last_done);
  wg.last_done = done;
  // Checker: the shared-memory operands are read by the async proxy until `done` (the proxy fence,
  // a copy still writing them, and later writes before `done`: sim/checker/proxy.h).
  if (c.checking()) {
    auto window = [&](const isa::CanonicalLayout& plan, int rows, const char* what) {
      thread_local std::vector<isa::SmemLocation> loc;
      loc.resize(static_cast<size_t>(rows) * f.k_elems);
      plan.locate_tile(0, static_cast<uint32_t>(rows), 0, static_cast<uint32_t>(f.k_elems), loc.data());
      uint32_t lo = ~0u, hi = 0;
      for (const isa::SmemLocation& l : loc)
        lo = std::min(lo, l.byte), hi = std::max(hi, l.byte + static_cast<uint32_t>(f.elem_bytes));
      if (hi > lo) proxy::mma_operand(c, __builtin_ctz(c.mask), *c.cta, lo, hi - lo, done, what);
    };
    if (op.plan_a) window(*op.plan_a, 64, "wgmma.mma_async operand A");
    window(*op.plan_b, f.n, "wgmma.mma_async operand B");
  }
  std::weak_ptr<WgmmaState> weak = c.cta->wgmma;
  Cta* cta = c.cta;
  Partition* part = c.part;
  const LaunchState* L = c.launch;
  c.part->events().post(done, EventPriority::AsyncDataLand,
                        [weak, cta, g, part, L](Cycles now) { land(weak, cta, g, part, L, now); });
}

}  // namespace tcsim::sim
