// The trajectory-driven manipulandum (engine/trajectory_coupling.hpp; Barbič 2007 §4.3, §4.9):
// the quaternion torque's sign invariance and closed form, the gradients against finite
// differences, the target's velocity against differences of its poses, the steady-state lag of
// a body dragged along a line against the damped spring's closed form, and a stiff coupling in
// the linearly implicit step.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "pivot/engine/trajectory_coupling.hpp"
#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

Quat random_quat(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized();
}

Quat axis_angle(double angle, const Vec3& axis) {
  return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

std::shared_ptr<KinematicTrack> two_poses(const KeyFrame& a, const KeyFrame& b) {
  auto track = std::make_shared<KinematicTrack>();
  track->keyframes = {a, b};
  return track;
}

Eigen::VectorXd wrenches(const RigidBodySet& set, const ExternalForce& f, double t) {
  Eigen::VectorXd w = Eigen::VectorXd::Zero(6 * set.size());
  f.apply(set, t, w);
  return w;
}

RigidBodySet one_body(const Pose& X, const Vec6& twist) {
  RigidBodySet set;
  BodySettings s;
  s.inertia_diag = Vec3(0.5, 1.0, 1.5);
  set.add(make_rigid_body(s), X, twist);
  return set;
}

}  // namespace

// Barbič §4.3: T = k vec(toPositiveHemisphere(q_m q_s⁻¹)); with k = 2κ its magnitude is
// 2κ sin(θ/2) about the axis of the shortest rotation from the body to the target. The
// expected axis and angle come from the rotation matrices R_T R_Bᵀ (Eigen's AngleAxis of a
// matrix), not from quaternion products.
TEST_CASE("q and -q give the same coupling torque, 2 kappa sin(theta/2) about the axis",
          "[forces][manipulandum]") {
  std::mt19937 rng(20);
  const double kappa = 3.5;
  for (int i = 0; i < 200; ++i) {
    const Quat q_T = random_quat(rng), q_B = random_quat(rng);
    const Quat neg_T(-q_T.w(), -q_T.x(), -q_T.y(), -q_T.z());
    const Quat neg_B(-q_B.w(), -q_B.x(), -q_B.y(), -q_B.z());
    const Vec3 T = coupling_torque(q_T, q_B, kappa);
    CHECK((coupling_torque(neg_T, q_B, kappa) - T).norm() <= 1e-14);
    CHECK((coupling_torque(q_T, neg_B, kappa) - T).norm() <= 1e-14);
    CHECK((coupling_torque(neg_T, neg_B, kappa) - T).norm() <= 1e-14);
    const Eigen::AngleAxisd e(Mat3(q_T.toRotationMatrix() * q_B.toRotationMatrix().transpose()));
    const Vec3 expected = 2.0 * kappa * std::sin(e.angle() / 2.0) * e.axis();
    CHECK((T - expected).norm() <= 1e-12);
  }
  // a 270° turn about z is a 90° turn the other way: the torque turns the body by −z
  const Vec3 T = coupling_torque(axis_angle(1.5 * M_PI, Vec3::UnitZ()), Quat::Identity(), kappa);
  CHECK(T.z() == Approx(-2.0 * kappa * std::sin(M_PI / 4.0)));
  CHECK(T.head<2>().norm() <= 1e-15);
}

TEST_CASE("the target's velocity is the difference quotient of its poses",
          "[forces][manipulandum]") {
  KinematicTrack track;
  track.keyframes = {{0.0, Vec3(0, 0, 0), Quat::Identity()},
                     {0.5, Vec3(0.2, -0.1, 0.3), axis_angle(1.2, Vec3(1, 2, 0))},
                     {1.5, Vec3(0.2, 0.4, 0.1), axis_angle(2.5, Vec3(0, 1, 1))}};
  check_track(track);
  for (const double t : {0.1, 0.3, 0.7, 1.2}) {
    const double eps = 1e-6;
    const TargetState s = target_state(track, t);
    const TrackPose a = sample_track(track, t - eps), b = sample_track(track, t + eps);
    CHECK((s.v_T - (b.p_WS - a.p_WS) / (2 * eps)).norm() <= 1e-7);
    CHECK((s.w_T - quat_log(b.q_WB * a.q_WB.conjugate()) / (2 * eps)).norm() <= 1e-6);
  }
  CHECK(target_state(track, -1.0).v_T.isZero());
  CHECK(target_state(track, 2.0).w_T.isZero());
}

