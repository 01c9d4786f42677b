#pragma once
// A lap timer for the stage times of a step (step_profile.hpp), internal.

#include <chrono>

namespace pivot::detail {

/// seconds from `start` to now
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// now when `on`, else a zero time point without a clock read (the islands' part times, which
/// only the profile reads: LemkeOptions::timed)
inline std::chrono::steady_clock::time_point now_if(bool on) {
  return on ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
}

/// seconds from `start` to now when `on`, else 0 without a clock read
inline double seconds_since(std::chrono::steady_clock::time_point start, bool on) {
  return on ? seconds_since(start) : 0.0;
}

/// seconds since construction or the last lap(); nothing is read from the clock when off
class Stopwatch {
 public:
  explicit Stopwatch(bool on) : on_(on) {
    if (on_) last_ = Clock::now();
  }
  /// the time since the last lap, s (0 when off)
  double lap() {
    if (!on_) return 0.0;
    const auto now = Clock::now();
    const double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return s;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool on_;
  Clock::time_point last_{};
};

}  // namespace pivot::detail
