// PTX ISA §9.7.14.5.15 ldmatrix, §9.7.14.5.16 stmatrix, §9.7.14.5.17 movmatrix (warp-collective
// 8x8 matrix moves between shared memory and the mma.sync register fragment):
//   ldmatrix.sync.aligned.m8n8.num{.trans}{.shared{::cta}}.b16   r, [p];    .num = { .x1, .x2, .x4 }
//   stmatrix.sync.aligned.m8n8.num{.trans}{.shared{::cta}}.b16   [p], r;
//   movmatrix.sync.aligned.m8n8.trans.b16                        d, a;
// Matrix i (0 <= i < num) of 8 rows x 8 16-bit elements; row r of matrix i lives at the address
// held by thread 8i + r (16 contiguous bytes, 16-byte aligned; the other threads' addresses are
// not used). Register i of thread t holds, with g = t / 4 and q = t % 4:
//   plain : elements (row g, columns 2q, 2q+1)          — low half first
//   .trans: elements (rows 2q, 2q+1, column g)          — the transposed matrix's fragment
// (the mma.sync m16n8k16 A/B fragment unit layout, docs/mma_fragments.md §1). movmatrix maps the plain
// fragment of a matrix to the plain fragment of its transpose. Without a state space the address
// is generic and must point into shared memory (undefined otherwise: reported).
// Not here: the sm_100a m16n16 / m8n16 .b8 and .b8x16.b6x16_p32 / .b4x16_p64 forms (their layouts
// are given only as figures, and no hardware that runs them is at hand).
#include <cstring>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/exec/warp_collective.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::OperandKind;
using isa::ptx::Space;
using isa::ptx::Type;

constexpr std::string_view kLdSec = "PTX ISA §9.7.14.5.15";
constexpr std::string_view kStSec = "PTX ISA §9.7.14.5.16";
constexpr std::string_view kMovSec = "PTX ISA §9.7.14.5.17";

// False when the group parked to wait for lanes of the warp that diverged earlier
// (sim/exec/warp_collective.h): the instruction runs again with the whole warp.
bool require_full_warp(ExecCtx& c, std::string_view what, std::string_view sec) {
  if (c.mask == 0xffffffffu) return true;
  if (!await_converged_warp(c, fmt::format("{}.sync.aligned", what), sec)) return false;
  if (c.mask != 0xffffffffu)
    c.fail(__builtin_ctz(c.mask),
           fmt::format("{}.sync.aligned must be executed by all 32 threads of the warp convergently, but only lanes "
                       "0x{:08x} execute it here ({}: undefined otherwise)",
                       what, c.mask, sec));
  return true;
}

// The shared-memory offset of the row address of thread `lane` (generic addresses must be shared).
uint64_t row_address(ExecCtx& c, const ExecOperand& a, int lane, Space space, std::string_view what,
                     std::string_view sec) {
  const uint64_t addr = mem::lane_address(c, a, lane);
  if (space != Space::Generic) return addr;
  if (addr::classify(addr) != addr::Window::Shared)
    c.fail(lane, fmt::format("{}: generic address 0x{:x} is not in shared memory ({}: undefined behaviour)", what,
                             addr, sec));
  return mem::generic_to_shared(addr);
}

// A row of 8 16-bit elements (16 bytes) of matrix i.
struct Rows {
  uint16_t v[4][8][8];  // [matrix][row][column]
};

