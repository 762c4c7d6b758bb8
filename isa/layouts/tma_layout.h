// Where `cp.async.bulk.tensor` (tile mode, PTX ISA §9.7.9.25.5.2) puts each element of its box in
// shared memory (§5.5.1-5.5.3, §5.5.6-5.5.7; cuTensorMapEncodeTiled rules from cuda.h 13.0).
//
// Box element (i0, ..., i4) is the i_d-th element *traversed* along dimension d: global
// coordinate c_d + i_d * elementStrides[d], 0 <= i_d < E_d with E_d = ceil(boxDim[d] /
// elementStrides[d]) (driver API); for interleave NONE elementStrides[0] is ignored (E_0 =
// boxDim[0]). Shared memory is linear, dimension 0 fastest (§5.5.1):
//
//   row    r   = ((i4*E3 + i3)*E2 + i2)*E1 + i1
//   offset     = r * pitch + (i0 / T) * 16 + ((i0 % T) * bits) / 8      (+ bit (i0%T)*bits % 8)
//   address    = swizzle(dstMem + offset)                 on the absolute address (swizzle.h)
//
//   pitch: interleave NONE, no swizzle  -> the box's inner bytes (a multiple of 16)
//          interleave NONE, swizzled    -> the swizzle span (32/64/128 B): a row narrower than
//                                          the span is padded to it (CUDA C Programming Guide,
//                                          TMA swizzle: "if the swizzle width exceeds the inner
//                                          dimension, the shared memory must be allocated to
//                                          accommodate the full swizzle width"; not measured —
//                                          UNCONFIRMED; CUTLASS always uses inner bytes = span)
//          interleave 16B / 32B         -> 16 / 32 B, one channel slice per row (UNCONFIRMED
//                                          beyond PTX's NC/32HWC32 + 32B swizzle example)
//
// Measured on an H200 (docs/smem_layouts.md §5): SWIZZLE_128B data lands at swz(absolute address)
// for every 128-byte-aligned dstMem; PTX's "base offset" only names where dstMem falls in that
// absolute pattern.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "isa/diag.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/element_format.h"
#include "isa/layouts/swizzle.h"

namespace tcsim::isa {

// CUtensorMapInterleave (cuda.h order), the tensor-map vocabulary of isa/descriptors.
using TmaInterleave = TensorMapInterleave;
std::string_view tma_interleave_name(TmaInterleave i);  // "none", "16b", "32b"

struct TmaBox {
  int rank = 2;                                        // 1..5
  std::array<uint32_t, 5> box_dim{1, 1, 1, 1, 1};      // boxDim[d], 1..256 (elements)
  std::array<uint32_t, 5> element_strides{1, 1, 1, 1, 1};  // 1..8
  ElementFormat elem = dense_format(16);  // packed types: padded_format(4/6) = 16U4/16U6_ALIGN16B,
                                          // dense_format(4) = 16U4_ALIGN8B
  TmaInterleave interleave = TmaInterleave::None;
  TmaSwizzle swizzle = TmaSwizzle::None;
};

class TmaLayout {
 public:
  // Every rule of cuTensorMapEncodeTiled / PTX §5.5.7 that the box and dstMem alone can break,
  // as one error naming the field, its value and what is legal.
  static Expected<TmaLayout> make(const TmaBox& box, uint32_t dst_mem);

  SmemLocation locate(uint32_t i0, uint32_t i1 = 0, uint32_t i2 = 0, uint32_t i3 = 0,
                      uint32_t i4 = 0) const {
    const uint32_t bitpos = (i0 & elem_mask_) * elem_.bits;
    const uint32_t off = i1 * stride_[1] + i2 * stride_[2] + i3 * stride_[3] + i4 * stride_[4] +
                         (i0 >> elem_shift_) * 16u + (bitpos >> 3);
    return {swizzle_.apply(dst_ + off), uint8_t(bitpos & 7)};
  }

  uint32_t extent(int d) const { return extent_[d]; }  // E_d (1 for d >= rank)
  uint32_t row_pitch() const { return stride_[1]; }
  uint32_t inner_bytes() const { return inner_bytes_; }  // bytes of data per row
  // Shared-memory bytes the box image spans, padding included (rows * pitch).
  uint32_t bytes() const { return bytes_; }
  uint32_t dst() const { return dst_; }
  const TmaBox& box() const { return box_; }
  std::string describe() const;

 private:
  TmaLayout() = default;
  TmaBox box_{};
  ElementFormat elem_{};
  std::array<uint32_t, 5> extent_{1, 1, 1, 1, 1};
  std::array<uint32_t, 5> stride_{0, 0, 0, 0, 0};
  uint32_t elem_shift_ = 0, elem_mask_ = 0, inner_bytes_ = 0, bytes_ = 0, dst_ = 0;
  SwizzleBits swizzle_{};
};

}  // namespace tcsim::isa
