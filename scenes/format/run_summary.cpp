// summary_json: a run's summary as summary.json (docs/cli.md "summary.json"), the one schema of
// `pivot run`, `pivot sweep`'s kept totals and the Python module's run summary.

#include <nlohmann/json.hpp>

#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/simulation.hpp"
#include "pivot/version.hpp"

namespace pivot {
namespace {

using ojson = nlohmann::ordered_json;

ojson energy_json(const Energy& e) {
  return {{"kinetic", e.kinetic}, {"potential", e.potential}, {"total", e.total()}};
}

ojson final_state_json(const RunSummary& s) {
  static const char* const keys[13] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                                       "vx", "vy", "vz", "wx", "wy", "wz"};
  ojson bodies = ojson::array();
  for (const auto& [name, state] : s.final_state) {
    ojson b;
    b["body"] = name;
    for (int k = 0; k < 13; ++k) b[keys[k]] = state[k];
    bodies.push_back(b);
  }
  return bodies;
}

ojson hybrid_json(const RunSummary& s) {
  const RunTotals& t = s.totals;
  ojson j = {{"entries", t.reduced_entries},
             {"exits", t.reduced_exits},
             {"reduced_time_s", step_time(s.reduced_steps, s.dt)},
             {"max_reduced_pairs", s.max_reduced_pairs},
             {"final_reduced_pairs", s.final_reduced_pairs},
             {"entry_max_position_change", s.entry_position_change},
             {"entry_max_rotation_change", s.entry_rotation_change},
             {"entry_max_twist_change", s.entry_twist_change},
             {"entry_max_energy_change", s.entry_energy_change}};
  ojson reasons = ojson::object();
  for (const auto& [kind, count] : s.exit_reasons) reasons[kind] = count;
  j["exit_reasons"] = reasons;
  // the reduced integrator's accepted steps by size (Kry & Pai 2002 Fig. 8), bins of powers of 2
  ojson starts = ojson::array(), counts = ojson::array();
  for (int k = 0; k < kReducedStepBins; ++k) {
    starts.push_back(reduced_step_bin_start(k));
    counts.push_back(t.reduced_steps[k]);
  }
  j["accepted_steps"] = {{"bin_start_s", starts}, {"count", counts}};
  return j;
}

}  // namespace

std::string summary_json(const RunSummary& s, const std::vector<std::string>& outputs) {
  const RunTotals& t = s.totals;
  const double wall = s.wall_time_s;
  ojson j;
  j["pivot_version"] = kVersion;
  j["scene"] = s.scene;
  j["scene_file"] = s.scene_file;
  j["steps"] = s.steps;
  j["dt"] = s.dt;
  j["simulated_time_s"] = s.simulated_time_s;
  j["wall_time_s"] = wall;
  j["steps_per_second"] = wall > 0.0 ? static_cast<double>(s.steps) / wall : 0.0;
  j["realtime_factor"] = wall > 0.0 ? s.simulated_time_s / wall : 0.0;
  j["final_state_hash"] = hash_to_hex(s.final_state_hash);
  j["final_state"] = final_state_json(s);
  j["energy"] = {{"initial", energy_json(s.initial_energy)},
                 {"final", energy_json(s.final_energy)}};
  j["max_joint_error"] = s.max_joint_error;
  j["max_penetration"] = s.max_penetration;
  j["contacts_per_step"] =
      s.steps > 0 ? static_cast<double>(s.contacts) / static_cast<double>(s.steps) : 0.0;
  j["lcp"] = {
      {"solves", t.lcp_solves},         {"pivots", t.pivots}, {"failures", t.failures},
      {"fallbacks", t.fallbacks},       {"rays", t.rays},     {"failed_steps", s.failed_steps},
      {"solve_time_s", t.solve_seconds}};
  j["hybrid"] = hybrid_json(s);
  j["warnings"] = s.warnings;
  j["more_warnings"] = s.more_warnings;
  ojson counts = ojson::object();
  for (std::size_t k = 0; k < kStepWarningKinds; ++k)
    counts[to_string(static_cast<StepWarning>(k))] = t.warnings[k];
  j["warning_counts"] = counts;
  j["outputs"] = outputs;
  j["interrupted"] = s.interrupted();
  return j.dump(2);
}

}  // namespace pivot
