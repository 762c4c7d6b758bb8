// PTX ISA §9.7.13.5 atom, §9.7.13.6 red (Parallel Synchronization and Communication):
//   atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type        d, [a], b{, cache-policy};
//   atom{.sem}{.scope}{.space}.cas.type                          d, [a], b, c;
//   atom{.sem}{.scope}{.space}.cas.b16 / .cas.b128 / .exch.b128  d, [a], b{, c};
//   atom{.sem}{.scope}{.space}.add.noftz{.level::cache_hint}.{f16,f16x2,bf16,bf16x2}  d, [a], b;
//   atom{.sem}{.scope}{.global}.add{.level::cache_hint}.{v2,v4}.f32                   d, [a], b;
//   atom{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.{v2,v4,v8}.{f16,bf16}    d, [a], b;
//   atom{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.{v2,v4}.{f16x2,bf16x2}   d, [a], b;
//   red: the same without d, without .cas/.exch, .sem = { .relaxed, .release }.
//   .space = { .global, .shared{::cta, ::cluster} } or generic; .sem = { .relaxed, .acquire,
//   .release, .acq_rel }; .scope = { .cta, .cluster, .gpu, .sys }; vector .op = { .add, .min, .max }
// The legal (op, type) pairs are those ptxas 13.0 accepts for sm_90a and sm_100a (kLegal below);
// the arithmetic is the element RMW ALU (sim/memory/rmw.h).
//
// Where an atomic takes effect:
//  - shared memory (.shared, .shared::cta, generic addresses in the shared window): at once, lane
//    by lane in lane order. Shared memory belongs to one CTA, simulated by one host thread, so this
//    is deterministic. `.shared::cluster` goes through cluster_shared() — the one place where
//    distributed shared memory plugs in (a cluster's CTAs share one partition, so applying at
//    once stays deterministic).
//  - global memory: checked now, applied at the quantum boundary in (cycle, SM, CTA, warp, lane)
//    order, the issuing thread group sleeping until then (sim/memory/rmw_log.h says why).
//    This holds for red as well: a thread's later load or store of the same address must observe
//    its reduction (coherence, PTX ISA §8), and a barrier after it must find it performed.
// Scopes and semantics are accepted and honoured trivially: every atomic is performed at one point
// in the single order above, which is at least as strong as any scope or .sem asks.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/memory/rmw.h"
#include "sim/memory/rmw_log.h"
#include "sim/timing/memory.h"
#include "sim/timing/model.h"

