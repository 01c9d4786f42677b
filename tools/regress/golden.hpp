#pragma once
// Golden summaries (tests/regression/goldens/<scene>.json, docs/regression.md): the quantities
// of a shipped scene's summary.json that any change of behaviour moves, stored, and compared
// within per-quantity tolerances so a difference shows by name and size.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pivot::cli {

/// the golden of one run: {"scene", "recorded_with", "quantities": {key: value}} with keys
/// final/<body>/<x…wz>, energy/final, max_joint_error, max_penetration, lcp/pivots,
/// lcp/failures, steps
[[nodiscard]] nlohmann::ordered_json make_golden(const std::string& scene_file,
                                                 const nlohmann::json& summary);

/// the documented tolerance of a quantity (docs/regression.md, "Goldens")
[[nodiscard]] double golden_tolerance(const std::string& key, double golden_value);

struct GoldenDiff {
  std::string key;
  double golden = 0.0, measured = 0.0, tolerance = 0.0;
  bool pass = false;  ///< |measured − golden| ≤ tolerance, and the quantity exists in both
  std::string note;   ///< "missing in the run", "new quantity", ...
};

/// every quantity of the golden against the run's summary, and the run's quantities the golden
/// lacks (which fail: a golden must be re-recorded when the scene changes)
[[nodiscard]] std::vector<GoldenDiff> compare_golden(const nlohmann::json& golden,
                                                     const nlohmann::json& summary);

}  // namespace pivot::cli
