// PTX ISA §9.7.14.5.14 Warp-level matrix multiply-accumulate: mma.sync (dense forms).
//   mma.sync.aligned.m16n8k8.row.col.dtype.{f16,bf16}.{f16,bf16}.ctype            d, a, b, c;
//   mma.sync.aligned.m16n8k16.row.col.dtype.{f16,bf16}.{f16,bf16}.ctype           d, a, b, c;
//   mma.sync.aligned.{m16n8k4,m16n8k8}.row.col.f32.tf32.tf32.f32                  d, a, b, c;
//   mma.sync.aligned.{m16n8k16,m16n8k32}.row.col.dtype.{e4m3,e5m2}.{e4m3,e5m2}.ctype d, a, b, c;
//   mma.sync.aligned.{m8n8k16,m16n8k16,m16n8k32}.row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32 ...;
//   mma.sync.aligned.{m8n8k32,m16n8k32,m16n8k64}.row.col{.satfinite}.s32.{s4,u4}.{s4,u4}.s32 ...;
//   mma.sync.aligned.{m8n8k128,m16n8k128,m16n8k256}.row.col.s32.b1.b1.s32.{and,xor}.popc  ...;
//   mma.sync.aligned.{m8n8k4,m16n8k4,m16n8k8,m16n8k16}.row.col.f64.f64.f64.f64   d, a, b, c;
// (dtype = ctype: f16 or f32; bf16/tf32/fp8 need f32 except fp8's f16 form, §9.7.14.5.14.)
// Not here: m8n8k4 .f16 (Volta quad-pair fragments, which nvcc does not emit for sm_80+; no
// H200 data for its arithmetic), mma.sp (sparse), the sm_120 .kind:: and block-scaled forms.
//
// Fragments (§9.7.14.5.7-.13; docs/mma_fragments.md §1): every register holds one "unit" of a row of
// A or a column of B — 32 bits of K (2 f16/bf16, 1 tf32, 4 8-bit, 8 4-bit, 32 1-bit elements,
// element e in bits [e*bits, (e+1)*bits)), or one f64. With g = laneid >> 2, q = laneid & 3:
//   A (M x K), register j:  M = 8: row g, unit q;  M = 16, 2 registers: row g + 8j, unit q;
//                           M = 16, 4+ registers: row g + 8(j & 1), unit q + 4(j >> 1)
//   B (K x N), register j:  column g, unit q + 4j
//   C/D element i:          M = 16: row g + 8(i >> 1), column 2q + (i & 1);  M = 8: row g, 2q + i
//                           (f16 C/D: elements 2p, 2p+1 in the low/high half of register p)
// Arithmetic: floating-point and 8-bit integer kinds through models::mma's DotEngine with the
// device's MmaSync parameter row (confirmed on the H200, param_table.cc); 4-bit integers and b1
// are exact by definition (§9.7.14.5.14: sums of products / popcounts, wrapping or .satfinite
// clamping to s32); f64 is a chain of IEEE fused multiply-adds from C in K order (DMMA).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "models/mma/engine.h"
#include "models/mma/param_table.h"
#include "sim/exec/lane_ops.h"
#include "sim/exec/warp_collective.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::OperandKind;
using isa::ptx::Type;
namespace mm = models::mma;

constexpr std::string_view kSec = "PTX ISA §9.7.14.5.14";

enum class Arith : uint8_t {
  Engine,  // DotEngine (f16, bf16, tf32, e4m3/e5m2, s8/u8)
  F64,     // fused multiply-add chain
  Int4,    // s4/u4 exact sum
  Bin,     // b1 popc(a & b) / popc(a ^ b)
};

// Everything an mma.sync instruction needs at run time, built once at bind (Program::family_data).
struct MmaPlan {
  int m = 16, n = 8, k = 16;
  int abits = 16, bbits = 16;  // element bits (f64: 64, b1: 1)
  int unit_bits = 32;          // bits per fragment register (f64: 64)
  int na = 4, nb = 2, nc = 4;  // registers per thread (C and D have the same count)
  int acc_bits = 32;           // 16: f16 pairs in .f16x2 registers; 32: f32/s32; 64: f64
  Arith arith = Arith::Engine;
  bool a_signed = false, b_signed = false, satfinite = false, bin_xor = false;
  std::unique_ptr<mm::DotEngine> engine;
  // Gather/scatter offsets (non-f64 forms), built once at bind from the fragment coordinates below:
  // a_off[32j + lane]: where register j of `lane` starts in A (row-major M x K element codes);
  // b_off likewise in B (column-major); acc_off[32i + lane]: accumulator element i in C/D (M x N).
  std::array<uint16_t, 32 * 8> a_off{}, b_off{};
  std::array<uint16_t, 32 * 4> acc_off{};
};

