// Kinematic (key-framed) bodies inside World::step (docs/step.md "Kinematic bodies").
//
// A kinematic body has infinite mass in both LCPs (it is `fixed` for islands, forces, the
// post-step), and its motion enters the constraint rows as a known velocity:
//   pose at step k:  exactly the track's at t_k = k h (World::time_at_step when h changed; never
//                    integrated, so it follows its key frames to the last bit at their times);
//   twist in [t, t+h]: the step average V̄ = (log(q(t+h) q(t)⁻¹); x(t+h) − x(t)) / h, so
//                    that p(t) ⊕ h V̄ = p(t+h): the rows see the displacement the body makes;
//   rows: a row J_A v_A + J_K v_K (+ b) with K kinematic has the column of K removed and
//                    J_K V̄_K added to its right-hand side (Cline 2002 eq. 2.49 with v_K known):
//                    equality  J v⁺ + b + J_K V̄ = 0,   unilateral J v⁺ + b + J_K V̄ ≥ 0,
//                    friction  D v⁺ + D_K V̄ + E γ ≥ 0,   motor J v⁺ = target − J_K V̄.
#include <fmt/core.h>

#include <cmath>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_batch.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/step_context.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

Pose World::kinematic_pose(const RigidBody& body, double t) {
  const TrackPose s = sample_track(*body.kinematic, t);
  return Pose{s.p_WS - s.q_WB * body.shape_offset, s.q_WB};
}

void World::prescribe_kinematic_twists(const detail::StepContext& ctx) {
  const double h = ctx.h;
  // the track's times are the step grid's (k h while h never changed, as the outputs'), not the
  // accumulated clock
  const double t0 = time_at_step(steps_), t1 = time_at_step(steps_ + 1);
  for (int i = 0; i < set_.size(); ++i) {
    const RigidBody& b = set_.body(i);
    if (!b.kinematic) continue;
    const Pose p0 = kinematic_pose(b, t0), p1 = kinematic_pose(b, t1);
    Vec6 V;
    V << quat_log(p1.q_WB * p0.q_WB.conjugate()) / h, (p1.p_WB - p0.p_WB) / h;
    set_.twist(i) = V;
  }
}

namespace {
// J_K V̄_K of a row's kinematic sides
double known_velocity(const RigidBodySet& set, const detail::RowRef& r) {
  double sum = 0.0;
  if (r.body_a >= 0 && set.body(r.body_a).kinematic) sum += r.J_A.dot(set.twist(r.body_a));
  if (r.body_b >= 0 && set.body(r.body_b).kinematic) sum += r.J_B.dot(set.twist(r.body_b));
  return sum;
}
}  // namespace

void World::add_kinematic_bias() {
  auto known = [this](const detail::RowRef& r) { return known_velocity(set_, r); };
  bool any = false;
  for (int i = 0; i < set_.size() && !any; ++i) any = set_.body(i).kinematic != nullptr;
  if (!any) return;
  for (detail::EqualityRow& r : rows_->equalities) r.bias += known(r);
  for (detail::UnilateralRow& r : rows_->unilaterals) r.bias += known(r);
  for (detail::MotorConstraint& m : rows_->motors) m.target -= known(m);
  for (detail::FrictionCone& cone : rows_->cones) {
    cone.direction_bias.assign(cone.directions.size(), 0.0);
    for (std::size_t j = 0; j < cone.directions.size(); ++j)
      cone.direction_bias[j] = known(cone.directions[j]);
  }
}

void World::place_kinematic_bodies() {
  const double t1 = time_at_step(steps_ + 1);
  for (int i = 0; i < set_.size(); ++i) {
    const RigidBody& b = set_.body(i);
    if (b.kinematic) set_.set_pose(i, kinematic_pose(b, t1));
  }
}

void World::resolve_squeezed_islands(const std::vector<detail::IslandJob>& jobs,
                                     std::vector<detail::IslandOutput>& outputs) {
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    if (outputs[k].failed_status != lcp::LcpStatus::ray_termination) continue;
    const detail::IslandInput& in = *jobs[k].island;
    bool touched = false;
    for (int e : in.equalities) {
      const double d = known_velocity(set_, rows_->equalities[e]);
      touched = touched || d != 0.0;
      rows_->equalities[e].bias -= d;
    }
    for (int u : in.unilaterals) {
      const double d = known_velocity(set_, rows_->unilaterals[u]);
      touched = touched || d != 0.0;
      rows_->unilaterals[u].bias -= d;
    }
    for (int m : in.motors) rows_->motors[m].target += known_velocity(set_, rows_->motors[m]);
    for (int c : in.cones) rows_->cones[c].direction_bias.clear();
    if (!touched) continue;  // not a kinematic squeeze: the compliant answer stands
    detail::IslandOutput again = detail::solve_island(*rows_, in, jobs[k].lemke);
    if (again.status != lcp::LcpStatus::solved || again.velocity.size() == 0) continue;
    again.fallback = true;
    again.failed_status = lcp::LcpStatus::ray_termination;
    again.pivots += outputs[k].pivots;
    again.message = outputs[k].message;
    outputs[k] = std::move(again);
  }
}

// The squeeze (docs/step.md): a body pressed by kinematic or fixed bodies past contact has no
// feasible LCP; Lemke ends on a secondary ray, the island's fallback answers it (a slightly
// compliant, finite answer) and the step says so here.
void World::note_ray(const std::vector<int>& island_bodies, const char* which) {
  ++report_.rays;
  const int first = island_bodies.empty() ? -1 : island_bodies.front();
  report_.warn(StepWarning::lcp_ray, first,
               fmt::format("the {}LCP of the island of body \"{}\" has no feasible answer (Lemke "
                           "ended on a ray; e.g. squeezed between kinematic or fixed bodies): "
                           "docs/step.md \"The squeeze\" has the fallback",
                           which, first >= 0 ? set_.body(first).name : std::string("?")));
}

// A fallback is never silent: an island LCP that failed otherwise than on a ray (a numerical
// failure, the pivot limit) and was answered by the compliant fallback (island_solver.hpp,
// IslandLayer::copositive_fallback) is a step warning naming the island and the failure.
void World::note_fallback(const std::vector<int>& island_bodies, const char* which,
                          const detail::IslandOutput& out) {
  const int first = island_bodies.empty() ? -1 : island_bodies.front();
  report_.warn(StepWarning::lcp_fallback, first,
               fmt::format("the {}LCP of the island of body \"{}\" failed ({}: {}); the "
                           "compliant fallback answered it (docs/step.md)",
                           which, first >= 0 ? set_.body(first).name : std::string("?"),
                           lcp::to_string(out.failed_status), out.message));
}

}  // namespace pivot
