// core/csv_line.hpp: RFC 4180 fields, checked against lines written by hand.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "pivot/core/csv_line.hpp"

using pivot::split_csv_line;

TEST_CASE("csv_line: plain, empty and quoted fields", "[core]") {
  std::vector<std::string> cells;
  REQUIRE(split_csv_line("a,1.5,,x", cells));
  CHECK(cells == std::vector<std::string>{"a", "1.5", "", "x"});
  REQUIRE(split_csv_line("", cells));
  CHECK(cells == std::vector<std::string>{""});
  // a quoted field keeps its commas; "" inside it is one quote
  REQUIRE(split_csv_line(R"(0,"box, ""left""",2)", cells));
  CHECK(cells == std::vector<std::string>{"0", R"(box, "left")", "2"});
  // a quote inside an unquoted field is an ordinary character
  REQUIRE(split_csv_line(R"(5"x,y)", cells));
  CHECK(cells == std::vector<std::string>{R"(5"x)", "y"});
}

TEST_CASE("csv_line: a quoted field that is not closed is refused", "[core]") {
  std::vector<std::string> cells;
  CHECK_FALSE(split_csv_line(R"(1,"cut off)", cells));
  CHECK_FALSE(split_csv_line(R"(")", cells));
}
