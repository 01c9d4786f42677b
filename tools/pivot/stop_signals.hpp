#pragma once
// SIGINT/SIGTERM during `pivot run` (cmd_run.cpp): they end the run after the current step (the
// step's long loops poll g_stop_signal through WorldSettings::interrupted); the outputs are
// written for the time simulated, exit code 130 (docs/limits.md "Interruption").

#include <csignal>

namespace pivot::cli {

inline volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" inline void on_stop_signal(int signal) {
  g_stop_signal = signal;
}

/// installs the stop handlers for its lifetime: `pivot run` from before the scene is loaded (a
/// signal while a large scene loads is an exit 130 with nothing written, not a killed process
/// that leaves a partial folder) to the end of the run. Nested: only the outermost installs
/// them and clears a stop signal; an inner one keeps a signal that came before it.
class StopSignals {
 public:
  StopSignals() {
    if (depth_++ > 0) return;
    g_stop_signal = 0;
    old_int_ = std::signal(SIGINT, on_stop_signal);
    old_term_ = std::signal(SIGTERM, on_stop_signal);
  }
  ~StopSignals() {
    if (--depth_ > 0) return;
    std::signal(SIGINT, old_int_);
    std::signal(SIGTERM, old_term_);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static inline int depth_ = 0;
  void (*old_int_)(int) = SIG_DFL;
  void (*old_term_)(int) = SIG_DFL;
};

}  // namespace pivot::cli
