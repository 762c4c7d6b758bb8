// Does an MMA read, through its shared-memory descriptor, the tile a TMA load wrote?
// (tcsim check-layout; DESIGN.md use case 1: "which element the tensor core actually read, where
// it expected another, and why".)
//
// The tile: a 2-D `cp.async.bulk.tensor` box of box0 x box1 elements (boxDim[0] innermost),
// written at dstMem = the descriptor's start address with the given swizzle (tma_layout.h). The
// box is matched to the operand's (mn, k) by its major-ness:
//   K-major : dim0 = K, dim1 = MN    box element (i0, i1) is operand element (mn = i1, k = i0)
//   MN-major: dim0 = MN, dim1 = K    box element (i0, i1) is operand element (mn = i0, k = i1)
// Every (mn, k) of the box is looked up through the canonical layout (canonical_layout.h); the
// tile is consistent when each lands on the byte (and bit) TMA wrote that element to.
//
// When it is not, the check tries the plausible corrections of the descriptor — another layout
// (swizzle), base offset, SBO, LBO, the other major — one field at a time, then two at a time, and
// names the smallest change that makes the tile consistent.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "isa/descriptors/smem_desc.h"
#include "isa/diag.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/element_format.h"
#include "isa/layouts/swizzle.h"

namespace tcsim::isa {

struct TmaMmaTile {
  TmaSwizzle tma_swizzle = TmaSwizzle::None;
  uint32_t box0 = 0, box1 = 0;  // TMA boxDim[0] (inner), boxDim[1]
  ElementFormat elem = dense_format(16);
  SmemDesc desc{};              // decoded MMA descriptor; start_address = TMA dstMem
  Major major = Major::K;
  bool has_base32b = true;      // the arch has the 128B/32-byte-atom layout (tcgen05, not wgmma)
};

struct LayoutMismatch {
  uint32_t mn = 0, k = 0;                  // the element the MMA wanted
  std::optional<SmemLocation> address;     // where it read it; none: beyond its K row (max_k)
  std::optional<std::pair<uint32_t, uint32_t>> found;  // (mn, k) TMA put there; none: nothing
};

struct LayoutFix {
  std::string what;  // the change, in words
  SmemDesc desc{};   // the corrected descriptor
  Major major = Major::K;
};

struct LayoutCheckReport {
  bool consistent = false;
  uint64_t elements = 0;  // (mn, k) pairs checked
  uint64_t wrong = 0;     // of which read the wrong element
  std::vector<LayoutMismatch> first;
  std::string cause;      // most likely cause, in words; empty when consistent
  std::optional<LayoutFix> fix;
  std::string tma;        // the TMA side, described
  std::string mma;        // the MMA side, described
};

// Errors: the box or descriptor cannot be laid out at all (illegal box, MN-major 4/6-bit, ...).
Expected<LayoutCheckReport> check_tma_mma_layout(const TmaMmaTile& tile, size_t max_listed = 8);

}  // namespace tcsim::isa
