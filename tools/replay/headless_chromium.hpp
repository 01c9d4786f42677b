#pragma once
// A headless chromium driven over the Chrome DevTools Protocol on a pipe, for `pivot render`
// (docs/cli.md). With --remote-debugging-pipe the browser reads commands on its descriptor 3 and
// writes replies and events on its descriptor 4, each message one JSON text ended by a NUL byte;
// a command {"id", "method", "params"[, "sessionId"]} gets the reply with the same id. Pages are
// reached through Target.attachToTarget with flatten=true (a sessionId on each command).

#include <nlohmann/json.hpp>

#include <sys/types.h>
#include <deque>
#include <filesystem>
#include <string>

namespace pivot::cli {

/// the chromium pivot render uses: $PIVOT_CHROMIUM, else /usr/bin/chromium; empty when neither
/// is an executable file
[[nodiscard]] std::filesystem::path find_chromium();

class HeadlessChromium {
 public:
  /// starts `executable` headless with a throwaway profile and a width x height window (CSS
  /// pixels, scale 1), WebGL on SwiftShader; throws std::runtime_error when it cannot be started
  HeadlessChromium(const std::filesystem::path& executable, int width, int height);
  ~HeadlessChromium();
  HeadlessChromium(const HeadlessChromium&) = delete;
  HeadlessChromium& operator=(const HeadlessChromium&) = delete;

  /// opens `url` in a page of width x height and waits for its load event
  void open(const std::string& url, double timeout_seconds);
  /// evaluates a JavaScript expression in the page (a promise is awaited) and returns its value;
  /// throws std::runtime_error with the page's exception text when it throws
  nlohmann::json evaluate(const std::string& expression, double timeout_seconds);
  /// the page's viewport as a PNG file's bytes
  [[nodiscard]] std::string screenshot_png(double timeout_seconds);

 private:
  nlohmann::json call(const std::string& method, nlohmann::json params, double timeout_seconds,
                      bool in_page = true);
  void send(const nlohmann::json& message);
  /// the next message, from what was read already or the pipe; throws on timeout or when the
  /// browser closed the pipe
  nlohmann::json receive(double deadline);
  void wait_for_event(const std::string& method, double timeout_seconds);

  pid_t pid_ = -1;
  int to_browser_ = -1;    // our end of the browser's descriptor 3
  int from_browser_ = -1;  // our end of the browser's descriptor 4
  int width_ = 0;
  int height_ = 0;
  int next_id_ = 1;
  std::string session_;
  std::string buffer_;                 // bytes read, not yet a whole message
  std::deque<nlohmann::json> events_;  // events read while waiting for a reply
  std::filesystem::path profile_;
};

/// base64 (RFC 4648, with padding) to bytes; throws std::runtime_error on a bad character
[[nodiscard]] std::string decode_base64(const std::string& text);

}  // namespace pivot::cli
