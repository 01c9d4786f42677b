#include "report.hpp"

#include <fmt/core.h>
#include <sched.h>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <ostream>

namespace pivot::bench {

namespace {
// the width of a UTF-8 string in a terminal: its code points (no wide characters are used)
std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}
}  // namespace

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> width(header.size(), 3);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], display_width(row[c]));
  };
  measure(header);
  for (const auto& row : rows) measure(row);
  auto is_right = [&](std::size_t c) { return c < right.size() && right[c]; };
  auto line = [&](const std::vector<std::string>& row) {
    out << '|';
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : std::string();
      const std::string pad(width[c] - std::min(width[c], display_width(cell)), ' ');
      out << ' ' << (is_right(c) ? pad + cell : cell + pad) << " |";
    }
    out << '\n';
  };
  line(header);
  out << '|';
  for (std::size_t c = 0; c < width.size(); ++c)
    out << (is_right(c) ? std::string(width[c] + 1, '-') + ":|"
                        : ' ' + std::string(width[c], '-') + " |");
  out << '\n';
  for (const auto& row : rows) line(row);
}

std::string machine_summary() {
  std::string cpu = "unknown CPU";
  std::ifstream info("/proc/cpuinfo");
  for (std::string l; std::getline(info, l);) {
    if (l.rfind("model name", 0) == 0) {
      const auto colon = l.find(':');
      if (colon != std::string::npos) cpu = l.substr(l.find_first_not_of(' ', colon + 1));
      break;
    }
  }
  // nproc: the CPUs this process may run on
  cpu_set_t set;
  CPU_ZERO(&set);
  const int nproc = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 0;
  // the load when the run started: other work on the machine makes the times noisy
  std::string load = "?";
  std::ifstream loadavg("/proc/loadavg");
  std::getline(loadavg, load);
  return fmt::format("nproc {}, {}; compiler {}; flags {}; load average at the start {}", nproc,
                     cpu, PIVOT_BENCH_COMPILER, PIVOT_BENCH_FLAGS,
                     load.substr(0, load.find(' ', load.find(' ', load.find(' ') + 1) + 1)));
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

// least squares on (ln x, ln y): k = cov(X, Y) / var(X), ln c = mean(Y) − k mean(X)
PowerFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y) {
  PowerFit fit;
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!(x[i] > 0.0) || !(y[i] > 0.0)) continue;
    lx.push_back(std::log(x[i]));
    ly.push_back(std::log(y[i]));
  }
  fit.points = static_cast<int>(lx.size());
  if (fit.points < 2) return fit;
  double mx = 0.0, my = 0.0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    mx += lx[i];
    my += ly[i];
  }
  mx /= fit.points;
  my /= fit.points;
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    sxx += (lx[i] - mx) * (lx[i] - mx);
    sxy += (lx[i] - mx) * (ly[i] - my);
  }
  if (sxx <= 0.0) return fit;
  fit.exponent = sxy / sxx;
  fit.factor = std::exp(my - fit.exponent * mx);
  fit.ok = true;
  return fit;
}

Timing time_median(const std::function<void()>& run, double budget_seconds, int min_repeats,
                   int max_repeats) {
  run();  // warm-up: allocations, caches
  std::vector<double> samples;
  const auto start = Clock::now();
  while (
      static_cast<int>(samples.size()) < max_repeats &&
      (static_cast<int>(samples.size()) < min_repeats || seconds_since(start) < budget_seconds)) {
    const auto t0 = Clock::now();
    run();
    samples.push_back(seconds_since(t0));
  }
  return {median(samples), static_cast<int>(samples.size())};
}

std::string format_ms(double seconds) {
  const double ms = seconds * 1e3;
  if (ms >= 100.0) return fmt::format("{:.0f}", ms);
  if (ms >= 10.0) return fmt::format("{:.1f}", ms);
  if (ms >= 1.0) return fmt::format("{:.2f}", ms);
  if (ms >= 0.1) return fmt::format("{:.3f}", ms);
  return fmt::format("{:.2g}", ms);
}

std::string format_ratio(double a, double b) {
  if (!(a > 0.0) || !(b > 0.0)) return "—";
  const double r = a / b;
  return r >= 10.0 ? fmt::format("{:.0f}×", r) : fmt::format("{:.2g}×", r);
}

std::string format_number(double value) {
  if (value == 0.0) return "0";
  if (!std::isfinite(value)) return fmt::format("{}", value);
  const double a = std::abs(value);
  if (a >= 1e-3 && a < 1e4) return fmt::format("{:.3g}", value);
  return fmt::format("{:.2e}", value);
}

}  // namespace pivot::bench
