// Slider joint: rotation lock (quaternion error) + g_i = t_i·(p_B − p_A) (exact), displacement s
// with limit and motor rows.
#include <catch2/catch.hpp>

#include "joint_fd.hpp"
#include "pivot/constraints/slider_joint.hpp"

using namespace pivot;
using namespace pivot::test;

namespace {

struct SliderCase {
  Pose A0, B0;
  Vec3 anchor, axis;  // world, at creation (axis unit)
};

SliderCase random_case(Rng& rng) {
  return {rng.pose(), rng.pose(), rng.vec(2.0), rng.unit()};
}

/// B slid by s along the axis, then both moved by the rigid motion (R, t)
std::pair<Pose, Pose> on_manifold(const SliderCase& c, double s, const Quat& R, const Vec3& t) {
  const Pose B{c.B0.p_WB + s * c.axis, c.B0.q_WB};
  return {move(c.A0, R, c.anchor, t), move(B, R, c.anchor, t)};
}

GFunction s_g(const Joint& j) {
  return [&j](const Pose& A, const Pose& B) {
    return Eigen::VectorXd::Constant(1, j.coordinate(A, B));
  };
}

}  // namespace

TEST_CASE("slider joint: g = 0 and s = 0 at creation, s along the axis", "[constraints][slider]") {
  Rng rng(401);
  for (int trial = 0; trial < 10; ++trial) {
    const SliderCase c = random_case(rng);
    SliderJoint joint({.name = "s", .anchor_W = c.anchor, .axis_W = -0.2 * c.axis}, 0, 1, c.A0,
                      c.B0);
    CHECK(joint.type() == JointType::slider);
    CHECK(joint.equality_rows() == 5);
    CHECK((c.A0.rotate(joint.axis_A()) + c.axis).norm() < 1e-12);  // normalized, sign kept
    ConstraintRows rows;
    joint.equality(c.A0, c.B0, rows);
    REQUIRE(rows.rows() == 5);
    CHECK(rows.g.norm() < 1e-12);
    CHECK(std::abs(joint.coordinate(c.A0, c.B0)) < 1e-12);
    for (double s : {-1.5, -0.2, 0.4, 2.0}) {
      const auto [A, B] = on_manifold(c, s, rng.rotation(), rng.vec(1.0));
      joint.equality(A, B, rows);
      CHECK(rows.g.norm() < 1e-12);
      CHECK(joint.coordinate(A, B) == Approx(-s).margin(1e-12));  // axis given as −axis
    }
  }
}

TEST_CASE("slider joint: closed-form g for a sideways shift and a small twist",
          "[constraints][slider]") {
  Rng rng(402);
  const SliderCase c = random_case(rng);
  SliderJoint joint({.name = "s", .anchor_W = c.anchor, .axis_W = c.axis}, 0, 1, c.A0, c.B0);
  // B shifted by d ⊥ axis: rows 3–4 are the components t_i·d, so |g_3..4| = |d|
  const Vec3 d = 0.3 * (rng.unit().cross(c.axis)).normalized();
  ConstraintRows rows;
  joint.equality(c.A0, Pose{c.B0.p_WB + d, c.B0.q_WB}, rows);
  CHECK(rows.g.head<3>().norm() < 1e-12);
  CHECK(rows.g.tail<2>().norm() == Approx(0.3).margin(1e-12));
  // B turned by ψ (about its COM): q_err = q_B0 (exp(ψ) q_B0)⁻¹ · ... = exp(−ψ) ⇒ g = −ψ;
  // A turned by ψ: g = +ψ
  const Vec3 psi = 0.7 * rng.unit();
  const Quat R = axis_angle(psi.normalized(), psi.norm());
  joint.equality(c.A0, Pose{c.B0.p_WB, R * c.B0.q_WB}, rows);
  CHECK((rows.g.head<3>() + psi).norm() < 1e-12);
  joint.equality(Pose{c.A0.p_WB, R * c.A0.q_WB}, c.B0, rows);
  CHECK((rows.g.head<3>() - psi).norm() < 1e-12);
}

