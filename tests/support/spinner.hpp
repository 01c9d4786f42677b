#pragma once
// A rod spinning about its own centre on a hinge about world z (A = rod, B = world), no gravity,
// isotropic inertia I: no gyroscopic term, the joint rows stay exactly satisfied, and the hinge
// angle θ obeys I θ̈ = u (θ̇ = a·(ω_B − ω_A) = −ω_z, the torque on A is −u a). The closed-form
// fixture of the actuator and controller tests.
#include "pivot/constraints/hinge_joint.hpp"
#include "pivot/engine/world.hpp"

namespace pivot::test {

struct Spinner {
  World world;
  int rod = 0, hinge = 0;
};

inline Spinner make_spinner(double h, double I) {
  Spinner s{World({.time_step = h, .gravity = Vec3::Zero()}), 0, 0};
  s.rod = s.world.add_body({.name = "rod", .mass = 1.0, .inertia_diag = Vec3(I, I, I)});
  s.hinge = s.world.add_joint(
      HingeJointSettings{.name = "spin", .anchor_W = Vec3::Zero(), .axis_W = Vec3::UnitZ()}, s.rod,
      kWorldBody);
  return s;
}

}  // namespace pivot::test
