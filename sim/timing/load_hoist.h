// Load hoisting: what ptxas does with a loop body that loads from global memory and stores the
// values to shared memory. The PTX issues, per element, a load, (a conversion), and a store that
// needs the load's value; ptxas schedules the loads of the body first and the stores after them
// (cuobjdump -sass of kernels/hopper/ldst_matrix on the H200: LDG x4 then STS x4 per unrolled
// iteration, kernels/ubench/results/h200-2026-12-02-outliers), so the loads' latencies overlap.
// tcsim issues PTX in order; to get the SASS's timing it lets a shared store (and a register-only
// instruction whose result only feeds such stores) issue before the data a load produces is back,
// and makes the warp wait for that data (WarpTiming::deferred_done) at the first instruction that
// could observe the stores or that ends the body: a read of shared or generic memory, a barrier,
// fence, mbarrier, asynchronous-unit or tensor operation, a backward branch, call, return or exit
// (ptxas does not move loads across the loop's back edge). The values are not affected: the
// functional simulation has already performed every instruction at issue.
#pragma once

namespace tcsim::sim {
struct Program;
}

namespace tcsim::sim::timing {

// Sets InstrTiming::defer for every instruction of `prog` (after the dependencies are collected:
// annotate_timing, sim/timing/instr_class.h).
void annotate_load_hoist(Program& prog);

}  // namespace tcsim::sim::timing