// aux: number of matrices (bits 0-7), .trans (bit 8), space (bits 16-23).
template <bool Trans>
void exec_ldmatrix(ExecCtx& c, const ExecInstr& in) {
  if (!require_full_warp(c, "ldmatrix", kLdSec)) return;
  const int num = static_cast<int>(in.aux & 0xff);
  const Space space = static_cast<Space>(in.aux >> 16 & 0xff);
  const ExecOperand& a = c.op(in, 0);
  Rows m;
  mem::GlobalCache gc;
  for (int i = 0; i < num; ++i)
    for (int r = 0; r < 8; ++r) {
      const int lane = 8 * i + r;
      const uint64_t sa = row_address(c, a, lane, space, "ldmatrix", kLdSec);
      mem::read(c, lane, Space::Shared, false, sa, m.v[i][r], 16, gc);
    }
  for (int i = 0; i < num; ++i) {
    const ExecOperand& d = c.op(in, 1 + i);
    if (d.is_sink) continue;
    uint64_t* dst = c.dst(d.ref);
    for (int t = 0; t < 32; ++t) {
      const int g = t >> 2, q = t & 3;
      const uint32_t lo = Trans ? m.v[i][2 * q][g] : m.v[i][g][2 * q];
      const uint32_t hi = Trans ? m.v[i][2 * q + 1][g] : m.v[i][g][2 * q + 1];
      dst[t] = lo | (hi << 16);
    }
  }
}

template <bool Trans>
void exec_stmatrix(ExecCtx& c, const ExecInstr& in) {
  if (!require_full_warp(c, "stmatrix", kStSec)) return;
  const int num = static_cast<int>(in.aux & 0xff);
  const Space space = static_cast<Space>(in.aux >> 16 & 0xff);
  const ExecOperand& a = c.op(in, 0);
  Rows m;
  for (int i = 0; i < num; ++i) {
    const uint64_t* src = c.src(c.op(in, 1 + i).ref);
    for (int t = 0; t < 32; ++t) {
      const int g = t >> 2, q = t & 3;
      const uint16_t lo = static_cast<uint16_t>(src[t]), hi = static_cast<uint16_t>(src[t] >> 16);
      if (Trans) {
        m.v[i][2 * q][g] = lo;
        m.v[i][2 * q + 1][g] = hi;
      } else {
        m.v[i][g][2 * q] = lo;
        m.v[i][g][2 * q + 1] = hi;
      }
    }
  }
  mem::GlobalCache gc;
  for (int i = 0; i < num; ++i)
    for (int r = 0; r < 8; ++r) {
      const int lane = 8 * i + r;
      const uint64_t sa = row_address(c, a, lane, space, "stmatrix", kStSec);
      mem::write(c, lane, Space::Shared, false, sa, m.v[i][r], 16, gc);
    }
}

void exec_movmatrix(ExecCtx& c, const ExecInstr& in) {
  if (!require_full_warp(c, "movmatrix", kMovSec)) return;
  const uint64_t* src = c.src(in.o[1]);
  uint16_t m[8][8];
  for (int t = 0; t < 32; ++t) {
    m[t >> 2][2 * (t & 3)] = static_cast<uint16_t>(src[t]);
    m[t >> 2][2 * (t & 3) + 1] = static_cast<uint16_t>(src[t] >> 16);
  }
  uint64_t* d = c.dst(in.o[0]);
  for (int t = 0; t < 32; ++t) {
    const int g = t >> 2, q = t & 3;
    d[t] = uint32_t{m[2 * q][g]} | (uint32_t{m[2 * q + 1][g]} << 16);
  }
}

int matrix_count(BindCtx& b, std::string_view sec) {
  const int n = b.has(Mod::x1) + b.has(Mod::x2) + b.has(Mod::x4);
  if (n != 1) b.fail(fmt::format("needs exactly one of .x1, .x2, .x4 ({})", sec));
  return b.has(Mod::x1) ? 1 : b.has(Mod::x2) ? 2 : 4;
}

Space matrix_space(BindCtx& b, std::string_view sec) {
  const Space s = b.in.space();
  if (b.in.nspaces > 1 || (s != Space::Generic && s != Space::Shared && s != Space::SharedCta))
    b.fail(fmt::format("the state space must be .shared or .shared::cta (or none: generic) ({})", sec));
  return s == Space::Generic ? Space::Generic : Space::Shared;
}

