#pragma once
// The message handling of `pivot serve` without sockets (docs/cli.md "pivot serve"): which
// viewers are connected, which one drives, what each message does to the LiveSession and what
// goes back to whom. live_server.cpp carries the bytes; the fuzz target
// tests/fuzz/fuzz_live_messages.cpp calls this directly.
//
// Nothing a viewer sends can stop the run or keep control from the others: every message is
// answered (an error at worst) and never throws out of here; the step runs in tick(), which
// never throws either. A viewer's messages and throws are rate-limited (token buckets, the
// numbers in HubLimits), so one viewer cannot starve the step or the other viewers.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "live/live_session.hpp"

namespace pivot::cli {

struct HubLimits {
  /// messages longer than this are answered with an error, bytes
  std::size_t max_message = 16 * 1024;
  /// a viewer's messages: this many per second on average, bursts of `message_burst`; beyond,
  /// messages are dropped (the first drop of a burst is answered with an error)
  double messages_per_second = 250.0;
  double message_burst = 500.0;
  /// a driver's throws: this many per second on average, bursts of `throw_burst`; beyond, a
  /// throw is answered with an error (LiveSession caps the balls of a run, kMaxLiveThrows)
  double throws_per_second = 5.0;
  double throw_burst = 10.0;
  /// the error lines logged on stderr per viewer: this many per second, bursts of
  /// `log_burst`; the rest are counted in the next line logged
  double logs_per_second = 10.0;
  double log_burst = 20.0;
};

/// an error message is cut to this many characters (a parser's message quotes what it read)
inline constexpr std::size_t kMaxErrorChars = 400;

/// a token bucket: `rate` tokens a second up to `burst`; take() spends one when there is one
class RateLimit {
 public:
  RateLimit(double rate, double burst) : rate_(rate), burst_(burst), tokens_(burst) {}
  /// `now`: seconds on a monotonic clock
  bool take(double now);

 private:
  double rate_, burst_, tokens_;
  double last_ = -1.0;
};

class LiveHub {
 public:
  /// delivers `text` to viewer `viewer`; `frame`: a frame, which a slow viewer may skip
  using Sink =
      std::function<void(int viewer, const std::shared_ptr<const std::string>& text, bool frame)>;

  /// `quiet`: nothing on stderr (else each connection, departure and error is logged there)
  LiveHub(LiveSession& session, HubLimits limits, Sink sink, bool quiet = false);

  /// a viewer connected: it gets the bodies and the control state; the first one drives
  void joined(int viewer);
  /// a viewer is gone (its read loop ended, for whatever reason): if it drove, its pull ends
  /// and control passes to the oldest viewer left
  void left(int viewer);
  /// one WebSocket message from `viewer` at `now` (seconds, monotonic); never throws
  void message(int viewer, std::string_view text, double now) noexcept;
  /// steps towards real time (LiveSession::advance) and sends every viewer a frame; never
  /// throws (a failure is logged and the run goes on, or is reported failed in the frames)
  void tick(double wall, double budget) noexcept;

  [[nodiscard]] int controller() const { return controller_; }
  [[nodiscard]] std::size_t viewer_count() const { return viewers_.size(); }
  [[nodiscard]] const LiveSession& session() const { return *session_; }

 private:
  struct ViewerState {
    int id;
    bool contacts = false;  // wants contacts in its frames
    RateLimit messages, throws, logs;
    bool throttled = false;  // messages are being dropped (told once)
    long unlogged = 0;       // errors not logged since the last line
  };

  ViewerState* find(int viewer);
  void handle(ViewerState& v, std::string_view text, double now);
  void log(int viewer, std::string_view what) const;
  void error(int viewer, const std::string& what, double now = -1.0);
  void send_control(int viewer);
  void broadcast_bodies();
  void broadcast_frame();

  LiveSession* session_;
  HubLimits limits_;
  Sink sink_;
  std::vector<ViewerState> viewers_;
  int controller_ = -1;
  bool quiet_;
};

}  // namespace pivot::cli
