#pragma once
// The checks of the number options: `pivot run --duration` and `--dt`, `pivot sweep --timeout`,
// `pivot replay --max-mb` (docs/cli.md, docs/limits.md "Times").
#include <CLI/CLI.hpp>

#include <string>

namespace pivot::cli {

/// below a nanosecond no step is meaningful (a subnormal such as 5e-324 used to be reported as
/// "not a positive number"); above 1e12 s the step count or k·h loses its digits
inline constexpr double kMinSeconds = 1e-9;
inline constexpr double kMaxSeconds = 1e12;

/// a CLI11 check: a finite decimal number (core/number_text.hpp: no hexadecimal, no nan or
/// inf) in [lo, hi]; its message names the option's unit `unit` and the bounds as short
/// numbers. The text is handed on to CLI11 as the exact double it reads as.
[[nodiscard]] CLI::Validator number_in(double lo, double hi, const std::string& unit);

/// a CLI11 check: a finite number of seconds in [kMinSeconds, kMaxSeconds]; its message names
/// what is wrong with the text (not a number, not positive, too small, too large)
[[nodiscard]] CLI::Validator positive_seconds();

}  // namespace pivot::cli
