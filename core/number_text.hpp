#pragma once
// The one reader of decimal numbers for every text Pivot reads (CSV run files, trajectories,
// BVH clips, OBJ meshes, LCP files, command-line times). It reads back every double Pivot
// writes, the extremes included: subnormals (5e-324 … 2.2e-308, which std::stod refuses with
// out_of_range), ±1.7976931348623157e308 and -0.

#include <optional>
#include <string_view>

namespace pivot {

/// what parse_number found
enum class NumberStatus {
  ok,            ///< `value` holds the number (possibly ±inf or NaN, when the text says so)
  not_a_number,  ///< the text is not one whole decimal number
  overflow,      ///< a decimal number beyond the largest double (1e999)
  underflow,     ///< a non-zero decimal below half the smallest subnormal (1e-400); `value`
                 ///< is the zero of its sign, the nearest double, as strtod reads it
};

struct ParsedNumber {
  NumberStatus status = NumberStatus::not_a_number;
  double value = 0.0;
};

/// reads the whole of `text` as a decimal number: an optional sign ('+' or '-'), digits with
/// an optional point, an optional exponent; or "inf", "infinity", "nan" in any case. No
/// surrounding spaces, no hexadecimal ("0x10" is not a number), no locale. The value is the
/// double nearest to the decimal (std::from_chars): subnormals are read exactly. Pivot never
/// writes an overflow or an underflow; each reader decides what they mean for its input.
[[nodiscard]] ParsedNumber parse_number(std::string_view text);

/// the number the whole text reads as (parse_number's value when ok, ±inf and NaN included;
/// none for an overflow or an underflow)
[[nodiscard]] std::optional<double> read_number(std::string_view text);

/// the finite number the whole text reads as, if it is one
[[nodiscard]] std::optional<double> read_finite_number(std::string_view text);

}  // namespace pivot
