#pragma once
// Regression cases (tests/regression/cases/*.json, format in docs/regression.md): a shipped
// scene, optional edits of it, and checks, each with its expected value, its source and its
// tolerance, measured from the outputs of the run.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "run_files/run_data.hpp"

namespace pivot::cli {

/// what a check measures from a run (docs/regression.md, "Measures")
struct Measure {
  std::string kind;   ///< final, at, max, min, slope, displacement, max_displacement, period,
                      ///< sign_changes, metric_max, metric_final, energy_drift, summary,
                      ///< character_max (character.csv)
  std::string body;   ///< for the trajectory kinds
  std::string field;  ///< a trajectory field (run_data.hpp) or a metrics.csv column
  double time = 0.0;  ///< `at`
  double from = -1e300, to = 1e300;  ///< time window of max, min, slope, period, sign_changes,
                                     ///< metric_max, character_max
  std::string pointer;               ///< `summary`: a JSON pointer into summary.json
};

struct Check {
  std::string name;
  Measure measure;
  std::string source;  ///< where the expected value comes from (formula, seed section)
  // exactly one form: expected ± tolerance, or a bound
  std::optional<double> expected, abs_tolerance, rel_tolerance, at_most, at_least;
};

/// one curve of a case's figure: a trajectory field of a body, or a metrics.csv column, over
/// time, times `scale`
struct FigureSeries {
  std::string label;
  std::string body;    ///< with `field`: a trajectory field of this body
  std::string field;   ///< a trajectory field (run_data.hpp)
  std::string metric;  ///< or a metrics.csv column, or "character": character.csv's error
  double scale = 1.0;
};

/// a figure a case asks for in the report (docs/regression.md, "Case files")
struct CaseFigure {
  std::string title, y_label, caption;
  bool log_y = false;
  std::vector<FigureSeries> series;
};

struct Case {
  std::string name;  ///< the file's stem
  std::filesystem::path file;
  std::string scene;  ///< file name in the scenes folder
  std::string description;
  bool slow = false;  ///< left out of CTest, run by the command
  std::vector<std::pair<std::string, nlohmann::json>> edits;  ///< JSON pointer → value
  std::vector<Check> checks;
  std::optional<CaseFigure> figure;  ///< drawn in the report from the case's run
};

/// reads a case file; throws std::invalid_argument naming the file and the key on any error
[[nodiscard]] Case load_case(const std::filesystem::path& file);

/// the measured value; throws std::runtime_error when the run lacks what it needs
[[nodiscard]] double measure(const Measure& m, const RunData& run);

struct CheckResult {
  double measured = 0.0;
  bool pass = false;
  std::string expected_text;  ///< "1.4286 ± 0.2%", "≤ 1e-06", ...
  std::string error;          ///< a measurement that could not be made (then pass = false)
};

[[nodiscard]] CheckResult evaluate(const Check& check, const RunData& run);

}  // namespace pivot::cli
