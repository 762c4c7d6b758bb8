// PTX ISA §9.7.9.12 st.async, §9.7.13.7 red.async: asynchronous stores and reductions into the
// shared memory of a CTA of the cluster, completed through an mbarrier in that CTA.
//   st.async{.weak}.shared::cluster.mbarrier::complete_tx::bytes{.vec}.type [a], b, [mbar];
//       .vec = { .v2, .v4 }; .type = { .b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64 } (.v4: 32-bit only)
//   red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar];
//       .op .type = .add {.u32, .s32, .u64}; .min/.max {.u32, .s32}; .inc/.dec .u32; .and/.or/.xor .b32
// Both are weak accesses in the generic proxy. The data lands (and red.async's read-modify-write
// happens) in an AsyncDataLand event dsmem.remote_latency later (sim/timing/model.h); then complete-tx of the bytes written
// on mbar (an mbarrier in the same CTA as a) in a MbarrierUpdate event of the same cycle, with the
// issuing CTA's release clock (sim/units/mbarrier.h). Addresses, alignment and bounds are checked
// at issue; a destination CTA that exited before the data lands is a fault.
#include <cstring>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/checker/race.h"
#include "sim/timing/model.h"
#include "sim/cluster.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/memory/dsmem.h"
#include "sim/memory/rmw.h"
#include "sim/partition.h"
#include "sim/units/mbarrier.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::Scope;
using isa::ptx::Sem;
using isa::ptx::Space;
using isa::ptx::Type;


// aux: bits 0-7 element bytes, 8-15 vector length, bit 16 red.async, 17-20 its rmw::Op, 24-31 its
// rmw::Type (the element ALU: sim/memory/rmw.h).
uint32_t esize_of(const ExecInstr& in) { return in.aux & 0xff; }
uint32_t vec_of(const ExecInstr& in) { return in.aux >> 8 & 0xff; }
bool is_red(const ExecInstr& in) { return in.aux >> 16 & 1; }
rmw::ElemOp elem_of(const ExecInstr& in) {
  return {static_cast<rmw::Op>(in.aux >> 17 & 0xf), static_cast<rmw::Type>(in.aux >> 24 & 0xff), false};
}

void exec_remote_async(ExecCtx& c, const ExecInstr& in) {
  const uint32_t esize = esize_of(in), vec = vec_of(in), bytes = esize * vec;
  const bool red = is_red(in);
  const rmw::ElemOp op = elem_of(in);
  const char* what = red ? "red.async" : "st.async";
  Cluster& cl = c.cta->cluster();
  const uint32_t own = c.cta->cluster_rank();
  for_lanes(c.mask, [&](int lane) {
    const uint64_t a = mem::lane_address(c, c.op(in, 0), lane);
    const uint64_t m = mem::lane_address(c, c.op(in, 1 + vec), lane);
    if (a % bytes)
      c.fail(lane, fmt::format("{}: destination 0x{:x} is not aligned to the {}-byte access", what, a, bytes));
    const mem::SharedTarget t = mem::resolve_cluster_shared(c, lane, a, what);
    const mem::SharedTarget mb = mem::resolve_cluster_shared(c, lane, m, what);
    if (t.rank != mb.rank)
      c.fail(lane, fmt::format("{}: the mbarrier (in {}) must be in the same CTA as the destination (in {}) (PTX "
                               "ISA §9.7.9.12)", what, cl.cta_name(mb.rank), cl.cta_name(t.rank)));
    if (uint64_t{t.offset} + bytes > t.cta->smem_bytes())
      c.fail(lane, fmt::format("{}: destination offset 0x{:x} (+{} bytes) is outside the {} bytes of shared memory "
                               "of {}", what, t.offset, bytes, t.cta->smem_bytes(), cl.cta_name(t.rank)));
    if (mb.offset & 7)
      c.fail(lane, fmt::format("{}: the mbarrier address (offset 0x{:x} in {}) is not 8-byte aligned", what, mb.offset,
                               cl.cta_name(mb.rank)));
    uint64_t vals[4] = {};
    for (uint32_t k = 0; k < vec; ++k) vals[k] = c.src(c.op(in, 1 + k).ref)[lane];
    const CtaRef target = t.cta->ref();
    const uint32_t off = t.offset, moff = mb.offset;
    const Cycles when = c.now + Cycles(static_cast<uint64_t>(c.launch->timing->p.dsmem_remote_latency)) +
                        Cycles(c.part->jitter(16));  // sim/timing/model.h
    Partition* part = c.part;
    part->events().post(when, EventPriority::AsyncDataLand,
                        [target, off, vals0 = vals[0], vals1 = vals[1], vals2 = vals[2], vals3 = vals[3], esize,
                         vec, red, op](Cycles) {
                          Cta* d = target.get();
                          if (!d || d->done()) return;  // reported by the mbarrier event of this cycle
                          const uint64_t v[4] = {vals0, vals1, vals2, vals3};
                          uint8_t* p = d->shared() + off;
                          if (red) check_copied(d->uncopied(), off, vec * esize, "red.async");
                          else d->uncopied().clear(off, vec * esize);
                          race::async_wrote(*d, off, vec * esize);
                          for (uint32_t k = 0; k < vec; ++k) {
                            uint8_t x[8];
                            std::memcpy(x, &v[k], 8);
                            if (red) rmw::apply(op, p + k * esize, x);
                            else std::memcpy(p + k * esize, x, esize);
                          }
                        });
    const VClock rel = cl.release(own);
    post_mbarrier_complete_tx(*part, when, target, moff, bytes, &rel,
                              fmt::format("{} issued by {} at cycle {}", what, c.cta->name(), c.now.count()));
  });
}

}  // namespace

