// The check of `pivot run --duration` and `--dt`: see seconds_option.hpp.
#include "seconds_option.hpp"

#include <fmt/core.h>

#include <cmath>
#include <cstdlib>
#include <string>

namespace pivot::cli {

CLI::Validator positive_seconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || std::isnan(x))
          return fmt::format("expected a number of seconds (got {})", text);
        if (!(x > 0.0)) return fmt::format("expected a positive number of seconds (got {})", text);
        if (x < kMinSeconds)
          return fmt::format("{} s is below the smallest time pivot accepts, {:g} s "
                             "(docs/limits.md)",
                             text, kMinSeconds);
        if (!(x <= kMaxSeconds))
          return fmt::format("{} s is beyond the largest time pivot accepts, {:g} s "
                             "(docs/limits.md)",
                             text, kMaxSeconds);
        return {};
      },
      "SECONDS");
}

}  // namespace pivot::cli