TEST_CASE("coupling gradients match finite differences", "[forces][manipulandum]") {
  // a moving target (nonzero v_T, ω_T); the error angle 150° and, at the second pose, 250°
  // (q_e's scalar part negative before the hemisphere flip)
  const auto track = two_poses({0.0, Vec3(0.1, 0.0, 0.2), axis_angle(0.3, Vec3(0, 0, 1))},
                               {1.0, Vec3(0.5, -0.2, 0.4), axis_angle(0.9, Vec3(1, 1, 0))});
  const TrajectoryCoupling coupling({.body = 0,
                                     .path = track,
                                     .p_BG = Vec3(0.1, -0.05, 0.2),
                                     .stiffness = 250.0,
                                     .damping = 3.0,
                                     .rotational_stiffness = 7.0,
                                     .rotational_damping = 0.4,
                                     .lead = 0.01});
  const double t = 0.4;
  for (const double angle : {150.0, 250.0}) {
    const Pose X{Vec3(0.3, 0.2, 0.1), axis_angle(angle * M_PI / 180.0, Vec3(1, -2, 0.5)) *
                                          target_state(*track, t + 0.01).q_WT};
    // positions: at zero body velocity the neglected damping term vanishes, so ∂W/∂p is exact
    {
      const RigidBodySet set = one_body(X, Vec6::Zero());
      Triplets dp, dv;
      REQUIRE(coupling.add_gradients(set, t, dp, dv));
      Eigen::SparseMatrix<double> Dp(6, 6);
      Dp.setFromTriplets(dp.begin(), dp.end());
      const Eigen::MatrixXd analytic = Dp;
      const double eps = 1e-6;
      Eigen::MatrixXd fd(6, 6);
      for (int k = 0; k < 6; ++k) {
        RigidBodySet plus = set, minus = set;
        Vec6 d = Vec6::Zero();
        d(k) = eps;
        plus.set_pose(0, integrate(set.pose(0), d));
        minus.set_pose(0, integrate(set.pose(0), -d));
        fd.col(k) = (wrenches(plus, coupling, t) - wrenches(minus, coupling, t)) / (2 * eps);
      }
      INFO("angle " << angle
                    << ": max |analytic − fd| = " << (analytic - fd).cwiseAbs().maxCoeff());
      CHECK((analytic - fd).cwiseAbs().maxCoeff() < 1e-6 * fd.cwiseAbs().maxCoeff());
    }
    // velocities: the wrench is linear in the twist, so differences are exact
    {
      const Vec6 V = (Vec6() << 0.3, -0.2, 0.5, 1.0, 0.1, -0.4).finished();
      const RigidBodySet set = one_body(X, V);
      Triplets dp, dv;
      REQUIRE(coupling.add_gradients(set, t, dp, dv));
      Eigen::SparseMatrix<double> Dv(6, 6);
      Dv.setFromTriplets(dv.begin(), dv.end());
      const Eigen::MatrixXd analytic = Dv;
      Eigen::MatrixXd fd(6, 6);
      for (int k = 0; k < 6; ++k) {
        RigidBodySet plus = set, minus = set;
        Vec6 d = Vec6::Zero();
        d(k) = 1e-3;
        plus.twist(0) = V + d;
        minus.twist(0) = V - d;
        fd.col(k) = (wrenches(plus, coupling, t) - wrenches(minus, coupling, t)) / 2e-3;
      }
      CHECK((analytic - fd).cwiseAbs().maxCoeff() < 1e-9 * fd.cwiseAbs().maxCoeff());
    }
  }
}