struct Coord {
  int row, unit;
};
inline Coord a_coord(const MmaPlan& p, int lane, int j) {
  const int g = lane >> 2, q = lane & 3;
  if (p.m == 8) return {g, q};
  if (p.na == 2) return {g + 8 * j, q};
  return {g + 8 * (j & 1), q + 4 * (j >> 1)};
}
inline Coord b_coord(int lane, int j) { return {lane >> 2, (lane & 3) + 4 * j}; }
inline Coord acc_coord(const MmaPlan& p, int lane, int i) {  // {row, column}
  const int g = lane >> 2, q = lane & 3;
  if (p.m == 16) return {g + 8 * (i >> 1), 2 * q + (i & 1)};
  return {g, 2 * q + i};
}

constexpr int kMaxM = 16, kMaxN = 8, kMaxK = 256;

// Splits the 32-bit fragment registers of one operand into element codes: register `src` of every
// lane, element e (lowest bits first) to dst[off[lane] + e]. Specialised on the element width (the
// simulator's hot loop for mma.sync-heavy kernels).
template <int Bits>
void gather_t(const uint64_t* src, const uint16_t* off, uint32_t* dst) {
  constexpr int kElems = 32 / Bits;
  constexpr uint32_t kMask = Bits == 32 ? ~0u : (1u << (Bits % 32)) - 1;
  for (int lane = 0; lane < 32; ++lane) {
    const uint64_t v = src[lane];
    uint32_t* o = dst + off[lane];
    for (int e = 0; e < kElems; ++e) o[e] = static_cast<uint32_t>(v >> (e * Bits)) & kMask;
  }
}

void gather(int bits, const uint64_t* src, const uint16_t* off, uint32_t* dst) {
  switch (bits) {
    case 1: return gather_t<1>(src, off, dst);
    case 4: return gather_t<4>(src, off, dst);
    case 8: return gather_t<8>(src, off, dst);
    case 16: return gather_t<16>(src, off, dst);
    default: return gather_t<32>(src, off, dst);
  }
}

inline int64_t int_value(uint32_t code, int bits, bool is_signed) {
  if (!is_signed) return code;
  const int sh = 32 - bits;
  return static_cast<int32_t>(code << sh) >> sh;
}

inline uint32_t clamp_s32(int64_t v, bool sat) {
  if (sat) v = std::clamp<int64_t>(v, INT32_MIN, INT32_MAX);
  return static_cast<uint32_t>(v);  // two's-complement wrap (PTX: modulo 2^32 without .satfinite)
}

