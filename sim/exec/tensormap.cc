// PTX ISA §9.7.9.26 tensormap.replace, §9.7.9.27 tensormap.cp_fenceproxy
//   tensormap.replace.mode.field1{.ss}.b1024.type [addr], new_val;     .field1 = { .global_address, .rank }
//   tensormap.replace.mode.field2{.ss}.b1024.type [addr], ord, new_val; .field2 = { .box_dim, .global_dim,
//                                                                          .global_stride, .element_stride }
//   tensormap.replace.mode.field3{.ss}.b1024.type [addr], new_val;     .field3 = { .elemtype, .interleave_layout,
//                                                     .swizzle_mode, .swizzle_atomicity, .fill_mode }
//       .mode = { .tile }, .ss = { .global, .shared::cta }, .type = { .b32, .b64 }
//   tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned [dst], [src], 128;
// The map is tcsim's 128-byte encoding (isa/descriptors/tensor_map.h): replace edits one field in
// place (generic-proxy write of the map's bytes, in shared or global memory) and recomputes its
// checksum; cp_fenceproxy copies 128 bytes from shared to global memory (the fence half orders
// nothing further in tcsim: a copy that uses the map reads it from memory when it issues).
// All eleven fields are implemented; new_val per field as the PTX ISA defines it (§9.7.9.27; the
// translation to tcsim's encoding is isa::tensor_map_replace): .rank takes rank - 1, .box_dim /
// .global_dim / .element_stride the value of dimension ord, .global_stride the byte stride of
// dimension ord + 1, the field3 modes the codes of the table "Tensormap new_val validity". The
// replaced map is validated by the decoder when a copy uses it (sim/units/tma_engine.cc reads the
// map from memory at issue), so a map left in a state the driver would refuse is reported there.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "isa/descriptors/tensor_map.h"
#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Space;
using isa::ptx::Type;

// aux: field (bits 0-7), space (bits 8-15), has ord (bit 16).
constexpr uint64_t kHasOrd = 1u << 16;

void read_map(ExecCtx& c, int lane, Space s, uint64_t a, std::array<uint8_t, isa::kTensorMapBytes>& m,
              mem::GlobalCache& gc) {
  for (uint32_t i = 0; i < isa::kTensorMapBytes; i += 8) mem::read(c, lane, s, false, a + i, m.data() + i, 8, gc);
}
void write_map(ExecCtx& c, int lane, Space s, uint64_t a, const std::array<uint8_t, isa::kTensorMapBytes>& m,
               mem::GlobalCache& gc) {
  for (uint32_t i = 0; i < isa::kTensorMapBytes; i += 8) mem::write(c, lane, s, false, a + i, m.data() + i, 8, gc);
}

void exec_replace(ExecCtx& c, const ExecInstr& in) {
  const auto field = static_cast<isa::TensorMapField>(in.aux & 0xff);
  const auto space = static_cast<Space>((in.aux >> 8) & 0xff);
  mem::GlobalCache gc;
  for_lanes(c.mask, [&](int lane) {
    const uint64_t a = mem::lane_address(c, c.op(in, 0), lane);
    if (a % 64 != 0)
      c.fail(lane, fmt::format("tensormap.replace: the tensor map at 0x{:x} is not 64-byte aligned (PTX ISA "
                               "§9.7.9.26)",
                               a));
    std::array<uint8_t, isa::kTensorMapBytes> m{};
    read_map(c, lane, space, a, m, gc);
    const uint32_t ord = (in.aux & kHasOrd) ? static_cast<uint32_t>(c.src(in.o[0])[lane]) : 0;
    const uint64_t v = c.src(in.o[1])[lane];
    auto r = isa::tensor_map_replace(m, field, ord, v);
    if (!r) c.fail(lane, r.error().message);
    std::copy(r->begin(), r->end(), m.begin());
    write_map(c, lane, space, a, m, gc);
  });
}

