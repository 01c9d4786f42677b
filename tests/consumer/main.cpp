// The smallest program a user of the installed library would write: the README's example,
// character for character between the markers (tests/consumer/readme_example.cmake checks it).
// README example begins
#include <pivot/collision/shape.hpp>
#include <pivot/engine/world.hpp>

#include <cmath>
#include <cstdio>

int main() {
  pivot::World world({.time_step = 1e-3});  // gravity (0, 0, -9.81) m/s², SI units, z up
  world.add_body({.name = "ground", .fixed = true, .shape = pivot::make_plane({0, 0, 1}, 0.0)});
  const int box = world.add_body({.name = "box",
                                  .mass = 2.0,
                                  .shape = pivot::make_box({0.1, 0.1, 0.1}),  // half extents, m
                                  .p_WS = {0.0, 0.0, 0.5}});
  for (int i = 0; i < 2000; ++i) world.step();  // 2 s: the box falls 0.4 m and comes to rest
  const double z = world.pose(box).p_WB.z();    // centre of mass, world: 0.1 m on the plane
  double normal_impulse = 0.0;                  // this step's contact impulses, N·s
  for (const pivot::ContactInfo& c : world.contacts()) normal_impulse += c.normal_impulse;
  std::printf("box at z = %.9f m, %zu contacts, weight x h = %.6f N s\n", z,
              world.contacts().size(), normal_impulse);
  return std::abs(z - 0.1) < 1e-6 && std::abs(normal_impulse - 2.0 * 9.81 * 1e-3) < 1e-9 ? 0 : 1;
}
// README example ends
