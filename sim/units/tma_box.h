// The tile-mode box of one cp{.reduce}.async.bulk.tensor (PTX ISA §5.5 "Tensors", §9.7.9.25.5.2),
// planned once at issue from the tensor map, the coordinates and the shared-memory address, then
// moved between global and shared memory element by element when the copy completes.
//
//   box element (i0, .., i4), 0 <= i_d < E_d = ceil(boxDim[d] / elementStrides[d]) (E_0 = boxDim[0]:
//   elementStrides[0] is ignored without interleave, cuda.h cuTensorMapEncodeTiled) sits at
//     global coordinate  g_0 = c_0 + i_0,  g_d = c_d + i_d * elementStrides[d]           (d >= 1)
//     global address     globalAddress + g_0 * elemBytes + sum_{d>=1} g_d * globalStrides[d-1]
//     shared address     isa::TmaLayout::locate(i0, .., i4)  (the box image: rows padded to the
//                        swizzle span, the swizzle XOR on absolute address bits; isa/layouts)
//   It is in bounds when 0 <= g_d < globalDim[d] for every d (§5.5.3.3). A load writes every element
//   (out-of-bound ones filled, below); a store or reduce writes only in-bound ones.
//
// Hardware facts followed here (measured on H200, driver 580.159.04, 2026-11-30; kernels/tma/README.md
// "Facts settled on the H200"):
//   * OOB NaN fill (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) writes 0x7ff7 into every
//     16-bit half of the element: bf16 0x7ff7 (tma_load_2d), f32 0x7ff77ff7 (tma_load_3d); f16 and
//     tf32 are the same widths; f64 0x7ff77ff77ff77ff7 is the extrapolation (UNCONFIRMED).
//   * The complete_tx byte count of a load is the dense box, rows x row bytes, OOB-filled elements
//     included and row padding excluded (the fact runs complete with expect_tx(R * W)).
//   * A box row narrower than its swizzle span still occupies the whole span (isa::TmaLayout's row
//     pitch); the box's shared-memory footprint ends at dst + (R - 1) * pitch + W. The H200 faults
//     (CUDA_ERROR_ILLEGAL_ADDRESS) when the box leaves the CTA's shared memory, static + dynamic
//     rounded up to 128 bytes; since that limit and every swizzle line are multiples of 128 bytes,
//     this bound, R * pitch and "the last byte actually written" give the same verdict on every run.
//   * A TMA store writes whole 16-byte chunks along dimension 0: when globalDim[0] * elemBytes is
//     not a multiple of 16, the elements up to the row's next 16-byte boundary are written too
//     (tma_store_2d_sw64). Reduces are not measured and use the exact bound.
//   * A box's first dimension-0 byte must be 16-byte aligned (c_0 * elemBytes % 16 == 0, negative
//     starts included): swizzle/sw_none_u32_w48 started 20 bytes into its rows and died with
//     CUDA_ERROR_ILLEGAL_INSTRUCTION (kernels/tma/README.md fact 4).
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "isa/descriptors/tensor_map.h"
#include "isa/diag.h"
#include "isa/layouts/tma_layout.h"

namespace tcsim::sim::tma {

enum class BoxDir : uint8_t { Load, Store, Reduce };

class TileBox {
 public:
  // Every rule the map, the coordinates and the shared-memory address can break, as one error
  // naming the field and what is legal. `coords.size()` is the instruction's .dim.
  static isa::Expected<TileBox> plan(const isa::TensorMapParams& map, std::span<const int32_t> coords,
                                     uint32_t smem_addr, BoxDir dir);

  const isa::TensorMapParams& map() const { return map_; }
  const isa::TmaLayout& layout() const { return layout_; }
  int32_t coord(int d) const { return coord_[d]; }
  uint32_t rows() const { return rows_; }
  // Bytes one box row holds in shared memory (W: dense data, the 16-byte units of padded types).
  uint32_t row_bytes() const { return row_bytes_; }
  // The bytes the copy moves and a load's complete_tx counts: rows x row bytes.
  uint32_t tx_bytes() const { return rows_ * row_bytes_; }
  // Shared memory the box image spans: [smem_lo, smem_hi) (the last row counted by its data).
  uint32_t smem_lo() const { return layout_.dst(); }
  uint32_t smem_hi() const { return layout_.dst() + (rows_ - 1) * layout_.row_pitch() + row_bytes_; }
  uint32_t elem_bits() const { return gbits_; }
  // The bit pattern an out-of-bound element of a load gets (see the file comment).
  uint64_t oob_fill() const { return fill_; }
  std::string describe() const;

