// The decimal number reader: see number_text.hpp.
#include "pivot/core/number_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace pivot {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/// whether a decimal that std::from_chars found out of range is too large (else it is below
/// the smallest subnormal). `text` is a valid decimal without its sign, d₁d₂….dₖ e E with a
/// nonzero digit: its leading significant digit sits at 10^(p + E), where p counts the places
/// of that digit from the point (integer digits − 1, or −(zeros after the point + 1)). An
/// out-of-range value is ≥ 1.8e308 or < 2.5e-324, so the sign of p + E decides.
bool beyond_largest(std::string_view text) {
  const std::size_t e = std::min(text.find_first_of("eE"), text.size());
  const std::string_view digits = text.substr(0, e);
  const std::size_t point = std::min(digits.find('.'), digits.size());
  const std::size_t first = digits.find_first_of("123456789");
  if (first == std::string_view::npos) return false;  // all zeros (not out of range)
  // p: integer digits from the first significant one − 1, or −(its place after the point)
  const long place =
      first < point ? static_cast<long>(point - first) - 1 : -static_cast<long>(first - point);
  // the exponent, saturated (its digits may be more than a long holds)
  long exponent = 0;
  std::size_t k = e + 1;
  const bool negative = k < text.size() && text[k] == '-';
  if (k < text.size() && (text[k] == '-' || text[k] == '+')) ++k;
  for (; k < text.size() && is_digit(text[k]); ++k)
    if (exponent < 100000000L) exponent = 10 * exponent + (text[k] - '0');
  return place + (negative ? -exponent : exponent) >= 0;
}

}  // namespace

ParsedNumber parse_number(std::string_view text) {
  // one leading '+' (std::from_chars takes only '-'), but not before another sign ("+-1")
  std::string_view body = text;
  if (!body.empty() && body.front() == '+') {
    body.remove_prefix(1);
    if (!body.empty() && (body.front() == '+' || body.front() == '-')) return {};
  }
  if (body.empty()) return {};
  double value = 0.0;
  const char* first = body.data();
  const char* last = body.data() + body.size();
  const auto [end, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (end != last || ec == std::errc::invalid_argument) return {};
  if (ec == std::errc::result_out_of_range) {
    const bool negative = body.front() == '-';
    if (beyond_largest(negative ? body.substr(1) : body)) return {NumberStatus::overflow, 0.0};
    return {NumberStatus::underflow, negative ? -0.0 : 0.0};
  }
  if (ec != std::errc()) return {};
  return {NumberStatus::ok, value};
}

std::optional<double> read_number(std::string_view text) {
  const ParsedNumber n = parse_number(text);
  if (n.status != NumberStatus::ok) return std::nullopt;
  return n.value;
}

std::optional<double> read_finite_number(std::string_view text) {
  const std::optional<double> v = read_number(text);
  if (!v || !std::isfinite(*v)) return std::nullopt;
  return v;
}

}  // namespace pivot