TEST_CASE("bad coupling settings are errors", "[forces][manipulandum]") {
  const auto track =
      two_poses({0.0, Vec3::Zero(), Quat::Identity()}, {1.0, Vec3::UnitX(), Quat::Identity()});
  CHECK_THROWS_AS(TrajectoryCoupling({.body = 0, .path = nullptr, .stiffness = 1}), Error);
  CHECK_THROWS_AS(TrajectoryCoupling({.body = -1, .path = track, .stiffness = 1}), Error);
  CHECK_THROWS_AS(TrajectoryCoupling({.body = 0, .path = track, .stiffness = -1}), Error);
  CHECK_THROWS_AS(TrajectoryCoupling({.body = 0, .path = track, .stiffness = 1, .damping = NAN}),
                  Error);
  CHECK_THROWS_AS(
      TrajectoryCoupling({.body = 0, .path = track, .p_BG = Vec3(INFINITY, 0, 0), .stiffness = 1}),
      Error);
  // a track whose velocity overflows (1e9 m in 1e-300 s): the wrench is not finite (the World
  // drops it with a warning) and no gradient is given, so nothing non-finite reaches the step
  const auto wild =
      two_poses({0.0, Vec3::Zero(), Quat::Identity()}, {1e-300, Vec3(1e9, 0, 0), Quat::Identity()});
  const TrajectoryCoupling overflow({.body = 0, .path = wild, .stiffness = 1, .damping = 1});
  const RigidBodySet set = one_body(Pose{}, Vec6::Zero());
  Triplets dp, dv;
  CHECK_FALSE(overflow.wrench(set, 5e-301).allFinite());
  CHECK_FALSE(overflow.add_gradients(set, 5e-301, dp, dv));
  CHECK(dp.empty());
  CHECK(dv.empty());
  auto cubic = std::make_shared<KinematicTrack>(*track);
  cubic->interpolation = TrackInterpolation::cubic;
  CHECK_THROWS_AS(TrajectoryCoupling({.body = 0, .path = cubic, .stiffness = 1}), Error);
}

// A body dragged at constant velocity V along x, its target turning at constant rate Ω about
// z, against a constant resisting force R (−x) and torque τ_R (−z); no gravity. Along the
// line the lag e = x_T − x obeys the damped spring
//   m ë + c ė + k e = R,   e(0) = 0, ė(0) = V,
// whose solution settles at e = R/k (independent of c); about z the torque 2κ sin(θ/2) balances
// τ_R at the lag θ = 2 asin(τ_R / (2κ)). The transient is the closed form
//   e(t) = R/k + e^{−ζω t} (A cos ω_d t + B sin ω_d t),  A = −R/k,  B = (V + ζω A)/ω_d,
// ω = √(k/m), ζ = c/(2mω), ω_d = ω √(1 − ζ²), followed within the implicit Euler step's error.
TEST_CASE("a dragged body settles at the closed-form lag of a damped spring",
          "[forces][manipulandum]") {
  const double m = 1.0, k = 400.0, c = 8.0, V = 0.1, R = 2.0;
  const double I = 0.1, kappa = 5.0, c_r = 0.5, Omega = 0.8, tau_R = 3.0;
  const double h = 1e-3, T_end = 6.0;
  // a key frame a second (0.8 rad apart: slerp takes the short way, so a turn of more than π
  // needs intermediate frames)
  auto track = std::make_shared<KinematicTrack>();
  for (int i = 0; i <= 10; ++i)
    track->keyframes.push_back(
        {double(i), Vec3(V * i, 0, 1), axis_angle(Omega * i, Vec3::UnitZ())});
  World world({.time_step = h, .gravity = Vec3::Zero()});
  const int body = world.add_body(
      {.name = "b", .mass = m, .inertia_diag = Vec3(I, I, I), .p_WS = Vec3(0, 0, 1)});
  world.add_force(
      std::make_unique<TrajectoryCoupling>(TrajectoryCouplingSettings{.body = body,
                                                                      .path = track,
                                                                      .stiffness = k,
                                                                      .damping = c,
                                                                      .rotational_stiffness = kappa,
                                                                      .rotational_damping = c_r,
                                                                      .lead = h}));
  world.add_force(
      ConstantForceSettings{.body = body, .force = Vec3(-R, 0, 0), .torque = Vec3(0, 0, -tau_R)});
  const double w = std::sqrt(k / m), zeta = c / (2 * m * w), wd = w * std::sqrt(1 - zeta * zeta);
  const double A = -R / k, B = (V + zeta * w * A) / wd;
  double worst_transient = 0.0;
  while (world.time() < T_end - h / 2) {
    world.step();
    const double t = world.time();
    const double e = V * t - world.pose(body).p_WB.x();
    const double closed =
        R / k + std::exp(-zeta * w * t) * (A * std::cos(wd * t) + B * std::sin(wd * t));
    worst_transient = std::max(worst_transient, std::abs(e - closed));
  }
  const double t = world.time();
  const double lag = V * t - world.pose(body).p_WB.x();
  INFO("lag " << lag << " m, closed form R/k = " << R / k << "; worst transient deviation "
              << worst_transient << " m");
  CHECK(lag == Approx(R / k).epsilon(1e-6));
  CHECK(worst_transient <= 0.05 * (V / wd + R / k));  // implicit Euler's damping, O(ω h)
  CHECK(world.pose(body).p_WB.tail<2>().isApprox(Vec2(0, 1), 1e-12));
  const Vec3 phi =
      quat_log(axis_angle(Omega * t, Vec3::UnitZ()) * world.pose(body).q_WB.conjugate());
  const double expected = 2.0 * std::asin(tau_R / (2.0 * kappa));
  INFO("angular lag " << phi.transpose() << ", closed form " << expected);
  CHECK(phi.z() == Approx(expected).epsilon(1e-5));
  CHECK(phi.head<2>().norm() <= 1e-9);
}

