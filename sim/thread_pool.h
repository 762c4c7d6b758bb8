// A fixed set of host worker threads for parallel-for over simulation partitions. The caller
// participates; with one thread everything runs inline. Work order across threads is irrelevant
// to results: tasks touch disjoint state (see sim/launch.cc).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tcsim::sim {

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads);  // total threads including the caller (0 = hardware)
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Runs fn(0..n-1), returns when all are done. Exceptions from fn are rethrown (the first).
  void run(size_t n, const std::function<void(size_t)>& fn);

 private:
  void worker();
  void drain(const std::function<void(size_t)>* fn, size_t n);

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(size_t)>* fn_ = nullptr;
  size_t n_ = 0;
  std::atomic<size_t> next_{0};
  size_t active_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace tcsim::sim
