// Throughput of the per-element conversions the simulator calls (cvt in the PTX interpreter, operand
// decoding in the tensor-core model): encode() per format, cvt_pack_f32x2, to_double, b6x16 reads.
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/core.h>

#include "bench/bench_util.h"
#include "models/formats/convert.h"
#include "models/formats/packing.h"

using namespace tcsim;
using namespace tcsim::models;

namespace {

// Random f32 inputs spread over the range every target cares about (|x| in [2^-20, 2^20]).
std::vector<float> make_inputs(size_t n) {
  std::mt19937 rng(1);
  std::vector<float> v(n);
  for (auto& x : v) {
    const uint32_t e = 127 - 20 + rng() % 41;
    x = std::bit_cast<float>(static_cast<uint32_t>((rng() & 0x807fffffu) | (e << 23)));
  }
  return v;
}

template <class Fn>
void run(const char* name, size_t n, Fn fn) {
  uint64_t sink = 0;
  fn(sink);  // warm up
  bench::Timer t;
  int reps = 0;
  do {
    fn(sink);
    ++reps;
  } while (t.seconds() < 0.5);
  const double per_s = static_cast<double>(n) * reps / t.seconds();
  bench::do_not_optimize(sink);
  fmt::print("{:<44} {:8.1f} M/s  ({:.1f} ns each)\n", name, per_s / 1e6, 1e9 / per_s);
}

}  // namespace

int main() {
  fmt::print("{}\n", bench::machine_context());
  constexpr size_t kN = 1 << 16;
  const std::vector<float> in = make_inputs(kN);
  for (auto [t, name] : {std::pair{DType::F16, "encode f32 -> f16 rn"},
                         std::pair{DType::BF16, "encode f32 -> bf16 rn"},
                         std::pair{DType::TF32, "encode f32 -> tf32 rn"},
                         std::pair{DType::E4M3, "encode f32 -> e4m3 rn satfinite"},
                         std::pair{DType::E2M1, "encode f32 -> e2m1 rn"}}) {
    run(name, kN, [&, t = t](uint64_t& sink) {
      for (float x : in) sink += encode(t, x, Round::RN, true);
    });
  }
  run("encode f32 -> ue8m0 rp", kN, [&](uint64_t& sink) {
    for (float x : in) sink += encode(DType::UE8M0, x, Round::RP, false);
  });
  CvtMods m;
  m.satfinite = true;
  run("cvt_pack_f32x2 e4m3x2 (2 elements per call)", kN / 2, [&](uint64_t& sink) {
    for (size_t i = 0; i + 1 < kN; i += 2)
      sink += cvt_pack_f32x2(DType::E4M3, std::bit_cast<uint32_t>(in[i]), std::bit_cast<uint32_t>(in[i + 1]), m);
  });
  run("to_double e4m3 (decode)", kN, [&](uint64_t& sink) {
    for (size_t i = 0; i < kN; ++i) sink += static_cast<uint64_t>(to_double(DType::E4M3, i & 0xff) * 8);
  });
  Unit16 unit{};
  for (int i = 0; i < 12; ++i) unit[i] = static_cast<uint8_t>(37 * i + 11);
  run("b6x16_p32_get", kN, [&](uint64_t& sink) {
    for (size_t i = 0; i < kN; ++i) sink += b6x16_p32_get(unit, static_cast<int>(i & 15));
  });
  return 0;
}