void exec_mma(ExecCtx& c, const ExecInstr& in) {
  if (c.mask != 0xffffffffu && !await_converged_warp(c, "mma.sync.aligned", kSec)) return;  // warp_collective.h
  if (c.mask != 0xffffffffu)
    c.fail(__builtin_ctz(c.mask),
           fmt::format("mma.sync.aligned must be executed by all 32 threads of the warp convergently, but only "
                       "lanes 0x{:08x} execute it here ({}: undefined otherwise)",
                       c.mask, kSec));
  const MmaPlan& p = *static_cast<const MmaPlan*>(c.prog->family_data[in.aux].get());
  const ExecOperand* ops = &c.op(in, 0);
  const ExecOperand* d_ops = ops;
  const ExecOperand* a_ops = d_ops + p.nc;
  const ExecOperand* b_ops = a_ops + p.na;
  const ExecOperand* c_ops = b_ops + p.nb;
  const int acc_per_thread = p.m * p.n / 32;

  if (p.arith == Arith::F64) {
    double A[kMaxM * 16], B[kMaxN * 16], C[kMaxM * kMaxN];
    for (int lane = 0; lane < 32; ++lane) {
      for (int j = 0; j < p.na; ++j) {
        const Coord x = a_coord(p, lane, j);
        A[x.row * p.k + x.unit] = std::bit_cast<double>(c.src(a_ops[j].ref)[lane]);
      }
      for (int j = 0; j < p.nb; ++j) {
        const Coord x = b_coord(lane, j);
        B[x.row * p.k + x.unit] = std::bit_cast<double>(c.src(b_ops[j].ref)[lane]);
      }
      for (int i = 0; i < acc_per_thread; ++i) {
        const Coord x = acc_coord(p, lane, i);
        C[x.row * p.n + x.unit] = std::bit_cast<double>(c.src(c_ops[i].ref)[lane]);
      }
    }
    double D[kMaxM * kMaxN];
    for (int r = 0; r < p.m; ++r)
      for (int col = 0; col < p.n; ++col) {
        double acc = C[r * p.n + col];
        for (int kk = 0; kk < p.k; ++kk) acc = std::fma(A[r * p.k + kk], B[col * p.k + kk], acc);
        D[r * p.n + col] = acc;
      }
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < acc_per_thread; ++i) {
        const Coord x = acc_coord(p, lane, i);
        if (!d_ops[i].is_sink) c.dst(d_ops[i].ref)[lane] = std::bit_cast<uint64_t>(D[x.row * p.n + x.unit]);
      }
    return;
  }

  // Element codes: A row-major M x K, B column-major (column j = K codes), C/D row-major M x N.
  uint32_t A[kMaxM * kMaxK], B[kMaxN * kMaxK], C[kMaxM * kMaxN], D[kMaxM * kMaxN];
  for (int j = 0; j < p.na; ++j) gather(p.abits, c.src(a_ops[j].ref), &p.a_off[32 * j], A);
  for (int j = 0; j < p.nb; ++j) gather(p.bbits, c.src(b_ops[j].ref), &p.b_off[32 * j], B);
  if (p.acc_bits == 16) {
    for (int r = 0; r < p.nc; ++r) {  // .f16x2: element 2r in the low half, 2r + 1 in the high half
      const uint64_t* src = c.src(c_ops[r].ref);
      const uint16_t* o0 = &p.acc_off[32 * (2 * r)];
      const uint16_t* o1 = &p.acc_off[32 * (2 * r + 1)];
      for (int lane = 0; lane < 32; ++lane) {
        C[o0[lane]] = static_cast<uint32_t>(src[lane]) & 0xffff;
        C[o1[lane]] = static_cast<uint32_t>(src[lane] >> 16) & 0xffff;
      }
    }
  } else {
    for (int i = 0; i < acc_per_thread; ++i) {
      const uint64_t* src = c.src(c_ops[i].ref);
      const uint16_t* o = &p.acc_off[32 * i];
      for (int lane = 0; lane < 32; ++lane) C[o[lane]] = static_cast<uint32_t>(src[lane]);
    }
  }
  switch (p.arith) {
    case Arith::Engine:
      p.engine->tile(p.m, p.n, A, B, C, D);
      break;
    case Arith::Int4:
      for (int r = 0; r < p.m; ++r)
        for (int col = 0; col < p.n; ++col) {
          int64_t s = static_cast<int32_t>(C[r * p.n + col]);
          for (int kk = 0; kk < p.k; ++kk)
            s += int_value(A[r * p.k + kk], 4, p.a_signed) * int_value(B[col * p.k + kk], 4, p.b_signed);
          D[r * p.n + col] = clamp_s32(s, p.satfinite);
        }
      break;
    case Arith::Bin:
      for (int r = 0; r < p.m; ++r)
        for (int col = 0; col < p.n; ++col) {
          int64_t s = static_cast<int32_t>(C[r * p.n + col]);
          for (int kk = 0; kk < p.k; ++kk) s += p.bin_xor ? (A[r * p.k + kk] ^ B[col * p.k + kk]) : (A[r * p.k + kk] & B[col * p.k + kk]);
          D[r * p.n + col] = clamp_s32(s, false);
        }
      break;
    case Arith::F64: break;
  }
  if (p.acc_bits == 16) {
    for (int r = 0; r < p.nc; ++r) {
      if (d_ops[r].is_sink) continue;
      uint64_t* dst = c.dst(d_ops[r].ref);
      const uint16_t* o0 = &p.acc_off[32 * (2 * r)];
      const uint16_t* o1 = &p.acc_off[32 * (2 * r + 1)];
      for (int lane = 0; lane < 32; ++lane) dst[lane] = (D[o0[lane]] & 0xffff) | (uint64_t{D[o1[lane]] & 0xffff} << 16);
    }
  } else {
    for (int i = 0; i < acc_per_thread; ++i) {
      if (d_ops[i].is_sink) continue;
      uint64_t* dst = c.dst(d_ops[i].ref);
      const uint16_t* o = &p.acc_off[32 * i];
      for (int lane = 0; lane < 32; ++lane) dst[lane] = D[o[lane]];
    }
  }
}

