#pragma once
// Where a step's time goes: wall time per stage of World::step (WorldSettings::profile), for
// `pivot run --profile` and users' own dashboards.

#include <array>
#include <cstddef>

namespace pivot {

/// the stages a step's time is split into (docs/step.md has the order they run in)
enum class StepStage {
  forces,        ///< forces, the gyroscopic term and their gradients
  broad_phase,   ///< collision detection: poses, bounding boxes, candidate pairs (both passes)
  narrow_phase,  ///< collision detection: the pair table's manifolds (both passes)
  assembly,      ///< rows, islands, M̃ and the dynamics islands' mixed LCPs
  reduction,     ///< the Schur complement of the dynamics LCPs (mixed → pure LCP, and back)
  lemke,         ///< Lemke's method on the dynamics LCPs, without its residual checks
  verification,  ///< the residual checks of the dynamics LCPs' answers
  integration,   ///< impulses stored, positions from v⁺
  post_stabilization,  ///< the post-step's rows and LCPs (its collision passes: above)
  hybrid,              ///< the hybrid switch (reduced pairs' advance, entries and exits)
};
inline constexpr std::size_t kStepStages = 10;

/// "forces", "broad_phase", ... (as in summary.json)
[[nodiscard]] const char* to_string(StepStage stage);

/// wall time per stage of one step, s; islands solved on several threads add their times
/// (thread time, not wall time, for the assembly, reduction, Lemke and verification stages)
struct StageTimes {
  std::array<double, kStepStages> seconds{};
  std::array<bool, kStepStages> ran{};  ///< the stage had work this step

  void add(StepStage stage, double s) {
    seconds[static_cast<std::size_t>(stage)] += s;
    ran[static_cast<std::size_t>(stage)] = true;
  }
  [[nodiscard]] double operator[](StepStage stage) const {
    return seconds[static_cast<std::size_t>(stage)];
  }
};

}  // namespace pivot
