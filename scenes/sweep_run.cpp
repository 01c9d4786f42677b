// run_sweep_variant: one variant of a sweep run as `pivot run` runs a scene (the same step
// count, the same checks of the state, the same final-state hash), and its row of results.csv.

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/sweep.hpp"
#include "pivot/scenes/sweep_pointer.hpp"

namespace pivot {
namespace {

/// a number as the shortest text that reads back to the same double (as `pivot run`'s files)
std::string number(double x) {
  return fmt::format("{}", x);
}

struct Energies {
  double kinetic = 0.0, potential = 0.0;
};

bool state_is_finite(const World& world) {
  return world.bodies().positions().allFinite() && world.bodies().velocities().allFinite();
}

/// steps the scene's duration; the summary and last-step metrics by name, and the final state
struct VariantRun {
  std::map<std::string, std::string> summary, metrics;
  std::vector<std::string> state;
  std::string hash;
};

VariantRun run(const Scene& scene, const SweepKeep& keep) {
  World world = build_world(scene);
  const double h = scene.settings.world.time_step;
  const long total = steps_for_duration(scene.settings.duration, h);
  const auto energies = [&] { return Energies{world.kinetic_energy(), world.potential_energy()}; };
  if (!state_is_finite(world)) throw std::runtime_error("the initial state is not finite");
  const Energies initial = energies();
  long contacts = 0, failed_steps = 0;
  double max_joint_error = 0.0, max_penetration = 0.0;
  VariantRun out;
  for (long k = 1; k <= total; ++k) {
    const StepReport& r = world.step();
    const Energies e = energies();
    // the checks of `pivot run` (docs/cli.md: no output holds a NaN or an infinity)
    bool finite = state_is_finite(world) && std::isfinite(e.kinetic) &&
                  std::isfinite(e.potential) && std::isfinite(r.joint_error_after) &&
                  std::isfinite(r.penetration_after);
    if (!finite)
      throw std::runtime_error(
          fmt::format("the state or its metrics became non-finite at step {} "
                      "(t = {:.6g} s)",
                      k, step_time(k, h)));
    contacts += r.contacts;
    if (r.failures > 0) ++failed_steps;
    max_joint_error = std::max(max_joint_error, r.joint_error_after);
    max_penetration = std::max(max_penetration, r.penetration_after);
    if (k == total) {
      out.metrics = {{"kinetic_energy", number(e.kinetic)},
                     {"potential_energy", number(e.potential)},
                     {"total_energy", number(e.kinetic + e.potential)},
                     {"contacts", std::to_string(r.contacts)},
                     {"lcp_size", std::to_string(r.lcp_size)},
                     {"pivots", std::to_string(r.pivots)},
                     {"max_joint_error", number(r.joint_error_after)},
                     {"max_penetration", number(r.penetration_after)},
                     {"reduced_pairs", std::to_string(r.reduced_pairs)},
                     {"status", lcp::to_string(r.status)}};
    }
  }
  const Energies final_energy = energies();
  const RunTotals& t = world.totals();
  out.summary = {{"steps", std::to_string(world.step_count())},
                 {"simulated_time_s", number(step_time(world.step_count(), h))},
                 {"energy.initial.kinetic", number(initial.kinetic)},
                 {"energy.initial.potential", number(initial.potential)},
                 {"energy.initial.total", number(initial.kinetic + initial.potential)},
                 {"energy.final.kinetic", number(final_energy.kinetic)},
                 {"energy.final.potential", number(final_energy.potential)},
                 {"energy.final.total", number(final_energy.kinetic + final_energy.potential)},
                 {"max_joint_error", number(max_joint_error)},
                 {"max_penetration", number(max_penetration)},
                 {"contacts_per_step",
                  number(static_cast<double>(contacts) / static_cast<double>(std::max(1L, total)))},
                 {"lcp.solves", std::to_string(t.lcp_solves)},
                 {"lcp.pivots", std::to_string(t.pivots)},
                 {"lcp.failures", std::to_string(t.failures)},
                 {"lcp.fallbacks", std::to_string(t.fallbacks)},
                 {"lcp.failed_steps", std::to_string(failed_steps)},
                 {"hybrid.entries", std::to_string(t.reduced_entries)},
                 {"hybrid.exits", std::to_string(t.reduced_exits)}};
  if (keep.final_state)
    for (int i = 0; i < world.body_count(); ++i) {
      if (!world.bodies().body(i).moves()) continue;
      const Pose p = world.pose(i);
      const Twist V = world.twist(i);
      for (const double x :
           {p.p_WB.x(), p.p_WB.y(), p.p_WB.z(), p.q_WB.w(), p.q_WB.x(), p.q_WB.y(), p.q_WB.z(),
            V.v().x(), V.v().y(), V.v().z(), V.w().x(), V.w().y(), V.w().z()})
        out.state.push_back(number(x));
    }
  out.hash = hash_to_hex(state_hash(world));
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
  for (const std::string& k : sweep.keep.summary) row.push_back(result.summary.at(k));
  for (const std::string& k : sweep.keep.metrics) row.push_back(result.metrics.at(k));
  row.insert(row.end(), result.state.begin(), result.state.end());
  return row;
}

}  // namespace pivot
