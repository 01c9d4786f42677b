// `pivot run --profile`: see run_profile.hpp.
#include "run_files/run_profile.hpp"

#include <fmt/core.h>

namespace pivot::cli {
namespace {

struct StageRow {
  const char* name;
  long steps;
  double mean_ms, total_s, fraction;
};

StageRow stage_row(const RunTotals& t, std::size_t k) {
  const long steps = t.stage_steps[k];
  const double total = t.stage_seconds[k];
  return {to_string(static_cast<StepStage>(k)), steps,
          steps > 0 ? 1e3 * total / static_cast<double>(steps) : 0.0, total,
          t.step_seconds > 0.0 ? total / t.step_seconds : 0.0};
}

}  // namespace

void print_profile(std::FILE* out, const World& world) {
  const RunTotals& t = world.totals();
  fmt::print(out, "profile: {} steps, {:.3f} s in World::step ({:.4f} ms per step)\n", t.steps,
             t.step_seconds,
             t.steps > 0 ? 1e3 * t.step_seconds / static_cast<double>(t.steps) : 0.0);
  fmt::print(out, "  {:<20} {:>8} {:>12} {:>10} {:>7}\n", "stage", "steps", "mean ms", "total s",
             "share");
  double listed = 0.0;
  for (std::size_t k = 0; k < kStepStages; ++k) {
    const StageRow r = stage_row(t, k);
    listed += r.total_s;
    fmt::print(out, "  {:<20} {:>8} {:>12.4f} {:>10.4f} {:>6.1f}%\n", r.name, r.steps, r.mean_ms,
               r.total_s, 100.0 * r.fraction);
  }
  fmt::print(out, "  {:<20} {:>8} {:>12} {:>10.4f} {:>6.1f}%\n", "(rest of the step)", t.steps, "",
             t.step_seconds - listed,
             t.step_seconds > 0.0 ? 100.0 * (t.step_seconds - listed) / t.step_seconds : 0.0);
  if (world.settings().threads != 1)
    fmt::print(out,
               "  (islands on several threads: their stages add thread time, and can exceed the "
               "step's wall time)\n");
}

nlohmann::ordered_json profile_json(const World& world) {
  const RunTotals& t = world.totals();
  nlohmann::ordered_json stages = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < kStepStages; ++k) {
    const StageRow r = stage_row(t, k);
    stages[r.name] = {{"steps", r.steps},
                      {"mean_ms", r.mean_ms},
                      {"total_s", r.total_s},
                      {"fraction", r.fraction}};
  }
  return {
      {"step_seconds", t.step_seconds}, {"threads", world.settings().threads}, {"stages", stages}};
}

}  // namespace pivot::cli