// m<M>n<N>k<K> from a shape modifier's spelling.
bool parse_shape(std::string_view s, int& m, int& n, int& k) {
  return std::sscanf(std::string(s).c_str(), "m%dn%dk%d", &m, &n, &k) == 3;
}

std::optional<isa::DType> model_type(Type t) {
  switch (t) {
    case Type::F16: return isa::DType::F16;
    case Type::BF16: return isa::DType::BF16;
    case Type::TF32: return isa::DType::TF32;
    case Type::E4M3: return isa::DType::E4M3;
    case Type::E5M2: return isa::DType::E5M2;
    case Type::S8: return isa::DType::S8;
    case Type::U8: return isa::DType::U8;
    case Type::F32: return isa::DType::F32;
    case Type::S32: return isa::DType::S32;
    default: return std::nullopt;
  }
}

// Binds a vector operand of `count` registers of `bits` each; returns the first pushed index.
uint32_t bind_regs(BindCtx& b, int i, int count, int bits, bool dst, std::string_view what) {
  const isa::ptx::Operand& o = b.operand(i);
  std::vector<const isa::ptx::Operand*> regs;
  if (o.kind == OperandKind::Vector)
    for (const auto& e : o.elems) regs.push_back(&e);
  else
    regs.push_back(&o);
  if (static_cast<int>(regs.size()) != count)
    b.fail(fmt::format("operand {} ({}) has {} registers; this shape and type need {} ({})", i + 1, what,
                       regs.size(), count, kSec));
  uint32_t first = 0;
  for (int r = 0; r < count; ++r) {
    ExecOperand e;
    if (dst) {
      e.ref = b.dst_of(*regs[r], bits);
      e.is_sink = regs[r]->kind == OperandKind::Sink;
    } else {
      if (regs[r]->kind != OperandKind::Reg) b.fail(fmt::format("operand {} ({}) must be registers", i + 1, what));
      e.ref = b.src_of(*regs[r], bits == 64 ? Type::B64 : Type::B32);
    }
    const uint32_t idx = b.push(e);
    if (r == 0) first = idx;
  }
  return first;
}

}  // namespace

