// PTX ISA §9.7.9.22 Data Movement and Conversion Instructions: cvt.pack (sm_72+; sub-byte sm_75+):
//   cvt.pack.sat.convertType.abType d, a, b;          .convertType = { .u16, .s16 }, .abType = { .s32 }
//   cvt.pack.sat.convertType.abType.cType d, a, b, c;  .convertType = { .u2, .s2, .u4, .s4, .u8, .s8 },
//                                                      .abType = { .s32 }, .cType = { .b32 }
// a and b are clamped to the range of convertType (.sat is mandatory) and packed into the low
// 2*size bits of d: tb in d[size-1:0], ta in d[2*size-1:size]; with c, d's remaining upper bits
// are c's low bits: d[i] = c[i - 2*size] for i >= 2*size (the PTX semantics' loop), so
// cvt.pack.sat.u8.s32.b32 d, a, b, c gives { c[15:0], ta, tb } from bit 31 down.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

// aux: bits 0-7 size, bit 8 signed, bit 9 with c.
void exec_cvt_pack(ExecCtx& c, const ExecInstr& in) {
  const int size = static_cast<int>(in.aux & 0xff);
  const bool sgn = in.aux >> 8 & 1, has_c = in.aux >> 9 & 1;
  const int64_t lo = sgn ? -(int64_t{1} << (size - 1)) : 0;
  const int64_t hi = sgn ? (int64_t{1} << (size - 1)) - 1 : (int64_t{1} << size) - 1;
  const uint64_t mask = (uint64_t{1} << size) - 1;
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = has_c ? c.src(in.o[3]) : b;
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    auto sat = [&](uint64_t v) {
      const int64_t x = as<int32_t>(v);
      return static_cast<uint64_t>(x < lo ? lo : x > hi ? hi : x) & mask;
    };
    uint64_t r = sat(a[i]) << size | sat(b[i]);
    if (has_c) r |= (e[i] << (2 * size)) & 0xffffffffu;
    return r & 0xffffffffu;
  });
}

}  // namespace

void bind_cvt_pack(BindCtx& b) {
  b.only_mods({Mod::pack, Mod::sat});
  if (!b.has(Mod::sat)) b.fail("cvt.pack needs .sat (cvt.pack.sat.convertType.s32...)");
  if (b.in.rnd != isa::ptx::Rounding::None) b.fail("cvt.pack takes no rounding modifier");
  const Type ct = b.type(0);
  int size = 0;
  switch (ct) {
    case Type::U16: case Type::S16: size = 16; break;
    case Type::U8: case Type::S8: size = 8; break;
    case Type::U4: case Type::S4: size = 4; break;
    case Type::U2: case Type::S2: size = 2; break;
    default: b.fail(fmt::format("cvt.pack converts to .u16, .s16, .u8, .s8, .u4, .s4, .u2 or .s2, not .{}", isa::ptx::type_name(ct)));
  }
  const bool has_c = size < 16;
  if (b.type(1) != Type::S32) b.fail("cvt.pack's source type (abType) must be .s32");
  if (has_c && (b.in.ntypes != 3 || b.type(2) != Type::B32 || b.nops() != 4))
    b.fail(fmt::format("cvt.pack.sat.{}.s32.b32 takes d, a, b, c", isa::ptx::type_name(ct)));
  if (!has_c && (b.in.ntypes != 2 || b.nops() != 3))
    b.fail(fmt::format("cvt.pack.sat.{}.s32 takes d, a, b", isa::ptx::type_name(ct)));
  b.out.aux = static_cast<uint64_t>(size) | uint64_t{isa::ptx::is_signed(ct)} << 8 | uint64_t{has_c} << 9;
  b.out.fn = exec_cvt_pack;
  b.out.o[0] = b.dst(0, 32);
  b.out.o[1] = b.src(1, Type::S32);
  b.out.o[2] = b.src(2, Type::S32);
  if (has_c) b.out.o[3] = b.src(3, Type::B32);
}

}  // namespace tcsim::sim