void exec_cp_fenceproxy(ExecCtx& c, const ExecInstr& in) {
  mem::GlobalCache gc;
  for_lanes(c.mask, [&](int lane) {
    const uint64_t dst = mem::lane_address(c, c.op(in, 0), lane);
    const uint64_t src = mem::lane_address(c, c.op(in, 1), lane);
    std::array<uint8_t, isa::kTensorMapBytes> m{};
    read_map(c, lane, Space::SharedCta, src, m, gc);
    write_map(c, lane, Space::Global, dst, m, gc);
  });
}

}  // namespace

void bind_tensormap(BindCtx& b) {
  using isa::ptx::Op;
  if (b.in.op == Op::tensormap_cp_fenceproxy) {
    if (b.in.space(0) != Space::Global || b.in.space(1) != Space::SharedCta)
      b.fail("tensormap.cp_fenceproxy copies .shared::cta -> .global");
    if (b.nops() != 3 || b.operand(2).kind != isa::ptx::OperandKind::Imm || b.operand(2).imm != 128)
      b.fail("tensormap.cp_fenceproxy takes [dst], [src], 128");
    b.out.first_op = b.push(b.address(0, Space::Global));
    b.push(b.address(1, Space::SharedCta));
    b.out.fn = exec_cp_fenceproxy;
    return;
  }
  if (!b.has(Mod::tile)) b.fail("tensormap.replace needs its mode (.tile)");
  const Type vt = b.need_type({Type::B32, Type::B64});  // ...b1024.type (PTX ISA §9.7.9.26 tensormap.replace)
  // The field modifier -> the field, and whether the form takes ord (.field2).
  struct FieldRow {
    Mod mod;
    isa::TensorMapField field;
    bool ord;
  };
  static constexpr FieldRow kFields[] = {
      {Mod::global_address, isa::TensorMapField::GlobalAddress, false},
      {Mod::rank, isa::TensorMapField::Rank, false},
      {Mod::box_dim, isa::TensorMapField::BoxDim, true},
      {Mod::global_dim, isa::TensorMapField::GlobalDim, true},
      {Mod::global_stride, isa::TensorMapField::GlobalStride, true},
      {Mod::element_stride, isa::TensorMapField::ElementStride, true},
      {Mod::elemtype, isa::TensorMapField::ElemType, false},
      {Mod::interleave_layout, isa::TensorMapField::Interleave, false},
      {Mod::swizzle_mode, isa::TensorMapField::SwizzleMode, false},
      {Mod::swizzle_atomicity, isa::TensorMapField::SwizzleAtomicity, false},
      {Mod::fill_mode, isa::TensorMapField::FillMode, false},
  };
  const FieldRow* row = nullptr;
  for (const FieldRow& r : kFields)
    if (b.has(r.mod)) row = &r;
  if (!row)
    b.fail("tensormap.replace needs a field: .global_address .rank .box_dim .global_dim .global_stride "
           ".element_stride .elemtype .interleave_layout .swizzle_mode .swizzle_atomicity .fill_mode");
  const isa::TensorMapField f = row->field;
  const bool ord = row->ord;
  const bool wide = f == isa::TensorMapField::GlobalAddress || f == isa::TensorMapField::GlobalStride;
  const Space s = b.in.space(0) == Space::SharedCta || b.in.space(0) == Space::Shared ? Space::SharedCta
                  : b.in.space(0) == Space::Global                                    ? Space::Global
                                                                                       : Space::Generic;
  if (s == Space::Generic) b.fail("tensormap.replace needs .global or .shared::cta");
  if (b.nops() != (ord ? 3u : 2u)) b.fail(ord ? "the form takes [addr], ord, new_val" : "the form takes [addr], new_val");
  b.out.first_op = b.push(b.address(0, s));
  if (ord) b.out.o[0] = b.src(1, Type::U32);
  if (vt != (wide ? Type::B64 : Type::B32))
    b.fail(fmt::format("this field's new value is .{} (.global_address and .global_stride are .b64, the others .b32)",
                       wide ? "b64" : "b32"));
  b.out.o[1] = b.src(ord ? 2 : 1, wide ? Type::B64 : Type::B32);
  b.out.aux = static_cast<uint64_t>(f) | static_cast<uint64_t>(s) << 8 | (ord ? kHasOrd : 0);
  b.out.fn = exec_replace;
}

}  // namespace tcsim::sim
