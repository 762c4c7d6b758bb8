// PTX ISA §9.7.9 Data Movement: ld, ldu, st (and the hint-only prefetch family):
//   ld{.weak,.volatile,.relaxed.scope,.acquire.scope,.mmio.relaxed.sys}{.ss}{.cop}{.level::*}{.vec}.type
//       d, [a]{.unified}{, cache-policy};
//   ld.global{.cop}.nc{.level::*}{.vec}.type d, [a]{, cache-policy};
//   ldu.global{.vec}.type d, [a];
//   st{.weak,.volatile,.relaxed.scope,.release.scope,.mmio.relaxed.sys}{.ss}{.cop}{.level::*}{.vec}.type
//       [a], b{, cache-policy};
//   .ss = { .const, .global, .local, .param{::entry,::func}, .shared{::cta,::cluster} }
//   .vec = { .v2, .v4, .v8 }; .type = { .b8-.b128, .u8-.u64, .s8-.s64, .f16, .f16x2, .f32, .f64, ... }
//   prefetch{.space}.level [a]; prefetchu.L1 [a]; applypriority / discard .global.L2 [a], size;
//   createpolicy.* policy, ...;
// Memory-ordering qualifiers are accepted: tcsim executes memory operations in issue order within
// a partition, so they order nothing further here (the checker will use them). A destination
// register wider than the type receives the value sign-extended for signed types and
// zero-extended otherwise (PTX ISA §6.4.4 "operand size exceeding instruction-type size").
#include <cstring>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/checker/warp_conflict.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/timing/memory.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::OperandKind;
using isa::ptx::Space;
using isa::ptx::Type;

// aux: element bytes (bits 0-7), signed (bit 8), frame param (bit 9), space (bits 16-23).
// first_op: the address; then one operand per element (destination or source).
struct LdSt {
  uint32_t esize;
  bool sign;
  bool frame;
  Space space;
  static LdSt of(const ExecInstr& in) {
    return {static_cast<uint32_t>(in.aux & 0xff), (in.aux >> 8 & 1) != 0, (in.aux >> 9 & 1) != 0,
            static_cast<Space>(in.aux >> 16 & 0xff)};
  }
};

inline uint64_t extend(uint64_t raw, uint32_t esize, bool sign, uint8_t reg_bits) {
  if (esize >= 8) return raw;
  const unsigned eb = esize * 8;
  if (!sign) return raw;
  const int64_t s = static_cast<int64_t>(raw << (64 - eb)) >> (64 - eb);
  const unsigned rb = reg_bits < 16 ? 16 : reg_bits;
  return rb >= 64 ? static_cast<uint64_t>(s) : static_cast<uint64_t>(s) & ((uint64_t{1} << rb) - 1);
}

// Specialised per state space, element size and element count (all compile-time).
template <Space S, uint32_t E, uint32_t N>
void exec_ld(ExecCtx& c, const ExecInstr& in) {
  const LdSt p = LdSt::of(in);
  const ExecOperand& a = c.op(in, 0);
  const ExecOperand* el = &c.op(in, 1);
  mem::GlobalCache gc;
  uint64_t where[32] = {};
  for_lanes(c.mask, [&](int lane) {
    alignas(16) uint8_t buf[E * N];
    where[lane] = mem::lane_address(c, a, lane);
    mem::read_t<S, E * N>(c, lane, p.frame, where[lane], buf, gc);
    for (uint32_t k = 0; k < N; ++k) {
      const ExecOperand& e = el[k];
      if (e.is_sink) continue;
      if constexpr (E == 16) {  // .b128: two slots
        uint64_t lo, hi;
        std::memcpy(&lo, buf + 16 * k, 8);
        std::memcpy(&hi, buf + 16 * k + 8, 8);
        c.dst(e.ref)[lane] = lo;
        c.dst(e.ref + 1)[lane] = hi;
      } else {
        uint64_t raw = 0;
        std::memcpy(&raw, buf + E * k, E);
        c.dst(e.ref)[lane] = extend(raw, E, p.sign, e.reg_bits);
      }
    }
  });
  // What a spinning warp last read (livelock reports, sim/livelock.h).
  if constexpr (S == Space::Global || S == Space::Shared || S == Space::SharedCta || S == Space::SharedCluster ||
                S == Space::Generic) {
    if (!p.frame && c.mask) {
      const int lane = __builtin_ctz(c.mask);
      const uint64_t v = el[0].is_sink ? 0 : c.src(el[0].ref)[lane];
      if (c.warp->note_read(c.prog->pc_of(in), static_cast<uint8_t>(S), where[lane], v)) c.part->note_fresh_read();
    }
  }
  timing::note_access(c, p.frame ? Space::Local : S, where, c.mask, E * N, false, c.prog->timing[c.prog->pc_of(in)].flags);
}