// k and κ with h √(k/m) = h √(κ/I) = 20: the explicit step would grow by |h²k/m − 2| ≈ 398 a
// step (test_pull_force.cpp); the linearly implicit step with the coupling's gradients stays
// bounded and follows the target (the lag of a stiff spring at speed V with relative damping
// is zero in steady state).
TEST_CASE("a stiff coupling stays stable and follows its target", "[forces][manipulandum]") {
  const double m = 2.0, I = 0.05, h = 0.01;
  const double k = m * 2000.0 * 2000.0, kappa = I * 2000.0 * 2000.0;
  const auto track = two_poses({0.0, Vec3(0, 0, 0), axis_angle(0.2, Vec3(0, 1, 0))},
                               {1.0, Vec3(0.3, 0.1, -0.2), axis_angle(2.0, Vec3(1, 0, 1))});
  for (const bool implicit : {true, false}) {
    World world({.time_step = h, .gravity = Vec3::Zero(), .implicit_forces = implicit});
    const int body = world.add_body(
        {.name = "b", .mass = m, .inertia_diag = Vec3(I, 2 * I, 3 * I), .p_WS = Vec3(0.05, 0, 0)});
    world.add_force(std::make_unique<TrajectoryCoupling>(
        TrajectoryCouplingSettings{.body = body,
                                   .path = track,
                                   .p_BG = Vec3(0.02, 0, 0),
                                   .stiffness = k,
                                   .damping = 5.0,
                                   .rotational_stiffness = kappa,
                                   .rotational_damping = 0.01,
                                   .lead = h}));
    const int steps = implicit ? 150 : 8;
    double largest = 0.0;
    for (int i = 0; i < steps; ++i) {
      world.step();
      if (!world.pose(body).p_WB.allFinite()) break;
      largest = std::max(largest, world.pose(body).p_WB.norm());
    }
    const TargetState target = target_state(*track, world.time());
    const Pose X = world.pose(body);
    if (implicit) {
      const Vec3 p_WG = X.to_world(Vec3(0.02, 0, 0));
      INFO("position error " << (p_WG - target.p_WT).norm() << ", largest |p| " << largest);
      CHECK(largest < 1.0);
      CHECK((p_WG - target.p_WT).norm() < 1e-3);
      CHECK(quat_log(target.q_WT * X.q_WB.conjugate()).norm() < 1e-3);
    } else {
      CHECK(!(largest < 1e3));  // explicit: blown up (or NaN)
    }
  }
}
