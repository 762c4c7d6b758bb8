// Bit-exact multiply-adds per second of the MMA fast path (models/mma/engine.h) on one core:
// whole tiles (DotEngine::tile, operands decoded once per row/column, as the simulator's tensor
// core calls it) and single dot products (DotEngine::dot, decode included).
#include <cstdint>
#include <ctime>
#include <vector>

#include <fmt/core.h>

#include "bench/bench_util.h"
#include "models/mma/engine.h"
#include "models/mma/param_table.h"
#include "models/mma/simd_kernels.h"

using namespace tcsim::models::mma;
using tcsim::isa::DType;
using tcsim::isa::MmaKind;

namespace {

// CPU time of this thread: the build machine is shared, so wall time would measure the load of
// other processes; "per core" means per second of one core's time.
class CpuTimer {
 public:
  CpuTimer() { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0_); }
  double seconds() const {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec - t0_.tv_sec) + 1e-9 * double(t.tv_nsec - t0_.tv_nsec);
  }

 private:
  timespec t0_;
};

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Finite operands with exponents spread over a few binades (typical GEMM data).
uint32_t operand(DType t, uint64_t& s) {
  const uint64_t r = splitmix(s);
  switch (t) {
    case DType::BF16: return static_cast<uint32_t>(((r & 0x8000) | (0x3c00 + (r >> 16 & 0x7ff))) & 0xffff);
    case DType::TF32: return static_cast<uint32_t>((r & 0x80000000u) | (0x3c000000u + (r >> 32 & 0x7ffffff)));
    case DType::E4M3: return static_cast<uint32_t>(r & 0x7f) == 0x7f ? 0x3eu : static_cast<uint32_t>(r & 0xff) % 0xfe;
    case DType::E2M1: return static_cast<uint32_t>(r & 0xf);
    default: return 0;
  }
}

struct Case {
  const char* name;
  Arch arch;
  Path path;
  MmaKind kind;
  DType t;
  int k;
  ScaleType st;
  int block;
};

void run(const Case& c) {
  const ParamRow* row = find_row(c.arch, c.path, c.kind, c.t, c.t, DType::F32);
  if (!row) return;
  DotShape s;
  s.num = row->num;
  s.kind = c.kind;
  s.atype = s.btype = c.t;
  s.dtype = DType::F32;
  s.k = c.k;
  s.scale_type = c.st;
  s.scale_block = c.block;
  const DotEngine e(s);
  const int m = 128, n = 128, k = c.k, nb = s.scale_blocks();
  uint64_t seed = 12345;
  std::vector<uint32_t> a(m * k), b(n * k), cm(m * n), d(m * n);
  std::vector<uint8_t> sa(m * (nb ? nb : 1)), sb(n * (nb ? nb : 1));
  for (auto& x : a) x = operand(c.t, seed);
  for (auto& x : b) x = operand(c.t, seed);
  for (auto& x : cm) x = static_cast<uint32_t>(0x3f000000u + (splitmix(seed) & 0xffffff));
  for (auto& x : sa) x = c.st == ScaleType::UE4M3 ? 0x30 + splitmix(seed) % 16 : 120 + splitmix(seed) % 16;
  for (auto& x : sb) x = c.st == ScaleType::UE4M3 ? 0x30 + splitmix(seed) % 16 : 120 + splitmix(seed) % 16;
  const uint8_t* psa = nb ? sa.data() : nullptr;
  const uint8_t* psb = nb ? sb.data() : nullptr;

  // tiles: chain through D like a K loop of MMAs; best of 5 trials (the machine is shared)
  e.tile(m, n, a.data(), b.data(), cm.data(), d.data(), psa, psb);  // warm-up
  double tile_rate = 0;
  for (int trial = 0; trial < 5; ++trial) {
    int reps = 0;
    CpuTimer t;
    while (t.seconds() < 0.3) {
      for (int i = 0; i < 4; ++i) e.tile(m, n, a.data(), b.data(), d.data(), d.data(), psa, psb);
      reps += 4;
    }
    const double r = double(reps) * m * n * k / t.seconds();
    tile_rate = r > tile_rate ? r : tile_rate;
  }
  tcsim::bench::do_not_optimize(d);

  // single dot products, decode included
  uint64_t dots = 0;
  uint32_t acc = 0;
  CpuTimer t2;
  while (t2.seconds() < 0.5) {
    for (int i = 0; i < 4096; ++i) {
      const int r = i & (m - 1), col = (i >> 7) & (n - 1);
      acc ^= e.dot(&a[r * k], &b[col * k], cm[i & (m * n - 1)], nb ? &sa[r * nb] : nullptr,
                   nb ? &sb[col * nb] : nullptr);
    }
    dots += 4096;
  }
  const double dot_rate = double(dots) * k / t2.seconds();
  tcsim::bench::do_not_optimize(acc);
  fmt::print("{:<44} K={:<3} tile 128x128: {:7.1f} M multiply-adds/s   dot(): {:7.1f} M/s\n",
             c.name, k, tile_rate / 1e6, dot_rate / 1e6);
}

}  // namespace

int main() {
  fmt::print("{}\n", tcsim::bench::machine_context());
  fmt::print("bit-exact multiply-adds per second of one core's CPU time (models/mma fast path, "
             "{} kernels)\n", simd::kernels().name);
  const Case cases[] = {
      {"sm_100a tcgen05 kind::f16 bf16->f32", Arch::Sm100a, Path::Tcgen05, MmaKind::F16,
       DType::BF16, 16, ScaleType::None, 0},
      {"sm_90a wgmma bf16->f32", Arch::Sm90a, Path::Wgmma, MmaKind::F16, DType::BF16, 16,
       ScaleType::None, 0},
      {"sm_100a tcgen05 kind::f8f6f4 e4m3->f32", Arch::Sm100a, Path::Tcgen05, MmaKind::F8F6F4,
       DType::E4M3, 32, ScaleType::None, 0},
      {"sm_90a wgmma e4m3->f32 (13-bit)", Arch::Sm90a, Path::Wgmma, MmaKind::F8F6F4, DType::E4M3,
       32, ScaleType::None, 0},
      {"sm_100a tcgen05 kind::tf32", Arch::Sm100a, Path::Tcgen05, MmaKind::TF32, DType::TF32, 8,
       ScaleType::None, 0},
      {"sm_100a tcgen05 kind::mxf4nvf4 e2m1 ue4m3/16", Arch::Sm100a, Path::Tcgen05,
       MmaKind::MXF4NVF4, DType::E2M1, 64, ScaleType::UE4M3, 16},
      {"sm_100a tcgen05 kind::mxf4 e2m1 ue8m0/32", Arch::Sm100a, Path::Tcgen05, MmaKind::MXF4,
       DType::E2M1, 64, ScaleType::UE8M0, 32},
  };
  for (const Case& c : cases) run(c);
  simd::force_scalar(true);
  fmt::print("portable scalar kernels (no AVX2):\n");
  run(cases[0]);
  run(cases[2]);
  return 0;
}