template <Space S, uint32_t E, uint32_t N>
void exec_st(ExecCtx& c, const ExecInstr& in) {
  const LdSt p = LdSt::of(in);
  const ExecOperand& a = c.op(in, 0);
  const ExecOperand* el = &c.op(in, 1);
  mem::GlobalCache gc;
  uint64_t where[32] = {};
  // Every lane's bytes, kept for the intra-warp conflict check (sim/checker/warp_conflict.h).
  alignas(16) uint8_t bufs[32][E * N];
  for_lanes(c.mask, [&](int lane) {
    uint8_t* buf = bufs[lane];
    for (uint32_t k = 0; k < N; ++k) {
      const ExecOperand& e = el[k];
      if constexpr (E == 16) {
        const uint64_t lo = c.src(e.ref)[lane];
        const uint64_t hi = (e.ref & kRefImm) ? 0 : c.src(e.ref + 1)[lane];
        std::memcpy(buf + 16 * k, &lo, 8);
        std::memcpy(buf + 16 * k + 8, &hi, 8);
      } else {
        const uint64_t v = c.src(e.ref)[lane];
        std::memcpy(buf + E * k, &v, E);
      }
    }
    where[lane] = mem::lane_address(c, a, lane);
    mem::write_t<S, E * N>(c, lane, p.frame, where[lane], buf, gc);
  });
  if constexpr (S == Space::Global || S == Space::Shared || S == Space::SharedCluster || S == Space::Generic) {
    if (!p.frame && c.checking())
      warp_conflict::on_store(c, c.mask, where, &bufs[0][0], E * N, S == Space::Generic);
  }
  timing::note_access(c, p.frame ? Space::Local : S, where, c.mask, E * N, true, 0);
}

template <bool Store, Space S, uint32_t E>
ExecFn pick_n(uint32_t n) {
  if constexpr (E * 8 <= 64) {
    if (n == 8) return Store ? &exec_st<S, E, 8> : &exec_ld<S, E, 8>;
  }
  if constexpr (E * 4 <= 64) {
    if (n == 4) return Store ? &exec_st<S, E, 4> : &exec_ld<S, E, 4>;
  }
  if (n == 2) return Store ? &exec_st<S, E, 2> : &exec_ld<S, E, 2>;
  if (n == 1) return Store ? &exec_st<S, E, 1> : &exec_ld<S, E, 1>;
  return nullptr;
}
template <bool Store, Space S>
ExecFn pick_e(uint32_t e, uint32_t n) {
  switch (e) {
    case 1: return pick_n<Store, S, 1>(n);
    case 2: return pick_n<Store, S, 2>(n);
    case 4: return pick_n<Store, S, 4>(n);
    case 8: return pick_n<Store, S, 8>(n);
    case 16: return pick_n<Store, S, 16>(n);
  }
  return nullptr;
}
template <bool Store>
ExecFn pick_ldst(Space s, uint32_t e, uint32_t n) {
  switch (s) {
    case Space::Global: return pick_e<Store, Space::Global>(e, n);
    case Space::Shared: case Space::SharedCta: return pick_e<Store, Space::Shared>(e, n);
    case Space::SharedCluster: return pick_e<Store, Space::SharedCluster>(e, n);
    case Space::Local: return pick_e<Store, Space::Local>(e, n);
    case Space::Const: return pick_e<Store, Space::Const>(e, n);
    case Space::Param: case Space::ParamEntry: case Space::ParamFunc: return pick_e<Store, Space::Param>(e, n);
    default: return pick_e<Store, Space::Generic>(e, n);
  }
}

