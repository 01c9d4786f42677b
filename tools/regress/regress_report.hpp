#pragma once
// The Markdown report of `pivot regress --report FILE`: every check and golden as a table, and
// the figures the seeds show, as SVG files written beside FILE (docs/regression.md).

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "regress/regress_case.hpp"
#include "run_files/run_data.hpp"

namespace pivot::cli {

struct ReportRow {
  std::string entry;  ///< case:<name> or golden:<scene>
  std::string check;  ///< the check's name, or the golden quantity
  std::string expected, measured, source;
  bool pass = false;
};

/// a figure a case asked for, with the run it is drawn from
struct CaseFigureRun {
  std::string case_name;
  const CaseFigure* figure = nullptr;
  const RunData* run = nullptr;
};

/// a case's replay (docs/viewer.md), written beside the report
struct ReportReplay {
  std::string entry;  ///< case:<name>
  std::string scene;  ///< the scene file
  std::string link;   ///< the replay, relative to the report; empty: not written
  std::string note;   ///< its size, or why it was not written
};

struct ReportInput {
  std::vector<ReportRow> rows;                 ///< every check; for goldens one summary row each
  std::map<std::string, const RunData*> runs;  ///< by scene file stem (the runs without edits)
  /// by case name, every case's run with its own edits (none from the command line)
  std::map<std::string, const RunData*> case_runs;
  std::vector<CaseFigureRun> case_figures;  ///< in case order
  std::filesystem::path cases_dir;          ///< the suite's cases folder
  std::vector<ReportReplay> replays;        ///< one per case, in order
};

/// writes FILE and FILE's stem + "-<figure>.svg" beside it (the replays are written before, by
/// pivot regress); throws std::runtime_error
void write_report(const std::filesystem::path& file, const ReportInput& input);

}  // namespace pivot::cli
