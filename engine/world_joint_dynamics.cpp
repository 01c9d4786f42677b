// The joints' passive dynamics (constraints/joint.hpp, JointDynamics): damping and Coulomb
// friction on a hinge's or slider's free coordinate q, as rows of the step's LCP built like the
// servo rows (engine/actuator.hpp) on q̇'s row J = (J_A, J_B), with the impulse λ = h u:
//
//   damping d, u = −d q̇⁺ (implicit):  λ = −h d J v⁺   ⇔   J v⁺ + c λ = 0,  c = 1 / (h d),
//     unbounded: a velocity servo with q̇_ref = 0, kd = d and no effort limit;
//   friction f:  J v⁺ = 0 while |λ| < h f, and |λ| = h f opposing the motion when it slides:
//     the two-sided cone of a joint motor with target 0 (Coulomb friction as a complementarity
//     condition, not a smoothed force).
//
// With both, the two rows share J: the damping row's compliance keeps their block positive
// definite. A joint with d = f = 0 adds no row.
#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/world.hpp"

#include <limits>

namespace pivot {

void World::add_joint_dynamics_rows() {
  const double h = settings_.time_step;
  for (int j = 0; j < joint_count(); ++j) {
    const Joint& joint = *joints_[j];
    const JointDynamics dyn = joint.dynamics();
    if (dyn.damping == 0.0 && dyn.friction == 0.0) continue;
    const Pose A = set_.pose(joint.body_a()), B = set_.pose(joint.body_b());
    detail::MotorConstraint mc;
    mc.body_a = joint.body_a();
    mc.body_b = joint.body_b();
    if (!joint.coordinate_row(A, B, mc.J_A, mc.J_B)) continue;
    mc.target = 0.0;
    mc.owner = j;
    mc.passive = true;
    if (dyn.damping > 0.0) {
      detail::MotorConstraint damping = mc;
      damping.compliance = 1.0 / (h * dyn.damping);
      damping.max_impulse = std::numeric_limits<double>::infinity();
      rows_->motors.push_back(damping);
    }
    if (dyn.friction > 0.0) {
      mc.max_impulse = h * dyn.friction;
      rows_->motors.push_back(mc);
    }
  }
}

}  // namespace pivot
