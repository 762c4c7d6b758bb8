// The swizzle-bug diagnosis of tcgen05.mma (sim/exec/tcgen05_mma_diagnose.cc) on the two bugs of
// kernels/tcgen05/README.md "Swizzle-bug demo", whose claims were worked out by hand there:
//   bug 1: descriptor layout SWIZZLE_NONE (LBO 16, SBO 1024) over a tile TMA wrote with the 128B
//          swizzle: the first misread element is A[1][0] (expected), A[0][8] read;
//   bug 2: layout 128B but SBO 512 instead of 1024: A[8][0] expected, A[4][0] read.
// The origin map is filled here the way a TMA 128B-swizzled load of a 128 x 64 bf16 box writes it
// (CUDA's CU_TENSOR_MAP_SWIZZLE_128B: 16-byte chunk j of box row r lands at r*128 + ((j ^ r%8) * 16)
// for a 1024-aligned destination), independently of isa/layouts.
#include <doctest/doctest.h>

#include "isa/descriptors/smem_desc.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/element_format.h"
#include "sim/exec/tcgen05_common.h"

using namespace tcsim;

namespace {

constexpr uint64_t kGlobal = 0x7f0000010000ull;  // A[0][0] of the tile in global memory
constexpr uint32_t kPitch = 1024;                 // A is [M][512] bf16 in global memory

sim::SmemOrigin tma_128b_tile() {
  sim::SmemOrigin o;
  for (uint32_t r = 0; r < 128; ++r)
    for (uint32_t j = 0; j < 8; ++j) o.note(r * 128 + ((j ^ (r % 8)) * 16), kGlobal + r * kPitch + j * 16, 16, kPitch, 3);
  return o;
}

// smem descriptor (PTX ISA §9.7.16.4.1 Table 40): start >> 4, LBO >> 4 << 16, SBO >> 4 << 32,
// version 1 << 46, layout << 61.
uint64_t desc(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t layout) {
  return uint64_t{start >> 4} | uint64_t{lbo >> 4} << 16 | uint64_t{sbo >> 4} << 32 | uint64_t{1} << 46 |
         uint64_t{layout} << 61;
}

std::string report(uint64_t raw) {
  const isa::ElementFormat f = *isa::smem_element_format(isa::DType::BF16, isa::MmaKind::F16);
  auto L = isa::CanonicalLayout::make(isa::decode_smem_desc(raw, isa::Arch::Sm100a), f, isa::Major::K);
  REQUIRE(L);
  std::vector<isa::SmemLocation> plan(128 * 16);
  L->locate_tile(0, 128, 0, 16, plan.data());
  return sim::tcgen05::misread_report(tma_128b_tile(), 32768, "A", raw, isa::Arch::Sm100a, isa::Major::K, f, 128, 16,
                                      plan);
}

}  // namespace

TEST_CASE("tcgen05.mma misread diagnosis: the right descriptor reads the TMA tile consistently") {
  CHECK(report(desc(0, 16, 1024, 2)) == "");
  CHECK(report(desc(32, 16, 1024, 2)) == "");  // the second K step (start + 32 bytes)
}

TEST_CASE("tcgen05.mma misread diagnosis: bug 1 (layout none over a 128B-swizzled tile)") {
  const std::string r = report(desc(0, 16, 1024, 0));
  CAPTURE(r);
  CHECK(r.find("A[1][0] expected") != std::string::npos);
  CHECK(r.find("A[0][8] read") != std::string::npos);
  CHECK(r.find("bits 61-63 (layout type) = 0") != std::string::npos);
  CHECK(r.find("the 128B swizzle") != std::string::npos);
  CHECK(r.find("layout type 2") != std::string::npos);
}

TEST_CASE("tcgen05.mma misread diagnosis: bug 2 (SBO 512 instead of 1024)") {
  const std::string r = report(desc(0, 16, 512, 2));
  CAPTURE(r);
  CHECK(r.find("A[8][0] expected") != std::string::npos);
  CHECK(r.find("A[4][0] read") != std::string::npos);
  CHECK(r.find("SBO) = 512 B; 1024 B reads every element") != std::string::npos);
}
