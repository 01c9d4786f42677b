#pragma once
// Advancing a reduced contact over a time interval (Kry & Pai 2002 §3.7 and §4.2;
// Kry 2000 §4.4-4.5: friction switching and patch traversal): explicit fourth-order Runge-Kutta
// with adaptive steps by step doubling, events located by root finding on the step size, friction
// mode switches, chart and patch changes.
//
// Per step of size Δt from state y: one RK4 step of Δt and two of Δt/2; error = |y_2 − y_1|/15
// (Richardson), scaled per component by tolerance·(1 + |y|); accepted when ≤ 1 (the two
// half steps are kept), the next Δt = Δt·min(2, 0.9 err^(−1/5)), never above dt_max; rejected
// steps shrink by max(0.2, 0.9 err^(−1/5)), never below dt_min. The paper gives min/max steps
// (1 ms, 1-64 ms) but not the factors. A step that fails the test at dt_min is accepted
// (accept_at_min_step) and, when the pair's energy is a first integral (no slip dissipated, no
// friction torque, no external wrench), scaled back onto the energy of its start (its
// velocities times √((E₀ − V)/T): Hairer, Lubich & Wanner, Geometric Numerical Integration,
// §IV.4, projection onto an invariant; docs/hybrid.md).
//
// Events, each a function g(y) that is ≥ 0 while nothing happens:
//   - the contact point reaching an edge of its contact domain (signed distance to the edge;
//     SmoothSurface::contact_domain: the patch's domain, less the corner a Loop EV's chart
//     covers);
//   - separation: g = f_n (the compressive normal force; docs/hybrid.md "Sign conventions");
//   - leaving static friction in no-slip: g = μ_static f_n − |f_t| (P35);
//   - leaving no-spin: g = μ_spin_static f_n − |τ_n| (P40).
// When an accepted step ends with some g < 0, the step size τ where the first of them crosses
// zero is found by the Illinois method on y(τ) (the same doubled RK4 step). This is the
// paper's "approach the traversal point from inside the patch" (P§3.5), done by root finding
// rather than repeated halving to the minimum step; nothing is interpolated.
// At a patch edge the contact moves to the neighbouring patch: q^B (P41), ψ^B = ψ^A +
// atan2((x^A × x^B)·z, x^A·x^B) (P42, the robust form of sgn(·) acos(·)), and q̇^B from the
// unchanged relative twist, ^{1c}Ĥ^B q̇^B = ^{1c}φ (P43, a 5 × 5 solve). Through a corner the
// traversal repeats at the same instant (P§3.5, Fig. 5), at most max_transitions_per_instant
// times. The same change of coordinates carries a contact into the regular chart around a Loop
// extraordinary vertex and back out (across_contact_edge; the chart replaces Stam's
// parameterization, singular at the EV, as the thesis' reparameterization near EVs does,
// Kry 2000 §5.1.2-5.2), and a state that starts outside its contact domain (a contact placed
// on an EV patch near the EV) is moved into the chart that covers it before the first step.
// Periodic coordinates are wrapped after every step.
// Mode switches at the end of accepted steps: sliding → no slip when the slip speed is below
// the threshold (P§3.4.2), unless the contact has just left no slip and has neither slipped
// faster than the threshold nor slid for min_slide_time (hysteresis, T§4.4.4); no slip → no
// spin when the spin is below spin_threshold; both project the rates (change_mode in
// reduced_contact.hpp).

#include <string>
#include <vector>

#include "pivot/engine/hybrid/reduced_contact.hpp"

namespace pivot::detail {

/// why advance() stopped
enum class ReducedStatus {
  ok,            ///< reached t + h
  separated,     ///< the normal force turned tensile: the state is at that instant
  left_surface,  ///< the contact reached an open patch edge: the state is on that edge
  bad_geometry,  ///< singular or ill-conditioned contact (regularity, rcond, corner loop)
  step_failed,   ///< the error test failed at dt_min ("insufficient accuracy", P§3.5) with
                 ///< accept_at_min_step off, or max_steps were used up
};

[[nodiscard]] const char* to_string(ReducedStatus status);

/// something that happened during an advance() call
struct ReducedEvent {
  enum class Kind {
    patch_change_1,  ///< body 1's contact moved to another patch (from, to: patch ids)
    patch_change_2,  ///< body 2's contact moved to another patch
    mode_change,     ///< friction mode changed (from, to: FrictionMode as int)
    separation,      ///< the contact separated (end of the call; from, to: 0)
    left_surface,    ///< the contact reached an open edge (end of the call; from: the body,
                     ///< 1 or 2, to: the edge of its current patch)
  };
  Kind kind = Kind::mode_change;
  double time = 0.0;  ///< s
  int from = 0;
  int to = 0;
};

struct ReducedAdvanceResult {
  ReducedStatus status = ReducedStatus::ok;
  std::string message;   ///< for statuses other than ok: what happened, where
  int steps = 0;         ///< accepted steps
  int rejected = 0;      ///< rejected steps (error test or failed evaluation)
  long evaluations = 0;  ///< evaluations of the equations of motion
  int forced_steps = 0;  ///< steps of dt_min accepted although they failed the error test
  /// the accepted steps' sizes in order, s (a step cut at an event or at t + h counts with
  /// its cut size; Kry & Pai 2002 Fig. 8 is their histogram)
  std::vector<double> step_sizes;
  std::vector<ReducedEvent> events;
};

/// advances `state` by h seconds (or to the event that ends the call). The state always stays
/// on the constraint manifold; on return state.time is the time reached.
[[nodiscard]] ReducedAdvanceResult advance(const ReducedContactModel& model,
                                           ReducedContactState& state, double h,
                                           const ReducedStepSettings& settings = {});

}  // namespace pivot::detail