namespace tcsim::sim {
namespace {

using AOp = rmw::Op;
using AType = rmw::Type;
using isa::ptx::Mod;
using isa::ptx::OperandKind;
using isa::ptx::Space;
using isa::ptx::Type;

// ---- where the element lives ---------------------------------------------------------------

// The element of a .shared::cluster (or generic) access: any CTA of the cluster (sim/memory/dsmem.h).
inline uint8_t* cluster_shared(ExecCtx& c, int lane, uint64_t addr, uint32_t size) {
  return mem::shared_ptr(c, lane, addr, size, true, true, /*rmw=*/true);
}

enum class Where : uint8_t { Shared, Cluster, Global };

// Resolves lane's address for an access of `size` bytes in space S (Generic: by window) and checks
// alignment and bounds. Global: returns nullptr (the access is deferred); shared: the bytes.
// `reads`: the new value depends on the old one (every operation but exch): initcheck.
template <Space S>
inline uint8_t* locate(ExecCtx& c, int lane, uint64_t& addr, uint32_t size, Where& where, mem::GlobalCache& gc,
                       bool global_only, bool reads = true) {
  Space sp = S;
  if constexpr (S == Space::Generic) {
    switch (addr::classify(addr)) {
      case addr::Window::Global: sp = Space::Global; break;
      case addr::Window::Shared:
        if (global_only)
          c.fail(lane, fmt::format("a vector atom/red needs a global address; generic address 0x{:x} is in shared "
                                   "memory (PTX ISA §9.7.13.5)", addr));
        sp = Space::SharedCluster;  // a generic address may name a peer CTA's shared memory
        addr = mem::generic_to_shared(addr);
        break;
      default:
        c.fail(lane, fmt::format("atom/red at generic address 0x{:x}: the address is in neither global nor shared "
                                 "memory (atomics are defined on .global and .shared only, PTX ISA §9.7.13.5){}",
                                 addr, addr < 0x10000 ? " - a null or small-integer pointer?" : ""));
    }
  }
  if (addr & (size - 1)) mem::misaligned(c, lane, sp, true, addr, size);
  if (sp == Space::Global) {
    mem::check_global(c, lane, addr, size, true, false, gc);
    if (reads) mem::check_global_init(c, lane, gc.last, addr, size);
    where = Where::Global;
    return nullptr;
  }
  if (sp == Space::SharedCluster) {
    where = Where::Cluster;
    return cluster_shared(c, lane, addr, size);
  }
  where = Where::Shared;
  return mem::shared_ptr(c, lane, addr, size, true, false, /*rmw=*/true);
}

// The issuing group waits for its global atomics until the quantum boundary. Every lane of the
// group waits (not only the executing ones), so a predicated atomic does not split the warp.
// The wait is the atomic's latency at the L2 (sim/timing/memory.h), and at least until the boundary,
// where the old values are computed.
inline void sleep_until_boundary(ExecCtx& c, uint32_t latency) {
  c.mask = c.group_mask;
  c.flow = Flow::Sleep;
  c.target = std::max(static_cast<uint32_t>((c.part->quantum_end() - c.now).count()), latency);
}

inline RmwRecord record(ExecCtx& c, const ExecInstr& in, int lane, uint64_t addr, RmwApplyFn fn) {
  RmwRecord r;
  r.cycle = c.now.count();
  r.sm = c.sm->id();
  r.cta = c.cta->linear_id();
  r.warp = c.warp->id();
  r.lane = static_cast<uint32_t>(lane);
  r.addr = addr;
  r.w = c.warp;
  r.in = &in;
  r.ops = &c.op(in, 0);
  r.apply = fn;
  return r;
}

// ---- scalar forms (up to 64 bits) ------------------------------------------------------------
// o[0] = d (the sink slot for red), o[1] = b, o[2] = c (cas; else b again), first_op = the address.

// Global-memory application at the quantum boundary: f32 .add flushes subnormals there
// (§9.7.13.5 "atom.add.f32 on global memory flushes subnormal inputs and results").
template <AOp Op, AType T>
void apply_scalar(GlobalMemory& gm, const RmwRecord& r) {
  constexpr uint32_t N = rmw::type_bytes(T);
  uint8_t* p = gm.host(r.addr);
  gm.mark_initialised(r.addr, N);
  uint64_t old = 0;
  std::memcpy(&old, p, N);
  const uint64_t v = rmw::alu<Op, T, true>(old, r.b[0], r.c[0]);
  std::memcpy(p, &v, N);
  r.w->regs()[uint64_t{r.in->o[0]} * 32 + r.lane] = old;
}

template <AOp Op, AType T, Space S>
void exec_scalar(ExecCtx& c, const ExecInstr& in) {
  constexpr uint32_t N = rmw::type_bytes(T);
  const ExecOperand& a = c.op(in, 0);
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* b = c.src(in.o[1]);
  const uint64_t* cv = c.src(in.o[2]);
  mem::GlobalCache gc;
  bool deferred = false;
  uint64_t where_addr[32] = {};
  uint32_t shared_lanes = 0, global_lanes = 0;
  for_lanes(c.mask, [&](int lane) {
    uint64_t addr = mem::lane_address(c, a, lane);
    Where where;
    uint8_t* p = locate<S>(c, lane, addr, N, where, gc, false, Op != AOp::Exch);
    where_addr[lane] = where == Where::Shared ? static_cast<uint64_t>(p - c.cta->shared()) : addr;
    if (p) {
      shared_lanes |= where == Where::Shared ? 1u << lane : 0u;
      uint64_t old = 0;
      std::memcpy(&old, p, N);
      const uint64_t v = rmw::alu<Op, T, false>(old, b[lane], cv[lane]);
      std::memcpy(p, &v, N);
      d[lane] = old;
    } else {
      global_lanes |= 1u << lane;
      RmwRecord r = record(c, in, lane, addr, &apply_scalar<Op, T>);
      r.b[0] = b[lane];
      r.c[0] = cv[lane];
      c.part->rmw_log().push(r);
      deferred = true;
    }
  });
  constexpr timing::AtomKind kind =
      Op == AOp::Cas ? timing::AtomKind::Cas
      : Op != AOp::Add ? timing::AtomKind::Int
      : T == AType::F64 ? timing::AtomKind::F64
      : (T == AType::F16 || T == AType::BF16) ? timing::AtomKind::Emulated16
      : (T == AType::F32 || T == AType::F16x2 || T == AType::BF16x2) ? timing::AtomKind::Float
      : timing::AtomKind::Int;
  c.latency = timing::shared_atomic_latency(c, where_addr, shared_lanes, N, kind);
  if (deferred) sleep_until_boundary(c, timing::global_atomic_latency(c, where_addr, global_lanes, kind));
}

// ---- .b128 (cas, exch; sm_90+) -------------------------------------------------------------
// o[0], o[1], o[2]: the first slots of the d, b, c register pairs (lo, hi); aux bit 12: cas.

inline void rmw128(uint8_t* p, bool cas, const uint64_t b[2], const uint64_t cv[2], uint64_t old[2]) {
  std::memcpy(old, p, 16);
  if (!cas) std::memcpy(p, b, 16);
  else if (old[0] == b[0] && old[1] == b[1]) std::memcpy(p, cv, 16);
}

void apply_b128(GlobalMemory& gm, const RmwRecord& r) {
  uint64_t old[2];
  rmw128(gm.host(r.addr), (r.in->aux >> 12 & 1) != 0, r.b, r.c, old);
  gm.mark_initialised(r.addr, 16);
  uint64_t* regs = r.w->regs();
  regs[uint64_t{r.in->o[0]} * 32 + r.lane] = old[0];
  if (r.in->o[0] != kSinkSlot) regs[(uint64_t{r.in->o[0]} + 1) * 32 + r.lane] = old[1];
}

template <Space S>
void exec_b128(ExecCtx& c, const ExecInstr& in) {
  const bool cas = (in.aux >> 12 & 1) != 0;
  const ExecOperand& a = c.op(in, 0);
  auto pair = [&](Ref r, int lane, uint64_t v[2]) {
    v[0] = c.src(r)[lane];
    v[1] = (r & kRefImm) ? 0 : c.src(r + 1)[lane];
  };
  mem::GlobalCache gc;
  bool deferred = false;
  for_lanes(c.mask, [&](int lane) {
    uint64_t addr = mem::lane_address(c, a, lane);
    uint64_t bv[2], cv[2] = {0, 0};
    pair(in.o[1], lane, bv);
    if (cas) pair(in.o[2], lane, cv);
    Where where;
    uint8_t* p = locate<S>(c, lane, addr, 16, where, gc, false, cas);
    if (p) {
      uint64_t old[2];
      rmw128(p, cas, bv, cv, old);
      c.dst(in.o[0])[lane] = old[0];
      if (in.o[0] != kSinkSlot) c.dst(in.o[0] + 1)[lane] = old[1];
    } else {
      RmwRecord r = record(c, in, lane, addr, &apply_b128);
      r.b[0] = bv[0], r.b[1] = bv[1], r.c[0] = cv[0], r.c[1] = cv[1];
      c.part->rmw_log().push(r);
      deferred = true;
    }
  });
  if (deferred) sleep_until_boundary(c, c.launch->timing->pipe[static_cast<int>(timing::Pipe::Atomic)].latency);
}

// ---- vector forms (sm_90+, global memory only) -----------------------------------------------
// Operands: first_op = the address, then n destinations (red: none), then n sources. aux: op
// (bits 0-3), type (4-7), n (8-11), red (bit 13). Each element is its own atomic (§9.7.13.5: "the
// atomicity is guaranteed separately for each of the individual scalar elements"); the access is
// aligned to the whole vector, as for ld/st vectors (§5.4.5 is silent on vector atomics: assumed).

struct VecForm {
  AOp op;
  AType type;
  uint32_t n;
  bool red;
  static VecForm of(const ExecInstr& in) {
    return {static_cast<AOp>(in.aux & 15), static_cast<AType>(in.aux >> 4 & 15), static_cast<uint32_t>(in.aux >> 8 & 15),
            (in.aux >> 13 & 1) != 0};
  }
};

void apply_vector(GlobalMemory& gm, const RmwRecord& r) {
  const VecForm f = VecForm::of(*r.in);
  const uint32_t e = rmw::type_bytes(f.type);
  const uint64_t emask = e >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * e)) - 1;
  uint8_t* p = gm.host(r.addr);
  gm.mark_initialised(r.addr, uint64_t{e} * f.n);
  for (uint32_t k = 0; k < f.n; ++k) {
    const uint32_t bit = k * e * 8;
    const uint64_t bk = (bit < 64 ? r.b[0] >> bit : r.b[1] >> (bit - 64)) & emask;
    uint64_t old = 0;
    std::memcpy(&old, p + k * e, e);
    const uint64_t v = rmw::alu(f.op, f.type, /*ftz=*/true, old, bk, 0);
    std::memcpy(p + k * e, &v, e);
    if (!f.red) r.w->regs()[uint64_t{r.ops[1 + k].ref} * 32 + r.lane] = old;
  }
}

