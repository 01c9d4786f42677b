// The worker threads of a step: see thread_pool.hpp.
#include "pivot/engine/thread_pool.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <exception>

#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"

namespace pivot::detail {

// A thread that cannot be made (the address space or the process limit is spent: each thread
// reserves its stack) throws from std::thread's constructor. The workers made so far wait on
// wake_: they are stopped and joined before the exception leaves, since destroying a condition
// variable that threads wait on blocks for ever (glibc), and a joinable std::thread terminates.
ThreadPool::ThreadPool(int threads) {
  try {
    workers_.reserve(static_cast<std::size_t>(std::max(0, threads - 1)));
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  } catch (const std::exception& e) {
    const std::size_t made = workers_.size() + 1;
    stop();
    throw Error(fmt::format(
        "threads: only {} of the {} threads asked for could be started ({}); ask for fewer "
        "(the setting threads, pivot run --threads)",
        made, threads, e.what()));
  }
}

ThreadPool::~ThreadPool() {
  stop();
}

void ThreadPool::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
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
  return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxThreads);
}

}  // namespace pivot::detail
