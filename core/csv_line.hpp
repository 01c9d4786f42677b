#pragma once
// One line of a CSV file, split into its fields (RFC 4180 quoting: a field that starts with a
// quote runs to the closing quote, "" inside it is one quote). Shared by the readers of the
// files Pivot writes (run folders, a sweep's results.csv).

#include <string>
#include <string_view>
#include <vector>

namespace pivot {

/// the fields of `line` (no line break in it) into `cells`, quoted fields unquoted; false when
/// a quoted field is not closed
bool split_csv_line(std::string_view line, std::vector<std::string>& cells);

}  // namespace pivot
