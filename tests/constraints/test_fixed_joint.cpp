// Fixed joint: rotation lock (quaternion error, first-order Jacobian) + ball rows (exact).
#include <catch2/catch.hpp>

#include "joint_fd.hpp"
#include "pivot/constraints/fixed_joint.hpp"

using namespace pivot;
using namespace pivot::test;

namespace {}  // namespace

TEST_CASE("fixed joint: g = 0 at creation and under common rigid motions", "[constraints][fixed]") {
  Rng rng(501);
  for (int trial = 0; trial < 10; ++trial) {
    const Pose A0 = rng.pose(), B0 = rng.pose();
    const Vec3 anchor = rng.vec(2.0);
    FixedJoint joint({.name = "weld", .anchor_W = anchor}, 0, 1, A0, B0);
    CHECK(joint.type() == JointType::fixed);
    CHECK(joint.equality_rows() == 6);
    ConstraintRows rows;
    joint.equality(A0, B0, rows);
    REQUIRE(rows.rows() == 6);
    CHECK(rows.g.norm() < 1e-12);
    const Quat R = rng.rotation();
    const Vec3 t = rng.vec(1.0), c = rng.vec(1.0);
    joint.equality(move(A0, R, c, t), move(B0, R, c, t), rows);
    CHECK(rows.g.norm() < 1e-12);
  }
}

TEST_CASE("fixed joint: closed-form rotation error and its sign", "[constraints][fixed]") {
  // B turned by ψ about the anchor: q_err = q_A0 q_A0⁻¹ q_B0 (exp(ψ) q_B0)⁻¹ = exp(−ψ), so the
  // rotation rows are −ψ and the ball rows stay 0; A turned by ψ about the anchor gives +ψ.
  Rng rng(502);
  const Pose A0 = rng.pose(), B0 = rng.pose();
  const Vec3 anchor = rng.vec(2.0);
  FixedJoint joint({.name = "weld", .anchor_W = anchor}, 0, 1, A0, B0);
  for (double angle : {1e-6, 0.3, 1.5, 3.0}) {
    const Vec3 psi = angle * rng.unit();
    const Quat R = axis_angle(psi.normalized(), angle);
    ConstraintRows rows;
    joint.equality(A0, move(B0, R, anchor), rows);
    CHECK((rows.g.head<3>() + psi).norm() < 1e-12);
    CHECK(rows.g.tail<3>().norm() < 1e-12);
    joint.equality(move(A0, R, anchor), B0, rows);
    CHECK((rows.g.head<3>() - psi).norm() < 1e-12);
    CHECK(rows.g.tail<3>().norm() < 1e-12);
  }
}

TEST_CASE(
    "fixed joint: Jacobian vs finite differences (ball rows 1e-7, rotation rows first "
    "order in |φ|)",
    "[constraints][fixed]") {
  Rng rng(503);
  for (int trial = 0; trial < 20; ++trial) {
    const Pose A0 = rng.pose(), B0 = rng.pose();
    FixedJoint joint({.name = "weld", .anchor_W = rng.vec(2.0)}, 0, 1, A0, B0);
    const Quat R = rng.rotation();
    const Vec3 t = rng.vec(1.0), c = rng.vec(1.0);
    const Pose A_on = move(A0, R, c, t), B_on = move(B0, R, c, t);
    const Pose A_off = integrate(A_on, rng.twist(0.25));
    const Pose B_off = integrate(B_on, rng.twist(0.25));
    for (const auto& [A, B] : {std::pair{A0, B0}, std::pair{A_on, B_on}, std::pair{A_off, B_off},
                               std::pair{rng.pose(), rng.pose()}}) {
      ConstraintRows rows;
      joint.equality(A, B, rows);
      const double phi = rotation_error_angle(A, B, joint.initial_relative_rotation());
      INFO("|phi| " << phi);
      const FdJacobian fd = fd_jacobian(equality_g(joint), A, B);
      for (int r = 3; r < 6; ++r) {
        INFO("row " << r);
        CHECK(row_error(fd, rows, r) < kExactTol);
      }
      if (phi < 3.0) {
        for (int r = 0; r < 3; ++r) {
          INFO("row " << r);
          CHECK(row_error(fd, rows, r) < rotation_lock_tolerance(phi));
        }
      }
    }
  }
}

