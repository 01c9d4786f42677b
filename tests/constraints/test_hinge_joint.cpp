// Hinge joint: ball rows + g_i = a·b_i (exact), hinge angle θ with limit and motor rows.
#include <catch2/catch.hpp>
#include <numbers>

#include "joint_fd.hpp"
#include "pivot/constraints/hinge_joint.hpp"

using namespace pivot;
using namespace pivot::test;

namespace {

struct HingeCase {
  Pose A0, B0;
  Vec3 anchor, axis;  // world, at creation (axis unit)
};

HingeCase random_case(Rng& rng) {
  return {rng.pose(), rng.pose(), rng.vec(2.0), rng.unit()};
}

/// B turned by θ about the hinge (right-hand rule), then both moved by the rigid motion (R, t)
std::pair<Pose, Pose> on_manifold(const HingeCase& c, double theta, const Quat& R, const Vec3& t) {
  const Pose B = move(c.B0, axis_angle(c.axis, theta), c.anchor);
  return {move(c.A0, R, c.anchor, t), move(B, R, c.anchor, t)};
}

GFunction theta_g(const Joint& j) {
  return [&j](const Pose& A, const Pose& B) {
    return Eigen::VectorXd::Constant(1, j.coordinate(A, B));
  };
}

}  // namespace

TEST_CASE("hinge joint: g = 0 and θ = 0 at creation, θ follows the right-hand rule",
          "[constraints][hinge]") {
  Rng rng(201);
  for (int trial = 0; trial < 10; ++trial) {
    const HingeCase c = random_case(rng);
    // the axis is normalized: a scaled axis gives the same joint
    HingeJoint joint({.name = "h", .anchor_W = c.anchor, .axis_W = 3.5 * c.axis}, 0, 1, c.A0, c.B0);
    CHECK(joint.type() == JointType::hinge);
    CHECK(joint.equality_rows() == 5);
    CHECK((c.A0.rotate(joint.axis_A()) - c.axis).norm() < 1e-12);
    ConstraintRows rows;
    joint.equality(c.A0, c.B0, rows);
    REQUIRE(rows.rows() == 5);
    CHECK(rows.g.norm() < 1e-12);
    CHECK(std::abs(joint.coordinate(c.A0, c.B0)) < 1e-12);
    for (double theta : {-3.0, -1.2, -0.1, 0.3, 2.0, 3.1}) {
      const auto [A, B] = on_manifold(c, theta, rng.rotation(), rng.vec(1.0));
      joint.equality(A, B, rows);
      CHECK(rows.g.norm() < 1e-12);
      CHECK(joint.coordinate(A, B) == Approx(theta).margin(1e-12));
      // turning A instead of B by +θ about the axis gives −θ
      const Pose A2 = move(c.A0, axis_angle(c.axis, theta), c.anchor);
      CHECK(joint.coordinate(A2, c.B0) == Approx(-theta).margin(1e-12));
    }
  }
}

TEST_CASE("hinge joint: θ range is -pi excluded to pi included", "[constraints][hinge]") {
  const Pose I;
  HingeJoint joint({.name = "h", .anchor_W = Vec3::Zero(), .axis_W = Vec3::UnitZ()}, 0, 1, I, I);
  const Pose half_turn{Vec3::Zero(), Quat(0.0, 0.0, 0.0, 1.0)};  // π about z, exact
  CHECK(joint.coordinate(I, half_turn) == std::numbers::pi);
  CHECK(joint.coordinate(half_turn, I) == std::numbers::pi);
  const Pose almost{Vec3::Zero(), axis_angle(Vec3::UnitZ(), -std::numbers::pi + 1e-9)};
  CHECK(joint.coordinate(I, almost) == Approx(-std::numbers::pi + 1e-9).margin(1e-12));
}

