#pragma once
// What one step did, and totals over a run: for metrics files, tests and users' dashboards.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "pivot/engine/step_profile.hpp"
#include "pivot/lcp/lcp_result.hpp"

namespace pivot {

/// hybrid: the histogram of the reduced integrator's accepted RK4 step sizes (Kry & Pai 2002
/// Fig. 8) has kReducedStepBins bins, bin k for steps in [2^(k − 24), 2^(k − 23)) s (bin 0 also
/// holds shorter steps, the last bin longer ones): 60 ns … 0.5 s
inline constexpr int kReducedStepBins = 24;
/// the bin of an accepted step of `dt` seconds (> 0)
[[nodiscard]] int reduced_step_bin(double dt);
/// the lower edge of bin k, s
[[nodiscard]] double reduced_step_bin_start(int k);

/// a pair entering or leaving the hybrid reduced mode (docs/hybrid.md "The World switch")
struct SwitchEvent {
  /// s: the separation instant inside the step for an exit "separated" (docs/hybrid.md "The
  /// World switch"); the start of the step for other exits and for entries at the start of a
  /// step (hybrid_entry_steps = 0); the end of the step for entries by the entry rule
  double time = 0.0;
  int body = -1;               ///< the free body (body 1 of the pair)
  int partner = -1;            ///< the body it touches: fixed, or free (then also reduced)
  bool entered = false;        ///< true: entered reduced mode; false: left it
  std::string reason;          ///< why it left ("separated", "new contact with body 3", ...)
  double energy_change = 0.0;  ///< entry: the projection's energy change (after − before), J
  /// entry: how far the projection onto the contact manifold moved the body: its centre of
  /// mass (m), its orientation (rad), and its twist (largest component of ΔV, rad/s or m/s)
  double position_change = 0.0;
  double rotation_change = 0.0;
  double twist_change = 0.0;
};

/// the kinds of step warnings: what a user should know about a step that still completed
enum class StepWarning {
  nonfinite_forces,     ///< external forces were not finite and were ignored this step
  redundant_joint,      ///< a joint's rows are redundant or conflicting: made slightly compliant
  island_lcp_failed,    ///< an island's LCP failed even with the fallback: it kept its velocities
  post_lcp_failed,      ///< a post-stabilization LCP failed: that island was not corrected
  hybrid_entry_failed,  ///< a body could not enter the hybrid reduced mode (its geometry threw)
  /// an island's LCP (dynamics or post-step) ended on a secondary ray: it has no feasible answer
  /// (e.g. a kinematic plate squeezing a box into the ground); the fallback answered it
  lcp_ray,
  /// a pair left the hybrid reduced mode because its integration failed (step_failed: more
  /// than ReducedStepSettings::max_steps substeps, or interrupted; bad_geometry): the LCP took
  /// the step. Ordinary exits (separation, a new contact) are not warnings; every exit's
  /// reason is in StepReport::switches
  hybrid_exit_failed,
  /// post-stabilization ran its WorldSettings::max_post_steps passes and the last was still
  /// capped (post_step_cap): the rest of the correction was not applied this step (the error
  /// left shows in max_joint_error / max_penetration)
  post_step_incomplete,
  /// a body's pose or twist was not finite at the end of the step (e.g. a stiff system
  /// integrated far beyond its stable step): it got back its start-of-step pose and twist, left
  /// hybrid reduced mode, and the step counts it in StepReport::failures
  nonfinite_state,
  /// an island's LCP (dynamics or post-step) failed for another reason than a ray (a
  /// numerical failure, the pivot limit) and the compliant fallback answered it
  /// (IslandLayer::copositive_fallback: S + εI, a slightly compliant answer). A ray is
  /// lcp_ray instead. The step's answer is usable but not the exact LCP's
  lcp_fallback,
};
inline constexpr std::size_t kStepWarningKinds = 10;

/// "nonfinite_forces", "redundant_joint", ... (as in metrics and summaries)
[[nodiscard]] const char* to_string(StepWarning kind);

/// one warning of a step
struct StepWarningRecord {
  StepWarning kind = StepWarning::nonfinite_forces;
  /// what it concerns: the joint (redundant_joint), the body (hybrid_entry_failed), the
  /// island's first body (the LCP failures); −1 for the whole step (nonfinite_forces)
  int subject = -1;
  std::string message;  ///< one line for people, naming the joint or body where there is one
};

struct StepReport {
  double time = 0.0;           ///< simulated time after the step, s
  int islands = 0;             ///< islands solved with an LCP
  int lcp_size = 0;            ///< complementarity variables, summed over islands
  int pivots = 0;              ///< Lemke pivots, summed over islands (dynamics and post-steps)
  double solve_seconds = 0.0;  ///< wall time in the LCP solves
  /// solved, or the status of the first island whose dynamics LCP failed even with the fallback
  /// (that island kept its velocities; see `failures`). An island solved by the fallback
  /// leaves it `solved` (see `fallbacks`); post-stabilization failures do not change it.
  lcp::LcpStatus status = lcp::LcpStatus::solved;
  /// islands whose LCP failed this step, plus bodies whose state was not finite at its end
  /// (StepWarning::nonfinite_state: they were put back to their start-of-step state)
  int failures = 0;
  int fallbacks = 0;  ///< islands solved by the fallback (see docs/step.md)
  /// island LCPs (dynamics and post-steps) that ended on a secondary ray, i.e. had no feasible
  /// answer, before the fallback (StepWarning::lcp_ray; docs/step.md "The squeeze")
  int rays = 0;
  int contacts = 0;                   ///< contacts in the LCP
  int post_steps = 0;                 ///< post-stabilization LCPs solved
  double joint_error_before = 0.0;    ///< max |g| of joint rows after integration, before post
  double joint_error_after = 0.0;     ///< max |g| of joint rows at the end of the step
  double penetration_before = 0.0;    ///< max penetration after integration, before post, m
  double penetration_after = 0.0;     ///< max penetration at the end of the step, m
  int reduced_pairs = 0;              ///< pairs in hybrid reduced mode at the end of the step
  std::vector<SwitchEvent> switches;  ///< hybrid entries and exits during the step
  /// hybrid: the accepted RK4 steps of the reduced pairs during the step, by size
  /// (reduced_step_bin; summed over pairs)
  std::array<int, kReducedStepBins> reduced_steps{};
  /// things a user should know, once per subject and step (StepWarning)
  std::vector<StepWarningRecord> warnings;
  /// the warnings of this step by kind (indexed by StepWarning)
  std::array<int, kStepWarningKinds> warning_counts{};
  /// wall time per stage, with WorldSettings::profile (all zero without)
  StageTimes stages;
  double step_seconds = 0.0;  ///< wall time of the whole step, with WorldSettings::profile