void bind_remote_async(BindCtx& b) {
  const bool red = b.in.op == Op::red_async;
  rmw::Op op = rmw::Op::Add;
  if (red) {
    b.only_mods({Mod::mbarrier_complete_tx_bytes, Mod::add, Mod::min, Mod::max, Mod::inc, Mod::dec, Mod::and_,
                 Mod::or_, Mod::xor_});
    const int n = rmw::parse_op(b.in, &op);
    if (n > 1) b.fail("takes one reduction operation");
    if (n == 0) b.fail("needs a reduction operation (.add, .min, .max, .inc, .dec, .and, .or, .xor)");
    if (b.in.sem != Sem::Relaxed || b.in.scope != Scope::Cluster)
      b.fail("needs .relaxed.cluster (PTX ISA §9.7.13.7)");
  } else {
    b.only_mods({Mod::mbarrier_complete_tx_bytes});
    if ((b.in.sem != Sem::None && b.in.sem != Sem::Weak) || b.in.scope != Scope::None)
      b.fail("takes only the .weak semantics and no scope (PTX ISA §9.7.9.12)");
  }
  if (!b.has(Mod::mbarrier_complete_tx_bytes)) b.fail("needs the completion mechanism .mbarrier::complete_tx::bytes");
  if (b.in.nspaces != 1 || b.in.space(0) != Space::SharedCluster) b.fail("needs the state space .shared::cluster");
  const Type t = b.type(0);
  const int bits = isa::ptx::type_bits(t);
  bool ok;
  if (!red) {
    ok = t == Type::B32 || t == Type::U32 || t == Type::S32 || t == Type::B64 || t == Type::U64 || t == Type::S64 ||
         t == Type::F32 || t == Type::F64;
  } else {
    switch (op) {
      case rmw::Op::Add: ok = t == Type::U32 || t == Type::S32 || t == Type::U64; break;
      case rmw::Op::Min: case rmw::Op::Max: ok = t == Type::U32 || t == Type::S32; break;
      case rmw::Op::Inc: case rmw::Op::Dec: ok = t == Type::U32; break;
      default: ok = t == Type::B32; break;
    }
  }
  if (!ok) b.fail(fmt::format("type .{} is not allowed for this form (PTX ISA §{})", isa::ptx::type_name(t),
                              red ? "9.7.13.7" : "9.7.9.12"));
  const uint32_t vec = b.in.vec;
  if (red && vec != 1) b.fail("red.async takes no vector");
  if (vec != 1 && vec != 2 && vec != 4) b.fail("vectors are .v2 or .v4");
  if (vec == 4 && bits != 32) b.fail(".v4 applies to 32-bit types");
  if (b.nops() != 3) b.fail("takes the operands [a], b, [mbar]");
  b.out.first_op = b.push(b.address(0, Space::SharedCluster));
  const isa::ptx::Operand& data = b.operand(1);
  std::vector<const isa::ptx::Operand*> elems;
  if (data.kind == isa::ptx::OperandKind::Vector) {
    for (const auto& e : data.elems) elems.push_back(&e);
  } else {
    elems.push_back(&data);
  }
  if (elems.size() != vec)
    b.fail(fmt::format("the data operand has {} element(s), the instruction stores {}", elems.size(), vec));
  for (const isa::ptx::Operand* e : elems) {
    ExecOperand o;
    o.ref = b.src_of(*e, t);
    b.push(o);
  }
  b.push(b.address(2, Space::SharedCluster));
  const rmw::Type rt = t == Type::U32 ? rmw::Type::U32 : t == Type::S32 ? rmw::Type::S32
                     : t == Type::U64 ? rmw::Type::U64 : rmw::Type::B32;
  b.out.aux = uint64_t{static_cast<uint32_t>(bits / 8)} | uint64_t{vec} << 8 |
              (red ? uint64_t{1} << 16 | uint64_t{static_cast<uint8_t>(op)} << 17 | uint64_t{static_cast<uint8_t>(rt)} << 24
                   : 0);
  b.out.fn = exec_remote_async;
}

}  // namespace tcsim::sim
