// PTX ISA §9.7.9.23 mapa, §9.7.9.24 getctarank (Data Movement: distributed shared memory)
//   mapa.shared::cluster.{u32,u64} d, a, b;   a: a shared memory address (variable, variable+imm or
//                                             register); d: the corresponding .shared::cluster
//                                             address in the CTA of rank b
//   mapa.{u32,u64}                 d, a, b;   a and d: generic addresses pointing to shared memory
//   getctarank.shared::cluster.{u32,u64} d, a;  d (32-bit): rank of the CTA that owns a
//   getctarank.{u32,u64}                 d, a;  a: a generic address pointing to shared memory
// The .type names the width of a (and of d for mapa). The shared address carries the rank in bits
// 24..31 (models/machine/shared_memory.h), and both instructions are that bit arithmetic on the
// H200, with no range check: mapa replaces the rank field by the low 8 bits of b (rank 255 in a
// cluster of 2 gives 0xff000000 | offset), getctarank returns bits 24..31 (kernels/cluster
// smem_addr_* and smem_probe_m5 goldens; docs/shared_memory.md). A rank outside the cluster faults
// only when the address is used for an access (sim/memory/dsmem.h).
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "models/machine/shared_memory.h"
#include "sim/address_space.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/dsmem.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Op;
using isa::ptx::Space;
using isa::ptx::Type;

constexpr uint8_t kGeneric = 1;  // no state space: generic addresses
constexpr uint8_t kWide = 2;     // .u64

// The 32-bit shared address a lane names, or a fault (generic form: must be in the shared window).
uint32_t shared_addr_of(ExecCtx& c, const ExecInstr& in, int lane, const char* what) {
  uint64_t a = c.src(in.o[1])[lane];
  if (!(in.flags & kWide)) a = static_cast<uint32_t>(a);
  if (in.flags & kGeneric) {
    if (addr::classify(a) != addr::Window::Shared)
      c.fail(lane, fmt::format("{}: the generic address 0x{:x} does not point to shared memory (without "
                               ".shared::cluster the operand must be a generic address of shared memory: PTX "
                               "ISA §9.7.9.{})", what, a, in.flags & 4 ? 24 : 23));
    return mem::generic_to_shared(a);
  }
  return static_cast<uint32_t>(a);  // the shared address is the low 32 bits
}

void exec_mapa(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* rk = c.src(in.o[2]);
  for_lanes(c.mask, [&](int lane) {
    const uint32_t r = models::smem_mapa(shared_addr_of(c, in, lane, "mapa"), static_cast<uint32_t>(rk[lane]));
    d[lane] = (in.flags & kGeneric) ? mem::shared_to_generic(r) : r;
  });
}

void exec_getctarank(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  for_lanes(c.mask, [&](int lane) { d[lane] = models::smem_rank(shared_addr_of(c, in, lane, "getctarank")); });
}

}  // namespace

void bind_cluster_addr(BindCtx& b) {
  b.only_mods({});
  const Type t = b.type(0);
  if (t != Type::U32 && t != Type::U64) b.fail("needs the type .u32 or .u64 (PTX ISA §9.7.9.23-24)");
  if (b.in.nspaces > 1 || (b.in.nspaces == 1 && b.in.space(0) != Space::SharedCluster))
    b.fail("the only state space allowed is .shared::cluster (without it the addresses are generic)");
  const bool wide = t == Type::U64;
  b.out.flags = static_cast<uint8_t>((b.in.nspaces == 0 ? kGeneric : 0) | (wide ? kWide : 0));
  if (b.in.op == Op::mapa) {
    b.out.o[0] = b.dst(0, wide ? 64 : 32);
    b.out.o[1] = b.src(1, t);
    b.out.o[2] = b.src(2, Type::U32);
    b.out.fn = exec_mapa;
  } else {
    b.out.flags |= 4;
    b.out.o[0] = b.dst(0, 32);
    b.out.o[1] = b.src(1, t);
    b.out.fn = exec_getctarank;
  }
}

}  // namespace tcsim::sim
