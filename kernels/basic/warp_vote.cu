// warp_vote.cu — warp-wide collectives other than shuffles: vote, match, redux, elect,
// activemask and the %lanemask_* registers, with full and partial member masks, and a per-warp
// stream compaction built from them (ballot + popc of ballot & %lanemask_lt).
//
// Families: vote.sync.{all,any,uni}.pred, vote.sync.ballot.b32, activemask.b32 (inside divergent
// code, after __syncwarp of exactly that group), match.any.sync.{b32,b64}, match.all.sync.
// {b32,b64} with the predicate, redux.sync.{add,min,max}.{u32,s32} and redux.sync.{and,or,xor}.b32
// (full and partial masks), elect.sync (inline PTX: the elected lane is an output — the PTX ISA
// only promises that it is the same for the same mask), %lanemask_{eq,lt,le,gt,ge} (inline PTX),
// bar.warp.sync (__syncwarp with partial masks), popc, selp.
// Specs: warp_vote.json
//
// Block of 80 threads: the third warp has 16 lanes, so full-mask collectives there use 0x0000ffff.

constexpr int kOuts = 20;

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
__device__ __forceinline__ unsigned lanemask_le() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(m));
  return m;
}
__device__ __forceinline__ unsigned lanemask_eq() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(m));
  return m;
}
__device__ __forceinline__ unsigned lanemask_gt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(m));
  return m;
}
__device__ __forceinline__ unsigned lanemask_ge() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(m));
  return m;
}

__device__ __forceinline__ unsigned elect_lane(unsigned mask, unsigned* is_leader) {
  unsigned lane, p;
  asm volatile("{.reg .pred p; elect.sync %0|p, %2; selp.u32 %1, 1, 0, p;}"
               : "=r"(lane), "=r"(p)
               : "r"(mask));
  *is_leader = p;
  return lane;
}

extern "C" __global__ void warp_vote(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                     unsigned* __restrict__ compact,
                                     unsigned* __restrict__ counts) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31;
  const unsigned warp = threadIdx.x >> 5;
  const unsigned warp_base = threadIdx.x & ~31u;
  const unsigned lanes_here = min(32u, blockDim.x - warp_base);
  const unsigned full = lanes_here == 32 ? 0xffffffffu : (1u << lanes_here) - 1;
  const unsigned v = in[gid];
  unsigned* o = out + gid * kOuts;

  // vote
  const bool p = (v & 3u) != 0;
  o[0] = __ballot_sync(full, p);
  o[1] = __all_sync(full, p) | (__any_sync(full, v & 1u) << 1) | (__uni_sync(full, v > 0u) << 2) |
         (__uni_sync(full, lane < 64u) << 3);

  // Divergent: lanes with bit 4 set vote among themselves, the others among themselves.
  const bool hi = (v >> 4) & 1u;
  const unsigned group = __ballot_sync(full, hi);
  if (hi) {
    __syncwarp(group);
    o[2] = __activemask();
    o[3] = __ballot_sync(group, v & 0x100u) ^ (__all_sync(group, v & 0x200u) << 31);
  } else {
    __syncwarp(full & ~group);
    o[2] = __activemask();
    o[3] = __ballot_sync(full & ~group, v & 0x100u) ^ (__any_sync(full & ~group, v & 0x400u) << 31);
  }

  // match: keys with few distinct values so groups form.
  const unsigned key = (v >> 8) & 3u;
  o[4] = __match_any_sync(full, key);
  const unsigned long long key64 = ((unsigned long long)(v & 1u) << 40) | ((v >> 9) & 1u);
  o[5] = __match_any_sync(full, key64);
  int pred_a = 0, pred_b = 0, pred_c = 0;
  o[6] = __match_all_sync(full, key, &pred_a);  // the mask if all keys are equal, else 0
  const unsigned all7 = __match_all_sync(full, 7u, &pred_b);
  o[7] = (unsigned)pred_a | (all7 == full ? 2u : 0u) | ((unsigned)pred_b << 2);
  const unsigned long long zero64 = key64 & 0x100000000ull;  // equal in all lanes (0)
  o[8] = __match_all_sync(full, zero64, &pred_c) ^ (unsigned)pred_c;

  // redux: full mask and the low 24 lanes only.
  o[9] = __reduce_add_sync(full, v);
  o[10] = __reduce_min_sync(full, v) ^ __reduce_max_sync(full, v);
  o[11] = (unsigned)__reduce_min_sync(full, (int)v) ^ (unsigned)__reduce_max_sync(full, (int)v);
  o[12] = __reduce_and_sync(full, v | 0x0f0f0000u) ^ __reduce_or_sync(full, v & 0x0000ff00u) ^
          __reduce_xor_sync(full, v);
  if (lane < 24) {
    const unsigned low24 = full & 0x00ffffffu;
    o[13] = __reduce_add_sync(low24, v >> 1) + __reduce_max_sync(low24, (int)v);
  } else {
    o[13] = 0;
  }

  // elect: with the full mask and with the odd lanes only.
  unsigned leader = 0;
  o[14] = elect_lane(full, &leader);
  o[15] = leader;
  if (lane & 1u) {
    unsigned odd_leader = 0;
    o[16] = elect_lane(full & 0xaaaaaaaau, &odd_leader) | (odd_leader << 8);
  } else {
    o[16] = 0xffffu;
  }

  // lanemasks
  o[17] = lanemask_lt() ^ (lanemask_le() << 1) ^ lanemask_eq();
  o[18] = lanemask_gt() + lanemask_ge();

  // Stream compaction of the values with p set, per warp: position = popc(ballot & lanemask_lt).
  const unsigned keep = __ballot_sync(full, p);
  const unsigned pos = __popc(keep & lanemask_lt());
  const unsigned slot = (blockIdx.x * ((blockDim.x + 31) / 32) + warp) * 32;
  if (p) compact[slot + pos] = v;
  if (lane == 0) counts[slot / 32] = __popc(keep);
  o[19] = pos;
}
