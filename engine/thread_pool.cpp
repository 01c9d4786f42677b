// The worker threads of a step: see thread_pool.hpp.
#include "pivot/engine/thread_pool.hpp"

#include <algorithm>
#include <exception>

namespace pivot::detail {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run(int tasks, const std::function<void(int)>& body) {
  if (tasks <= 0) return;
  if (workers_.empty() || tasks == 1) {
    for (int i = 0; i < tasks; ++i) body(i);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    body_ = &body;
    tasks_ = tasks;
    next_ = 0;
    finished_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  drain();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return finished_ == tasks_; });
  body_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

// takes tasks until none is left
void ThreadPool::drain() {
  while (true) {
    int task = 0;
    const std::function<void(int)>* body = nullptr;
    {
      std::lock_guard lock(mutex_);
      if (body_ == nullptr || next_ >= tasks_) return;
      task = next_++;
      body = body_;
    }
    std::exception_ptr error;
    try {
      (*body)(task);
    } catch (...) {
      error = std::current_exception();
    }
    bool last = false;
    {
      std::lock_guard lock(mutex_);
      if (error && !error_) error_ = error;
      last = ++finished_ == tasks_;
    }
    if (last) done_.notify_all();
  }
}

void ThreadPool::work() {
  long seen = 0;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain();
  }
}

int resolve_thread_count(int requested) {
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace pivot::detail
