// PTX ISA §9.7.9.23 mapa, §9.7.9.24 getctarank (Data Movement: distributed shared memory)
//   mapa.shared::cluster.{u32,u64} d, a, b;   a: a shared memory address (variable, variable+imm or
//                                             register); d: the corresponding .shared::cluster
//                                             address in the CTA of rank b
//   mapa.{u32,u64}                 d, a, b;   a and d: generic addresses pointing to shared memory
//   getctarank.shared::cluster.{u32,u64} d, a;  d (32-bit): rank of the CTA that owns a
//   getctarank.{u32,u64}                 d, a;  a: a generic address pointing to shared memory
// The .type names the width of a (and of d for mapa). tcsim's .shared::cluster encoding is in
// sim/cluster.h (PTX leaves it implementation-defined, §5.1.7); generic addresses of another
// CTA's shared memory are that encoding inside the shared window (sim/address_space.h).
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/address_space.h"
#include "sim/cluster.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Op;
using isa::ptx::Space;
using isa::ptx::Type;

constexpr uint8_t kGeneric = 1;  // no state space: generic addresses
constexpr uint8_t kWide = 2;     // .u64

// The .shared::cluster address a lane names, or a fault (generic form: must be in the shared window).
uint64_t cluster_addr_of(ExecCtx& c, const ExecInstr& in, int lane, const char* what) {
  uint64_t a = c.src(in.o[1])[lane];
  if (!(in.flags & kWide)) a = static_cast<uint32_t>(a);
  if (in.flags & kGeneric) {
    if (addr::classify(a) != addr::Window::Shared)
      c.fail(lane, fmt::format("{}: the generic address 0x{:x} does not point to shared memory (without "
                               ".shared::cluster the operand must be a generic address of shared memory: PTX "
                               "ISA §9.7.9.{})", what, a, in.flags & 4 ? 24 : 23));
    return a - addr::kSharedWindow;
  }
  if (a > 0xffffffffull)
    c.fail(lane, fmt::format("{}: 0x{:x} is not a shared memory address", what, a));
  return a;
}

void exec_mapa(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* rk = c.src(in.o[2]);
  const Cluster& cl = c.cta->cluster();
  for_lanes(c.mask, [&](int lane) {
    const ClusterAddr ca = split_cluster_addr(cluster_addr_of(c, in, lane, "mapa"));
    const uint32_t rank = static_cast<uint32_t>(rk[lane]);
    if (rank >= cl.size())
      c.fail(lane, fmt::format("mapa: target CTA rank {} is outside the cluster of {} CTA{} (rank 0..{} = "
                               "%cluster_nctarank - 1; PTX ISA §9.7.9.23)", rank, cl.size(), cl.size() == 1 ? "" : "s",
                               cl.size() - 1));
    if (ca.offset >= c.cta->smem_bytes())
      c.fail(lane, fmt::format("mapa: shared address 0x{:x} is outside the CTA's {} bytes of shared memory, so it "
                               "has no counterpart in CTA rank {}", ca.offset, c.cta->smem_bytes(), rank));
    const uint64_t r = make_cluster_addr(rank, ca.offset);
    d[lane] = (in.flags & kGeneric) ? addr::kSharedWindow + r : r;
  });
}

void exec_getctarank(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const Cluster& cl = c.cta->cluster();
  for_lanes(c.mask, [&](int lane) {
    const ClusterAddr ca = split_cluster_addr(cluster_addr_of(c, in, lane, "getctarank"));
    const uint32_t rank = ca.rank < 0 ? c.cta->cluster_rank() : static_cast<uint32_t>(ca.rank);
    if (rank >= cl.size())
      c.fail(lane, fmt::format("getctarank: the address names CTA rank {}, outside the cluster of {} CTA{}", rank,
                               cl.size(), cl.size() == 1 ? "" : "s"));
    d[lane] = rank;
  });
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
