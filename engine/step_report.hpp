#pragma once
// What one step did, and totals over a run: for metrics files, tests and users' dashboards.

#include <string>
#include <vector>

#include "pivot/lcp/lcp_result.hpp"

namespace pivot {

/// a pair entering or leaving the hybrid reduced mode (docs/hybrid.md "The World switch")
struct SwitchEvent {
  double time = 0.0;           ///< s (the end of the step that switched)
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

struct StepReport {
  double time = 0.0;           ///< simulated time after the step, s
  int islands = 0;             ///< islands solved with an LCP
  int lcp_size = 0;            ///< complementarity variables, summed over islands
  int pivots = 0;              ///< Lemke pivots, summed over islands (dynamics and post-steps)
  double solve_seconds = 0.0;  ///< wall time in the LCP solves
  /// solved, or the first failure status of an island (its fallback is then in use)
  lcp::LcpStatus status = lcp::LcpStatus::solved;
  int failures = 0;                   ///< islands whose LCP failed this step
  int fallbacks = 0;                  ///< islands solved by the fallback (see docs/step.md)
  int contacts = 0;                   ///< contacts in the LCP
  int post_steps = 0;                 ///< post-stabilization LCPs solved
  double joint_error_before = 0.0;    ///< max |g| of joint rows after integration, before post
  double joint_error_after = 0.0;     ///< max |g| of joint rows at the end of the step
  double penetration_before = 0.0;    ///< max penetration after integration, before post, m
  double penetration_after = 0.0;     ///< max penetration at the end of the step, m
  int reduced_pairs = 0;              ///< pairs in hybrid reduced mode at the end of the step
  std::vector<SwitchEvent> switches;  ///< hybrid entries and exits during the step
  /// things a user should know, e.g. redundant joints (named), once per step they occur
  std::vector<std::string> warnings;
};

struct RunTotals {
  long steps = 0;
  long lcp_solves = 0;
  long pivots = 0;
  long failures = 0;
  long fallbacks = 0;
  double solve_seconds = 0.0;
  long reduced_entries = 0;  ///< hybrid: pairs that entered reduced mode
  long reduced_exits = 0;    ///< hybrid: pairs that left it
};

}  // namespace pivot
