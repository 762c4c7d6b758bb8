// Simulated time. One clock for the whole machine (DESIGN.md "One clock"): every ordering decision
// is made in Cycles, never in host time. No implicit conversion from integers (gem5's Cycles).
#pragma once
#include <compare>
#include <cstdint>
#include <limits>

namespace tcsim::sim {

class Cycles {
 public:
  constexpr Cycles() = default;
  constexpr explicit Cycles(uint64_t v) : v_(v) {}
  constexpr uint64_t count() const { return v_; }
  static constexpr Cycles never() { return Cycles(std::numeric_limits<uint64_t>::max()); }
  constexpr bool is_never() const { return v_ == std::numeric_limits<uint64_t>::max(); }

  constexpr Cycles operator+(Cycles o) const { return Cycles(is_never() || o.is_never() ? never().v_ : v_ + o.v_); }
  constexpr Cycles operator-(Cycles o) const { return Cycles(v_ - o.v_); }
  constexpr Cycles& operator+=(Cycles o) { return *this = *this + o; }
  constexpr auto operator<=>(const Cycles&) const = default;

 private:
  uint64_t v_ = 0;
};

constexpr Cycles min(Cycles a, Cycles b) { return a < b ? a : b; }
constexpr Cycles max(Cycles a, Cycles b) { return a < b ? b : a; }

}  // namespace tcsim::sim
