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
#include <utility>
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

// Device printf output of two runs, compared as multisets of lines: the GPU writes each printf
// record when it reaches the FIFO, in an order no launch fixes (docs/printf.md), while tcsim writes
// them in (CTA, warp, lane, call) order; the same lines in another order are the same output.
struct PrintfDiff {
  uint64_t lines_a = 0, lines_b = 0;
  bool same_order = false;  // byte-identical texts
  // Lines one side has more often than the other (line, surplus count), the first few of each in
  // the side's own order; the totals count every surplus line.
  std::vector<std::pair<std::string, uint64_t>> only_a, only_b;
  uint64_t only_a_total = 0, only_b_total = 0;
  bool identical() const { return only_a_total == 0 && only_b_total == 0; }
};

struct DiffReport {
  std::vector<OutputDiff> outputs;  // compared (present on both sides), in A's order
  std::vector<std::string> only_a, only_b;
  // Printf output: compared when both sides captured it; `printf_note` says why not otherwise
  // (only one side captured: not a difference, an older output directory has no capture).
  std::optional<PrintfDiff> printf_diff;
  std::string printf_note;
  bool identical() const;
};

DiffReport diff_outputs(const std::vector<OutputArray>& a, const std::vector<OutputArray>& b,
                        size_t max_shown = 8);
PrintfDiff diff_printf(std::string_view a, std::string_view b, size_t max_shown = 8);
// Adds the printf comparison of two captures (either may be absent) to `r`.
void add_printf_diff(DiffReport& r, const std::optional<PrintfCapture>& a, const std::optional<PrintfCapture>& b,
                     std::string_view label_a, std::string_view label_b, size_t max_shown = 8);

// Human-readable report, one block per output; labels name the two sides (e.g. the directories).
std::string format_report(const DiffReport& r, std::string_view label_a, std::string_view label_b);

// Value and ULP helpers (exposed for tests).
std::string format_value(SpecDType t, uint64_t bits);
std::optional<uint64_t> ulp_distance(SpecDType t, uint64_t a_bits, uint64_t b_bits);
std::vector<uint64_t> unflatten(uint64_t flat, const std::vector<uint64_t>& shape);

}  // namespace tcsim::spec
