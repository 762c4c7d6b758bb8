// The warpgroup tensor core of sm_90a (PTX ISA §9.7.15): wgmma.mma_async as an asynchronous
// operation on the simulated clock, with its wgmma-groups, and the checker rules of §9.7.15.7.
//
// Life of one wgmma.mma_async (§9.7.15.5.2, §9.7.15.7):
//   issue    each of the 4 warps of a warpgroup executes it (in program order; the k-th wgmma of
//            every warp forms the k-th operation of the warpgroup). At each warp's issue: the
//            warpgroup must be whole and converged, the descriptors are decoded and validated
//            (isa/descriptors: decode_smem_desc, validate_smem_desc with the operand's major-ness
//            and type; isa/layouts: CanonicalLayout::make), scale-d is read, and an A fragment in
//            registers is captured (it must not change until the wait, §9.7.15.7.3).
//   start    when the last of the 4 warps has issued it, after the warpgroup's previous operation.
//   complete after the tensor pipe's latency (sim/timing/model.h), in an AsyncDataLand event: A and B are read from shared memory
//            through the canonical-layout plans, C from the 4 warps' accumulator registers (unless
//            scale-d is false), the tile is computed by models::mma's DotEngine::tile (b1: exact
//            popcounts), and D lands in the accumulator registers. Only then is D visible.
//   groups   wgmma.commit_group closes the warp's uncommitted operations into a group;
//            wgmma.wait_group N parks the warp (Flow::WaitAsync) until all but the N most recent
//            groups are complete; completions wake the warpgroup's warps.
// Checker (reports, the launch goes on; PTX leaves the behaviour undefined):
//   * a warp touching (reading or writing) an accumulator or A-fragment register of a wgmma it
//     has not yet waited for with a covering wgmma.wait_group (§9.7.15.7.3); a following
//     wgmma.mma_async with the same accumulator registers is the allowed exception (§9.7.15.7.1);
//   * a warp issuing its first wgmma.mma_async without a wgmma.fence before it (§9.7.15.7.1).
// Errors (the launch stops, naming the PTX line, warp and fields): a warpgroup that is not 4 whole
// converged warps, descriptors that break §9.7.15.5.1.2.2 or differ between the warps, operands
// outside the CTA's shared memory, warps issuing different wgmma instructions as the same operation.
#pragma once
#include <cstdint>
#include <memory>

#include "isa/dtype.h"
#include "isa/layouts/element_format.h"
#include "models/mma/engine.h"
#include "sim/cycles.h"
#include "sim/exec/exec.h"

namespace tcsim::sim {

// What a wgmma.mma_async instruction fixes at bind time (stored in Program::family_data).
// Operands (ExecInstr::first_op): the nd accumulator registers, then A (4 registers, or the
// 64-bit descriptor), then B's descriptor. ExecInstr::o[0]: scale-d's predicate (scale_d < 0).
struct WgmmaForm {
  int n = 8, k = 16;        // m64nNkK; k in elements (b1: bits)
  isa::DType atype = isa::DType::BF16, btype = isa::DType::BF16, dtype = isa::DType::F32;
  bool b1 = false;          // .s32.b1.b1.and.popc
  bool a_regs = false;      // A from registers
  bool trans_a = false, trans_b = false;  // imm-trans-a/b = 1: MN-major operand
  bool neg_a = false, neg_b = false;      // imm-scale-a/b = -1
  bool satfinite = false;
  int scale_d = 1;          // 0 or 1 immediate; -1: predicate in o[0]
  bool scale_d_negated = false;
  int nd = 4;               // accumulator registers per thread
  int acc_bits = 32;        // 16: .f16x2 pairs; 32: f32 / s32
  int elem_bytes = 2;       // bytes per A/B element in shared memory (b1: 1 byte = 8 elements)
  int k_elems = 16;         // K elements as stored (b1: 32 bytes)
  isa::ElementFormat fmt;   // shared-memory format of A/B elements
  std::unique_ptr<models::mma::DotEngine> engine;  // nullptr for b1
};

// The execute functions of sim/exec/wgmma.cc call these for the executing warp.
void wgmma_fence(ExecCtx& c);
void wgmma_issue(ExecCtx& c, const ExecInstr& in, const WgmmaForm& f);
void wgmma_commit(ExecCtx& c);
void wgmma_wait(ExecCtx& c, uint32_t pending_allowed);

}  // namespace tcsim::sim
