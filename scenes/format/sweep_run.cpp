// run_sweep_variant: one variant of a sweep run through the Simulation `pivot run` uses (the same
// steps, checks, summary and final-state hash), and its row of results.csv.

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"
#include "pivot/scenes/sweep.hpp"
#include "pivot/scenes/sweep_pointer.hpp"

namespace pivot {
namespace {

/// a number as the shortest text that reads back to the same double (as `pivot run`'s files)
std::string number(double x) {
  return fmt::format("{}", x);
}

/// a leaf of summary.json as a results.csv cell: integers as integers, other numbers shortest
std::string summary_cell(const nlohmann::json& value) {
  if (value.is_number_integer()) return value.dump();
  if (value.is_number()) return number(value.get<double>());
  return value.dump();
}

/// keeps the last step's metrics.csv row by name
class LastStepMetrics : public RunSink {
 public:
  std::map<std::string, std::string> metrics;

  void frame(const World&, double) override {}
  void step(const World&, const StepReport& r, const Energy& e, double) override {
    metrics = {{"kinetic_energy", number(e.kinetic)},
               {"potential_energy", number(e.potential)},
               {"total_energy", number(e.total())},
               {"contacts", std::to_string(r.contacts)},
               {"lcp_size", std::to_string(r.lcp_size)},
               {"pivots", std::to_string(r.pivots)},
               {"max_joint_error", number(r.joint_error_after)},
               {"max_penetration", number(r.penetration_after)},
               {"reduced_pairs", std::to_string(r.reduced_pairs)},
               {"status", lcp::to_string(r.status)}};
  }
};

/// the kept totals (dotted paths into summary.json), metrics and final state, and the hash
struct VariantRun {
  std::vector<std::string> summary, metrics, state;
  std::string hash;
};

/// runs the scene as `pivot run` does (Simulation: the same steps, checks and summary)
VariantRun run(const Scene& scene, const SweepKeep& keep) {
  Simulation sim(scene);
  LastStepMetrics last;
  const RunSummary& s = sim.run(&last);
  if (s.status == RunStatus::not_finite) throw std::runtime_error(s.failure);
  VariantRun out;
  const nlohmann::json summary = nlohmann::json::parse(summary_json(s));
  for (const std::string& key : keep.summary) {
    std::string pointer = "/" + key;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    out.summary.push_back(summary_cell(summary.at(nlohmann::json::json_pointer(pointer))));
  }
  for (const std::string& key : keep.metrics) out.metrics.push_back(last.metrics.at(key));
  if (keep.final_state) {
    const World& world = sim.world();
    for (int i = 0; i < world.body_count(); ++i) {
      if (!world.bodies().body(i).moves()) continue;
      for (const double x : s.final_state[static_cast<std::size_t>(i)].second)
        out.state.push_back(number(x));
    }
  }
  out.hash = hash_to_hex(s.final_state_hash);
  return out;
}

}  // namespace

std::vector<std::string> run_sweep_variant(const Sweep& sweep, const SweepVariant& variant) {
  Scene scene;
  try {
    const std::string source = fmt::format("{} (variant {})", sweep.scene, variant.index);
    scene = parse_scene(variant_scene_json(sweep, variant), sweep.scene_file.parent_path(), source);
    // one thread per run: a sweep runs many at once (the hash is the same for any count)
    scene.settings.world.threads = 1;
  } catch (const Error& e) {
    return sweep_error_row(sweep, variant, kSweepInvalid, e.what());
  }
  VariantRun result;
  try {
    result = run(scene, sweep.keep);
  } catch (const Error& e) {
    // the engine's own checks of the scene (build_world) are input errors too
    return sweep_error_row(sweep, variant, e.in_input() ? kSweepInvalid : kSweepFailed, e.what());
  } catch (const std::exception& e) {
    return sweep_error_row(sweep, variant, kSweepFailed, e.what());
  }
  std::vector<std::string> row = {std::to_string(variant.index)};
  for (const std::string& v : variant.values) row.push_back(detail::parameter_cell(v));
  row.insert(row.end(), {std::string(kSweepOk), "", result.hash});
  row.insert(row.end(), result.summary.begin(), result.summary.end());
  row.insert(row.end(), result.metrics.begin(), result.metrics.end());
  row.insert(row.end(), result.state.begin(), result.state.end());
  return row;
}

}  // namespace pivot
