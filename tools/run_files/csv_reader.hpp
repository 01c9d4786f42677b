#pragma once
// A strict reader of the CSV files `pivot run` writes (docs/cli.md): an exact header, fields
// quoted with doubled quotes when they hold a comma or quote, numbers that read back whole.
// Every problem is a pivot::Error naming the file and the line, e.g.
// `run/trajectory.csv: line 12: expected 15 columns (got 7)`.

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pivot/core/csv_line.hpp"
#include "pivot/core/number_text.hpp"

namespace pivot::cli {

class CsvReader {
 public:
  /// opens `file` and checks that its first line is `header`; throws pivot::Error
  CsvReader(const std::filesystem::path& file, std::string_view header);

  /// reads the next row; false at the end of the file. Throws pivot::Error for a row without
  /// the header's number of fields, or a last line cut off before its line break (a
  /// truncated file).
  bool next();
  /// the 1-based line number of the current row
  [[nodiscard]] std::size_t line() const { return line_; }
  /// field i of the current row
  [[nodiscard]] const std::string& text(std::size_t i) const { return cells_.at(i); }
  /// field i as a finite number; throws pivot::Error naming the column
  [[nodiscard]] double number(std::size_t i) const;
  /// an error at the current line: "FILE: line N: what"
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::filesystem::path file_;
  std::ifstream in_;
  std::vector<std::string> columns_;
  std::vector<std::string> cells_;
  std::size_t line_ = 1;
};

using pivot::read_finite_number;  // (core/number_text.hpp: reads back every double Pivot writes)
using pivot::read_number;
using pivot::split_csv_line;  // (core/csv_line.hpp)

}  // namespace pivot::cli