  /// adds a warning and counts it
  void warn(StepWarning kind, int subject, std::string message) {
    ++warning_counts[static_cast<std::size_t>(kind)];
    warnings.push_back({kind, subject, std::move(message)});
  }
  /// this step's warnings of one kind
  [[nodiscard]] int warning_count(StepWarning kind) const {
    return warning_counts[static_cast<std::size_t>(kind)];
  }
};

struct RunTotals {
  long steps = 0;
  long lcp_solves = 0;
  long pivots = 0;
  long failures = 0;
  long fallbacks = 0;
  long rays = 0;  ///< StepReport::rays summed
  double solve_seconds = 0.0;
  long reduced_entries = 0;  ///< hybrid: pairs that entered reduced mode
  long reduced_exits = 0;    ///< hybrid: pairs that left it
  /// hybrid: StepReport::reduced_steps summed over the run (the histogram of accepted steps)
  std::array<long, kReducedStepBins> reduced_steps{};
  std::array<long, kStepWarningKinds> warnings{};  ///< step warnings by kind (StepWarning)
  /// with WorldSettings::profile: per stage (StepStage), the steps it ran in and its time, s
  std::array<long, kStepStages> stage_steps{};
  std::array<double, kStepStages> stage_seconds{};
  double step_seconds = 0.0;  ///< wall time of the profiled steps, s
};

}  // namespace pivot
