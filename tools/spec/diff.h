// Bit-for-bit comparison of two sets of outputs (`tcsim diff DIR1 DIR2`, `tcsim run --golden`).
// Equality is on raw bits: +0 vs -0 differ, two NaNs with the same bits are equal. For float
// types each differing element also gets its ULP distance: the distance between the two codes
// in the format's ordering (sign-magnitude codes mapped onto a line, so +0 and -0 are 0 apart and
// the largest finite value is 1 from infinity); undefined when either is NaN.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/spec/output_dir.h"

namespace tcsim::spec {

struct ElementDiff {
  std::vector<uint64_t> index;  // multi-dimensional, row-major
  uint64_t a_bits = 0, b_bits = 0;
  std::string a_value, b_value;
  std::optional<uint64_t> ulp;  // floats, neither NaN (e2m1x2: the larger of the two nibbles')
};

struct OutputDiff {
  std::string name;
  SpecDType dtype = SpecDType::U8;
  std::string mismatch;      // dtype or shape disagree: not compared element-wise
  uint64_t count = 0;        // elements compared
  uint64_t differing = 0;
  std::vector<ElementDiff> first;  // the first few differing elements, in index order
  std::optional<uint64_t> max_ulp;
  uint64_t nan_mismatches = 0;     // differing elements where exactly one side or both are NaN
};

struct DiffReport {
  std::vector<OutputDiff> outputs;  // compared (present on both sides), in A's order
  std::vector<std::string> only_a, only_b;
  bool identical() const;
};

DiffReport diff_outputs(const std::vector<OutputArray>& a, const std::vector<OutputArray>& b,
                        size_t max_shown = 8);

// Human-readable report, one block per output; labels name the two sides (e.g. the directories).
std::string format_report(const DiffReport& r, std::string_view label_a, std::string_view label_b);

// Value and ULP helpers (exposed for tests).
std::string format_value(SpecDType t, uint64_t bits);
std::optional<uint64_t> ulp_distance(SpecDType t, uint64_t a_bits, uint64_t b_bits);
std::vector<uint64_t> unflatten(uint64_t flat, const std::vector<uint64_t>& shape);

}  // namespace tcsim::spec
