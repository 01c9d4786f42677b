#pragma once
// Jobs in child processes (`pivot sweep --local N`): each job runs in its own fork()ed child,
// at most N at once, and sends one line of text back through a pipe. A child that dies (a
// signal, a crash, an exit without its line) is reported as such, never lost: the process
// isolation that keeps one bad variant from taking the whole sweep with it.

#include <functional>
#include <string>
#include <vector>

namespace pivot::cli {

/// how one job ended
struct JobResult {
  long job = 0;            ///< the job's id, as given
  bool ok = false;         ///< the child exited with 0 and sent a line ending in '\n'
  std::string line;        ///< what it sent (ok), else empty
  std::string death;       ///< !ok: how it died, e.g. "killed by signal 9 (Killed)"
  bool timed_out = false;  ///< !ok: it ran longer than the time limit and was killed
};

/// Runs work(job) in a fork()ed child for every job, at most `processes` at once, and calls
/// done(result) in this process, in the order the jobs finish. work returns the line to send
/// (with its '\n'); the child then exits with 0. A child still running after `time_limit_s`
/// seconds (> 0; 0: no limit) is killed (SIGKILL) and reported timed out. Must be called from
/// a process with a single thread (fork copies only the calling thread). Throws
/// std::runtime_error when a process or a pipe cannot be made.
void run_in_processes(const std::vector<long>& jobs, int processes,
                      const std::function<std::string(long)>& work,
                      const std::function<void(const JobResult&)>& done, double time_limit_s = 0.0);

}  // namespace pivot::cli
