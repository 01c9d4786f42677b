// Ball joint: g = p_A − p_B, J_A = ([r_A], I), J_B = (−[r_B], −I) (Cline eq. 4.1, 4.5–4.6).
#include <catch2/catch.hpp>

#include "joint_fd.hpp"
#include "pivot/constraints/ball_joint.hpp"

using namespace pivot;
using namespace pivot::test;

TEST_CASE("ball joint: g = 0 at creation, world anchor closed form", "[constraints][ball]") {
  Rng rng(101);
  for (int trial = 0; trial < 10; ++trial) {
    const Pose A0 = rng.pose(), B0 = rng.pose();
    const Vec3 anchor = rng.vec(2.0);
    BallJoint joint(BallJointSettings{.name = "b", .anchor_W = anchor}, 0, 1, A0, B0);
    CHECK(joint.type() == JointType::ball);
    CHECK(joint.equality_rows() == 3);
    ConstraintRows rows;
    joint.equality(A0, B0, rows);
    REQUIRE(rows.rows() == 3);
    CHECK(rows.g.norm() < 1e-12);
    // the anchor moves with each body: after moving B by a pure translation t, g = −t
    const Vec3 t = rng.vec(1.0);
    joint.equality(A0, Pose{B0.p_WB + t, B0.q_WB}, rows);
    CHECK((rows.g + t).norm() < 1e-12);
    // coordinate, limits and motor are absent
    CHECK(joint.coordinate(A0, B0) == 0.0);
    joint.limits(A0, B0, 1.0, rows);
    CHECK(rows.rows() == 0);
    CHECK_FALSE(joint.motor(A0, B0).has_value());
  }
}

TEST_CASE("ball joint: Jacobian matches finite differences on and off the manifold",
          "[constraints][ball]") {
  Rng rng(102);
  for (int trial = 0; trial < 20; ++trial) {
    const Pose A0 = rng.pose(), B0 = rng.pose();
    const Vec3 anchor = rng.vec(2.0);
    BallJoint joint(BallJointSettings{.name = "b", .anchor_W = anchor}, 0, 1, A0, B0);
    // on the manifold: B rotated about the anchor, then both moved rigidly
    const Quat R = rng.rotation();
    const Vec3 t = rng.vec(1.0);
    const Pose A_on = move(A0, R, anchor, t);
    const Pose B_on = move(move(B0, rng.rotation(), anchor), R, anchor, t);
    // off the manifold: random perturbations of both
    const Pose A_off = integrate(A_on, (Vec6() << rng.vec(0.5), rng.vec(0.5)).finished());
    const Pose B_off = integrate(B_on, (Vec6() << rng.vec(0.5), rng.vec(0.5)).finished());
    for (const auto& [A, B, on] : {std::tuple{A_on, B_on, true}, std::tuple{A_off, B_off, false},
                                   std::tuple{rng.pose(), rng.pose(), false}}) {
      ConstraintRows rows;
      joint.equality(A, B, rows);
      if (on) CHECK(rows.g.norm() < 1e-12);
      const FdJacobian fd = fd_jacobian(equality_g(joint), A, B);
      for (int r = 0; r < 3; ++r) CHECK(row_error(fd, rows, r) < kExactTol);
    }
  }
}

TEST_CASE("ball joint: q and -q give the same g", "[constraints][ball]") {
  Rng rng(103);
  const Pose A0 = rng.pose(), B0 = rng.pose();
  BallJoint joint(BallJointSettings{.name = "b", .anchor_W = rng.vec(1.0)}, 0, 1, A0, B0);
  const Pose A = rng.pose(), B = rng.pose();
  ConstraintRows r1, r2;
  joint.equality(A, B, r1);
  joint.equality(negated(A), negated(B), r2);
  CHECK((r1.g - r2.g).norm() < 1e-12);
  CHECK((r1.J_A - r2.J_A).norm() < 1e-12);
  CHECK((r1.J_B - r2.J_B).norm() < 1e-12);
}

TEST_CASE("ball joint to the world", "[constraints][ball]") {
  Rng rng(104);
  const Pose A0 = rng.pose();
  const Pose W;  // identity
  const Vec3 anchor = rng.vec(2.0);
  BallJoint joint(BallJointSettings{.name = "pendulum", .anchor_W = anchor}, 3, kWorldBody, A0, W);
  CHECK(joint.body_a() == 3);
  CHECK(joint.body_b() == kWorldBody);
  CHECK((joint.anchor_B() - anchor).norm() < 1e-12);  // world frame
  const Pose A = integrate(A0, (Vec6() << rng.vec(0.4), rng.vec(0.4)).finished());
  ConstraintRows rows;
  joint.equality(A, W, rows);
  CHECK((rows.g - (A.to_world(joint.anchor_A()) - anchor)).norm() < 1e-12);
  const FdJacobian fd = fd_jacobian(equality_g(joint), A, W);
  CHECK((fd.J_A - rows.J_A).cwiseAbs().maxCoeff() < kExactTol);
}

TEST_CASE("ball joint: invalid settings throw naming the joint", "[constraints][ball]") {
  const Pose P;
  const Pose Q{Vec3(1, 0, 0), Quat::Identity()};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto make = [&](BallJointSettings s, int a, int b) { BallJoint j(s, a, b, P, Q); };
  CHECK_THAT(error_message([&] { make({.name = "knee", .anchor_W = Vec3(nan, 0, 0)}, 0, 1); }),
             Catch::Contains("ball joint 'knee'"));
  CHECK_THAT(error_message([&] { make({.name = "knee"}, 0, 0); }),
             Catch::Contains("ball joint 'knee'"));
  CHECK_THAT(error_message([&] { make({.name = "knee"}, kWorldBody, 1); }),
             Catch::Contains("ball joint 'knee'"));
  CHECK_THAT(error_message([&] { make({.name = "knee"}, 0, -7); }),
             Catch::Contains("ball joint 'knee'"));
  CHECK_THAT(error_message([&] {
               BallJoint j({.name = "knee"}, 0, 1, Pose{Vec3::Zero(), Quat(0, 0, 0, 0)}, Q);
             }),
             Catch::Contains("ball joint 'knee'"));
  CHECK_NOTHROW(make({.name = "knee"}, 0, 1));
}