template <Space S>
void exec_vector(ExecCtx& c, const ExecInstr& in) {
  const VecForm f = VecForm::of(in);
  const uint32_t e = rmw::type_bytes(f.type);
  const ExecOperand& a = c.op(in, 0);
  const ExecOperand* src = &c.op(in, f.red ? 1 : 1 + f.n);
  mem::GlobalCache gc;
  for_lanes(c.mask, [&](int lane) {
    uint64_t addr = mem::lane_address(c, a, lane);
    Where where;
    locate<S>(c, lane, addr, e * f.n, where, gc, /*global_only=*/true);
    RmwRecord r = record(c, in, lane, addr, &apply_vector);
    for (uint32_t k = 0; k < f.n; ++k) {
      const uint64_t emask = (uint64_t{1} << (8 * e)) - 1;
      const uint64_t v = c.src(src[k].ref)[lane] & emask;
      const uint32_t bit = k * e * 8;
      if (bit < 64) r.b[0] |= v << bit;
      else r.b[1] |= v << (bit - 64);
    }
    c.part->rmw_log().push(r);
  });
  sleep_until_boundary(c, c.launch->timing->pipe[static_cast<int>(timing::Pipe::Atomic)].latency);
}

// ---- binding ---------------------------------------------------------------------------------

// Legal scalar (op, type) pairs: ptxas 13.0, sm_90a and sm_100a, every state space (atom and red
// alike, except that red has no .cas/.exch). `H` marks the half types, which need .noftz.
struct Legal {
  AOp op;
  AType type;
};
constexpr Legal kLegal[] = {
    {AOp::And, AType::B32},   {AOp::And, AType::B64},   {AOp::Or, AType::B32},     {AOp::Or, AType::B64},
    {AOp::Xor, AType::B32},   {AOp::Xor, AType::B64},   {AOp::Cas, AType::B16},    {AOp::Cas, AType::B32},
    {AOp::Cas, AType::B64},   {AOp::Cas, AType::B128},  {AOp::Exch, AType::B32},   {AOp::Exch, AType::B64},
    {AOp::Exch, AType::B128}, {AOp::Add, AType::U32},   {AOp::Add, AType::S32},    {AOp::Add, AType::U64},
    {AOp::Add, AType::F32},   {AOp::Add, AType::F64},   {AOp::Add, AType::F16},    {AOp::Add, AType::F16x2},
    {AOp::Add, AType::BF16},  {AOp::Add, AType::BF16x2}, {AOp::Inc, AType::U32},   {AOp::Dec, AType::U32},
    {AOp::Min, AType::U32},   {AOp::Min, AType::S32},   {AOp::Min, AType::U64},    {AOp::Min, AType::S64},
    {AOp::Max, AType::U32},   {AOp::Max, AType::S32},   {AOp::Max, AType::U64},    {AOp::Max, AType::S64},
};

