#include "replay/headless_chromium.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

fs::path find_chromium() {
  if (const char* given = std::getenv("PIVOT_CHROMIUM"); given != nullptr && *given != '\0')
    return is_executable(given) ? fs::path(given) : fs::path();
  const fs::path debian = "/usr/bin/chromium";
  return is_executable(debian) ? debian : fs::path();
}

HeadlessChromium::HeadlessChromium(const fs::path& executable, int width, int height)
    : width_(width), height_(height) {
  std::string tmpl = (fs::temp_directory_path() / "pivot-chromium-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr)
    throw std::runtime_error(fmt::format("cannot make a profile folder: {}", std::strerror(errno)));
  profile_ = tmpl;
  int to[2];    // parent writes to[1]; the browser reads to[0] as its descriptor 3
  int from[2];  // the browser writes from[1] as its descriptor 4; parent reads from[0]
  if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0)
    throw std::runtime_error(fmt::format("cannot make pipes: {}", std::strerror(errno)));
  const std::vector<std::string> args = {executable.string(),
                                         "--headless",
                                         "--remote-debugging-pipe",
                                         "--no-sandbox",
                                         "--disable-gpu",
                                         "--use-angle=swiftshader",
                                         "--enable-unsafe-swiftshader",
                                         "--no-first-run",
                                         "--disable-background-networking",
                                         "--disable-component-update",
                                         "--disable-sync",
                                         "--hide-scrollbars",
                                         "--mute-audio",
                                         fmt::format("--user-data-dir={}", profile_.string()),
                                         fmt::format("--window-size={},{}", width, height),
                                         "about:blank"};
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(fmt::format("cannot fork: {}", std::strerror(errno)));
  if (pid_ == 0) {
    // the child: it dies with pivot (a Ctrl-C leaves no browser behind); descriptors 3 and 4
    // are the pipes (dup2 clears close-on-exec); its output is silenced
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int null = ::open("/dev/null", O_RDWR);
    // moved above 4 first, so that neither dup2 below is onto itself (which would keep the
    // close-on-exec flag) nor overwrites the other pipe
    const int read_end = ::fcntl(to[0], F_DUPFD, 10);
    const int write_end = ::fcntl(from[1], F_DUPFD, 10);
    if (read_end < 0 || write_end < 0 || ::dup2(read_end, 3) < 0 || ::dup2(write_end, 4) < 0)
      ::_exit(127);
    ::fcntl(3, F_SETFD, 0);
    ::fcntl(4, F_SETFD, 0);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(to[0]);
  ::close(from[1]);
  to_browser_ = to[1];
  from_browser_ = from[0];
  // a browser that dies makes our writes fail with EPIPE instead of killing pivot
  ::signal(SIGPIPE, SIG_IGN);
  // the browser's own target, then a page of it
  const json target = call("Target.createTarget", {{"url", "about:blank"}}, 60.0, false);
  const json attached = call("Target.attachToTarget",
                             {{"targetId", target.at("targetId")}, {"flatten", true}}, 60.0, false);
  session_ = attached.at("sessionId").get<std::string>();
  call("Emulation.setDeviceMetricsOverride",
       {{"width", width_}, {"height", height_}, {"deviceScaleFactor", 1}, {"mobile", false}}, 60.0);
  call("Page.enable", json::object(), 60.0);
}

HeadlessChromium::~HeadlessChromium() {
  if (to_browser_ >= 0) ::close(to_browser_);
  if (from_browser_ >= 0) ::close(from_browser_);
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    // a browser that ignores SIGTERM for 5 s is killed
    for (int i = 0; i < 50; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      ::usleep(100000);
    }
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  std::error_code ec;
  if (!profile_.empty()) fs::remove_all(profile_, ec);
}

void HeadlessChromium::send(const json& message) {
  std::string text = message.dump();
  text.push_back('\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(to_browser_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw std::runtime_error(
          fmt::format("the browser closed its pipe: {}", std::strerror(errno)));
    done += static_cast<std::size_t>(n);
  }
}

json HeadlessChromium::receive(double deadline) {
  for (;;) {
    if (const auto end = buffer_.find('\0'); end != std::string::npos) {
      json message = json::parse(buffer_.substr(0, end));
      buffer_.erase(0, end + 1);
      return message;
    }
    const double left = deadline - now_seconds();
    if (left <= 0) throw std::runtime_error("the browser did not answer in time");
    pollfd p{from_browser_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left * 1000.0) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    std::array<char, 1 << 16> chunk{};
    const ssize_t n = ::read(from_browser_, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("the browser exited");
    buffer_.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

json HeadlessChromium::call(const std::string& method, json params, double timeout_seconds,
                            bool in_page) {
  const int id = next_id_++;
  json message = {{"id", id}, {"method", method}, {"params", std::move(params)}};
  if (in_page) message["sessionId"] = session_;
  send(message);
  const double deadline = now_seconds() + timeout_seconds;
  for (;;) {
    json reply = receive(deadline);
    if (!reply.contains("id")) {
      events_.push_back(std::move(reply));
      continue;
    }
    if (reply.at("id").get<int>() != id) continue;
    if (reply.contains("error"))
      throw std::runtime_error(
          fmt::format("{}: {}", method, reply["error"].value("message", reply["error"].dump())));
    return reply.value("result", json::object());
  }
}

void HeadlessChromium::wait_for_event(const std::string& method, double timeout_seconds) {
  const double deadline = now_seconds() + timeout_seconds;
  for (;;) {
    while (!events_.empty()) {
      const json event = std::move(events_.front());
      events_.pop_front();
      if (event.value("method", "") == method) return;
    }
    events_.push_back(receive(deadline));
  }
}

void HeadlessChromium::open(const std::string& url, double timeout_seconds) {
  events_.clear();
  const json navigated = call("Page.navigate", {{"url", url}}, timeout_seconds);
  if (navigated.contains("errorText"))
    throw std::runtime_error(
        fmt::format("cannot open {}: {}", url, navigated["errorText"].get<std::string>()));
  wait_for_event("Page.loadEventFired", timeout_seconds);
}

json HeadlessChromium::evaluate(const std::string& expression, double timeout_seconds) {
  const json result =
      call("Runtime.evaluate",
           {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}},
           timeout_seconds);
  if (result.contains("exceptionDetails")) {
    const json& e = result["exceptionDetails"];
    std::string text = e.value("text", "an exception");
    if (e.contains("exception") && e["exception"].contains("description"))
      text = e["exception"]["description"].get<std::string>();
    throw std::runtime_error(fmt::format("the page threw: {}", text));
  }
  return result.contains("result") ? result["result"].value("value", json()) : json();
}

std::string HeadlessChromium::screenshot_png(double timeout_seconds) {
  const json shot = call("Page.captureScreenshot", {{"format", "png"}}, timeout_seconds);
  return decode_base64(shot.at("data").get<std::string>());
}

std::string decode_base64(const std::string& text) {
  std::array<int, 256> value{};
  value.fill(-1);
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) value[static_cast<unsigned char>(alphabet[i])] = i;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  unsigned bits = 0;
  int count = 0;
  for (const char c : text) {
    if (c == '=') break;
    const int v = value[static_cast<unsigned char>(c)];
    if (v < 0) throw std::runtime_error("base64: a character outside the alphabet");
    bits = (bits << 6) | static_cast<unsigned>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xffu));
    }
  }
  return out;
}

}  // namespace pivot::cli
