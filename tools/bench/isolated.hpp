#pragma once
// Runs a piece of benchmark work in a child process (fork), so that a peer solver that crashes,
// aborts or runs away costs one table cell, not the whole run. The child sends back a small
// record and a vector of doubles through a pipe; the parent waits at most `timeout_seconds`.

#include <functional>
#include <string>
#include <vector>

namespace pivot::bench {

/// what the child sends back
struct IsolatedAnswer {
  std::vector<double> values;
  std::string text;
};

struct IsolatedResult {
  bool ok = false;      ///< the child finished and sent its answer
  std::string failure;  ///< otherwise: "timed out (> 20 s)", "crashed (Aborted)", ...
  IsolatedAnswer answer;
};

/// runs `work` in a child process and returns its answer
[[nodiscard]] IsolatedResult run_isolated(const std::function<IsolatedAnswer()>& work,
                                          double timeout_seconds);

}  // namespace pivot::bench
