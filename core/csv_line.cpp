#include "pivot/core/csv_line.hpp"

namespace pivot {

bool split_csv_line(std::string_view line, std::vector<std::string>& cells) {
  cells.clear();
  std::string cell;
  bool quoted = false, was_quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        cell += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == ',') {
      cells.push_back(std::move(cell));
      cell.clear();
      was_quoted = false;
    } else if (c == '"' && cell.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else {
      cell += c;
    }
  }
  if (quoted) return false;
  cells.push_back(std::move(cell));
  return true;
}

}  // namespace pivot