TEST_CASE(
    "slider joint: Jacobian vs finite differences (exact rows 1e-7, rotation rows "
    "first order in |φ|)",
    "[constraints][slider]") {
  Rng rng(403);
  for (int trial = 0; trial < 20; ++trial) {
    const SliderCase c = random_case(rng);
    SliderJoint joint({.name = "s",
                       .anchor_W = c.anchor,
                       .axis_W = c.axis,
                       .limits = JointLimits{-10.0, 10.0},
                       .motor = JointMotor{0.3, 5.0}},
                      0, 1, c.A0, c.B0);
    const auto [A_on, B_on] = on_manifold(c, rng.uniform(-2, 2), rng.rotation(), rng.vec(1.0));
    const Pose A_off = integrate(A_on, rng.twist(0.25));
    const Pose B_off = integrate(B_on, rng.twist(0.25));
    for (const auto& [A, B] : {std::pair{c.A0, c.B0}, std::pair{A_on, B_on},
                               std::pair{A_off, B_off}, std::pair{rng.pose(), rng.pose()}}) {
      ConstraintRows rows;
      joint.equality(A, B, rows);
      const double phi = rotation_error_angle(A, B, joint.initial_relative_rotation());
      INFO("|phi| " << phi);
      CHECK(rows.g.head<3>().norm() == Approx(phi).margin(1e-12));
      const FdJacobian fd = fd_jacobian(equality_g(joint), A, B);
      for (int r = 3; r < 5; ++r) {
        INFO("row " << r);
        CHECK(row_error(fd, rows, r) < kExactTol);
      }
      if (phi < 3.0) {
        for (int r = 0; r < 3; ++r) {
          INFO("row " << r);
          CHECK(row_error(fd, rows, r) < rotation_lock_tolerance(phi));
        }
      }
      const auto motor = joint.motor(A, B);
      REQUIRE(motor.has_value());
      CHECK(motor->target_velocity == 0.3);
      CHECK(motor->max_impulse == 5.0);
      const FdJacobian fd_s = fd_jacobian(s_g(joint), A, B);
      CHECK((fd_s.J_A.row(0) - motor->J_A).cwiseAbs().maxCoeff() < kExactTol);
      CHECK((fd_s.J_B.row(0) - motor->J_B).cwiseAbs().maxCoeff() < kExactTol);
    }
  }
}

TEST_CASE("slider joint: q and -q give the same g", "[constraints][slider]") {
  Rng rng(404);
  const SliderCase c = random_case(rng);
  SliderJoint joint({.name = "s", .anchor_W = c.anchor, .axis_W = c.axis}, 0, 1, c.A0, c.B0);
  const Pose A = integrate(c.A0, rng.twist(0.5));
  const Pose B = integrate(c.B0, rng.twist(0.5));
  ConstraintRows r1;
  joint.equality(A, B, r1);
  for (const auto& [A2, B2] :
       {std::pair{negated(A), B}, std::pair{A, negated(B)}, std::pair{negated(A), negated(B)}}) {
    ConstraintRows r2;
    joint.equality(A2, B2, r2);
    CHECK((r1.g - r2.g).norm() < 1e-12);
    CHECK((r1.J_A - r2.J_A).norm() < 1e-12);
    CHECK((r1.J_B - r2.J_B).norm() < 1e-12);
  }
}

