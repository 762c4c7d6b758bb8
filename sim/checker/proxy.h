// The proxy checker: shared memory touched by both the generic proxy (ld/st/atom of threads) and
// the async proxy (TMA and bulk copies, wgmma, tcgen05.mma/.cp) needs ordering that plain program
// order does not give (PTX ISA §8.6 "Proxies", §9.7.9.25.2 "async proxy", §9.7.13.4 fence.proxy;
// docs/tma_and_mbarrier.md §3):
//
//   generic write  -> async-proxy read   needs a fence.proxy.async (.shared::cta/.shared::cluster or
//                                         no state space) after the write, by the writing thread (the
//                                         CUTLASS / CUDA-guide pattern: every writer fences, then a
//                                         barrier, then one thread issues) or by the issuing thread.
//   async write    -> generic read/write needs the completion observed (mbarrier wait / wait_group):
//                                         a generic access of bytes an async copy is still writing is
//                                         a race.
//   async read     -> generic write      the source of a TMA store / bulk copy must not change before
//                                         cp.async.bulk.wait_group.read says the reads are done.
//
// Reports are checker warnings (the kernel goes on, reading whatever the machine holds, as the GPU
// would), one per pair of instructions. tcsim runs the second and third checks on what is in
// flight on the simulated clock: an access after the data landed but without the completion
// having been observed by the accessing thread is not reported (it reads the landed data).
//
// Hooks: the generic shared-memory accesses (sim/memory/access.h) call on_generic_access when the
// program has async-proxy instructions (Program::uses_async_proxy); fence.proxy.async calls
// on_proxy_fence; async engines call check_async_read / mark_async_write / mark_async_read. The MMA
// units (wgmma, tcgen05.mma, tcgen05.cp) call check_async_read for the shared-memory operands they
// read, at issue.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cycles.h"

namespace tcsim::sim {
struct ExecCtx;
class Cta;
class Partition;
}  // namespace tcsim::sim

namespace tcsim::sim::proxy {

// The shadow of one CTA's shared memory, in 16-byte granules (the async proxy's access unit).
class ProxyShadow {
 public:
  struct Write {
    uint32_t epoch = 0;   // proxy-fence epoch of the CTA when written; 0 = never written generically
    uint32_t pc = 0;      // Program::code index of the store
    uint32_t thread = 0;  // warp * 32 + lane
  };
  struct InFlight {
    uint32_t lo = 0, hi = 0;  // .shared::cta byte range
    Cycles until;             // the bytes land (write) / the reads are done (read) at this cycle
    bool write = true;        // the async operation writes the range (else: reads it)
    uint32_t pc = 0;          // the issuing instruction (kNoPc when unknown)
    std::string what;         // "cp.async.bulk.tensor (global -> shared::cta)"
  };

  void generic_write(uint32_t addr, uint32_t n, uint32_t thread, uint32_t pc);
  // An async-proxy write landed on [addr, addr + n): the generic writes there are gone.
  void async_wrote(uint32_t addr, uint32_t n);
  void fence(uint32_t thread);
  // The first granule of [addr, addr + n) whose last generic write no proxy fence orders before an
  // async read issued by `issuer`; nullptr when none.
  const Write* unfenced(uint32_t addr, uint32_t n, uint32_t issuer, uint32_t* granule_addr) const;
  void add_in_flight(InFlight f) { inflight_.push_back(std::move(f)); }
  // An in-flight operation the generic access conflicts with at `now` (a read conflicts with a
  // pending async write; a write with both), or nullptr. Drops operations that finished.
  const InFlight* conflict(uint32_t addr, uint32_t n, bool write, Cycles now);

 private:
  std::vector<Write> granules_;      // lazily sized to the highest granule written
  std::vector<uint32_t> last_fence_;  // per thread: epoch of its last proxy fence
  uint32_t epoch_ = 1;
  std::vector<InFlight> inflight_;
};

// ---- hooks -------------------------------------------------------------------------------------------
// A generic-proxy access of [addr, addr + n) of the executing CTA's shared memory by `lane`.
void on_generic_access(ExecCtx& c, int lane, uint64_t addr, uint32_t n, bool write);
// fence.proxy.async (covering shared memory) executed by the lanes in `mask`.
void on_proxy_fence(ExecCtx& c, uint32_t mask);
// An async-proxy read of [addr, addr + n) of `cta`'s shared memory, issued now by `lane` of the
// executing warp; `what` names the operation ("cp.async.bulk.tensor store", "wgmma.mma_async A").
void check_async_read(ExecCtx& c, int lane, Cta& cta, uint32_t addr, uint32_t n, const std::string& what);
// An async operation issued now by the executing instruction will write (write = true) or read
// [addr, addr + n) of `cta`'s shared memory until `until`.
void mark_async(ExecCtx& c, Cta& cta, uint32_t addr, uint32_t n, Cycles until, bool write, const std::string& what);

}  // namespace tcsim::sim::proxy
