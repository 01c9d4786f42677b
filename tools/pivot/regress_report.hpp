#pragma once
// The Markdown report of `pivot regress --report FILE`: every check and golden as a table, and
// the figures the seeds show, as SVG files written beside FILE (docs/regression.md).

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "run_data.hpp"

namespace pivot::cli {

struct ReportRow {
  std::string entry;  ///< case:<name> or golden:<scene>
  std::string check;  ///< the check's name, or the golden quantity
  std::string expected, measured, source;
  bool pass = false;
};

struct ReportInput {
  std::vector<ReportRow> rows;                 ///< every check; for goldens one summary row each
  std::map<std::string, const RunData*> runs;  ///< by scene file stem (the runs without edits)
};

/// writes FILE and FILE's stem + "-<figure>.svg" beside it; throws std::runtime_error
void write_report(const std::filesystem::path& file, const ReportInput& input);

}  // namespace pivot::cli
