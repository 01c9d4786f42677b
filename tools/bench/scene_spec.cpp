#include "scene_spec.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>

namespace pivot::bench {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = 3.14159265358979323846;
// the boxes of the stack, the pyramid and the incline (as in tests/engine/test_world_contacts.cpp)
const Vec3 kBoxHalf(0.1, 0.1, 0.05);

}  // namespace

// max over bodies of |x(t) − x(0)|: every body of these scenes starts at rest, in equilibrium
double max_drift(const Simulation& sim, const SceneSpec& spec) {
  double drift = 0.0;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i)
    drift = std::max(drift, (sim.position(static_cast<int>(i)) - spec.bodies[i].position).norm());
  return drift;
}

BodySpec box_body(const Vec3& e, double mass, const Vec3& position) {
  BodySpec b;
  b.shape = ShapeKind::box;
  b.half_extents = e;
  b.mass = mass;
  b.inertia_diag = mass / 3.0 *
                   Vec3(e.y() * e.y() + e.z() * e.z(), e.x() * e.x() + e.z() * e.z(),
                        e.x() * e.x() + e.y() * e.y());
  b.position = position;
  return b;
}

BodySpec sphere_body(double radius, double mass, const Vec3& position) {
  BodySpec b;
  b.shape = ShapeKind::sphere;
  b.radius = radius;
  b.mass = mass;
  b.inertia_diag = Vec3::Constant(0.4 * mass * radius * radius);
  b.position = position;
  return b;
}

double ball_joint_error(const Simulation& sim, const SceneSpec& spec, int j) {
  // every body starts with the identity orientation: the anchor in body i's frame is
  // anchor_W − x_i(0)
  const BallJointSpec& joint = spec.joints[static_cast<std::size_t>(j)];
  auto end = [&](int body) -> Vec3 {
    if (body < 0) return joint.anchor_W;
    const Vec3 local = joint.anchor_W - spec.bodies[static_cast<std::size_t>(body)].position;
    return sim.position(body) + sim.orientation(body) * local;
  };
  return (end(joint.body_a) - end(joint.body_b)).norm();
}

// Incline: a level plane under gravity turned by θ about y, so that the slope runs downhill
// along +x. Coulomb: the block sticks iff tan θ ≤ μ; above, a = g (sin θ − μ cos θ) and it
// slides d(t) = ½ a t² from rest.
SceneCase incline_case(bool above) {
  const double mu = 0.5, theta = std::atan(mu) + (above ? 2.0 : -2.0) * kPi / 180.0;
  SceneCase c;
  c.spec.name = above ? "incline, atan(μ)+2°: slides" : "incline, atan(μ)−2°: sticks";
  c.spec.time_step = 1e-3;
  c.spec.duration = 1.0;
  c.spec.gravity = kG * Vec3(std::sin(theta), 0.0, -std::cos(theta));
  c.spec.friction = mu;
  c.spec.bodies.push_back(box_body(kBoxHalf, 1.0, Vec3(0.0, 0.0, kBoxHalf.z())));
  const double a = above ? kG * (std::sin(theta) - mu * std::cos(theta)) : 0.0;
  c.measure = "|slide − exact| at 1 s (m)";
  c.exact = above ? fmt::format("slides ½at² = {:.4f} m in 1 s (a = {:.4f} m/s²)", 0.5 * a, a)
                  : "sticks: slides 0 m";
  c.error = [a](const Simulation& sim, const SceneSpec& spec, double t) {
    const Vec3 d = sim.position(0) - spec.bodies[0].position;
    return (d - Vec3(0.5 * a * t * t, 0.0, 0.0)).norm();
  };
  return c;
}

SceneCase stack_case(int boxes, double duration, double time_step, const Vec3& half_extents,
                     double mass) {
  SceneCase c;
  c.spec.name = fmt::format("{}-box stack", boxes);
  c.spec.time_step = time_step;
  c.spec.duration = duration;
  c.spec.friction = 0.6;
  for (int i = 0; i < boxes; ++i)
    c.spec.bodies.push_back(
        box_body(half_extents, mass, Vec3(0, 0, half_extents.z() * (2 * i + 1))));
  c.measure = fmt::format("max drift of a box at {:g} s (m)", duration);
  c.exact = "stays at rest: drift 0 m";
  c.error = [](const Simulation& sim, const SceneSpec& spec, double) {
    return max_drift(sim, spec);
  };
  return c;
}

