// The smallest program a user of the installed library would write: the README's example.
#include "pivot/engine/world.hpp"

int main() {
  pivot::World world({.time_step = 1e-3});
  const int bob = world.add_body({.name = "bob", .mass = 1.0, .p_WS = {0.3, 0.0, -1.0}});
  world.add_joint(pivot::BallJointSettings{.name = "pin", .anchor_W = {0, 0, 0}}, bob,
                  pivot::kWorldBody);
  for (int i = 0; i < 2000; ++i) world.step();
  const pivot::Vec3 x = world.pose(bob).p_WB;    // centre of mass, world
  const double error = world.max_joint_error();  // stays below 1e-9 m with post-stabilization
  return x.allFinite() && error < 1e-6 ? 0 : 1;
}
