#pragma once
// What pivot-bench prints: Markdown tables (readable in a terminal, pasted as they are into
// docs/benchmarks.md), the machine the numbers came from, medians and power-law fits.

#include <chrono>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace pivot::bench {

/// a Markdown table with columns padded to their widest cell
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// columns whose cells are right-aligned (numbers)
  std::vector<bool> right;

  void add(std::vector<std::string> row) { rows.push_back(std::move(row)); }
  void print(std::ostream& out) const;
};

/// `nproc`, the CPU model from /proc/cpuinfo, the compiler and flags of this build
[[nodiscard]] std::string machine_summary();

/// the median of a non-empty sample (the mean of the two middle values for an even count)
[[nodiscard]] double median(std::vector<double> values);

/// y = c xᵏ fitted by least squares on (log x, log y); needs two distinct x
struct PowerFit {
  double exponent = 0.0;  ///< k
  double factor = 0.0;    ///< c
  int points = 0;
  bool ok = false;
};
[[nodiscard]] PowerFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y);

/// Times `run` (which must do the same work every call) and returns the median wall time of the
/// calls, in seconds: one untimed warm-up call, then calls until `max_repeats` are done or
/// `budget_seconds` have passed, but at least `min_repeats`.
struct Timing {
  double median_seconds = 0.0;
  int repeats = 0;
};
[[nodiscard]] Timing time_median(const std::function<void()>& run, double budget_seconds,
                                 int min_repeats, int max_repeats);

/// seconds as milliseconds with 3 significant digits ("0.0123", "4.56", "789")
[[nodiscard]] std::string format_ms(double seconds);
/// a ratio a / b as "2.3×" (b > 0), or "—"
[[nodiscard]] std::string format_ratio(double a, double b);
/// a number in engineering-friendly short form ("3.2e-07", "0.012", "0")
[[nodiscard]] std::string format_number(double value);

using Clock = std::chrono::steady_clock;
[[nodiscard]] inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace pivot::bench
