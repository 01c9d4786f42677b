// Universal joint: ball rows + g = a·b − (a·b)₀ (exact).
#include <catch2/catch.hpp>

#include "joint_fd.hpp"
#include "pivot/constraints/universal_joint.hpp"

using namespace pivot;
using namespace pivot::test;

namespace {

struct UniversalCase {
  Pose A0, B0;
  Vec3 anchor, axis_a, axis_b;  // world, at creation, unit
};

UniversalCase random_case(Rng& rng, bool orthogonal) {
  UniversalCase c{rng.pose(), rng.pose(), rng.vec(2.0), rng.unit(), rng.unit()};
  if (orthogonal) c.axis_b = (c.axis_b - c.axis_b.dot(c.axis_a) * c.axis_a).normalized();
  return c;
}

/// A turned by α about axis_a and B by β about axis_b (both through the anchor), then both moved
/// by the rigid motion (R, t): the two free rotations of the joint
std::pair<Pose, Pose> on_manifold(const UniversalCase& c, double alpha, double beta, const Quat& R,
                                  const Vec3& t) {
  const Pose A = move(c.A0, axis_angle(c.axis_a, alpha), c.anchor);
  const Pose B = move(c.B0, axis_angle(c.axis_b, beta), c.anchor);
  return {move(A, R, c.anchor, t), move(B, R, c.anchor, t)};
}

Vec6 random_twist(Rng& rng, double size) {
  return (Vec6() << rng.vec(size), rng.vec(size)).finished();
}

UniversalJointSettings settings_of(const UniversalCase& c) {
  return {.name = "u", .anchor_W = c.anchor, .axis_a_W = c.axis_a, .axis_b_W = c.axis_b};
}

}  // namespace

TEST_CASE("universal joint: g = 0 at creation and along its two free rotations",
          "[constraints][universal]") {
  Rng rng(301);
  for (int trial = 0; trial < 10; ++trial) {
    const UniversalCase c = random_case(rng, trial % 2 == 0);
    UniversalJoint joint(settings_of(c), 0, 1, c.A0, c.B0);
    CHECK(joint.type() == JointType::universal);
    CHECK(joint.equality_rows() == 4);
    CHECK(joint.initial_cosine() == Approx(c.axis_a.dot(c.axis_b)).margin(1e-12));
    ConstraintRows rows;
    joint.equality(c.A0, c.B0, rows);
    REQUIRE(rows.rows() == 4);
    CHECK(rows.g.norm() < 1e-12);
    const auto [A, B] =
        on_manifold(c, rng.uniform(-3, 3), rng.uniform(-3, 3), rng.rotation(), rng.vec(1.0));
    joint.equality(A, B, rows);
    CHECK(rows.g.norm() < 1e-12);
  }
}

TEST_CASE("universal joint: bending about the forbidden axis, closed form",
          "[constraints][universal]") {
  // orthogonal unit a, b: B turned by δ about n = a × b gives b' = cos δ b − sin δ a,
  // so g = a·b' − 0 = −sin δ
  Rng rng(302);
  const UniversalCase c = random_case(rng, true);
  UniversalJoint joint(settings_of(c), 0, 1, c.A0, c.B0);
  const Vec3 n = c.axis_a.cross(c.axis_b);
  for (double delta : {-0.9, -0.2, 0.05, 0.6}) {
    const Pose B = move(c.B0, axis_angle(n, delta), c.anchor);
    ConstraintRows rows;
    joint.equality(c.A0, B, rows);
    CHECK(rows.g.head<3>().norm() < 1e-12);
    CHECK(rows.g(3) == Approx(-std::sin(delta)).margin(1e-12));
  }
}

