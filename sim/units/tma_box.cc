// Planning a tile-mode box (see tma_box.h for the model and the H200 facts it follows).
#include "sim/units/tma_box.h"

#include <bit>

#include <fmt/format.h>

namespace tcsim::sim::tma {

static_assert(std::endian::native == std::endian::little,
              "TileBox::load writes fill patterns with memcpy: a little-endian host is assumed");

isa::ElementFormat tma_element_format(isa::TensorMapDataType t) {
  using T = isa::TensorMapDataType;
  switch (t) {
    case T::U4x16Align8B: return isa::dense_format(4);     // 16 x U4 in 8 bytes, no gaps
    case T::U4x16Align16B: return isa::padded_format(4);   // .b4x16_p64
    case T::U6x16Align16B: return isa::padded_format(6);   // .b6x16_p32
    default: return isa::dense_format(isa::tensor_map_global_bits(t));
  }
}

namespace {

// OOB NaN fill: 0x7ff7 in every 16-bit half (measured on H200 for bf16 and f32; tma_box.h).
uint64_t nan_fill(int bits) {
  uint64_t v = 0;
  for (int b = 0; b < bits; b += 16) v |= uint64_t{0x7ff7} << b;
  return v;
}

}  // namespace

isa::Expected<TileBox> TileBox::plan(const isa::TensorMapParams& m, std::span<const int32_t> coords,
                                     uint32_t smem_addr, BoxDir dir) {
  auto err = [](std::string s) { return isa::Error{std::move(s)}; };
  if (coords.size() != m.rank)
    return err(fmt::format("the instruction is .{}d ({} tensor coordinate{}) but the tensor map has rank {}: "
                           ".dim must equal the tensor map's rank (PTX ISA §9.7.9.25.5.2)",
                           coords.size(), coords.size(), coords.size() == 1 ? "" : "s", m.rank));
  if (m.interleave != isa::TensorMapInterleave::None)
    return err(fmt::format("tile copies with an interleaved tensor map (interleave {}) are not implemented yet: the "
                           "H200 does not write the PTX ISA §5.5.6 image for them (kernels/tma/README.md, fact runs "
                           "il16_u16 and il32_u16_sw32), so tcsim does not guess one",
                           isa::tensor_map_interleave_name(m.interleave)));
  const int gbits = isa::tensor_map_global_bits(m.data_type);
  if (dir == BoxDir::Reduce && isa::tensor_map_is_packed(m.data_type))
    return err(fmt::format("cp.reduce.async.bulk.tensor cannot use the packed type {} (PTX ISA §9.7.9.25.5.1: the "
                           "sub-byte types are not usable with reductions)",
                           isa::tensor_map_dtype_name(m.data_type)));
  if (auto v = isa::validate_tensor_map_use(m, dir == BoxDir::Load ? isa::TmaDirection::Load : isa::TmaDirection::Store);
      !v.empty())
    return err(v.front().to_string());
  // H200: the box's first dimension-0 byte must be 16-byte aligned (tma_box.h); for the packed types
  // PTX ISA §9.7.9.25.5.1 asks for a first coordinate that is a multiple of 128.
  const int64_t c0_bits = int64_t{coords[0]} * gbits;
  if (isa::tensor_map_is_packed(m.data_type) && coords[0] % 128 != 0)
    return err(fmt::format("tensorCoords[0] = {} with the packed type {}: the first coordinate must be a multiple of "
                           "128 (PTX ISA §9.7.9.25.5.1)",
                           coords[0], isa::tensor_map_dtype_name(m.data_type)));
  if (c0_bits % 128 != 0)
    return err(fmt::format("tensorCoords[0] = {} puts the box's first byte {} bytes from the start of a row ({}-bit "
                           "elements): the first dimension-0 byte must be 16-byte aligned; the H200 raises "
                           "CUDA_ERROR_ILLEGAL_INSTRUCTION otherwise (measured on H200, driver 580.159.04, 2026-11-30)",
                           coords[0], static_cast<double>(c0_bits) / 8.0, gbits));

  isa::TmaBox box;
  box.rank = static_cast<int>(m.rank);
  for (uint32_t d = 0; d < 5; ++d) {
    box.box_dim[d] = d < m.rank ? m.box_dim[d] : 1;
    box.element_strides[d] = d < m.rank ? m.element_strides[d] : 1;
  }
  box.elem = tma_element_format(m.data_type);
  box.interleave = m.interleave;
  box.swizzle = m.swizzle;
  auto layout = isa::TmaLayout::make(box, smem_addr);
  if (!layout) return err(layout.error().message);

  TileBox b(m, std::move(*layout));
  for (uint32_t d = 0; d < m.rank; ++d) b.coord_[d] = coords[d];
  b.gbits_ = static_cast<uint32_t>(gbits);
  b.rows_ = 1;
  for (int d = 1; d < 5; ++d) b.rows_ *= b.layout_.extent(d);
  const isa::ElementFormat e = box.elem;
  // Bytes of one row in shared memory: dense data, or whole 16-byte units for the padded types.
  b.row_bytes_ = e.padded() ? (b.layout_.extent(0) + e.per_16b - 1u) / e.per_16b * 16u : b.layout_.inner_bytes();
  if (m.oob_fill == isa::TensorMapOobFill::NanRequestZeroFma && isa::tensor_map_is_float(m.data_type))
    b.fill_ = nan_fill(gbits);
  return b;
}

uint64_t TileBox::row_address(const uint32_t (&i)[5]) const {
  // Element i0 = 0 of the row; wraps below globalAddress for negative coordinates (callers add the
  // first in-bound element's offset before using it).
  uint64_t a = map_.global_address + static_cast<uint64_t>(int64_t{coord_[0]} * gbits_ / 8);
  for (uint32_t d = 1; d < map_.rank; ++d) {
    const int64_t g = int64_t{coord_[d]} + int64_t{i[d]} * map_.element_strides[d];
    a += static_cast<uint64_t>(g * static_cast<int64_t>(map_.global_strides[d - 1]));
  }
  return a;
}

std::string TileBox::describe() const {
  std::string c;
  for (uint32_t d = 0; d < map_.rank; ++d) c += fmt::format("{}{}", d ? ", " : "", coord_[d]);
  return fmt::format("{}-d {} box at ({}): {}", map_.rank, isa::tensor_map_dtype_name(map_.data_type), c,
                     layout_.describe());
}

}  // namespace tcsim::sim::tma