TEST_CASE("fixed joint: the rotation rows' Jacobian error is first order, ≈ |φ|/2",
          "[constraints][fixed]") {
  // the exact rate differs from (I | −I) by ∓½[φ] + O(|φ|²) (see rotation_lock_tolerance), so
  // a column e ⊥ φ is off by |φ|/2·(1 + O(|φ|²)); some world axis has |e × φ̂| ≥ sqrt(2/3), so
  // the largest column error over the 3 rotation rows is between 0.4|φ| and 0.6|φ|
  Rng rng(504);
  const Pose A0 = rng.pose(), B0 = rng.pose();
  FixedJoint joint({.name = "weld", .anchor_W = rng.vec(1.0)}, 0, 1, A0, B0);
  const Vec3 dir = rng.unit();
  for (double angle : {0.0, 1e-3, 1e-2, 1e-1, 0.5, 1.0}) {
    INFO("angle " << angle);
    const Pose B = move(B0, axis_angle(dir, angle), Vec3::Zero());
    ConstraintRows rows;
    joint.equality(A0, B, rows);
    const FdJacobian fd = fd_jacobian(equality_g(joint), A0, B);
    const double err_A = (fd.J_A.topRows(3) - rows.J_A.topRows(3)).colwise().norm().maxCoeff();
    const double err_B = (fd.J_B.topRows(3) - rows.J_B.topRows(3)).colwise().norm().maxCoeff();
    CHECK(err_A <= 0.6 * angle + 1e-7);
    CHECK(err_B <= 0.6 * angle + 1e-7);
    CHECK(err_A >= 0.4 * angle - 1e-7);
    CHECK(err_B >= 0.4 * angle - 1e-7);
  }
}

TEST_CASE("fixed joint: q and -q give the same g", "[constraints][fixed]") {
  Rng rng(505);
  const Pose A0 = rng.pose(), B0 = rng.pose();
  FixedJoint joint({.name = "weld", .anchor_W = rng.vec(1.0)}, 0, 1, A0, B0);
  const Pose A = integrate(A0, rng.twist(0.5));
  const Pose B = integrate(B0, rng.twist(0.5));
  ConstraintRows r1;
  joint.equality(A, B, r1);
  for (const auto& [A2, B2] :
       {std::pair{negated(A), B}, std::pair{A, negated(B)}, std::pair{negated(A), negated(B)}}) {
    ConstraintRows r2;
    joint.equality(A2, B2, r2);
    CHECK((r1.g - r2.g).norm() < 1e-12);
  }
  // a joint created from negated poses is the same joint
  FixedJoint joint2({.name = "weld", .anchor_W = Vec3::Zero()}, 0, 1, negated(A0), B0);
  FixedJoint joint3({.name = "weld", .anchor_W = Vec3::Zero()}, 0, 1, A0, B0);
  joint2.equality(A, B, r1);
  ConstraintRows r3;
  joint3.equality(A, B, r3);
  CHECK((r1.g - r3.g).norm() < 1e-12);
}

TEST_CASE("fixed joint to the world", "[constraints][fixed]") {
  Rng rng(506);
  const Pose A0 = rng.pose();
  const Pose W;
  FixedJoint joint({.name = "bolt", .anchor_W = rng.vec(1.0)}, 0, kWorldBody, A0, W);
  ConstraintRows rows;
  joint.equality(A0, W, rows);
  CHECK(rows.g.norm() < 1e-12);
  const Pose A = integrate(A0, rng.twist(0.3));
  joint.equality(A, W, rows);
  const double phi = rotation_error_angle(A, W, joint.initial_relative_rotation());
  const FdJacobian fd = fd_jacobian(equality_g(joint), A, W);
  CHECK((fd.J_A.bottomRows(3) - rows.J_A.bottomRows(3)).cwiseAbs().maxCoeff() < kExactTol);
  CHECK((fd.J_A.topRows(3) - rows.J_A.topRows(3)).cwiseAbs().maxCoeff() <
        rotation_lock_tolerance(phi));
}

TEST_CASE("fixed joint: invalid settings throw naming the joint", "[constraints][fixed]") {
  const Pose P;
  const double inf = std::numeric_limits<double>::infinity();
  const auto named = Catch::Contains("fixed joint 'bolt'");
  CHECK_THAT(error_message(
                 [&] { FixedJoint j({.name = "bolt", .anchor_W = Vec3(0, 0, inf)}, 0, 1, P, P); }),
             named);
  CHECK_THAT(error_message([&] { FixedJoint j({.name = "bolt"}, 1, 1, P, P); }), named);
  CHECK_THAT(error_message([&] {
               FixedJoint j({.name = "bolt"}, 0, 1, P, Pose{Vec3(inf, 0, 0), Quat::Identity()});
             }),
             named);
}
