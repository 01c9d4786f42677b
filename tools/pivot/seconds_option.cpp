// The checks of the number options: see seconds_option.hpp.
#include "seconds_option.hpp"

#include <fmt/core.h>

#include <optional>
#include <string>

#include "pivot/core/number_text.hpp"

namespace pivot::cli {
namespace {

/// the text CLI11 converts next (with strtold, then to double): the exact value in hexadecimal,
/// which long double and double both hold, so no rounding happens twice
std::string exact_text(double x) {
  return fmt::format("{:a}", x);
}

}  // namespace

CLI::Validator number_in(double lo, double hi, const std::string& unit) {
  return CLI::Validator(
      [lo, hi, unit](std::string& text) -> std::string {
        const std::optional<double> x = read_finite_number(text);
        if (!x) return fmt::format("expected a finite decimal number of {} (got {})", unit, text);
        if (!(*x >= lo && *x <= hi))
          return fmt::format("expected a number of {} in [{:g}, {:g}] (got {})", unit, lo, hi,
                             text);
        text = exact_text(*x);
        return {};
      },
      "NUMBER");
}

CLI::Validator positive_seconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::optional<double> x = read_finite_number(text);
        if (!x) return fmt::format("expected a number of seconds (got {})", text);
        if (!(*x > 0.0)) return fmt::format("expected a positive number of seconds (got {})", text);
        if (*x < kMinSeconds)
          return fmt::format(
              "{} s is below the smallest time pivot accepts, {:g} s "
              "(docs/limits.md)",
              text, kMinSeconds);
        if (!(*x <= kMaxSeconds))
          return fmt::format(
              "{} s is beyond the largest time pivot accepts, {:g} s "
              "(docs/limits.md)",
              text, kMaxSeconds);
        text = exact_text(*x);
        return {};
      },
      "SECONDS");
}

}  // namespace pivot::cli
