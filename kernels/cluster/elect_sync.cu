// elect_sync.cu — elect.sync, the one-leader-per-warp primitive of every TMA producer: full mask,
// a partial mask run by exactly its lanes, a divergent branch electing among __activemask(), the
// sink form (predicate only), and repeated elections that let every lane lead once (exposing the
// order in which the hardware picks leaders).
//
// Families: elect.sync d|p, mask; elect.sync _|p, mask (ptxas rejects d|_: the predicate output
// is mandatory); activemask; vote.sync.ballot; bar.warp.sync. PTX ISA §9.7.13.14.
// Spec: elect_sync.json (1 CTA, 2 warps).
//
// PTX leaves *which* lane is elected unspecified; tcsim models the lowest active lane of the mask
// (docs/tma_and_mbarrier.md §5, UNCONFIRMED). The outputs below are what that model predicts;
// the H200 run decides. out[w][k][lane], k:
//   0: (leader << 8) | pred, full mask                 -> leader 0, pred = (lane == 0)
//   1: the same with mask 0xF0F0F0F0, run by those lanes only (others keep 0xFFFFFFFF)
//                                                      -> leader 4, pred = (lane == 4)
//   2: odd lanes only, mask = __activemask()           -> leader 1, pred = (lane == 1)
//   3: order[lane] = the round in which `lane` was elected when the warp elects 32 times, the
//      leader dropping out each round                   -> order[lane] = lane
//   4: as 0 with mask 0x00FFFF00, run by lanes 8..23     -> leader 8, pred = (lane == 8)
//   5: pred from elect.sync _|p  (mask 0xFFFF0000, lanes 16..31) -> 1 on lane 16, else 0
#include "../tma/async_util.cuh"

namespace {

__device__ __forceinline__ uint32_t elect(uint32_t mask, uint32_t* leader) {
  uint32_t l, p;
  asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}"
               : "=r"(l), "=r"(p) : "r"(mask));
  *leader = l;
  return p;
}
__device__ __forceinline__ uint32_t elect_pred_only(uint32_t mask) {
  uint32_t p;
  asm volatile("{\n\t.reg .pred q;\n\telect.sync _|q, %1;\n\tselp.u32 %0, 1, 0, q;\n\t}" : "=r"(p) : "r"(mask));
  return p;
}

}  // namespace

extern "C" __global__ void elect_sync(uint32_t* out) {
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint32_t* o = out + warp * 6 * 32;
  uint32_t leader;

  uint32_t p = elect(0xFFFFFFFFu, &leader);
  o[0 * 32 + lane] = (leader << 8) | p;

  if ((0xF0F0F0F0u >> lane) & 1) {
    p = elect(0xF0F0F0F0u, &leader);
    o[1 * 32 + lane] = (leader << 8) | p;
  }
  __syncwarp();

  if (lane & 1) {
    p = elect(__activemask(), &leader);
    o[2 * 32 + lane] = (leader << 8) | p;
  }
  __syncwarp();

  // Every lane leads once; a lane leaves the election after its turn.
  uint32_t remaining = 0xFFFFFFFFu;
  for (uint32_t round = 0; round < 32; ++round) {
    uint32_t won = 0;
    if ((remaining >> lane) & 1) {
      won = elect(remaining, &leader);
      if (won) o[3 * 32 + lane] = round;
    }
    remaining &= ~__ballot_sync(0xFFFFFFFFu, won);
  }

  if (lane >= 8 && lane < 24) {
    p = elect(0x00FFFF00u, &leader);
    o[4 * 32 + lane] = (leader << 8) | p;
  }
  __syncwarp();
  if (lane >= 16) o[5 * 32 + lane] = elect_pred_only(0xFFFF0000u);
}
