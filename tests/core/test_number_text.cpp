// core/number_text.hpp: every double Pivot writes reads back bit for bit, the extremes of the
// format included; the texts that are not numbers are refused.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "pivot/core/number_text.hpp"

using pivot::NumberStatus;
using pivot::parse_number;
using pivot::read_number;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

/// the number as Pivot's writers print it ({} and {:.17g}) reads back with the same bits
void check_round_trip(double x) {
  for (const std::string& text : {fmt::format("{}", x), fmt::format("{:.17g}", x)}) {
    INFO(text);
    const pivot::ParsedNumber n = parse_number(text);
    REQUIRE(n.status == NumberStatus::ok);
    CHECK(bits(n.value) == bits(x));
  }
}

}  // namespace

TEST_CASE("number_text: the extremes of double read back bit for bit", "[core]") {
  using L = std::numeric_limits<double>;
  const double extremes[] = {
      L::denorm_min(),  // 5e-324, the smallest subnormal
      -L::denorm_min(),
      1.0309925e-317,  // a seesaw's max_joint_error: std::stod throws out_of_range on it
      1e-323,
      1e-309,
      L::min() * (1.0 - L::epsilon()),  // the largest subnormal
      L::min(),                         // the smallest normal, 2.2250738585072014e-308
      -L::min(),
      L::max(),
      -L::max(),
      L::lowest(),
      0.0,
      -0.0,
      1.0,
      -1.0,
      L::epsilon()};
  for (const double x : extremes) check_round_trip(x);
  // 5e-324 as written by hand
  CHECK(bits(*read_number("5e-324")) == bits(L::denorm_min()));
  CHECK(bits(*read_number("-0")) == bits(-0.0));
}

TEST_CASE("number_text: every subnormal exponent and random bit patterns round-trip", "[core]") {
  // every power of two from the smallest subnormal to the smallest normal, and its neighbours
  for (int k = -1074; k <= -1020; ++k) {
    const double x = std::ldexp(1.0, k);
    check_round_trip(x);
    check_round_trip(std::nextafter(x, 0.0));
    check_round_trip(std::nextafter(x, 1.0));
  }
  // finite doubles drawn by their bits, all exponents alike
  std::mt19937_64 random(20261128);
  int tried = 0;
  while (tried < 20000) {
    const std::uint64_t b = random();
    double x = 0.0;
    std::memcpy(&x, &b, sizeof x);
    if (!std::isfinite(x)) continue;
    check_round_trip(x);
    ++tried;
  }
}

TEST_CASE("number_text: beyond the range of double", "[core]") {
  // below half the smallest subnormal: underflow, with the zero of its sign that strtod
  // (C11 7.22.1.3) reads
  const auto underflow = [](const char* text, double zero) {
    const pivot::ParsedNumber n = parse_number(text);
    return n.status == NumberStatus::underflow && bits(n.value) == bits(zero);
  };
  CHECK(underflow("1e-400", 0.0));
  CHECK(underflow("-1e-400", -0.0));
  CHECK(underflow("0.0000000001e-320", 0.0));
  CHECK(underflow("2e-324", 0.0));  // below 2.47e-324, half of 5e-324
  CHECK_FALSE(read_number("1e-400"));
  CHECK(bits(*read_number("0e-400")) == bits(0.0));  // a zero is no underflow
  CHECK(bits(*read_number("3e-324")) == bits(std::numeric_limits<double>::denorm_min()));
  // above the largest double: overflow, whatever the exponent's length
  CHECK(parse_number("1e999").status == NumberStatus::overflow);
  CHECK(parse_number("-1e999").status == NumberStatus::overflow);
  CHECK(parse_number("1.7976931348623159e308").status == NumberStatus::overflow);
  CHECK(parse_number("0.001e312").status == NumberStatus::overflow);  // 1e309
  CHECK(*read_number("0.001e311") == 1e308);
  CHECK(parse_number("1e99999999999999999999999").status == NumberStatus::overflow);
  CHECK(underflow("1e-99999999999999999999999", 0.0));
  CHECK(parse_number("18e307").status == NumberStatus::overflow);
  // the non-finite words read as themselves; read_finite_number refuses them
  CHECK(std::isinf(*read_number("inf")));
  CHECK(std::isnan(*read_number("nan")));
  CHECK_FALSE(pivot::read_finite_number("inf"));
  CHECK_FALSE(pivot::read_finite_number("-infinity"));
  CHECK_FALSE(pivot::read_finite_number("NaN"));
}

TEST_CASE("number_text: texts that are not one whole decimal number", "[core]") {
  for (const char* text : {"", "+", "-", "0x10", "0X1p3", "1 ", " 1", "1,5", "+-1", "++1", "--1",
                           "1e", "e5", "1.5.2", "abc", "1e5x", "\t2"}) {
    INFO(text);
    CHECK(parse_number(text).status == NumberStatus::not_a_number);
  }
  CHECK(*read_number("+1.5") == 1.5);
  CHECK(*read_number("-2.5e-3") == -2.5e-3);
  CHECK(*read_number("7.") == 7.0);
}
