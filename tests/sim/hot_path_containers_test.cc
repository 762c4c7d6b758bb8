// The simulator's per-quantum containers that the hot path keeps allocation-free, checked against
// plain references under random use: the L2's per-quantum fill map (sim/timing/line_map.h) against
// std::unordered_map, and the partition's store overlay (sim/memory/store_overlay.h: lazily filled
// pages, reused across quanta) against a byte array that applies the same stores in order.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <unordered_map>
#include <vector>

#include "sim/memory/global_memory.h"
#include "sim/memory/store_overlay.h"
#include "sim/timing/line_map.h"

using namespace tcsim;

namespace {
struct Val {
  uint64_t a = 0;
  uint8_t b = 0;
};
}  // namespace

TEST_CASE("line map: same contents as std::unordered_map across inserts, clears, growth and stamp wrap") {
  sim::timing::LineMap<Val> m;
  std::unordered_map<uint64_t, Val> ref;
  std::mt19937_64 rng(7);
  // 600 quanta: more than the 255 stamps, so the wrap (keys forgotten for real) is exercised; a few
  // quanta are large enough to grow the table several times.
  for (int q = 0; q < 600; ++q) {
    const int n = q % 97 == 0 ? 5000 : static_cast<int>(rng() % 64);
    for (int i = 0; i < n; ++i) {
      // Lines from a small range (repeats) and from a wide one (addresses up to 2^56).
      const uint64_t line = rng() % 2 ? rng() % 300 : rng() >> 8;
      if (rng() % 3) {
        Val& v = m[line];
        Val& r = ref[line];
        CHECK(v.a == r.a);
        v.a = r.a = r.a + i + 1;
        v.b = r.b = static_cast<uint8_t>(r.b | (1u << (i % 4)));
      }
      const uint64_t probe = rng() % 2 ? line : rng() % 300;
      const Val* f = m.find(probe);
      const auto it = ref.find(probe);
      REQUIRE((f != nullptr) == (it != ref.end()));
      if (f) {
        CHECK(f->a == it->second.a);
        CHECK(f->b == it->second.b);
      }
    }
    CHECK(m.size() == ref.size());
    m.clear();
    ref.clear();
    CHECK(m.find(1) == nullptr);
  }
}

TEST_CASE("store overlay: reads see the partition's stores over global memory, commit applies only them") {
  sim::GlobalMemory gm;
  constexpr uint64_t kPage = sim::StoreOverlay::kPageSize, kBytes = 4 * kPage;
  // Read-modify-writes (bulk reductions) go to the upper half of the last page, stores elsewhere:
  // a page that holds both is filled around the stores (StoreOverlay::rmw_view).
  constexpr uint64_t kRmwLo = 3 * kPage + kPage / 2;
  const uint64_t base = gm.allocate(kBytes, kPage, "overlay test", false);
  std::mt19937_64 rng(11);
  std::vector<uint8_t> view(kBytes);
  for (auto& b : view) b = static_cast<uint8_t>(rng());
  std::memcpy(gm.host(base), view.data(), kBytes);
  sim::StoreOverlay ov;
  for (int q = 0; q < 40; ++q) {
    std::vector<uint64_t> rmw_log;  // the bytes the RMW log increments at the quantum boundary
    for (int i = 0; i < 300; ++i) {
      const uint32_t size = 1u << (rng() % 5);  // 1..16 bytes, naturally aligned
      const uint64_t off = (rng() % kRmwLo) & ~uint64_t{size - 1};
      uint8_t buf[16];
      switch (rng() % 4) {
        case 0:
          for (uint32_t k = 0; k < size; ++k) buf[k] = static_cast<uint8_t>(rng());
          ov.write(gm, base + off, buf, size);
          std::memcpy(&view[off], buf, size);
          break;
        case 1:
          for (uint32_t k = 0; k < 4; ++k) buf[k] = static_cast<uint8_t>(rng());
          ov.write_n<4>(gm, base + (off & ~uint64_t{3}), buf);
          std::memcpy(&view[off & ~uint64_t{3}], buf, 4);
          break;
        case 2: {
          const uint64_t o = kRmwLo + (rng() % (kBytes - kRmwLo)) / 8 * 8;
          uint8_t* p = ov.rmw_view(gm, base + o);
          CHECK(std::memcmp(p, &view[o], 8) == 0);
          ++p[0];
          ++view[o];
          CHECK(!ov.dirty(base + o, 8));
          rmw_log.push_back(o);
          break;
        }
        default: {
          const uint64_t o = rng() % 2 ? off : (rng() % kBytes) & ~uint64_t{size - 1};
          ov.read(gm, base + o, buf, size);
          CHECK(std::memcmp(buf, &view[o], size) == 0);
        }
      }
    }
    ov.commit(gm);
    for (uint64_t o : rmw_log) ++gm.host(base)[o];
    CHECK(ov.empty());
    CHECK(std::memcmp(gm.host(base), view.data(), kBytes) == 0);
  }
}
