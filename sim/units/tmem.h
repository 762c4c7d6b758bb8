// Tensor Memory of one SM (PTX ISA §9.7.16.1): 128 lanes x 512 columns of 32-bit cells, address
// (lane << 16) | column (§9.7.16.1.1, Figure 182), and its column allocator (§9.7.16.1.2,
// §9.7.16.7.1).
//
//   lane  0 +--------------------------------------------+   warp w of a CTA reaches only the
//         |  cells: cells_[lane * 512 + column]         |   lanes 32*(w%4) .. +31 with
//    ...  |  allocation unit: 32 columns x 128 lanes     |   tcgen05.ld/st (§9.7.16.8.1)
//   lane 127 +-------------------------------------------+
//         column 0                               column 511
//
// Allocation (§9.7.16.7.1): nCols is a power of two in [32, 512]; whole columns (all 128 lanes)
// are handed out. Which columns an allocation gets is not specified by PTX; tcsim takes the
// lowest free range aligned to min(nCols, 128) columns (a deterministic model choice, UNCONFIRMED
// against hardware; CUTLASS never relies on the placement).
//
// Besides the cells the unit keeps, per column, the bookkeeping the checker needs (docs/tensor_memory.md §5
// rules 1-4): how many asynchronous writers (tcgen05.mma/.cp/.shift) are in flight, when the last
// one completed and which PTX line issued it.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/cycles.h"

namespace tcsim::sim {

class Cta;

inline constexpr uint32_t kTmemLanes = 128;
inline constexpr uint32_t kTmemColumns = 512;
inline constexpr uint32_t kTmemAllocUnit = 32;  // columns (§9.7.16.1.2)

struct TmemAllocation {
  uint32_t column = 0, ncols = 0;
  const Cta* owner = nullptr;
};

// Per-column bookkeeping of asynchronous writers (checker; docs/tensor_memory.md §5).
struct TmemColumnState {
  uint32_t in_flight = 0;       // async ops issued that write this column and have not completed
  Cycles last_write;            // completion cycle of the last async write (0: none yet)
  uint32_t last_writer_src = 0; // Program::sources index of that op's instruction (+1; 0: none)
  Cycles last_issue;            // issue cycle of the last async write issued (ops complete in order)
};

class Tmem {
 public:
  uint32_t* row(uint32_t lane) {
    if (cells_.empty()) cells_.assign(size_t{kTmemLanes} * kTmemColumns, 0);
    return cells_.data() + size_t{lane} * kTmemColumns;
  }
  uint32_t& cell(uint32_t lane, uint32_t column) { return row(lane)[column]; }

  // The lowest free aligned range of `ncols` columns, if any.
  std::optional<uint32_t> find_free(uint32_t ncols) const;
  void take(uint32_t column, uint32_t ncols, const Cta* owner);
  // Frees the allocation that starts at `column` with `ncols` columns owned by `owner`; false if
  // there is none.
  bool release(uint32_t column, uint32_t ncols, const Cta* owner);
  // Frees everything `owner` holds (a CTA that exited without deallocating; the error is reported
  // by the caller) and returns what it held.
  std::vector<TmemAllocation> release_all(const Cta* owner);
  uint32_t free_columns() const;
  const std::vector<TmemAllocation>& allocations() const { return allocs_; }
  // The allocation of `owner` that contains columns [column, column + n), if any.
  const TmemAllocation* find(const Cta* owner, uint32_t column, uint32_t n = 1) const;
  // "columns 0-127 (CTA (0,0,0)), 256-511 (CTA (1,0,0))" for reports.
  std::string describe_allocations() const;

  TmemColumnState& column_state(uint32_t c) { return cols_[c]; }

 private:
  std::vector<uint32_t> cells_;  // allocated on first use: most SMs of a launch never touch TMEM
  std::vector<TmemAllocation> allocs_;
  uint32_t used_ = 0;  // bit u: allocation unit u (32 columns) is taken
  std::array<TmemColumnState, kTmemColumns> cols_{};
};

}  // namespace tcsim::sim
