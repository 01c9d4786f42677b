#pragma once
// The check of `pivot run --duration` and `--dt` (docs/cli.md, docs/limits.md "Times").
#include <CLI/CLI.hpp>

namespace pivot::cli {

/// below a nanosecond no step is meaningful (a subnormal such as 5e-324 used to be reported as
/// "not a positive number"); above 1e12 s the step count or k·h loses its digits
inline constexpr double kMinSeconds = 1e-9;
inline constexpr double kMaxSeconds = 1e12;

/// a CLI11 check: a finite number of seconds in [kMinSeconds, kMaxSeconds]; its message names
/// what is wrong with the text (not a number, not positive, too small, too large)
[[nodiscard]] CLI::Validator positive_seconds();

}  // namespace pivot::cli
