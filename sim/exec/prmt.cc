// PTX ISA §9.7.9 Data Movement and Conversion Instructions: prmt
//   prmt.b32{.mode} d, a, b, c;      .mode = { .f4e, .b4e, .rc8, .ecl, .ecr, .rc16 }
// The 8 source bytes are {b, a} = {b7 b6 b5 b4, b3 b2 b1 b0}. Generic form: nibble k of c selects
// the source byte of result byte k (bits 2:0) and bit 3 replicates that byte's sign over the byte.
// Special modes use c[1:0] and the table below (PTX ISA prmt, "byte selector" table), listing the
// source byte of result bytes 0..3:
#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

// [mode][c & 3][result byte 0..3]
constexpr uint8_t kModeTable[6][4][4] = {
    /* f4e  */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    /* b4e  */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    /* rc8  */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    /* ecl  */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    /* ecr  */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

void exec_prmt(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* s = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) {
    const uint64_t src = (uint64_t{static_cast<uint32_t>(b[i])} << 32) | static_cast<uint32_t>(a[i]);
    const uint32_t ctl = static_cast<uint32_t>(s[i]);
    uint32_t r = 0;
    for (int k = 0; k < 4; ++k) {
      const uint32_t sel = ctl >> (4 * k) & 0xf;
      uint32_t byte = static_cast<uint32_t>(src >> (8 * (sel & 7))) & 0xff;
      if (sel & 8) byte = (byte & 0x80) ? 0xff : 0x00;
      r |= byte << (8 * k);
    }
    return uint64_t{r};
  });
}

template <int Mode>
void exec_prmt_mode(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* s = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) {
    const uint64_t src = (uint64_t{static_cast<uint32_t>(b[i])} << 32) | static_cast<uint32_t>(a[i]);
    const uint8_t* row = kModeTable[Mode][s[i] & 3];
    uint32_t r = 0;
    for (int k = 0; k < 4; ++k) r |= (static_cast<uint32_t>(src >> (8 * row[k])) & 0xff) << (8 * k);
    return uint64_t{r};
  });
}

}  // namespace

void bind_prmt(BindCtx& b) {
  b.only_mods({Mod::f4e, Mod::b4e, Mod::rc8, Mod::ecl, Mod::ecr, Mod::rc16});
  if (b.type(0) != Type::B32) b.fail("prmt takes .b32");
  const Mod modes[] = {Mod::f4e, Mod::b4e, Mod::rc8, Mod::ecl, Mod::ecr, Mod::rc16};
  const ExecFn fns[] = {&exec_prmt_mode<0>, &exec_prmt_mode<1>, &exec_prmt_mode<2>,
                        &exec_prmt_mode<3>, &exec_prmt_mode<4>, &exec_prmt_mode<5>};
  b.out.fn = exec_prmt;
  int n = 0;
  for (int k = 0; k < 6; ++k)
    if (b.has(modes[k])) {
      b.out.fn = fns[k];
      ++n;
    }
  if (n > 1) b.fail("at most one prmt mode");
  b.out.o[0] = b.dst(0, 32);
  b.out.o[1] = b.src(1, Type::B32);
  b.out.o[2] = b.src(2, Type::B32);
  b.out.o[3] = b.src(3, Type::B32);
}

}  // namespace tcsim::sim