  // Runs f(i[5], global address of element i0 (or ~0 when the row is out of bounds), first, count)
  // for each box row: the row's elements [first, first + count) along dimension 0 are the ones in
  // bounds (with `dim0_limit` elements counted in bounds along dimension 0).
  template <class F>
  void for_each_row(uint64_t dim0_limit, F&& f) const;

  // Load: gathers the box; read(global address, dst, bytes) copies global memory, the image goes to
  // `smem` (the CTA's shared memory, indexed by .shared::cta address; bounds checked at plan()).
  template <class Read>
  void load(uint8_t* smem, Read&& read) const;
  // Store: write(global address, src, bytes) for every written element, in box order.
  template <class Write>
  void store(const uint8_t* smem, Write&& write) const;
  // The in-bound limit of dimension 0 a store uses: globalDim[0] rounded up to whole 16-byte chunks.
  uint64_t store_dim0_limit() const {
    const uint64_t row_bits = map_.global_dim[0] * gbits_;
    return (row_bits + 127) / 128 * 128 / gbits_;
  }
  // Reduce: op(global address, src element bytes, bytes) for every in-bound element, in box order.
  template <class Op>
  void reduce(const uint8_t* smem, Op&& op) const { store_impl(smem, map_.global_dim[0], op); }

 private:
  TileBox(isa::TensorMapParams m, isa::TmaLayout l) : map_(m), layout_(std::move(l)) {}
  template <class Write>
  void store_impl(const uint8_t* smem, uint64_t dim0_limit, Write&& write) const;
  uint64_t row_address(const uint32_t (&i)[5]) const;
  uint32_t at_byte(uint32_t x, const uint32_t (&i)[5]) const { return layout_.locate(x, i[1], i[2], i[3], i[4]).byte; }

