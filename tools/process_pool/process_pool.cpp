#include "process_pool/process_pool.hpp"

#include <fmt/core.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace pivot::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  long job = 0;
  pid_t pid = -1;
  int fd = -1;  // read end of its pipe
  std::string data;
  Clock::time_point started = Clock::now();
  bool timed_out = false;
};

/// the child's side: run the job, write its line, exit; nothing returns from here
[[noreturn]] void child_main(long job, int fd, const std::function<std::string(long)>& work) {
  int code = 0;
  try {
    const std::string line = work(job);
    std::size_t sent = 0;
    while (sent < line.size()) {
      const ssize_t n = ::write(fd, line.data() + sent, line.size() - sent);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        code = 4;
        break;
      }
      sent += static_cast<std::size_t>(n);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "pivot: error: job {}: {}\n", job, e.what());
    code = 3;
  }
  ::close(fd);
  std::fflush(stderr);
  ::_exit(code);  // no destructors, no atexit handlers of the parent's copy
}

Child start(long job, const std::function<std::string(long)>& work) {
  int fds[2];
  if (::pipe(fds) != 0)
    throw std::runtime_error(fmt::format("cannot make a pipe: {}", std::strerror(errno)));
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(fmt::format("cannot start a process: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    // the child dies with its parent (a SIGKILL of pivot sweep alone, or its crash), not
    // left running unsupervised; a parent gone before prctl took effect is seen by getppid
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(5);
    ::close(fds[0]);
    child_main(job, fds[1], work);
  }
  ::close(fds[1]);
  return Child{job, pid, fds[0], {}};
}

JobResult finish(Child& child) {
  ::close(child.fd);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  JobResult r;
  r.job = child.job;
  const bool complete = !child.data.empty() && child.data.back() == '\n' &&
                        child.data.find('\n') == child.data.size() - 1;
  if (child.timed_out) {
    r.timed_out = true;
    r.death = "the run took longer than the time limit and was killed";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && complete) {
    r.ok = true;
    r.line = std::move(child.data);
  } else if (WIFSIGNALED(status)) {
    r.death = fmt::format("the process running it was killed by signal {} ({})", WTERMSIG(status),
                          strsignal(WTERMSIG(status)));
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    r.death = fmt::format("the process running it exited with code {}", WEXITSTATUS(status));
  } else {
    r.death = "the process running it ended without its result";
  }
  return r;
}

}  // namespace

void run_in_processes(const std::vector<long>& jobs, int processes,
                      const std::function<std::string(long)>& work,
                      const std::function<void(const JobResult&)>& done, double time_limit_s) {
  std::vector<Child> running;
  std::size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && static_cast<int>(running.size()) < processes)
      running.push_back(start(jobs[next++], work));
    // the time limit: kill the children past it (their pipes then reach end of file), and
    // wake up when the next one would pass it
    int wait_ms = -1;
    if (time_limit_s > 0.0) {
      for (Child& c : running) {
        const double left =
            time_limit_s - std::chrono::duration<double>(Clock::now() - c.started).count();
        if (left <= 0.0 && !c.timed_out) {
          ::kill(c.pid, SIGKILL);
          c.timed_out = true;
        } else if (!c.timed_out) {
          const int ms = static_cast<int>(std::ceil(left * 1e3));
          wait_ms = wait_ms < 0 ? ms : std::min(wait_ms, ms);
        }
      }
    }
    std::vector<pollfd> fds;
    for (const Child& c : running) fds.push_back({c.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), wait_ms) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
    }
    for (std::size_t i = fds.size(); i-- > 0;) {
      if (fds[i].revents == 0) continue;
      char buffer[65536];
      const ssize_t n = ::read(running[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        running[i].data.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      // end of file (or a read error): the child is done
      const JobResult result = finish(running[i]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      done(result);
    }
  }
}

}  // namespace pivot::cli
