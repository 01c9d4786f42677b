// The World's actuator stages (engine/actuator.hpp): the servos' rows in the step's LCP and the
// effort actuators' generalized forces.
#include <Eigen/Dense>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

// The servo actuators' rows J v⁺ + c λ = b, |λ| ≤ h effort_limit (engine/actuator.hpp)
void World::add_servo_rows() {
  const double h = settings_.time_step;
  for (int a = 0; a < actuator_count(); ++a) {
    const Actuator& act = actuators_[a];
    if (act.type() == ActuatorType::effort) continue;
    const Joint& joint = *joints_[act.joint()];
    const Pose A = set_.pose(joint.body_a()), B = set_.pose(joint.body_b());
    detail::MotorConstraint mc;
    mc.body_a = joint.body_a();
    mc.body_b = joint.body_b();
    joint.coordinate_row(A, B, mc.J_A, mc.J_B);
    const Actuator::ServoRow row = act.servo_row(joint.coordinate(A, B), time_, h);
    mc.target = row.target;
    mc.max_impulse = row.max_impulse;
    mc.compliance = row.compliance;
    mc.owner = act.joint();
    mc.actuator = a;
    rows_->motors.push_back(mc);
  }
}

// The effort actuators' generalized forces Jᵀu, u clamped to its limit (engine/actuator.hpp)
void World::add_actuator_efforts(Eigen::VectorXd& wrenches) {
  for (Actuator& act : actuators_) {
    if (act.type() != ActuatorType::effort) continue;
    const Joint& joint = *joints_[act.joint()];
    const Pose A = set_.pose(joint.body_a()), B = set_.pose(joint.body_b());
    Row6 J_A, J_B;
    joint.coordinate_row(A, B, J_A, J_B);
    const double u = act.commanded_effort(time_);
    act.set_effort(u);
    const int a = joint.body_a(), b = joint.body_b();
    if (a >= 0 && !set_.body(a).fixed) wrenches.segment<6>(6 * a) += u * J_A.transpose();
    if (b >= 0 && !set_.body(b).fixed) wrenches.segment<6>(6 * b) += u * J_B.transpose();
  }
}

}  // namespace pivot