constexpr bool is_half(AType t) {
  return t == AType::F16 || t == AType::BF16 || t == AType::F16x2 || t == AType::BF16x2;
}

bool to_atype(Type t, AType* out) {
  switch (t) {
    case Type::B16: *out = AType::B16; return true;
    case Type::B32: *out = AType::B32; return true;
    case Type::B64: *out = AType::B64; return true;
    case Type::B128: *out = AType::B128; return true;
    case Type::U32: *out = AType::U32; return true;
    case Type::S32: *out = AType::S32; return true;
    case Type::U64: *out = AType::U64; return true;
    case Type::S64: *out = AType::S64; return true;
    case Type::F32: *out = AType::F32; return true;
    case Type::F64: *out = AType::F64; return true;
    case Type::F16: *out = AType::F16; return true;
    case Type::BF16: *out = AType::BF16; return true;
    case Type::F16x2: *out = AType::F16x2; return true;
    case Type::BF16x2: *out = AType::BF16x2; return true;
    default: return false;
  }
}

std::string legal_types(AOp op, bool red) {
  std::string r;
  for (const Legal& l : kLegal)
    if (l.op == op && !(red && l.type == AType::B128))
      r += fmt::format("{}.{}{}", r.empty() ? "" : " ", is_half(l.type) ? "noftz." : "", rmw::type_name(l.type));
  return r;
}

