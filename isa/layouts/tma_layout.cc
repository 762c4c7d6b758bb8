#include "isa/layouts/tma_layout.h"

#include <bit>

#include <fmt/core.h>

namespace tcsim::isa {

std::string_view tma_interleave_name(TmaInterleave i) {
  switch (i) {
    case TmaInterleave::None: return "none";
    case TmaInterleave::B16: return "16b";
    case TmaInterleave::B32: return "32b";
  }
  return "?";
}

Expected<TmaLayout> TmaLayout::make(const TmaBox& box, uint32_t dst_mem) {
  auto err = [](std::string m) { return Error{std::move(m)}; };
  const ElementFormat e = box.elem;
  if (box.rank < 1 || box.rank > 5)
    return err(fmt::format("tensor rank {} is outside 1..5 (cuTensorMapEncodeTiled)", box.rank));
  if (e.bits < 4 || e.per_16b < 1 || !std::has_single_bit(unsigned(e.per_16b)) ||
      int(e.per_16b) * e.bits > 128)
    return err(fmt::format("element format {}-bit x {} per 16 B is not a TMA data type", e.bits,
                           e.per_16b));
  for (int d = 0; d < box.rank; ++d) {
    if (box.box_dim[d] < 1 || box.box_dim[d] > 256)
      return err(fmt::format("boxDim[{}] = {} is outside 1..256 (cuTensorMapEncodeTiled)", d,
                             box.box_dim[d]));
    if (box.element_strides[d] < 1 || box.element_strides[d] > 8)
      return err(fmt::format("elementStrides[{}] = {} is outside 1..8 (cuTensorMapEncodeTiled)",
                             d, box.element_strides[d]));
  }
  const bool interleaved = box.interleave != TmaInterleave::None;
  if (interleaved && box.rank < 3)
    return err(fmt::format("interleave {} needs tensor rank >= 3, got {} (cuTensorMapEncodeTiled)",
                           tma_interleave_name(box.interleave), box.rank));
  if (box.interleave == TmaInterleave::B32 && box.swizzle != TmaSwizzle::B32)
    return err(fmt::format("interleave 32B requires swizzle 32B, got {} (cuTensorMapEncodeTiled)",
                           tma_swizzle_name(box.swizzle)));
  if (e.padded()) {
    if (box.box_dim[0] != 128)
      return err(fmt::format("boxDim[0] = {} but the padded {}-bit type (16U{}_ALIGN16B, "
                             ".b{}x16_p{}) needs boxDim[0] = 128 (cuTensorMapEncodeTiled; PTX "
                             "§9.7.9.25.5.1)",
                             box.box_dim[0], e.bits, e.bits, e.bits, 128 - 16 * e.bits));
    if (box.swizzle == TmaSwizzle::B32 || box.swizzle == TmaSwizzle::B64 ||
        box.swizzle == TmaSwizzle::B128Atom32BFlip8B)
      return err(fmt::format("swizzle {} is not allowed for the padded {}-bit types (only none, "
                             "128b, 128b_atom_32b, 128b_atom_64b: cuTensorMapEncodeTiled, PTX "
                             "§9.7.9.25.5.1)",
                             tma_swizzle_name(box.swizzle), e.bits));
    if (interleaved)
      return err("the padded sub-byte types need interleave none (cuTensorMapEncodeTiled)");
  }

  TmaLayout p;
  p.box_ = box;
  p.elem_ = e;
  p.dst_ = dst_mem;
  p.swizzle_ = swizzle_bits(box.swizzle);
  p.elem_shift_ = std::countr_zero(unsigned(e.per_16b));
  p.elem_mask_ = e.per_16b - 1u;
  for (int d = 0; d < box.rank; ++d) {
    const uint32_t s = (d == 0 && !interleaved) ? 1 : box.element_strides[d];
    p.extent_[d] = (box.box_dim[d] + s - 1) / s;
  }
  const uint32_t units = (p.extent_[0] + e.per_16b - 1) / e.per_16b;  // 16-byte units per row
  p.inner_bytes_ = (p.extent_[0] * e.bits + 7) / 8;
  uint32_t pitch = units * 16;
  const uint32_t span = p.swizzle_.span_bytes();
  if (!interleaved) {
    if (!e.padded() && p.inner_bytes_ % 16 != 0)
      return err(fmt::format("boxDim[0] = {} elements of {} bits = {} bytes, not a multiple of "
                             "16 (cuTensorMapEncodeTiled, interleave none)",
                             box.box_dim[0], e.bits, p.inner_bytes_));
    if (box.swizzle != TmaSwizzle::None) {
      if (pitch > span)
        return err(fmt::format("the box's inner dimension is {} bytes but swizzle {} allows at "
                               "most {} (cuTensorMapEncodeTiled)",
                               pitch, tma_swizzle_name(box.swizzle), span));
      pitch = span;
    }
  } else {
    const uint32_t slice = box.interleave == TmaInterleave::B16 ? 16 : 32;
    if (pitch > slice)
      return err(fmt::format("the box's inner dimension is {} bytes but interleave {} slices "
                             "hold {}",
                             pitch, tma_interleave_name(box.interleave), slice));
    pitch = slice;
  }
  // PTX §5.5.3.1: the box in shared memory is 16-byte aligned; §5.5.7: 32-/64-byte atomicity
  // need 32-/64-byte alignment.
  uint32_t align = 16;
  if (box.swizzle == TmaSwizzle::B128Atom32B || box.swizzle == TmaSwizzle::B128Atom32BFlip8B)
    align = 32;
  if (box.swizzle == TmaSwizzle::B128Atom64B) align = 64;
  if (dst_mem % align != 0)
    return err(fmt::format("dstMem 0x{:x} is not {}-byte aligned (PTX ISA §5.5.3.1, §5.5.7 for "
                           "swizzle {})",
                           dst_mem, align, tma_swizzle_name(box.swizzle)));
  p.stride_[0] = 0;
  p.stride_[1] = pitch;
  for (int d = 2; d < 5; ++d) p.stride_[d] = p.stride_[d - 1] * p.extent_[d - 1];
  uint64_t bytes = pitch;
  for (int d = 1; d < 5; ++d) bytes *= p.extent_[d];
  if (bytes > (1u << 24)) return err(fmt::format("box image of {} bytes is too large", bytes));
  p.bytes_ = uint32_t(bytes);
  return p;
}

std::string TmaLayout::describe() const {
  std::string dims;
  for (int d = 0; d < box_.rank; ++d)
    dims += fmt::format("{}{}", d ? " x " : "", extent_[d]);
  return fmt::format("box {} ({}), swizzle {}, interleave {}, dstMem 0x{:x}: row pitch {} B "
                     "({} B of data), {} B in all",
                     dims, describe_format(elem_), tma_swizzle_name(box_.swizzle),
                     tma_interleave_name(box_.interleave), dst_, stride_[1], inner_bytes_, bytes_);
}

}  // namespace tcsim::isa
