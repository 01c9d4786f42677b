// A planar (2-D) world built from the installed package alone (docs/planar.md): a disc of
// radius 0.1 m dropped on the ground half-plane z ≤ 0 comes to rest with its centre at z = r.
#include <pivot/collision/planar_shape.hpp>
#include <pivot/collision/shape.hpp>
#include <pivot/engine/world.hpp>

#include <cmath>
#include <cstdio>
#include <memory>

int main() {
  const double r = 0.1;  // m
  pivot::World world({.dimension = 2, .time_step = 1e-3, .friction_directions = 2});
  const auto planar = [](pivot::PlanarShape s) {
    return pivot::make_planar(std::make_shared<const pivot::PlanarShape>(std::move(s)));
  };
  world.add_body({.name = "ground",
                  .fixed = true,
                  .shape = planar(pivot::make_planar_half_plane({0.0, 1.0}, 0.0))});
  const int disc = world.add_body({.name = "disc",
                                   .mass = 1.0,
                                   .shape = planar(pivot::make_planar_circle(r)),
                                   .p_WS = {0, 0, 0.5}});
  for (int i = 0; i < 2000; ++i) world.step();  // 2 s: it falls 0.4 m and comes to rest
  const pivot::Vec3 x = world.pose(disc).p_WB;
  std::printf("disc at x = %.9f, y = %.9f, z = %.9f m\n", x.x(), x.y(), x.z());
  return std::abs(x.z() - r) < 1e-6 && x.y() == 0.0 ? 0 : 1;
}