void exec_nop(ExecCtx&, const ExecInstr&) {}

// createpolicy: an opaque 64-bit cache policy. Its encoding is undocumented; tcsim writes a
// deterministic value derived from the modifiers (programs only pass it back to hints).
void exec_createpolicy(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  for_lanes(c.mask, [&](int i) { d[i] = in.aux; });
}

Type elem_type(BindCtx& b) {
  const Type t = b.type(0);
  if (t == Type::None) b.fail("needs a type");
  if (t == Type::Pred) b.fail(".pred cannot be loaded or stored");
  // ld/st .type = .b8-.b128, .u8-.u64, .s8-.s64, .f32, .f64 (PTX ISA §9.7.9 Data Movement: ld, st);
  // half and packed types travel as .b16/.b32.
  switch (t) {
    case Type::B8: case Type::B16: case Type::B32: case Type::B64: case Type::B128:
    case Type::U8: case Type::U16: case Type::U32: case Type::U64:
    case Type::S8: case Type::S16: case Type::S32: case Type::S64:
    case Type::F32: case Type::F64: break;
    default:
      b.fail(fmt::format("type .{} cannot be loaded or stored (ld/st take .bN, .uN, .sN, .f32, .f64; a half or "
                         "packed value travels as .b16 or .b32)", isa::ptx::type_name(t)));
  }
  // .relaxed, .acquire and .release name a scope (ptxas: "Modifier '.relaxed' requires scope").
  if ((b.in.sem == isa::ptx::Sem::Relaxed || b.in.sem == isa::ptx::Sem::Acquire ||
       b.in.sem == isa::ptx::Sem::Release) && b.in.scope == isa::ptx::Scope::None)
    b.fail("a .relaxed, .acquire or .release access needs a scope (.cta, .cluster, .gpu or .sys)");
  return t;
}

