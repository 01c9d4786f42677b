// Springs: analytic gradients against finite differences, and the linearly implicit step.
#include <catch2/catch.hpp>
#include <cmath>

#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {
Eigen::VectorXd wrenches(const RigidBodySet& set, const ExternalForce& f) {
  Eigen::VectorXd w = Eigen::VectorXd::Zero(6 * set.size());
  f.apply(set, 0.0, w);
  return w;
}
}  // namespace

TEST_CASE("spring gradients match finite differences", "[forces]") {
  RigidBodySet set;
  BodySettings s;
  s.inertia_diag = Vec3(1, 1, 1);
  set.add(make_rigid_body(s),
          Pose{Vec3(0.1, 0.2, 0.3), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()))},
          (Vec6() << 0.3, -0.2, 0.5, 1.0, 0.1, -0.4).finished());
  set.add(make_rigid_body(s),
          Pose{Vec3(1.1, -0.4, 0.8), Quat(Eigen::AngleAxisd(-0.7, Vec3(0, 1, 1).normalized()))},
          (Vec6() << -0.1, 0.4, 0.2, -0.3, 0.6, 0.2).finished());
  const auto spring = make_spring({.body_a = 0,
                                   .p_APa = Vec3(0.1, 0.05, -0.2),
                                   .body_b = 1,
                                   .p_BPb = Vec3(-0.2, 0.1, 0.1),
                                   .stiffness = 300.0,
                                   .damping = 0.0,
                                   .rest_length = 0.4});
  Triplets dp, dv;
  REQUIRE(spring->add_gradients(set, 0.0, dp, dv));
  Eigen::SparseMatrix<double> Dp(12, 12);
  Dp.setFromTriplets(dp.begin(), dp.end());
  const Eigen::MatrixXd analytic = Dp;
  // central differences along each body's twist displacement (δθ; δx)
  const double eps = 1e-6;
  Eigen::MatrixXd fd(12, 12);
  for (int b = 0; b < 2; ++b)
    for (int k = 0; k < 6; ++k) {
      RigidBodySet plus = set, minus = set;
      Vec6 d = Vec6::Zero();
      d(k) = eps;
      plus.set_pose(b, integrate(set.pose(b), d));
      minus.set_pose(b, integrate(set.pose(b), -d));
      fd.col(6 * b + k) = (wrenches(plus, *spring) - wrenches(minus, *spring)) / (2 * eps);
    }
  INFO("max |analytic − fd| = " << (analytic - fd).cwiseAbs().maxCoeff());
  CHECK((analytic - fd).cwiseAbs().maxCoeff() < 1e-5 * fd.cwiseAbs().maxCoeff());

  // damping: ∂f/∂v exactly linear in v
  const auto damper = make_spring({.body_a = 0,
                                   .p_APa = Vec3(0.1, 0.05, -0.2),
                                   .body_b = 1,
                                   .p_BPb = Vec3(-0.2, 0.1, 0.1),
                                   .stiffness = 0.0,
                                   .damping = 7.0,
                                   .rest_length = 0.4});
  Triplets dp2, dv2;
  REQUIRE(damper->add_gradients(set, 0.0, dp2, dv2));
  Eigen::SparseMatrix<double> Dv(12, 12);
  Dv.setFromTriplets(dv2.begin(), dv2.end());
  Eigen::MatrixXd fdv(12, 12);
  for (int j = 0; j < 12; ++j) {
    RigidBodySet plus = set, minus = set;
    plus.twist(j / 6)(j % 6) += eps;
    minus.twist(j / 6)(j % 6) -= eps;
    fdv.col(j) = (wrenches(plus, *damper) - wrenches(minus, *damper)) / (2 * eps);
  }
  CHECK((Eigen::MatrixXd(Dv) - fdv).cwiseAbs().maxCoeff() < 1e-7);
}

namespace {
// a 1 kg body on a k = 1e6 N/m spring to the world, displaced by 1 cm, h = 10 ms: ω h = 10
double peak_energy(bool implicit) {
  WorldSettings ws{
      .time_step = 0.01, .gravity = Vec3::Zero(), .stabilization = Stabilization::none};
  ws.implicit_forces = implicit;
  World world(ws);
  world.add_body({.name = "mass", .mass = 1.0, .p_WS = Vec3(0.01, 0, 0)});
  world.add_spring({.body_a = 0, .body_b = kWorldBody, .stiffness = 1e6, .rest_length = 0.0});
  double peak = 0.0;
  for (int k = 0; k < 100; ++k) {
    world.step();
    peak = std::max(peak, world.kinetic_energy() + world.potential_energy());
    if (!std::isfinite(peak)) return INFINITY;
  }
  return peak;
}
}  // namespace

TEST_CASE("stiff spring: explicit blows up, linearly implicit stays bounded", "[world]") {
  const double E0 = 0.5 * 1e6 * 0.01 * 0.01;  // 50 J
  const double explicit_peak = peak_energy(false);
  const double implicit_peak = peak_energy(true);
  INFO("E0 = " << E0 << " J, explicit peak " << explicit_peak << ", implicit peak "
               << implicit_peak);
  CHECK(explicit_peak > 1e6 * E0);
  CHECK(implicit_peak <= E0 * (1.0 + 1e-9));
}

TEST_CASE("potential energy: a spring's ½ k (L − L0)², other forces none", "[world][springs]") {
  World world({.time_step = 1e-3, .gravity = Vec3::Zero()});
  const int b = world.add_body({.name = "bob", .mass = 2.0, .p_WS = Vec3(0.3, 0.0, 0.4)});
  // anchored at the world point (0, 0, 0.4): L = 0.3 m, L0 = 0.1 m, k = 200 N/m
  world.add_spring({.body_a = b,
                    .body_b = kWorldBody,
                    .p_BPb = Vec3(0.0, 0.0, 0.4),
                    .stiffness = 200.0,
                    .damping = 3.0,
                    .rest_length = 0.1});
  world.add_force({.body = b, .force = Vec3(0.0, 1.0, 0.0)});
  world.add_force_callback([](const RigidBodySet&, double, Eigen::VectorXd&) {});
  CHECK(world.potential_energy() == Approx(0.5 * 200.0 * 0.2 * 0.2));  // 4 J, by hand
  // with gravity the body's −m g·x is added: 2 kg · 9.81 · 0.4 m = 7.848 J
  World heavy({.time_step = 1e-3});
  const int c = heavy.add_body({.name = "bob", .mass = 2.0, .p_WS = Vec3(0.3, 0.0, 0.4)});
  heavy.add_spring({.body_a = c,
                    .body_b = kWorldBody,
                    .p_BPb = Vec3(0.0, 0.0, 0.4),
                    .stiffness = 200.0,
                    .rest_length = 0.1});
  CHECK(heavy.potential_energy() == Approx(4.0 + 2.0 * 9.81 * 0.4));
}
