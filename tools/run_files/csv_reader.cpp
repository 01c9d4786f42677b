#include "run_files/csv_reader.hpp"

#include <fmt/core.h>

#include <cmath>
#include <stdexcept>

#include "pivot/core/csv_line.hpp"
#include "pivot/core/error.hpp"
#include "pivot/core/number_text.hpp"

namespace pivot::cli {

CsvReader::CsvReader(const std::filesystem::path& file, std::string_view header)
    : file_(file), in_(file, std::ios::binary) {
  if (!in_) throw Error(file.string(), "", "cannot be read (is the run folder complete?)");
  std::string first;
  if (!std::getline(in_, first) || first != header)
    throw Error(file.string(), "line 1",
                fmt::format("expected the header \"{}\"{}", header,
                            first.empty() ? " (the file is empty)" : ""));
  split_csv_line(header, columns_);
}

bool CsvReader::next() {
  std::string text;
  if (!std::getline(in_, text)) return false;
  ++line_;
  if (in_.eof()) fail("the line is cut off before its end (the file is truncated)");
  if (!split_csv_line(text, cells_)) fail("a quoted field is not closed");
  if (cells_.size() != columns_.size())
    fail(fmt::format("expected {} columns (got {})", columns_.size(), cells_.size()));
  return true;
}

double CsvReader::number(std::size_t i) const {
  const std::optional<double> v = read_finite_number(cells_.at(i));
  if (!v)
    fail(fmt::format("column {}: expected a finite number (got \"{}\")", columns_.at(i),
                     cells_.at(i)));
  return *v;
}

void CsvReader::fail(const std::string& what) const {
  throw Error(file_.string(), fmt::format("line {}", line_), what);
}

}  // namespace pivot::cli