TEST_CASE("hinge joint: Jacobians match finite differences (all rows exact)",
          "[constraints][hinge]") {
  Rng rng(202);
  for (int trial = 0; trial < 20; ++trial) {
    const HingeCase c = random_case(rng);
    HingeJoint joint({.name = "h",
                      .anchor_W = c.anchor,
                      .axis_W = c.axis,
                      .limits = JointLimits{-10.0, 10.0},
                      .motor = JointMotor{1.0, 2.0}},
                     0, 1, c.A0, c.B0);
    const double theta = rng.uniform(-2.5, 2.5);
    const auto [A_on, B_on] = on_manifold(c, theta, rng.rotation(), rng.vec(1.0));
    const Pose A_off = integrate(A_on, rng.twist(0.4));
    const Pose B_off = integrate(B_on, rng.twist(0.4));
    for (const auto& [A, B] : {std::pair{c.A0, c.B0}, std::pair{A_on, B_on},
                               std::pair{A_off, B_off}, std::pair{rng.pose(), rng.pose()}}) {
      ConstraintRows rows;
      joint.equality(A, B, rows);
      const FdJacobian fd = fd_jacobian(equality_g(joint), A, B);
      for (int r = 0; r < 5; ++r) {
        INFO("row " << r);
        CHECK(row_error(fd, rows, r) < kExactTol);
      }
      // motor row: J v = dθ/dt, exact (away from the ±π wrap)
      if (std::abs(joint.coordinate(A, B)) > 3.0) continue;
      const auto motor = joint.motor(A, B);
      REQUIRE(motor.has_value());
      CHECK(motor->target_velocity == 1.0);
      CHECK(motor->max_impulse == 2.0);
      const FdJacobian fd_theta = fd_jacobian(theta_g(joint), A, B);
      CHECK((fd_theta.J_A.row(0) - motor->J_A).cwiseAbs().maxCoeff() < kExactTol);
      CHECK((fd_theta.J_B.row(0) - motor->J_B).cwiseAbs().maxCoeff() < kExactTol);
    }
  }
}

TEST_CASE("hinge joint: on the manifold the motor row is a·(ω_B − ω_A)", "[constraints][hinge]") {
  Rng rng(203);
  const HingeCase c = random_case(rng);
  HingeJoint joint({.name = "h", .anchor_W = c.anchor, .axis_W = c.axis, .motor = JointMotor{}}, 0,
                   1, c.A0, c.B0);
  const auto [A, B] = on_manifold(c, 0.7, rng.rotation(), Vec3::Zero());
  const auto m = joint.motor(A, B);
  REQUIRE(m.has_value());
  const Vec3 a = A.rotate(joint.axis_A());
  CHECK((m->J_A.head<3>().transpose() + a).norm() < 1e-12);
  CHECK((m->J_B.head<3>().transpose() - a).norm() < 1e-12);
  CHECK(m->J_A.tail<3>().norm() == 0.0);
  CHECK(m->J_B.tail<3>().norm() == 0.0);
}

TEST_CASE("hinge joint: q and -q give the same g and θ", "[constraints][hinge]") {
  Rng rng(204);
  const HingeCase c = random_case(rng);
  HingeJoint joint({.name = "h", .anchor_W = c.anchor, .axis_W = c.axis}, 0, 1, c.A0, c.B0);
  const Pose A = integrate(c.A0, rng.twist(0.5));
  const Pose B = integrate(c.B0, rng.twist(0.5));
  ConstraintRows r1, r2;
  joint.equality(A, B, r1);
  joint.equality(negated(A), negated(B), r2);
  CHECK((r1.g - r2.g).norm() < 1e-12);
  CHECK((r1.J_A - r2.J_A).norm() < 1e-12);
  CHECK((r1.J_B - r2.J_B).norm() < 1e-12);
  CHECK(joint.coordinate(A, B) == Approx(joint.coordinate(negated(A), B)).margin(1e-12));
}

