// Shared helpers for benchmarks: the machine's context (printed with every figure) and a timer.
#pragma once
#include <chrono>
#include <string>

namespace tcsim::bench {

// "cpu: <model>, <n> logical cores, compiler <ver>, build <type>" — printed first by every bench.
std::string machine_context();

class Timer {
 public:
  Timer() : t0_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

// Keeps a value alive so the optimiser cannot delete the work that produced it.
template <class T>
inline void do_not_optimize(const T& v) {
  asm volatile("" : : "g"(&v) : "memory");
}

}  // namespace tcsim::bench
