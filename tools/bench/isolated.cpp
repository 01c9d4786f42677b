#include "isolated.hpp"

#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>

namespace pivot::bench {
namespace {

bool write_all(int fd, const void* data, std::size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

IsolatedResult run_isolated(const std::function<IsolatedAnswer()>& work, double timeout_seconds) {
  IsolatedResult result;
  int fds[2];
  if (::pipe(fds) != 0) {
    result.failure = "pipe() failed";
    return result;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    result.failure = "fork() failed";
    return result;
  }
  if (pid == 0) {
    // the child: do the work, send (count, values, length, text), and leave without running
    // destructors or flushing the parent's buffers
    ::close(fds[0]);
    int code = 0;
    try {
      const IsolatedAnswer out = work();
      const std::uint64_t count = out.values.size(), length = out.text.size();
      if (!write_all(fds[1], &count, sizeof(count)) ||
          !write_all(fds[1], out.values.data(), count * sizeof(double)) ||
          !write_all(fds[1], &length, sizeof(length)) ||
          !write_all(fds[1], out.text.data(), length))
        code = 3;
    } catch (const std::exception&) {
      code = 4;
    }
    ::close(fds[1]);
    ::_exit(code);
  }

  // the parent: read until EOF or the deadline
  ::close(fds[1]);
  std::vector<char> bytes;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0) break;
    if (ready == 0) continue;
    char buffer[65536];
    const ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
    if (n <= 0) break;  // EOF: the child is done
    bytes.insert(bytes.end(), buffer, buffer + n);
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);

  if (timed_out) {
    result.failure = fmt::format("timed out (> {:g} s)", timeout_seconds);
  } else if (WIFSIGNALED(status)) {
    result.failure = fmt::format("crashed ({})", ::strsignal(WTERMSIG(status)));
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    result.failure = fmt::format("failed (exit code {})", WEXITSTATUS(status));
  } else {
    std::uint64_t count = 0, length = 0;
    std::size_t at = 0;
    auto take = [&](void* to, std::size_t size) {
      if (bytes.size() - at < size) return false;
      std::memcpy(to, bytes.data() + at, size);
      at += size;
      return true;
    };
    bool complete = take(&count, sizeof(count)) && count <= bytes.size() / sizeof(double);
    if (complete) {
      result.answer.values.resize(count);
      complete = take(result.answer.values.data(), count * sizeof(double)) &&
                 take(&length, sizeof(length)) && length <= bytes.size();
    }
    if (complete) {
      result.answer.text.resize(length);
      complete = take(result.answer.text.data(), length) && at == bytes.size();
    }
    result.ok = complete;
    if (!complete) result.failure = "incomplete answer from the child";
  }
  return result;
}

}  // namespace pivot::bench
