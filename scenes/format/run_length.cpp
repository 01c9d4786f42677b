#include "pivot/scenes/run_length.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {

long steps_for_duration(double duration, double h) {
  if (!(duration > 0.0) || !std::isfinite(duration) || !(h > 0.0) || !std::isfinite(h))
    throw Error(fmt::format("duration {} s and dt {} s must be positive and finite", duration, h));
  if (h > duration)
    throw Error(fmt::format("the time step {:g} s is longer than the run's duration {:g} s", h,
                            duration));
  const double n = duration / h;
  const double rounded = std::round(n);
  const double steps = std::abs(n - rounded) <= 1e-9 * std::max(1.0, n) ? rounded : std::ceil(n);
  if (!(steps <= 1e12))
    throw Error(fmt::format("duration {} s with dt {} s is too many steps", duration, h));
  return std::max(1L, static_cast<long>(steps));
}

double step_time(long steps, double h) {
  constexpr double kExactInteger = 9007199254740992.0;  // 2^53: integers up to it are exact
  double scale = 1.0;                                   // 10^d, exact for d <= 22
  for (int d = 0; d <= 17; ++d, scale *= 10.0) {
    const double m = std::round(h * scale);
    if (m < 1.0 || m > kExactInteger || m / scale != h) continue;
    const double km = static_cast<double>(steps) * m;
    if (km <= kExactInteger) return km / scale;
    break;
  }
  return static_cast<double>(steps) * h;
}

}  // namespace pivot