void bind_mma(BindCtx& b) {
  if (b.in.op != isa::ptx::Op::mma) b.fail("internal: not the mma row");
  if (b.has(Mod::sp) || b.has(Mod::sp_ordered_metadata))
    return b.not_implemented("sparse mma.sp (PTX ISA §9.7.14.6) is not modelled");
  if (!b.has(Mod::sync) || !b.has(Mod::aligned))
    b.fail(fmt::format("mma needs .sync.aligned ({})", kSec));
  // The shape is the one modifier of the form mNnNkN.
  int m = 0, n = 0, k = 0;
  bool shape = false;
  for (Mod md : b.in.mods) {
    const std::string_view s = isa::ptx::mod_name(md);
    if (s.size() > 1 && s[0] == 'm' && s.find('k') != std::string_view::npos && parse_shape(s, m, n, k)) shape = true;
  }
  if (!shape) b.fail(fmt::format("missing the shape (.m16n8k16, ...) ({})", kSec));
  if (b.in.ntypes != 4)
    b.fail(fmt::format("mma.sync names four types .dtype.atype.btype.ctype, got {} ({})", b.in.ntypes, kSec));
  const Type dt = b.type(0), at = b.type(1), bt = b.type(2), ct = b.type(3);
  const bool row_col = b.has(Mod::row) && b.has(Mod::col);
  const bool bin = at == Type::B1;
  const bool and_ = b.has(Mod::and_), xor_ = b.has(Mod::xor_);

  auto plan = std::make_shared<MmaPlan>();
  MmaPlan& p = *plan;
  p.m = m;
  p.n = n;
  p.k = k;
  p.satfinite = b.has(Mod::satfinite);
  const std::string form = fmt::format("m{}n{}k{}.{}.{}.{}.{}", m, n, k, isa::ptx::type_name(dt), isa::ptx::type_name(at),
                                       isa::ptx::type_name(bt), isa::ptx::type_name(ct));
  auto illegal = [&](std::string_view why) { b.fail(fmt::format("{} is not a legal mma.sync form: {} ({})", form, why, kSec)); };

  if (m == 8 && n == 8 && k == 4 && at == Type::F16)
    return b.not_implemented("mma.sync.m8n8k4 with .f16 operands (the Volta quad-pair form) is not modelled: nvcc "
                             "does not emit it for sm_80+ and there is no hardware data for its arithmetic");
  if (!row_col) illegal("only .row.col layouts exist for this shape (.row for A, .col for B)");
  if (dt != ct) {
    if (dt == Type::F32 && ct == Type::F16) illegal("C and D types differ (allowed only for m8n8k4 .f16)");
    illegal("C and D must have the same type");
  }
  if (p.satfinite && dt != Type::S32) illegal(".satfinite applies to integer forms only");
  if ((and_ || xor_ || b.has(Mod::popc)) && !bin) illegal(".and/.xor.popc applies to .b1 only");

  auto shape_is = [&](std::initializer_list<std::array<int, 3>> shapes) {
    for (const auto& s : shapes)
      if (s[0] == m && s[1] == n && s[2] == k) return true;
    return false;
  };
  if (at == Type::F64) {
    if (bt != Type::F64 || dt != Type::F64) illegal("f64 A needs f64 B, C and D");
    if (!shape_is({{8, 8, 4}, {16, 8, 4}, {16, 8, 8}, {16, 8, 16}})) illegal("f64 shapes: m8n8k4, m16n8k4, m16n8k8, m16n8k16");
    p.arith = Arith::F64;
    p.abits = p.bbits = 64;
    p.unit_bits = 64;
    p.acc_bits = 64;
  } else if (at == Type::S4 || at == Type::U4) {
    if (bt != Type::S4 && bt != Type::U4) illegal("a 4-bit integer A needs a 4-bit integer B");
    if (dt != Type::S32) illegal("4-bit integer forms accumulate in .s32");
    if (!shape_is({{8, 8, 32}, {16, 8, 32}, {16, 8, 64}})) illegal("s4/u4 shapes: m8n8k32, m16n8k32, m16n8k64");
    p.arith = Arith::Int4;
    p.abits = p.bbits = 4;
    p.a_signed = at == Type::S4;
    p.b_signed = bt == Type::S4;
  } else if (bin) {
    if (bt != Type::B1 || dt != Type::S32) illegal(".b1 needs .b1 B and .s32 C/D");
    if (!shape_is({{8, 8, 128}, {16, 8, 128}, {16, 8, 256}})) illegal("b1 shapes: m8n8k128, m16n8k128, m16n8k256");
    if (!b.has(Mod::popc) || and_ == xor_) illegal(".b1 needs exactly one of .and.popc / .xor.popc");
    if (p.satfinite) illegal(".satfinite does not apply to .b1");
    p.arith = Arith::Bin;
    p.abits = p.bbits = 1;
    p.bin_xor = xor_;
  } else {
    const auto ma = model_type(at), mb = model_type(bt), md = model_type(dt);
    if (!ma || !mb || !md) illegal("unsupported element type");
    mm::MmaKind kind;
    if (at == Type::F16 || at == Type::BF16) {
      if (bt != at) illegal("A and B must both be .f16 or both .bf16");
      if (at == Type::BF16 && dt != Type::F32) illegal(".bf16 accumulates in .f32 only");
      if (dt != Type::F32 && dt != Type::F16) illegal("D must be .f16 or .f32");
      if (!shape_is({{16, 8, 8}, {16, 8, 16}})) illegal("f16/bf16 shapes here: m16n8k8, m16n8k16");
      kind = mm::MmaKind::F16;
    } else if (at == Type::TF32) {
      if (bt != Type::TF32 || dt != Type::F32) illegal(".tf32 needs .tf32 B and .f32 C/D");
      if (!shape_is({{16, 8, 4}, {16, 8, 8}})) illegal("tf32 shapes: m16n8k4, m16n8k8");
      kind = mm::MmaKind::TF32;
    } else if (at == Type::E4M3 || at == Type::E5M2) {
      if (bt != Type::E4M3 && bt != Type::E5M2) illegal("an fp8 A needs an fp8 B");
      if (dt != Type::F32 && dt != Type::F16) illegal("fp8 accumulates in .f32 or .f16");
      if (!shape_is({{16, 8, 16}, {16, 8, 32}})) illegal("fp8 shapes: m16n8k16, m16n8k32");
      kind = mm::MmaKind::F8F6F4;
    } else if (at == Type::S8 || at == Type::U8) {
      if (bt != Type::S8 && bt != Type::U8) illegal("an 8-bit integer A needs an 8-bit integer B");
      if (dt != Type::S32) illegal("8-bit integer forms accumulate in .s32");
      if (!shape_is({{8, 8, 16}, {16, 8, 16}, {16, 8, 32}})) illegal("s8/u8 shapes: m8n8k16, m16n8k16, m16n8k32");
      kind = mm::MmaKind::I8;
    } else {
      illegal("unsupported element type");
    }
    const isa::Arch arch = b.loaded().arch;
    const mm::ParamRow* row = mm::find_row(arch, mm::Path::MmaSync, kind, *ma, *mb, *md);
    if (!row || !row->allows_k(k))
      b.fail(fmt::format("{}: models/mma has no mma.sync numerics row for this form on {} (it cannot be computed "
                         "bit-exactly)",
                         form, isa::arch_name(arch)));
    mm::DotShape s;
    s.num = row->num;
    s.kind = kind;
    s.atype = *ma;
    s.btype = *mb;
    s.dtype = *md;
    s.k = k;
    s.saturate = p.satfinite;
    p.engine = std::make_unique<mm::DotEngine>(s);
    p.abits = p.bbits = isa::dtype_bits(*ma);
    p.acc_bits = dt == Type::F16 ? 16 : 32;
  }
  const int unit_elems_a = p.unit_bits / p.abits, unit_elems_b = p.unit_bits / p.bbits;
  p.na = m * k / unit_elems_a / 32;
  p.nb = n * k / unit_elems_b / 32;
  const int acc = m * n / 32;
  p.nc = p.acc_bits == 16 ? acc / 2 : acc;
  if (p.arith != Arith::F64) {
    if (p.na > 8 || p.nb > 8 || acc > 4) b.fail("internal: mma.sync fragment larger than the offset tables");
    for (int lane = 0; lane < 32; ++lane) {
      for (int j = 0; j < p.na; ++j) {
        const Coord x = a_coord(p, lane, j);
        p.a_off[32 * j + lane] = static_cast<uint16_t>(x.row * k + x.unit * unit_elems_a);
      }
      for (int j = 0; j < p.nb; ++j) {
        const Coord x = b_coord(lane, j);
        p.b_off[32 * j + lane] = static_cast<uint16_t>(x.row * k + x.unit * unit_elems_b);
      }
      for (int i = 0; i < acc; ++i) {
        const Coord x = acc_coord(p, lane, i);
        p.acc_off[32 * i + lane] = static_cast<uint16_t>(x.row * n + x.unit);
      }
    }
  }
  const int reg_bits = p.unit_bits == 64 ? 64 : 32;
  if (b.nops() != 4) b.fail(fmt::format("mma.sync takes 4 operands d, a, b, c; got {}", b.nops()));
  b.out.first_op = bind_regs(b, 0, p.nc, p.acc_bits == 64 ? 64 : 32, true, "d");
  bind_regs(b, 1, p.na, reg_bits, false, "a");
  bind_regs(b, 2, p.nb, reg_bits, false, "b");
  bind_regs(b, 3, p.nc, p.acc_bits == 64 ? 64 : 32, false, "c");
  b.out.nops = static_cast<uint16_t>(2 * p.nc + p.na + p.nb);
  b.out.aux = b.prog.family_data.size();
  b.prog.family_data.push_back(std::move(plan));
  b.out.fn = exec_mma;
}

}  // namespace tcsim::sim
