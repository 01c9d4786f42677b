// Post-stabilization: the position correction after each step (docs/step.md §5).
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/hybrid/hybrid_switch.hpp"
#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/island_batch.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/step_workspace.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

using namespace detail;

namespace {
using Clock = std::chrono::steady_clock;

// Nothing to correct: every joint row closed exactly (g_e = 0) and every unilateral row
// satisfied (g_u ≥ 0). Then q = (g_u) ≥ 0 and the right-hand side of the free rows is 0, so the
// LCP's answer is z = 0, dp = 0 (the trivial start of docs/lcp.md, with P x = 0): it is not
// solved, and the zero correction is applied as the LCP's would be.
bool nothing_to_correct(const detail::ConstraintSet& rows) {
  for (const detail::EqualityRow& r : rows.equalities)
    if (r.bias != 0.0) return false;
  for (const detail::UnilateralRow& r : rows.unilaterals)
    if (!(r.bias >= 0.0)) return false;
  return true;
}
}  // namespace

// Post-stabilization (Cline 2002 §3.4, eq. 3.7): at p(t+h), find a twist displacement dp per body
//   M dp − J_eᵀλ_e − J_uᵀλ_u = 0,   J_e dp + g_e = 0,   J_u dp + g_u ≥ 0 ⊥ λ_u ≥ 0
// (mass-weighted least correction; unilateral rows: joint limits, contacts) and apply it through
// the exponential map. Positions only: velocities are not touched. `contacts` are those detected
// at p(t+h) by the caller; a capped correction's later passes detect them anew.
bool World::post_stabilize(std::vector<Contact>& contacts) {
  const int n = set_.size();
  bool moved = false;
  for (int pass = 0; pass < settings_.max_post_steps; ++pass) {
    if (pass > 0 && settings_.interrupted && settings_.interrupted()) return moved;
    clear_keeping_cones(*rows_, workspace().spare_directions);
    // J_e dp + g_e = 0, J_u dp + g_u ≥ 0: limits only where violated, no motors
    add_joint_rows({.equality_bias = 1.0, .limit_margin = 0.0, .limit_bias = 1.0, .motors = false});
    // the joints' error before the correction (StepReport::joint_error_before): the first
    // pass's equality rows are every joint's at these poses with bias 1 · g, the values of
    // World::max_joint_error
    if (pass == 0) {
      double error = 0.0;
      for (const detail::EqualityRow& r : rows_->equalities)
        error = std::max(error, std::abs(r.bias));
      report_.joint_error_before = error;
    }
    if (pass > 0) detect_contacts(contacts);   // re-linearized at the corrected positions
    hybrid_->drop_reduced_contacts(contacts);  // hybrid: a reduced pair stays on its manifold
    add_contact_rows(contacts, nullptr);
    if (rows_->equalities.empty() && rows_->unilaterals.empty()) return moved;
    Eigen::VectorXd& dp = workspace().dp;
    dp.setZero(6 * n);
    if (!nothing_to_correct(*rows_)) {
      IslandWork& work = workspace().post;
      std::vector<detail::IslandInput>& islands = work.islands;
      // the same split as the last post-step's: its answer whether joint rows repeat holds again
      const bool same_islands = split_islands(set_, *rows_, {}, work.split, islands);
      const bool look_for_repeats = !same_islands || work.repeated_joint_rows;
      work.repeated_joint_rows = true;  // until every island has been looked at
      bool repeats = false;
      std::vector<IslandJob>& jobs = work.jobs;
      jobs.clear();
      for (detail::IslandInput& island : islands) {
        if (island.equalities.empty() && island.unilaterals.empty()) continue;
        // reported by the step's own
        if (look_for_repeats && !drop_repeated_joint_rows(island, false)) repeats = true;
        island_mass(set_, island.bodies, nullptr, island.M_tilde, nullptr, &island.mass_blocks);
        island.momentum.setZero(6 * static_cast<Eigen::Index>(island.bodies.size()));
        jobs.push_back(
            {.island = &island, .lemke = settings_.lemke, .small_path = settings_.small_islands});
        jobs.back().lemke.timed = settings_.profile;
      }
      work.repeated_joint_rows = repeats;
      const auto t0 = Clock::now();
      std::vector<detail::IslandOutput>& outputs = work.outputs;
      solve_islands_batch(*rows_, jobs, settings_.on_failed_lcp, pool(), outputs);
      report_.solve_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
      for (std::size_t k = 0; k < jobs.size(); ++k) {
        const detail::IslandInput& island = *jobs[k].island;
        const detail::IslandOutput& out = outputs[k];
        report_.pivots += out.pivots;
        ++totals_.lcp_solves;
        if (out.failed_status == lcp::LcpStatus::ray_termination) {
          // no feasible correction (a squeeze): the compliant fallback's answer is of the order
          // overlap / ε, so this island is left uncorrected instead (docs/step.md "The squeeze")
          note_ray(island.bodies, "post-stabilization ");
          continue;
        }
        if (out.velocity.size() == 0) {
          ++report_.failures;
          report_.warn(StepWarning::post_lcp_failed, island.bodies.front(),
                       "a post-stabilization LCP failed: " + out.message);
          continue;
        }
        if (out.fallback) note_fallback(island.bodies, "post-stabilization ", out);
        for (std::size_t i = 0; i < island.bodies.size(); ++i)
          dp.segment<6>(6 * island.bodies[i]) =
              out.velocity.segment<6>(6 * static_cast<Eigen::Index>(i));
      }
    }
    ++report_.post_steps;
    // the cap: a large correction is applied in pieces, re-linearized in between (Cline §5.2.3)
    const double size = dp.lpNorm<Eigen::Infinity>();
    const double cap = settings_.post_step_cap;
    const bool capped = cap > 0.0 && size > cap;
    if (capped) dp *= cap / size;
    for (int i = 0; i < n; ++i) {
      if (set_.body(i).fixed) continue;
      const Pose before = set_.pose(i);
      const Pose after = integrate(before, dp.segment<6>(6 * i));
      // (a zero correction still renormalizes q, which may move it by rounding)
      moved = moved || after.p_WB != before.p_WB || after.q_WB.coeffs() != before.q_WB.coeffs();
      set_.set_pose(i, after);
    }
    if (!capped) return moved;
    if (pass + 1 == settings_.max_post_steps) {
      // the bound on passes is reached with the correction still capped: reported, not hidden
      Eigen::Index largest = 0;
      dp.cwiseAbs().maxCoeff(&largest);
      const int body = static_cast<int>(largest / 6);
      report_.warn(StepWarning::post_step_incomplete, body,
                   fmt::format("post-stabilization stopped after {} passes of at most {:g} with "
                               "about {:.3g} of correction (m or rad) still to apply",
                               settings_.max_post_steps, cap, size - cap));
    }
  }
  return moved;
}

}  // namespace pivot
