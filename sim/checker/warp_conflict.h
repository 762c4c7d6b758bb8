// Intra-warp write conflicts (`warp-write-conflict`): two lanes of one store instruction that write
// different values to the same bytes of shared or global memory. The lanes are different threads,
// and nothing orders the accesses of one instruction's lanes against each other, so the two weak
// writes conflict and race (PTX ISA §8.7.1 "Conflict and data-races"); the GPU keeps one lane's value
// and which one is not defined (PTX ISA §3.1 "A Set of SIMT Multiprocessors"). Writes of the same
// value are not reported (every outcome is the same), nor morally strong stores (st.relaxed /
// .volatile / .release: §8.7.1 excludes them), nor local or parameter memory (per thread).
//
// Accesses of one instruction are naturally aligned to their size (PTX ISA §5.4.5), so two lanes'
// byte ranges overlap exactly when their addresses are equal.
#pragma once
#include <cstdint>

namespace tcsim::sim {
struct ExecCtx;
}  // namespace tcsim::sim

namespace tcsim::sim::warp_conflict {

// The executing instruction stored `size` bytes for each lane of `mask`: lane l's address where[l]
// (of the instruction's space; generic addresses are classified here) and bytes data + l * size.
// `generic`: the addresses are generic (lanes in the local or parameter window are skipped).
void on_store(ExecCtx& c, uint32_t mask, const uint64_t* where, const uint8_t* data, uint32_t size, bool generic);

}  // namespace tcsim::sim::warp_conflict
