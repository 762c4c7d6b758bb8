// Canonical shared-memory matrix layouts read by tcgen05.mma / tcgen05.cp (PTX ISA §9.7.16.3,
// Table 55; descriptor §9.7.16.4.1) and wgmma (§9.7.15.5.1.2, same layouts): element (mn, k) of
// an A (M x K) or B (N x K) operand -> the shared-memory byte it lives in.
//
// In 16-byte units ("128-bit elements") with T elements per unit (element_format.h), PTX's CuTe
// forms (§9.7.16.3.3 / §9.7.15.5.1.2.1.3), with W = swizzle width in bytes:
//
//   major  layout     (MN coordinate, K coordinate) : strides
//   K      none       ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))       row of a core matrix = 16 B
//   K      32/64/128  ((8,m),(T,2k)) : ((W/16 T,SBO),(1,T))     row = W bytes, K contiguous
//   MN     none       ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
//   MN     32/64/128  ((T,W/16,m),(8,k)) : ((1,T,LBO),(W/16 T,SBO))
//   MN     128B/32B-atom (tcgen05 only, tf32): 128-byte MN rows, 4 K rows per 512-byte atom:
//                     ((T,8,m),(4,k)) : ((1,T,LBO),(8T,SBO))    (CUTLASS make_umma_desc checks
//                     this K stride of 8 units; its comment's "(4,SBO)" is a typo)
//
// As byte arithmetic (S = start address, B = element bits, rb = mn*B/8, kb = k*B/8):
//   K-major  none   : S + (mn/8)*SBO + (mn%8)*16 + (kb/16)*LBO + kb%16
//   K-major  W      : S + (mn/8)*SBO + (mn%8)*W  + kb                         (kb < W)
//   MN-major none   : S + (rb/16)*SBO + (k/8)*LBO + (k%8)*16 + rb%16
//   MN-major W      : S + (rb/W)*LBO  + (k/8)*SBO + (k%8)*W  + rb%W
//   MN-major 32B-atom: S + (rb/128)*LBO + (k/4)*SBO + (k%4)*128 + rb%128
// then the swizzle of the descriptor's layout on the absolute address with its base offset
// (swizzle.h). Note the LBO/SBO roles swap between MN-major none and swizzled (§9.7.16.3.1).
//
// Domain: K-major swizzled layouts hold K only within one swizzle row (LBO is "not used, assumed
// 1", §9.7.15.5.1.2.1.1): k < max_k(). A K-step moves the start address instead (CUTLASS
// DescriptorIterator). Everything else is unbounded.
//
// Speed: make() turns the descriptor into a plan once; locate() is then two affine terms (one
// variable shift each), a multiply for the position inside the 16-byte unit and a table XOR —
// no branches. locate_row / locate_tile compute one address and one XOR per 16-byte unit.
// bench/bench_layouts.cc measures both (>= 200 M addresses/s per core required).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/descriptors/smem_desc.h"
#include "isa/diag.h"
#include "isa/layouts/element_format.h"
#include "isa/layouts/swizzle.h"

namespace tcsim::isa {

// Major (K / MN), major_name and parse_major come from isa/descriptors/smem_desc.h: K-major =
// K contiguous (idesc transpose bit 0), MN-major = M or N contiguous (PTX ISA §9.7.16.10.6).

// A byte address and, for sub-byte elements, the bit of that byte where the element's least
// significant bit sits (0 for 8-bit and wider elements).
struct SmemLocation {
  uint32_t byte = 0;
  uint8_t bit = 0;
  friend constexpr bool operator==(SmemLocation a, SmemLocation b) {
    return a.byte == b.byte && a.bit == b.bit;
  }
};

class CanonicalLayout {
 public:
  // Refuses what has no canonical layout: K-major with the 128B/32B-atom layout (CUTLASS
  // static_assert; PTX Table 51 allows that mode only for MN-major tf32), MN-major 4/6-bit
  // operands (Table 51: they must be K-major), and the absolute-LBO mode (sm_103a, bit 52),
  // which PTX describes only in a figure.
  static Expected<CanonicalLayout> make(const SmemDesc& desc, ElementFormat elem, Major major);

  SmemLocation locate(uint32_t mn, uint32_t k) const {
    // One of the two masks is 0 (only the contiguous coordinate has elements within a unit),
    // so this is that coordinate's element index inside its 16-byte unit.
    const uint32_t bitpos = ((mn & mn_.elem_mask) | (k & k_.elem_mask)) * elem_.bits;
    const uint32_t addr = start_ + mn_.term(mn) + k_.term(k) + (bitpos >> 3);
    return {swizzle_.apply(addr), uint8_t(bitpos & 7)};
  }
  uint32_t byte_address(uint32_t mn, uint32_t k) const { return locate(mn, k).byte; }

  // Bulk forms for the simulator: `count` elements along K of row mn, from k0; and a whole
  // mn_count x k_count tile from (mn0, k0), row-major (out[i*k_count + j] = (mn0+i, k0+j)).
  void locate_row(uint32_t mn, uint32_t k0, uint32_t count, SmemLocation* out) const;
  void locate_tile(uint32_t mn0, uint32_t mn_count, uint32_t k0, uint32_t k_count,
                   SmemLocation* out) const;

  // Largest K extent (elements) one descriptor covers; 0 = unbounded. K-major swizzled: the
  // elements of one W-byte swizzle row.
  uint32_t max_k() const { return max_k_; }
  Major major() const { return major_; }
  ElementFormat element_format() const { return elem_; }
  SwizzleMode layout() const { return layout_; }
  // Bytes of one MN row (K-major) / K row (MN-major) inside a swizzle atom: 16 for none, W else.
  uint32_t row_bytes() const { return row_bytes_; }
  // The formula above with this descriptor's numbers filled in, for people.
  std::string describe() const;

 private:
  // One coordinate's contribution, as one variable shift and two multiplies:
  //   (x >> group_shift) * group_stride + (((x & in_group_mask) * in_group_mul) >> 1)
  // Contiguous coordinate: group = the 16-byte units of one row (swizzled) or one unit (none);
  // in_group_mask selects the unit-in-row bits of x and in_group_mul = 32 / T turns them into
  // unit * 16 bytes. Strided coordinate: group = 8 rows (4 for the 32-byte-atom layout),
  // in_group_mul = 2 * row bytes. (The final >> 1 keeps T = 32 exact.)
  struct Axis {
    uint32_t elem_mask = 0;  // element-within-unit bits (contiguous coordinate only)
    uint32_t group_shift = 0, group_stride = 0;
    uint32_t in_group_mask = 0, in_group_mul = 0;
    uint32_t term(uint32_t x) const {
      return (x >> group_shift) * group_stride + (((x & in_group_mask) * in_group_mul) >> 1);
    }
  };

  CanonicalLayout() = default;
  // Elements x0 .. x0+count-1 of the contiguous coordinate from row address `base`; out
  // advances by `step` entries per element.
  void contiguous_run(uint32_t base, uint32_t x0, uint32_t count, const Axis& axis,
                      SmemLocation* out, size_t step) const;
  Axis mn_, k_;
  uint32_t start_ = 0, base_offset_ = 0, max_k_ = 0, row_bytes_ = 16;
  SwizzleTable swizzle_{};
  SwizzleBits swizzle_bits_{};
  ElementFormat elem_{};
  Major major_ = Major::K;
  SwizzleMode layout_ = SwizzleMode::None;
  SmemDesc desc_{};
};

}  // namespace tcsim::isa