void bind_ld_st(BindCtx& b, bool store) {
  using isa::ptx::Op;
  // The untyped modifiers of ld/ldu/st: cache operators, eviction priorities, prefetch sizes, the
  // cache hint (PTX ISA §9.7.9 Data Movement: .cop, .level::*); anything else (`.uni`, `.sat`) is
  // ptxas's "Illegal modifier".
  b.only_mods({Mod::nc, Mod::ca, Mod::cg, Mod::cs, Mod::lu, Mod::cv, Mod::wb, Mod::wt, Mod::L1_evict_normal,
               Mod::L1_evict_unchanged, Mod::L1_evict_first, Mod::L1_evict_last, Mod::L1_no_allocate,
               Mod::L2_evict_normal, Mod::L2_evict_first, Mod::L2_evict_last, Mod::L2_evict_unchanged,
               Mod::L2_cache_hint, Mod::L2_64B, Mod::L2_128B, Mod::L2_256B, Mod::unified});
  const Type t = elem_type(b);
  const uint32_t esize = std::max(1, isa::ptx::type_bits(t) / 8);
  const uint32_t vec = b.in.vec;
  if (vec == 8 && esize != 4) b.fail(".v8 applies to 32-bit types");
  if (esize * vec > 64) b.fail(fmt::format("a {}-byte vector access is too wide", esize * vec));
  Space sp = b.in.space(0);
  if (b.in.op == Op::ldu && sp == Space::Generic) sp = Space::Global;
  if (b.has(Mod::nc) && sp != Space::Global) b.fail(".nc applies to ld.global");
  if (sp == Space::Tex) b.fail(".tex is not a load/store space");
  if (store && (sp == Space::Const)) b.fail("st cannot write .const memory");
  // The optional third operand is a cache policy, and only with .L2::cache_hint (ptxas: ".L2::cache_hint
  // modifier required for instruction 'st' with 3 arguments").
  if (b.nops() != (b.has(Mod::L2_cache_hint) ? 3u : 2u))
    b.fail(b.has(Mod::L2_cache_hint) ? "takes a memory operand, the data and a cache policy (.L2::cache_hint)"
                                     : fmt::format("takes {} operands (a third one, a cache policy, needs .L2::cache_hint)",
                                                   2));
  const int mem_op = store ? 0 : 1;
  const isa::ptx::Operand& data = b.operand(store ? 1 : 0);
  ExecOperand addr = b.address(mem_op, sp);
  const bool frame = addr.base == AddrBase::Frame;
  if (isa::ptx::is_param(sp) && store && !frame)
    b.fail("st.param writes function or call parameters, not kernel parameters");
  b.out.first_op = b.push(addr);
  std::vector<const isa::ptx::Operand*> elems;
  if (data.kind == OperandKind::Vector) {
    for (const auto& e : data.elems) elems.push_back(&e);
  } else {
    elems.push_back(&data);
  }
  if (elems.size() != vec)
    b.fail(fmt::format("the data operand has {} element(s), the instruction moves {}", elems.size(), vec));
  const int bits = esize == 16 ? 128 : static_cast<int>(esize * 8);
  for (const isa::ptx::Operand* e : elems) {
    ExecOperand o;
    if (store) {
      o.ref = b.src_of(*e, t, /*wider_ok=*/true);
    } else if (e->kind == OperandKind::Sink) {
      o.is_sink = true;
    } else {
      o.ref = b.dst_of(*e, std::max(bits, 16), /*wider_ok=*/true);
      o.reg_bits = static_cast<uint8_t>(b.reg_bits(*e));
    }
    b.push(o);
  }
  b.out.nops = static_cast<uint16_t>(1 + elems.size());
  b.out.aux = esize | (isa::ptx::is_signed(t) ? 1u << 8 : 0) | (frame ? 1u << 9 : 0) |
              (uint64_t{static_cast<uint8_t>(sp)} << 16);
  b.out.fn = store ? pick_ldst<true>(sp, esize, vec) : pick_ldst<false>(sp, esize, vec);
  if (!b.out.fn) b.fail("unsupported vector/element size combination");
}

}  // namespace

void bind_load_store(BindCtx& b) {
  using isa::ptx::Op;
  switch (b.in.op) {
    case Op::ld:
    case Op::ldu:
      return bind_ld_st(b, false);
    case Op::st:
      return bind_ld_st(b, true);
    case Op::prefetch:
    case Op::prefetchu:
    case Op::applypriority:
    case Op::discard:
      // Cache hints (discard leaves the line's contents unspecified; keeping them is allowed).
      b.out.fn = exec_nop;
      return;
    case Op::createpolicy: {
      b.need_type({isa::ptx::Type::B64});  // createpolicy....b64 (PTX ISA §9.7.9 Data Movement)
      // createpolicy.fractional ... policy{, fraction}: fraction in (0.0, 1.0].
      if (b.has(Mod::fractional) && b.nops() >= 2 && b.operand(1).kind == OperandKind::Imm) {
        const isa::ptx::Operand& fr = b.operand(1);
        double v = 0;
        if (fr.imm_kind == isa::ptx::ImmKind::F64) std::memcpy(&v, &fr.imm, 8);
        if (fr.imm_kind == isa::ptx::ImmKind::F32) {
          float x;
          const uint32_t bits = static_cast<uint32_t>(fr.imm);
          std::memcpy(&x, &bits, 4);
          v = x;
        }
        if (fr.imm_kind == isa::ptx::ImmKind::Int || !(v > 0.0 && v <= 1.0))
          b.fail("the fraction of createpolicy.fractional must be a floating-point value in (0.0, 1.0]");
      }
      uint64_t h = 0x7c00000000000000ull;
      for (isa::ptx::Mod md : b.in.mods) h = h * 131 + static_cast<uint64_t>(md) + 1;
      b.out.fn = exec_createpolicy;
      b.out.aux = h;
      b.out.o[0] = b.dst(0, 64);
      return;
    }
    default:
      b.fail("internal: not a load_store row");
  }
}

}  // namespace tcsim::sim