TEST_CASE("universal joint: Jacobian matches finite differences (all rows exact)",
          "[constraints][universal]") {
  Rng rng(303);
  for (int trial = 0; trial < 20; ++trial) {
    const UniversalCase c = random_case(rng, trial % 2 == 0);
    UniversalJoint joint(settings_of(c), 0, 1, c.A0, c.B0);
    const auto [A_on, B_on] =
        on_manifold(c, rng.uniform(-3, 3), rng.uniform(-3, 3), rng.rotation(), rng.vec(1.0));
    const Pose A_off = integrate(A_on, random_twist(rng, 0.4));
    const Pose B_off = integrate(B_on, random_twist(rng, 0.4));
    for (const auto& [A, B] : {std::pair{c.A0, c.B0}, std::pair{A_on, B_on},
                               std::pair{A_off, B_off}, std::pair{rng.pose(), rng.pose()}}) {
      ConstraintRows rows;
      joint.equality(A, B, rows);
      const FdJacobian fd = fd_jacobian(equality_g(joint), A, B);
      for (int r = 0; r < 4; ++r) {
        INFO("row " << r);
        CHECK(row_error(fd, rows, r) < kExactTol);
      }
    }
  }
}

TEST_CASE("universal joint: q and -q give the same g", "[constraints][universal]") {
  Rng rng(304);
  const UniversalCase c = random_case(rng, true);
  UniversalJoint joint(settings_of(c), 0, 1, c.A0, c.B0);
  const Pose A = integrate(c.A0, random_twist(rng, 0.5));
  const Pose B = integrate(c.B0, random_twist(rng, 0.5));
  ConstraintRows r1, r2;
  joint.equality(A, B, r1);
  joint.equality(negated(A), negated(B), r2);
  CHECK((r1.g - r2.g).norm() < 1e-12);
  CHECK((r1.J_A - r2.J_A).norm() < 1e-12);
  CHECK((r1.J_B - r2.J_B).norm() < 1e-12);
}

TEST_CASE("universal joint to the world", "[constraints][universal]") {
  Rng rng(305);
  UniversalCase c = random_case(rng, true);
  c.B0 = Pose{};
  UniversalJoint joint(settings_of(c), 4, kWorldBody, c.A0, c.B0);
  CHECK((joint.axis_B() - c.axis_b).norm() < 1e-12);  // world frame
  const auto [A_on, W] = on_manifold(c, 0.8, 0.0, Quat::Identity(), Vec3::Zero());
  ConstraintRows rows;
  joint.equality(A_on, W, rows);
  CHECK(rows.g.norm() < 1e-12);
  const Pose A = integrate(A_on, random_twist(rng, 0.4));
  joint.equality(A, W, rows);
  const FdJacobian fd = fd_jacobian(equality_g(joint), A, W);
  CHECK((fd.J_A - rows.J_A).cwiseAbs().maxCoeff() < kExactTol);
}

TEST_CASE("universal joint: invalid settings throw naming the joint", "[constraints][universal]") {
  const Pose P;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto msg = [&](UniversalJointSettings s) {
    s.name = "cardan";
    return error_message([&] { UniversalJoint j(s, 0, 1, P, P); });
  };
  const auto named = Catch::Contains("universal joint 'cardan'");
  CHECK_THAT(msg({.axis_a_W = Vec3::Zero()}), named);
  CHECK_THAT(msg({.axis_b_W = Vec3(0, nan, 0)}), named);
  CHECK_THAT(msg({.axis_a_W = Vec3::UnitX(), .axis_b_W = Vec3::UnitX()}), named);
  CHECK_THAT(msg({.axis_a_W = Vec3::UnitX(), .axis_b_W = -2.0 * Vec3::UnitX()}), named);
  CHECK_THAT(msg({.axis_a_W = Vec3::UnitX(), .axis_b_W = Vec3(1, 0.005, 0)}), named);
  CHECK_THAT(msg({.anchor_W = Vec3(nan, 0, 0)}), named);
  // 45° apart is fine
  CHECK_THAT(msg({.axis_a_W = Vec3::UnitX(), .axis_b_W = Vec3(1, 1, 0)}),
             Catch::Equals("<no error>"));
}