template <Space S>
ExecFn pick_scalar(AOp op, AType t) {
#define TCSIM_PICK(O, T) \
  if (op == AOp::O && t == AType::T) return &exec_scalar<AOp::O, AType::T, S>;
  TCSIM_PICK(And, B32) TCSIM_PICK(And, B64) TCSIM_PICK(Or, B32) TCSIM_PICK(Or, B64)
  TCSIM_PICK(Xor, B32) TCSIM_PICK(Xor, B64)
  TCSIM_PICK(Cas, B16) TCSIM_PICK(Cas, B32) TCSIM_PICK(Cas, B64)
  TCSIM_PICK(Exch, B32) TCSIM_PICK(Exch, B64)
  TCSIM_PICK(Add, U32) TCSIM_PICK(Add, S32) TCSIM_PICK(Add, U64) TCSIM_PICK(Add, F32) TCSIM_PICK(Add, F64)
  TCSIM_PICK(Add, F16) TCSIM_PICK(Add, F16x2) TCSIM_PICK(Add, BF16) TCSIM_PICK(Add, BF16x2)
  TCSIM_PICK(Inc, U32) TCSIM_PICK(Dec, U32)
  TCSIM_PICK(Min, U32) TCSIM_PICK(Min, S32) TCSIM_PICK(Min, U64) TCSIM_PICK(Min, S64)
  TCSIM_PICK(Max, U32) TCSIM_PICK(Max, S32) TCSIM_PICK(Max, U64) TCSIM_PICK(Max, S64)
#undef TCSIM_PICK
  return nullptr;
}

template <template <Space> class Pick, class... A>
ExecFn by_space(Space s, A... args) {
  switch (s) {
    case Space::Global: return Pick<Space::Global>::get(args...);
    case Space::Shared: case Space::SharedCta: return Pick<Space::Shared>::get(args...);
    case Space::SharedCluster: return Pick<Space::SharedCluster>::get(args...);
    default: return Pick<Space::Generic>::get(args...);
  }
}
template <Space S> struct PickScalar { static ExecFn get(AOp op, AType t) { return pick_scalar<S>(op, t); } };
template <Space S> struct PickB128 { static ExecFn get() { return &exec_b128<S>; } };
template <Space S> struct PickVector { static ExecFn get() { return &exec_vector<S>; } };