void check_common(BindCtx& b, std::string_view what, std::string_view sec) {
  if (!b.has(Mod::sync) || !b.has(Mod::aligned)) b.fail(fmt::format("{} needs .sync.aligned ({})", what, sec));
  if (b.has(Mod::m16n16) || b.has(Mod::m8n16) || b.has(Mod::m16n8))
    return b.not_implemented(fmt::format(
        "{} with the sm_100a 8-bit shapes (.m16n16/.m8n16/.m16n8, {}) is not modelled: their fragment layouts are "
        "given only as figures and no hardware that runs them is at hand",
        what, sec));
  if (!b.has(Mod::m8n8)) b.fail(fmt::format("{} needs the shape .m8n8 ({})", what, sec));
  if (b.in.ntypes != 1 || b.type(0) != Type::B16) b.fail(fmt::format("{}.m8n8 takes .b16 elements ({})", what, sec));
}

std::vector<const isa::ptx::Operand*> vector_regs(BindCtx& b, int i) {
  const isa::ptx::Operand& o = b.operand(i);
  std::vector<const isa::ptx::Operand*> r;
  if (o.kind == OperandKind::Vector)
    for (const auto& e : o.elems) r.push_back(&e);
  else
    r.push_back(&o);
  return r;
}

}  // namespace

void bind_matrix_move(BindCtx& b) {
  using isa::ptx::Op;
  switch (b.in.op) {
    case Op::ldmatrix:
    case Op::stmatrix: {
      const bool ld = b.in.op == Op::ldmatrix;
      const std::string_view sec = ld ? kLdSec : kStSec, what = ld ? "ldmatrix" : "stmatrix";
      b.only_mods({Mod::sync, Mod::aligned, Mod::m8n8, Mod::m16n16, Mod::m8n16, Mod::m16n8, Mod::x1, Mod::x2,
                   Mod::x4, Mod::trans, Mod::b8x16, Mod::b6x16_p32, Mod::b4x16_p64});
      check_common(b, what, sec);
      if (b.out.fn) return;  // not implemented form bound
      const int num = matrix_count(b, sec);
      const Space space = matrix_space(b, sec);
      const bool trans = b.has(Mod::trans);
      if (b.nops() != 2) b.fail(fmt::format("{} takes 2 operands", what));
      const int addr_op = ld ? 1 : 0, reg_op = ld ? 0 : 1;
      b.out.first_op = b.push(b.address(addr_op, space == Space::Generic ? Space::Generic : Space::Shared));
      const auto regs = vector_regs(b, reg_op);
      if (static_cast<int>(regs.size()) != num)
        b.fail(fmt::format("{} .x{} needs {} registers, got {} ({})", what, num, num, regs.size(), sec));
      for (const auto* r : regs) {
        ExecOperand e;
        if (ld) {
          e.ref = b.dst_of(*r, 32);
          e.is_sink = r->kind == OperandKind::Sink;
        } else {
          e.ref = b.src_of(*r, Type::B32);
        }
        b.push(e);
      }
      b.out.nops = static_cast<uint16_t>(1 + num);
      b.out.aux = static_cast<uint64_t>(num) | (uint64_t{trans} << 8) | (uint64_t(space) << 16);
      if (ld) b.out.fn = trans ? &exec_ldmatrix<true> : &exec_ldmatrix<false>;
      else b.out.fn = trans ? &exec_stmatrix<true> : &exec_stmatrix<false>;
      return;
    }
    case Op::movmatrix:
      b.only_mods({Mod::sync, Mod::aligned, Mod::m8n8, Mod::trans});
      if (!b.has(Mod::sync) || !b.has(Mod::aligned) || !b.has(Mod::m8n8) || !b.has(Mod::trans))
        b.fail(fmt::format("the only movmatrix form is movmatrix.sync.aligned.m8n8.trans.b16 ({})", kMovSec));
      if (b.in.ntypes != 1 || b.type(0) != Type::B16) b.fail(fmt::format("movmatrix takes .b16 ({})", kMovSec));
      if (b.nops() != 2) b.fail("movmatrix takes 2 operands d, a");
      b.out.o[0] = b.dst(0, 32);
      b.out.o[1] = b.src(1, Type::B32);
      b.out.fn = exec_movmatrix;
      return;
    default:
      b.fail("internal: not a matrix_move row");
  }
}

}  // namespace tcsim::sim
