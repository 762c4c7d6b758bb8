#include "sim/thread_pool.h"

namespace tcsim::sim {

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::drain(const std::function<void(size_t)>* fn, size_t n) {
  if (!fn) return;
  for (;;) {
    const size_t i = next_.fetch_add(1);
    if (i >= n) return;
    try {
      (*fn)(i);
    } catch (...) {
      std::lock_guard<std::mutex> l(mu_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void ThreadPool::worker() {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(size_t)>* fn;
    size_t n;
    {
      std::unique_lock<std::mutex> l(mu_);
      cv_.wait(l, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      fn = fn_;
      n = n_;
      ++active_;
    }
    drain(fn, n);
    {
      std::lock_guard<std::mutex> l(mu_);
      --active_;
    }
    done_cv_.notify_all();
  }
}

void ThreadPool::run(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  if (workers_.empty() || n == 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  {
    std::lock_guard<std::mutex> l(mu_);
    fn_ = &fn;
    n_ = n;
    next_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  cv_.notify_all();
  drain(&fn, n);
  std::unique_lock<std::mutex> l(mu_);
  done_cv_.wait(l, [&] { return active_ == 0 && next_.load() >= n_; });
  fn_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

}  // namespace tcsim::sim
