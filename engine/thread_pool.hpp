#pragma once
// A fixed set of worker threads that run the independent islands of a step (internal).
//
// run(tasks, body) calls body(0) … body(tasks − 1), each exactly once, on the workers and on
// the calling thread, and returns when all have returned. Which thread runs which task is left
// to chance; the callers make every task write only its own result, so the results do not
// depend on it (the final-state hash is the same for any thread count).

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pivot::detail {

class ThreadPool {
 public:
  /// `threads` in all, the calling thread included (≥ 1; 1: no workers, run() is a loop).
  /// Throws pivot::Error saying how many could be started when the system refuses a thread
  /// (no thread is left running then)
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  [[nodiscard]] int threads() const { return static_cast<int>(workers_.size()) + 1; }
  /// body(i) for i in [0, tasks); the first exception thrown by a task is rethrown here
  void run(int tasks, const std::function<void(int)>& body);

 private:
  void work();
  void drain();
  /// wakes, joins and drops every worker
  void stop();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* body_ = nullptr;
  int tasks_ = 0, next_ = 0, finished_ = 0;
  long generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

/// the thread count of WorldSettings::threads: 0 means every core the system reports, at
/// most kMaxThreads
[[nodiscard]] int resolve_thread_count(int requested);

}  // namespace pivot::detail