// rows k = 0 … L−1 of L − k boxes, 2 cm apart sideways (no side contacts); each box rests
// centred on two boxes of the row below, overlapping each by 9 cm
SceneCase pyramid_case(int levels, double duration) {
  SceneCase c;
  c.spec.name = fmt::format("pyramid, {} levels ({} boxes)", levels, levels * (levels + 1) / 2);
  c.spec.time_step = 5e-3;
  c.spec.duration = duration;
  c.spec.friction = 0.6;
  const double pitch = 2.0 * kBoxHalf.x() + 0.02;
  for (int k = 0; k < levels; ++k) {
    const int n = levels - k;
    for (int j = 0; j < n; ++j)
      c.spec.bodies.push_back(box_body(
          kBoxHalf, 1.0, Vec3((j - 0.5 * (n - 1)) * pitch, 0.0, kBoxHalf.z() * (2 * k + 1))));
  }
  c.measure = fmt::format("max drift of a box at {:g} s (m)", duration);
  c.exact = "stays at rest: drift 0 m";
  c.error = [](const Simulation& sim, const SceneSpec& spec, double) {
    return max_drift(sim, spec);
  };
  return c;
}

// Cline 2002 §5.2.1 (scenes/chain_6_links.json): links 0.1 × 0.01 × 0.01 m, 0.1 kg, end to end
// along x at z = 1, pinned to the world at the origin end; h = 1 ms, 0.8 s; no contacts
SceneCase chain_case() {
  SceneCase c;
  c.spec.name = "6-link chain";
  c.spec.time_step = 1e-3;
  c.spec.duration = 0.8;
  c.spec.ground = false;
  const Vec3 half(0.05, 0.005, 0.005);
  for (int i = 0; i < 6; ++i) {
    BodySpec link = box_body(half, 0.1, Vec3(0.05 + 0.1 * i, 0.0, 1.0));
    link.shape = ShapeKind::none;  // the links do not collide
    c.spec.bodies.push_back(link);
    c.spec.joints.push_back({i, i - 1, Vec3(0.1 * i, 0.0, 1.0)});
  }
  c.measure = "max joint error over the run (m)";
  c.exact = "joints closed: error 0 m";
  c.max_over_run = true;
  c.error = [](const Simulation& sim, const SceneSpec& spec, double) {
    double e = 0.0;
    for (std::size_t j = 0; j < spec.joints.size(); ++j)
      e = std::max(e, ball_joint_error(sim, spec, static_cast<int>(j)));
    return e;
  };
  return c;
}

// a solid sphere (r = 0.1 m, ρ = 1000 kg/m³) launched at v0 = 2 m/s without spin on a plane with
// μ = 0.3: friction slows v and spins ω up until v = ω r, at t = 2 v0 / (7 μ g) = 0.19 s, after
// which it rolls at 5/7 v0
SceneCase rolling_sphere_case() {
  const double r = 0.1, v0 = 2.0;
  SceneCase c;
  c.spec.name = "sphere rolling to 5/7 v0";
  c.spec.time_step = 1e-3;
  c.spec.duration = 1.0;
  c.spec.friction = 0.3;
  BodySpec ball = sphere_body(r, 1000.0 * 4.0 / 3.0 * kPi * r * r * r, Vec3(0.0, 0.0, r));
  ball.velocity = Vec3(v0, 0.0, 0.0);
  c.spec.bodies.push_back(ball);
  c.measure = "|v − 5/7 v0| / (5/7 v0) at 1 s";
  c.exact = fmt::format("rolls at 5/7 v0 = {:.4f} m/s", 5.0 / 7.0 * v0);
  c.error = [v0](const Simulation& sim, const SceneSpec&, double) {
    return std::abs(sim.velocity(0).norm() - 5.0 / 7.0 * v0) / (5.0 / 7.0 * v0);
  };
  return c;
}

std::vector<Engine> engines() {
  std::vector<Engine> all{pivot_engine()};
#ifdef PIVOT_BENCH_HAVE_ODE
  all.push_back(ode_engine());
#endif
#ifdef PIVOT_BENCH_HAVE_BULLET
  all.push_back(bullet_mlcp_engine());
  all.push_back(bullet_si_engine());
#endif
  return all;
}

std::vector<std::string> missing_engines() {
  std::vector<std::string> missing;
#ifndef PIVOT_BENCH_HAVE_ODE
  missing.emplace_back("ode (libode-dev)");
#endif
#ifndef PIVOT_BENCH_HAVE_BULLET
  missing.emplace_back("bullet-mlcp, bullet-si (libbullet-dev with BulletDynamics-float64)");
#endif
  return missing;
}

}  // namespace pivot::bench