TEST_CASE("slider joint: limit rows appear within the margin, with their sign",
          "[constraints][slider]") {
  Rng rng(405);
  const SliderCase c = random_case(rng);
  const double lower = -0.2, upper = 0.5, margin = 0.05;
  SliderJoint joint(
      {.name = "s", .anchor_W = c.anchor, .axis_W = c.axis, .limits = JointLimits{lower, upper}}, 0,
      1, c.A0, c.B0);
  struct Expect {
    double s;
    int rows;
    double g;
    bool upper_row;
  };
  for (const Expect e :
       {Expect{0.0, 0, 0, false}, Expect{0.44, 0, 0, false}, Expect{0.47, 1, 0.03, true},
        Expect{0.6, 1, -0.1, true}, Expect{-0.14, 0, 0, false}, Expect{-0.17, 1, 0.03, false},
        Expect{-0.3, 1, -0.1, false}}) {
    INFO("s " << e.s);
    const auto [A, B] = on_manifold(c, e.s, rng.rotation(), rng.vec(1.0));
    ConstraintRows rows;
    joint.limits(A, B, margin, rows);
    REQUIRE(rows.rows() == e.rows);
    if (e.rows == 0) continue;
    CHECK(rows.g(0) == Approx(e.g).margin(1e-12));
    const GFunction g_row = [&](const Pose& a, const Pose& b) {
      const double s = joint.coordinate(a, b);
      return Eigen::VectorXd::Constant(1, e.upper_row ? upper - s : s - lower);
    };
    const FdJacobian fd = fd_jacobian(g_row, A, B);
    CHECK(row_error(fd, rows, 0) < kExactTol);
  }
  ConstraintRows rows;
  joint.limits(c.A0, c.B0, 1.0, rows);
  REQUIRE(rows.rows() == 2);
  CHECK(rows.g(0) == Approx(-lower).margin(1e-12));
  CHECK(rows.g(1) == Approx(upper).margin(1e-12));
}

TEST_CASE("slider joint to the world", "[constraints][slider]") {
  Rng rng(406);
  const Pose A0 = rng.pose();
  const Pose W;
  const Vec3 anchor = rng.vec(1.0), axis = rng.unit();
  SliderJoint joint({.name = "rail", .anchor_W = anchor, .axis_W = axis}, 1, kWorldBody, A0, W);
  CHECK((joint.initial_relative_rotation().coeffs() - A0.q_WB.conjugate().coeffs()).norm() < 1e-12);
  // A slid by +s: B (world) is at −s relative to A
  const Pose A{A0.p_WB + 0.4 * axis, A0.q_WB};
  ConstraintRows rows;
  joint.equality(A, W, rows);
  CHECK(rows.g.norm() < 1e-12);
  CHECK(joint.coordinate(A, W) == Approx(-0.4).margin(1e-12));
  const Pose A_off = integrate(A, rng.twist(0.3));
  joint.equality(A_off, W, rows);
  const FdJacobian fd = fd_jacobian(equality_g(joint), A_off, W);
  const double phi = rotation_error_angle(A_off, W, joint.initial_relative_rotation());
  CHECK((fd.J_A.bottomRows(2) - rows.J_A.bottomRows(2)).cwiseAbs().maxCoeff() < kExactTol);
  CHECK((fd.J_A.topRows(3) - rows.J_A.topRows(3)).cwiseAbs().maxCoeff() <
        rotation_lock_tolerance(phi));
}

TEST_CASE("slider joint: invalid settings throw naming the joint", "[constraints][slider]") {
  const Pose P;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto msg = [&](SliderJointSettings s) {
    s.name = "piston";
    return error_message([&] { SliderJoint j(s, 0, 1, P, P); });
  };
  const auto named = Catch::Contains("slider joint 'piston'");
  CHECK_THAT(msg({.axis_W = Vec3::Zero()}), named);
  CHECK_THAT(msg({.axis_W = Vec3(1, nan, 0)}), named);
  CHECK_THAT(msg({.limits = JointLimits{1.0, 0.0}}), named);
  CHECK_THAT(msg({.motor = JointMotor{0.1, -0.5}}), named);
  CHECK_THAT(error_message([&] { SliderJoint j({.name = "piston"}, 2, 2, P, P); }), named);
  CHECK_THAT(msg({.limits = JointLimits{-1.0, 1.0}, .motor = JointMotor{0.1, 0.5}}),
             Catch::Equals("<no error>"));
}