  isa::TensorMapParams map_;
  isa::TmaLayout layout_;
  std::array<int32_t, 5> coord_{};
  uint32_t rows_ = 1, row_bytes_ = 0, gbits_ = 8;
  uint64_t fill_ = 0;
};

// The element format TMA writes into shared memory for a tensor-map type (isa/layouts).
isa::ElementFormat tma_element_format(isa::TensorMapDataType t);

// ---- templates --------------------------------------------------------------------------------------

template <class F>
void TileBox::for_each_row(uint64_t dim0_limit, F&& f) const {
  const uint32_t rank = map_.rank;
  uint32_t i[5] = {0, 0, 0, 0, 0};
  const int64_t c0 = coord_[0];
  const uint32_t e0 = layout_.extent(0);
  // In-bound range of dimension 0: 0 <= c0 + i0 < dim0_limit.
  const int64_t lo = c0 < 0 ? -c0 : 0;
  const int64_t hi_raw = static_cast<int64_t>(dim0_limit) - c0;
  const int64_t hi = hi_raw < 0 ? 0 : (hi_raw > static_cast<int64_t>(e0) ? static_cast<int64_t>(e0) : hi_raw);
  for (;;) {
    bool inb = true;
    for (uint32_t d = 1; d < rank; ++d) {
      const int64_t g = static_cast<int64_t>(coord_[d]) + static_cast<int64_t>(i[d]) * map_.element_strides[d];
      if (g < 0 || g >= static_cast<int64_t>(map_.global_dim[d])) inb = false;
    }
    const uint32_t first = static_cast<uint32_t>(lo < hi ? lo : 0);
    const uint32_t count = inb && lo < hi ? static_cast<uint32_t>(hi - lo) : 0;
    f(i, count ? row_address(i) : ~uint64_t{0}, first, count);
    uint32_t d = 1;
    for (; d < 5; ++d) {
      if (++i[d] < layout_.extent(static_cast<int>(d))) break;
      i[d] = 0;
    }
    if (d == 5) return;
  }
}

template <class Read>
void TileBox::load(uint8_t* smem, Read&& read) const {
  const uint32_t e0 = layout_.extent(0);
  const uint32_t bits = gbits_;
  uint8_t row[256 * 8];  // one row of global data (boxDim <= 256, elements <= 8 bytes)
  for_each_row(map_.global_dim[0], [&](const uint32_t (&i)[5], uint64_t addr, uint32_t first, uint32_t count) {
    if (count) read(addr + uint64_t{first} * bits / 8, row, (count * bits + 7) / 8);
    if (bits >= 8) {
      // Whole-byte elements: copy each run of elements that lands contiguously in shared memory
      // (a swizzle moves 16-byte granules, or 8-byte halves, so runs are up to 16 bytes) at once.
      const uint32_t n = bits / 8;
      const uint64_t v = fill_;
      uint32_t x = 0;
      while (x < e0) {
        const bool in = x >= first && x < first + count;
        const uint32_t stop = in ? first + count : (x < first ? first : e0);
        const uint32_t start = at_byte(x, i);
        uint32_t end = x + 1;
        while (end < stop && at_byte(end, i) == start + (end - x) * n) ++end;
        if (in) {
          std::memcpy(smem + start, row + (x - first) * n, (end - x) * n);
        } else {
          for (uint32_t y = x; y < end; ++y)  // little-endian host (static_assert in tma_box.cc)
            std::memcpy(smem + start + (y - x) * n, &v, n);
        }
        x = end;
      }
      return;
    }
    for (uint32_t x = 0; x < e0; ++x) {
      const bool in = x >= first && x < first + count;
      const isa::SmemLocation at = layout_.locate(x, i[1], i[2], i[3], i[4]);
      {
        // Sub-byte elements (the packed 16U4/16U6 types): bit fields, little-endian in both images.
        uint32_t v = 0;
        if (in) {
          const uint32_t bit = (x - first) * bits;
          const uint32_t w = uint32_t(row[bit / 8]) | (bit / 8 + 1 < sizeof row ? uint32_t(row[bit / 8 + 1]) << 8 : 0);
          v = (w >> (bit % 8)) & ((1u << bits) - 1);
        }
        const uint32_t mask = ((1u << bits) - 1) << at.bit;
        uint32_t cur = smem[at.byte] | (at.bit + bits > 8 ? uint32_t(smem[at.byte + 1]) << 8 : 0);
        cur = (cur & ~mask) | (v << at.bit);
        smem[at.byte] = static_cast<uint8_t>(cur);
        if (at.bit + bits > 8) smem[at.byte + 1] = static_cast<uint8_t>(cur >> 8);
      }
    }
  });
}

template <class Write>
void TileBox::store(const uint8_t* smem, Write&& write) const {
  // H200: whole 16-byte chunks along dimension 0 (file comment): the in-bound limit of dimension 0
  // rounds up to the row's next 16-byte boundary.
  store_impl(smem, store_dim0_limit(), write);
}

template <class Write>
void TileBox::store_impl(const uint8_t* smem, uint64_t dim0_limit, Write&& write) const {
  const uint32_t bits = gbits_;
  for_each_row(dim0_limit, [&](const uint32_t (&i)[5], uint64_t addr, uint32_t first, uint32_t count) {
    if (bits >= 8) {
      const uint32_t n = bits / 8;
      for (uint32_t x = first; x < first + count; ++x) {
        const isa::SmemLocation at = layout_.locate(x, i[1], i[2], i[3], i[4]);
        write(addr + uint64_t{x} * n, smem + at.byte, n);
      }
      return;
    }
    // Sub-byte types: gather the row's bits, then write whole bytes (PTX §9.7.9.25.5.1: the
    // packed types' coordinates and extents are byte aligned in global memory).
    uint8_t row[256] = {};
    for (uint32_t x = first; x < first + count; ++x) {
      const isa::SmemLocation at = layout_.locate(x, i[1], i[2], i[3], i[4]);
      const uint32_t w = smem[at.byte] | (at.bit + bits > 8 ? uint32_t(smem[at.byte + 1]) << 8 : 0);
      const uint32_t v = (w >> at.bit) & ((1u << bits) - 1);
      const uint32_t bit = (x - first) * bits;
      row[bit / 8] |= static_cast<uint8_t>(v << (bit % 8));
      if (bit % 8 + bits > 8) row[bit / 8 + 1] |= static_cast<uint8_t>(v >> (8 - bit % 8));
    }
    if (count) write(addr + uint64_t{first} * bits / 8, row, (count * bits + 7) / 8);
  });
}

}  // namespace tcsim::sim::tma
