// Interactions applied to a World (interaction.hpp; docs/scene-format.md "Interactions").
#include "pivot/scenes/interaction.hpp"

#include <fmt/core.h>

#include <cmath>
#include <numbers>

#include "pivot/collision/planar_shape.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot {

const char* to_string(InteractionType type) {
  switch (type) {
    case InteractionType::pull:
      return "pull";
    case InteractionType::move:
      return "move";
    case InteractionType::release:
      return "release";
    case InteractionType::throw_ball:
      return "throw";
    case InteractionType::set_dt:
      return "set_dt";
    case InteractionType::hybrid:
      return "hybrid";
    case InteractionType::set_target:
      return "set_target";
    case InteractionType::end:
      return "end";
  }
  return "unknown";
}

PullDefaults default_pull(double mass) {
  const double omega = 2.0 * std::numbers::pi * 3.0;
  return {mass * omega * omega, 2.0 * mass * omega};
}

InteractionDriver::InteractionDriver(World& world)
    : world_(&world),
      pull_(&static_cast<PullForce&>(world.add_force(std::make_unique<PullForce>()))) {}

SceneBody InteractionDriver::thrown_ball(const SceneInteraction& e) const {
  // the ball leaves from `origin` along the pick ray with the chosen speed (Cline §4.7)
  if (!e.origin.allFinite() || !e.direction.allFinite() || !(e.direction.norm() > 1e-12))
    throw Error("throw: origin and direction must be finite, the direction non-zero");
  if (!(e.speed >= 0.0 && e.speed <= kMaxThrowSpeed))
    throw Error(
        fmt::format("throw: speed must be in [0, {:g}] m/s (got {})", kMaxThrowSpeed, e.speed));
  if (!(e.radius > 0.0 && e.radius <= kMaxThrowRadius))
    throw Error(
        fmt::format("throw: radius must be in (0, {:g}] m (got {})", kMaxThrowRadius, e.radius));
  if (!(e.density > 0.0) || !std::isfinite(e.density))
    throw Error(fmt::format("throw: density must be positive and finite (got {})", e.density));
  SceneBody b;
  b.settings.name = fmt::format("thrown-{}", thrown_ + 1);
  b.settings.density = e.density;
  b.has_density = true;
  SceneShape shape;
  if (world_->settings().dimension == 2) {
    // a planar world (docs/planar.md) throws a disc in its plane y = 0: the origin and the
    // direction are projected on it, and a direction along y alone has nothing left to throw
    Vec3 d = e.direction.normalized();
    d.y() = 0.0;
    if (!(d.norm() > 1e-9))
      throw Error(
          "throw: in a planar world the direction needs an x or z component (it is "
          "along y, across the plane)");
    b.settings.p_WS = Vec3(e.origin.x(), 0.0, e.origin.z());
    b.settings.v_WB = e.speed * d.normalized();
    // a planar body's density is per area: the disc is as thick as its diameter, so it weighs
    // about what the sphere would (ρ 2r π r² against ρ 4/3 π r³)
    b.settings.density = e.density * 2.0 * e.radius;
    shape.type = ShapeType::planar;
    shape.planar = std::make_shared<const PlanarShape>(make_planar_circle(e.radius));
    shape.built = make_planar(shape.planar);
  } else {
    b.settings.p_WS = e.origin;
    b.settings.v_WB = e.speed * e.direction.normalized();
    shape.type = ShapeType::sphere;
    shape.radius = e.radius;
    shape.built = make_sphere(e.radius);
  }
  b.settings.shape = shape.built;
  b.shape = std::move(shape);
  return b;
}

void InteractionDriver::apply(const SceneInteraction& e) {
  World& w = *world_;
  switch (e.type) {
    case InteractionType::pull: {
      const int body = w.find_body(e.body);
      if (body < 0) throw Error(fmt::format("pull: no body named \"{}\"", e.body));
      if (w.bodies().body(body).fixed)
        throw Error(fmt::format("pull: body \"{}\" is fixed", e.body));
      pull_->start({.body = body,
                    .p_BP = e.point,
                    .p_WT = e.target,
                    .stiffness = e.stiffness,
                    .damping = e.damping});
      return;
    }
    case InteractionType::move:
      pull_->move(e.target);
      return;
    case InteractionType::release:
      pull_->release();
      return;
    case InteractionType::throw_ball: {
      const SceneBody b = thrown_ball(e);
      if (w.find_body(b.settings.name) >= 0)
        throw Error(fmt::format("throw: a body is already named \"{}\"", b.settings.name));
      w.add_body(b.settings);
      ++thrown_;
      return;
    }
    case InteractionType::set_dt:
      w.set_time_step(e.dt);
      return;
    case InteractionType::hybrid:
      w.set_hybrid(e.on);
      return;
    case InteractionType::set_target:
      w.set_actuator_target(e.actuator, e.value);  // pivot::Error for an unknown actuator
      return;
    case InteractionType::end:
      return;
  }
}

}  // namespace pivot