TEST_CASE("hinge joint: limit rows appear within the margin, with their sign",
          "[constraints][hinge]") {
  Rng rng(205);
  const HingeCase c = random_case(rng);
  const double lower = -0.5, upper = 0.8, margin = 0.1;
  HingeJoint joint(
      {.name = "h", .anchor_W = c.anchor, .axis_W = c.axis, .limits = JointLimits{lower, upper}}, 0,
      1, c.A0, c.B0);
  struct Expect {
    double theta;
    int rows;
    double g;  // of the single row, when rows == 1
    bool upper_row;
  };
  for (const Expect e :
       {Expect{0.0, 0, 0.0, false}, Expect{0.65, 0, 0.0, false}, Expect{0.75, 1, 0.05, true},
        Expect{0.85, 1, -0.05, true}, Expect{1.3, 1, -0.5, true}, Expect{-0.35, 0, 0.0, false},
        Expect{-0.45, 1, 0.05, false}, Expect{-0.7, 1, -0.2, false}}) {
    INFO("theta " << e.theta);
    const auto [A, B] = on_manifold(c, e.theta, rng.rotation(), rng.vec(1.0));
    ConstraintRows rows;
    joint.limits(A, B, margin, rows);
    REQUIRE(rows.rows() == e.rows);
    if (e.rows == 0) continue;
    CHECK(rows.g(0) == Approx(e.g).margin(1e-12));
    // the row's Jacobian by finite differences of its own g (independent of the row)
    const GFunction g_row = [&](const Pose& a, const Pose& b) {
      const double th = joint.coordinate(a, b);
      return Eigen::VectorXd::Constant(1, e.upper_row ? upper - th : th - lower);
    };
    const FdJacobian fd = fd_jacobian(g_row, A, B);
    CHECK(row_error(fd, rows, 0) < kExactTol);
  }
  // a wide margin shows both rows, lower first; without limits there are none
  const auto [A, B] = on_manifold(c, 0.2, Quat::Identity(), Vec3::Zero());
  ConstraintRows rows;
  joint.limits(A, B, 10.0, rows);
  REQUIRE(rows.rows() == 2);
  CHECK(rows.g(0) == Approx(0.2 - lower).margin(1e-12));
  CHECK(rows.g(1) == Approx(upper - 0.2).margin(1e-12));
  CHECK((rows.J_A.row(0) + rows.J_A.row(1)).norm() == 0.0);
  HingeJoint free_joint({.name = "f", .anchor_W = c.anchor, .axis_W = c.axis}, 0, 1, c.A0, c.B0);
  free_joint.limits(A, B, 10.0, rows);
  CHECK(rows.rows() == 0);
  CHECK_FALSE(free_joint.motor(A, B).has_value());
}

TEST_CASE("hinge joint to the world", "[constraints][hinge]") {
  Rng rng(206);
  const Pose A0 = rng.pose();
  const Pose W;
  const Vec3 anchor = rng.vec(1.0), axis = rng.unit();
  HingeJoint joint(
      {.name = "door", .anchor_W = anchor, .axis_W = axis, .motor = JointMotor{0.5, 1.0}}, 2,
      kWorldBody, A0, W);
  // A turned by +θ about the fixed axis: θ (B relative to A) is −θ
  const Pose A = move(A0, axis_angle(axis, 0.9), anchor);
  ConstraintRows rows;
  joint.equality(A, W, rows);
  CHECK(rows.g.norm() < 1e-12);
  CHECK(joint.coordinate(A, W) == Approx(-0.9).margin(1e-12));
  const Pose A_off = integrate(A, rng.twist(0.3));
  joint.equality(A_off, W, rows);
  const FdJacobian fd = fd_jacobian(equality_g(joint), A_off, W);
  CHECK((fd.J_A - rows.J_A).cwiseAbs().maxCoeff() < kExactTol);
  const FdJacobian fd_theta = fd_jacobian(theta_g(joint), A_off, W);
  CHECK((fd_theta.J_A.row(0) - joint.motor(A_off, W)->J_A).cwiseAbs().maxCoeff() < kExactTol);
}

TEST_CASE("hinge joint: invalid settings throw naming the joint", "[constraints][hinge]") {
  const Pose P;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto msg = [&](HingeJointSettings s) {
    s.name = "elbow";
    return error_message([&] { HingeJoint j(s, 0, 1, P, P); });
  };
  const auto named = Catch::Contains("hinge joint 'elbow'");
  CHECK_THAT(msg({.axis_W = Vec3::Zero()}), named);
  CHECK_THAT(msg({.axis_W = Vec3(nan, 0, 1)}), named);
  CHECK_THAT(msg({.axis_W = Vec3(inf, 0, 0)}), named);
  CHECK_THAT(msg({.anchor_W = Vec3(0, inf, 0)}), named);
  CHECK_THAT(msg({.limits = JointLimits{0.5, -0.5}}), named);
  CHECK_THAT(msg({.limits = JointLimits{nan, 0.5}}), named);
  CHECK_THAT(msg({.motor = JointMotor{1.0, -1.0}}), named);
  CHECK_THAT(msg({.motor = JointMotor{nan, 1.0}}), named);
  CHECK_THAT(msg({.dynamics = {.damping = -1.0}}), named && Catch::Contains("damping"));
  CHECK_THAT(msg({.dynamics = {.friction = inf}}), named && Catch::Contains("friction"));
  CHECK_THAT(msg({.limits = JointLimits{0.3, 0.3}, .motor = JointMotor{1.0, 0.0}}),
             Catch::Equals("<no error>"));
}
