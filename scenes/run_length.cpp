#include "pivot/scenes/run_length.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {

long steps_for_duration(double duration, double h) {
  if (!(duration > 0.0) || !std::isfinite(duration) || !(h > 0.0) || !std::isfinite(h))
    throw Error(fmt::format("duration {} s and dt {} s must be positive and finite", duration, h));
  const double n = duration / h;
  const double rounded = std::round(n);
  const double steps = std::abs(n - rounded) <= 1e-9 * std::max(1.0, n) ? rounded : std::ceil(n);
  if (!(steps <= 1e12))
    throw Error(fmt::format("duration {} s with dt {} s is too many steps", duration, h));
  return std::max(1L, static_cast<long>(steps));
}

}  // namespace pivot