// The reduction operator: exactly one of the op modifiers.
AOp op_of(BindCtx& b, bool red) {
  AOp op = AOp::Add;
  const int n = rmw::parse_op(b.in, &op);
  if (n != 1)
    b.fail(red ? "red needs exactly one operation: .and .or .xor .add .inc .dec .min .max"
               : "atom needs exactly one operation: .and .or .xor .cas .exch .add .inc .dec .min .max");
  if (red && (op == AOp::Cas || op == AOp::Exch))
    b.fail(fmt::format("red has no .{} (PTX ISA §9.7.13.6: .and .or .xor .add .inc .dec .min .max); use atom",
                       rmw::op_name(op)));
  return op;
}

void bind_atom_red(BindCtx& b, bool red) {
  const char* mnem = red ? "red" : "atom";
  b.only_mods({Mod::and_, Mod::or_, Mod::xor_, Mod::cas, Mod::exch, Mod::add, Mod::inc, Mod::dec, Mod::min,
               Mod::max, Mod::noftz, Mod::L2_cache_hint});
  const AOp op = op_of(b, red);
  // .sem / .scope (§9.7.13.5-6): accepted and honoured by the single application order.
  using isa::ptx::Sem;
  const Sem sem = b.in.sem;
  if (sem != Sem::None && sem != Sem::Relaxed && sem != Sem::Release && (red || (sem != Sem::Acquire && sem != Sem::AcqRel)))
    b.fail(red ? "red takes .sem = .relaxed or .release (PTX ISA §9.7.13.6)"
               : "atom takes .sem = .relaxed, .acquire, .release or .acq_rel (PTX ISA §9.7.13.5)");
  // State space.
  if (b.in.nspaces > 1) b.fail(fmt::format("{} takes one state space", mnem));
  const Space sp = b.in.space(0);
  if (sp != Space::Generic && sp != Space::Global && sp != Space::Shared && sp != Space::SharedCta &&
      sp != Space::SharedCluster)
    b.fail(fmt::format("{} works on .global or .shared{{::cta, ::cluster}} memory or generic addresses, not .{} "
                       "(PTX ISA §9.7.13.5)", mnem, isa::ptx::space_name(sp)));
  // Type.
  if (b.in.ntypes != 1) b.fail(fmt::format("{} needs exactly one type", mnem));
  const Type ptype = b.type(0);
  AType t;
  const bool known = to_atype(ptype, &t);
  const uint32_t vec = b.in.vec;
  bool legal = false;
  if (known) {
    if (vec == 1) {
      for (const Legal& l : kLegal) legal = legal || (l.op == op && l.type == t);
      if (red && t == AType::B128) legal = false;
    } else {
      // The vector table of §9.7.13.5-6 (ptxas 13.0, sm_90a/sm_100a): .f32 .add with .v2/.v4;
      // .f16/.bf16 .add/.min/.max with .v2/.v4/.v8; .f16x2/.bf16x2 .add/.min/.max with .v2/.v4.
      const bool op_ok = op == AOp::Add || ((op == AOp::Min || op == AOp::Max) && is_half(t));
      const bool v_ok = t == AType::F16 || t == AType::BF16 ? (vec == 2 || vec == 4 || vec == 8)
                                                            : (vec == 2 || vec == 4);
      legal = op_ok && v_ok && (t == AType::F32 || is_half(t));
    }
  }
  if (!legal) {
    if (vec == 1)
      b.fail(fmt::format("{}.{} has no .{} form (legal types: {})", mnem, rmw::op_name(op), isa::ptx::type_name(ptype),
                         legal_types(op, red)));
    b.fail(fmt::format("{}.{}.v{}.{} is not a vector atomic form (PTX ISA §9.7.13.5: .v2/.v4 .f32 .add; .v2/.v4/.v8 "
                       ".f16/.bf16 and .v2/.v4 .f16x2/.bf16x2 .add/.min/.max with .noftz)",
                       mnem, rmw::op_name(op), vec, isa::ptx::type_name(ptype)));
  }
  if (is_half(t) != b.has(Mod::noftz))
    b.fail(is_half(t) ? fmt::format("{}.{}.{} requires .noftz (PTX ISA §9.7.13.5)", mnem, rmw::op_name(op),
                                    isa::ptx::type_name(ptype))
                      : fmt::format(".noftz applies to the .f16/.f16x2/.bf16/.bf16x2 forms only, not .{}",
                                    isa::ptx::type_name(ptype)));
  if (vec > 1 && sp != Space::Global && sp != Space::Generic)
    b.fail(fmt::format("vector {} works on .global memory only (PTX ISA §9.7.13.5)", mnem));
  // Operands: atom d, [a], b{, c}{, cache-policy};  red [a], b{, cache-policy}.
  const int first = red ? 0 : 1;  // the address
  const bool hint = b.has(Mod::L2_cache_hint);
  if (hint && sp != Space::Global && sp != Space::Generic)
    b.fail(".L2::cache_hint applies to .global memory (PTX ISA §9.7.13.5)");
  const size_t want = static_cast<size_t>(first + 2 + (op == AOp::Cas ? 1 : 0) + (hint ? 1 : 0));
  if (b.nops() != want)
    b.fail(fmt::format("{}.{} takes {} operands ({}[a], b{}{}), not {}", mnem, rmw::op_name(op), want,
                       red ? "" : "d, ", op == AOp::Cas ? ", c" : "", hint ? ", cache-policy" : "", b.nops()));
  if (hint) (void)b.src(static_cast<int>(want) - 1, Type::B64);  // a cache hint only
  b.out.first_op = b.push(b.address(first, sp));
  b.out.aux = static_cast<uint64_t>(op) | static_cast<uint64_t>(t) << 4 | uint64_t{vec} << 8 |
              (op == AOp::Cas ? uint64_t{1} << 12 : 0) | (red ? uint64_t{1} << 13 : 0) |
              uint64_t{static_cast<uint8_t>(sp)} << 16;
  const int ebits = static_cast<int>(rmw::type_bytes(t) * 8);
  if (vec == 1) {
    const isa::ptx::Operand& bop = b.operand(first + 1);
    if (bop.kind == OperandKind::Vector) b.fail(fmt::format("operand b of a scalar {} must be a value, not a vector", mnem));
    if (!red && b.operand(0).kind != OperandKind::Reg && b.operand(0).kind != OperandKind::Sink)
      b.fail("the destination of a scalar atom must be a register or _");
    b.out.o[0] = red ? kSinkSlot : b.dst(0, ebits);
    b.out.o[1] = b.src(first + 1, ptype);
    b.out.o[2] = op == AOp::Cas ? b.src(first + 2, ptype) : b.out.o[1];
    b.out.nops = 1;
    b.out.fn = t == AType::B128 ? by_space<PickB128>(sp) : by_space<PickScalar>(sp, op, t);
    if (!b.out.fn) b.fail("internal: no execute function for a legal atomic form");
    return;
  }
  // Vector: {d0, ..}, [a], {b0, ..}.
  auto elems = [&](int i, const char* what) {
    const isa::ptx::Operand& o = b.operand(i);
    if (o.kind != OperandKind::Vector || o.elems.size() != vec)
      b.fail(fmt::format("operand {} of {}.v{} must be a vector of {} {}", i + 1, mnem, vec, vec, what));
    return &o.elems;
  };
  uint16_t n = 1;
  if (!red) {
    for (const isa::ptx::Operand& e : *elems(0, "destination registers")) {
      ExecOperand o;
      o.ref = b.dst_of(e, ebits);
      o.is_sink = e.kind == OperandKind::Sink;
      b.push(o);
      ++n;
    }
  }
  for (const isa::ptx::Operand& e : *elems(first + 1, "source values")) {
    ExecOperand o;
    o.ref = b.src_of(e, ptype);
    b.push(o);
    ++n;
  }
  b.out.nops = n;
  b.out.fn = by_space<PickVector>(sp);
}

}  // namespace

void bind_atomic(BindCtx& b) {
  using isa::ptx::Op;
  switch (b.in.op) {
    case Op::atom: return bind_atom_red(b, false);
    case Op::red: return bind_atom_red(b, true);
    default: b.not_implemented("multimem (NVLink multicast memory) is not implemented yet");
  }
}

}  // namespace tcsim::sim
