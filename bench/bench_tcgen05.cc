// Simulated tcgen05.mma throughput: bit-exact multiply-adds per second per host core.
//
// A synthetic kernel: one CTA per SM (148), thread 0 issues `iters` tcgen05.mma.kind::f16 bf16 ->
// f32 with M = 128, N = 256, K = 16 (A and B from shared memory, no-swizzle K-major, all ones),
// chained through one TMEM accumulator, commits to an mbarrier that everyone waits on, then each
// thread reads one D cell. D must be 16 * iters everywhere (printed as a sanity check): every MMA
// ran through the models::mma engine. The per-core figure divides by the process's CPU seconds,
// so it stays meaningful on a loaded machine; wall time is printed too. The real GEMM kernels
// (kernels/tcgen05/specs/gemm/bench_bf16_{1024,2048}.json) are timed with `tcsim run`.
// Prints; asserts nothing.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "bench/bench_util.h"
#include "sim/api.h"

using namespace tcsim;

namespace {

const char* kPtx = R"(
.version 9.0
.target sm_100a
.address_size 64

.visible .entry mma_loop(.param .u64 out, .param .u32 iters)
{
  .reg .pred %p<6>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<16>;
  .shared .align 1024 .b8 tile[12288];
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 slot;
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, tile;
  mov.u32 %r2, %r0;
  mov.u32 %r20, 1065369472;   // 0x3f803f80: two bf16 ones
$Lfill:
  shl.b32 %r3, %r2, 2;
  add.u32 %r3, %r3, %r1;
  st.shared.u32 [%r3], %r20;
  add.u32 %r2, %r2, 128;
  setp.lt.u32 %p0, %r2, 3072;
  @%p0 bra $Lfill;
  fence.proxy.async.shared::cta;
  shr.u32 %r4, %r0, 5;
  setp.eq.u32 %p1, %r4, 0;
  setp.eq.u32 %p2, %r0, 0;
  @!%p1 bra $L1;
  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 256;
  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
$L1:
  @!%p2 bra $L2;
  mbarrier.init.shared::cta.b64 [bar], 1;
$L2:
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  ld.shared.u32 %r5, [slot];
  @!%p2 bra $L3;
  ld.param.u32 %r6, [iters];
  // A at tile (128 x 16 bf16, 4 KiB), B at tile + 4096 (256 x 16, 8 KiB): K-major, no swizzle,
  // LBO 128 B (next core matrix along K), SBO 256 B (next 8 rows), version bit 46.
  shr.u32 %r7, %r1, 4;
  cvt.u64.u32 %rd1, %r7;
  or.b64 %rd2, %rd1, 70437464178688;   // 0x0000401000080000
  add.u64 %rd3, %rd2, 256;
  mov.u32 %r9, 138413200;              // idesc 0x08400490: bf16 x bf16 -> f32, M 128, N 256
  mov.u32 %r8, 0;
  setp.ne.u32 %p3, %r8, 0;
$Lmma:
  tcgen05.mma.cta_group::1.kind::f16 [%r5], %rd2, %rd3, %r9, %p3;
  setp.eq.u32 %p3, %r8, %r8;
  add.u32 %r8, %r8, 1;
  setp.lt.u32 %p0, %r8, %r6;
  @%p0 bra $Lmma;
  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];
$L3:
$Lwait:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [bar], 0;
  @!%p4 bra $Lwait;
  tcgen05.fence::after_thread_sync;
  shl.b32 %r10, %r4, 21;
  add.u32 %r11, %r5, %r10;
  tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r12}, [%r11];
  tcgen05.wait::ld.sync.aligned;
  ld.param.u64 %rd4, [out];
  mov.u32 %r13, %ctaid.x;
  mad.lo.s32 %r14, %r13, 128, %r0;
  mul.wide.u32 %rd5, %r14, 4;
  add.s64 %rd6, %rd4, %rd5;
  st.global.u32 [%rd6], %r12;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  @!%p1 bra $L4;
  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r5, 256;
$L4:
  ret;
}
)";

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  fmt::print("{}\n", bench::machine_context());
  // Optional: bench_tcgen05 [CTAs [MMAs per CTA]] (defaults 148, 64).
  const uint32_t ctas = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 148;
  const uint32_t iters = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : 64;
  for (unsigned threads : {1u, 0u}) {
    sim::DeviceOptions opts;
    opts.host_threads = threads;
    sim::Device dev(isa::Arch::Sm100a, opts);
    const unsigned used = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    const sim::Module& m = dev.load_ptx(kPtx, "bench_tcgen05.ptx");
    const uint64_t out = dev.malloc(ctas * 128 * 4);
    std::vector<std::byte> p(12);
    std::memcpy(p.data(), &out, 8);
    std::memcpy(p.data() + 8, &iters, 4);
    sim::LaunchConfig cfg;
    cfg.grid = {ctas, 1, 1};
    cfg.block = {128, 1, 1};
    bench::Timer t;
    const double c0 = cpu_seconds();
    const sim::LaunchResult r = dev.launch(m, "mma_loop", cfg, p);
    const double wall = t.seconds(), cpu = cpu_seconds() - c0;
    std::vector<float> d(ctas * 128);
    dev.copy_from_device(d.data(), out, d.size() * 4);
    uint32_t wrong = 0;
    for (float v : d) wrong += v != 16.0f * iters;
    const double macs = double(ctas) * iters * 128 * 256 * 16;
    fmt::print("tcgen05.mma bf16 M128 N256 K16 x {} per CTA, {} CTAs, host threads {}: {:.3g} MAC, {} cycles; "
               "wall {:.3f} s = {:.1f} M MAC/s; CPU {:.3f} s = {:.1f} M MAC/s per core; D check: {}\n",
               iters, ctas, used, macs, r.cycles, wall, macs / wall / 1e6, cpu, macs / cpu / 1e6,
               wrong ? fmt::format("{} WRONG", wrong) : std::string("all 16*iters"));
  }
}
