// Planar joint: g_0 = n·(p_B − p_A) (point on plane) and g_i = n·b_i (axis alignment), all
// exact; g = 0 under every motion the joint allows, ≠ 0 under those it forbids.
#include <catch2/catch.hpp>
#include <cmath>

#include "joint_fd.hpp"
#include "pivot/constraints/planar_joint.hpp"

using namespace pivot;
using namespace pivot::test;

namespace {

struct PlanarCase {
  Pose A0, B0;
  Vec3 anchor, normal;  // world, at creation (normal unit)
};

PlanarCase random_case(Rng& rng) {
  return {rng.pose(), rng.pose(), rng.vec(2.0), rng.unit()};
}

/// B turned by θ about the normal through any point c and slid by s in the plane, then both
/// moved by the rigid motion (R, t): a configuration the joint allows
std::pair<Pose, Pose> allowed(const PlanarCase& c, Rng& rng) {
  const Vec3 along = rng.vec(1.0);
  const Vec3 in_plane = along - along.dot(c.normal) * c.normal;
  const Pose B = move(c.B0, axis_angle(c.normal, rng.uniform(-3.0, 3.0)), rng.vec(2.0), in_plane);
  const Quat R = rng.rotation();
  const Vec3 t = rng.vec(1.0);
  return {move(c.A0, R, c.anchor, t), move(B, R, c.anchor, t)};
}

}  // namespace

TEST_CASE("planar joint: g = 0 at creation and under the motions it allows",
          "[constraints][planar]") {
  Rng rng(501);
  for (int trial = 0; trial < 20; ++trial) {
    const PlanarCase c = random_case(rng);
    PlanarJoint joint({.name = "p", .anchor_W = c.anchor, .normal_W = 2.0 * c.normal}, 0, 1, c.A0,
                      c.B0);
    CHECK(joint.type() == JointType::planar);
    CHECK(joint.equality_rows() == 3);
    CHECK((c.A0.rotate(joint.normal_A()) - c.normal).norm() < 1e-12);
    ConstraintRows rows;
    joint.equality(c.A0, c.B0, rows);
    REQUIRE(rows.rows() == 3);
    CHECK(rows.g.norm() < 1e-12);
    const auto [A, B] = allowed(c, rng);
    joint.equality(A, B, rows);
    CHECK(rows.g.norm() < 1e-11);
    // forbidden: B lifted off the plane by 0.3 (g_0 = 0.3), or tilted about an in-plane axis
    joint.equality(c.A0, Pose{c.B0.p_WB + 0.3 * c.normal, c.B0.q_WB}, rows);
    CHECK(rows.g(0) == Approx(0.3).margin(1e-12));
    const Vec3 tilt_axis = c.normal.cross(rng.unit()).normalized();
    joint.equality(c.A0, move(c.B0, axis_angle(tilt_axis, 0.2), c.anchor), rows);
    CHECK(rows.g.tail<2>().norm() == Approx(std::sin(0.2)).epsilon(1e-12));
  }
}

TEST_CASE("planar joint: Jacobians match finite differences (all rows exact)",
          "[constraints][planar]") {
  Rng rng(502);
  for (int trial = 0; trial < 20; ++trial) {
    const PlanarCase c = random_case(rng);
    PlanarJoint joint({.name = "p", .anchor_W = c.anchor, .normal_W = c.normal}, 0, 1, c.A0, c.B0);
    const auto [A_on, B_on] = allowed(c, rng);
    const Pose A_off = integrate(A_on, rng.twist(0.4));
    const Pose B_off = integrate(B_on, rng.twist(0.4));
    for (const auto& [A, B] : {std::pair{c.A0, c.B0}, std::pair{A_on, B_on},
                               std::pair{A_off, B_off}, std::pair{rng.pose(), rng.pose()}}) {
      ConstraintRows rows;
      joint.equality(A, B, rows);
      const FdJacobian fd = fd_jacobian(equality_g(joint), A, B);
      for (int r = 0; r < 3; ++r) {
        INFO("row " << r);
        CHECK(row_error(fd, rows, r) < kExactTol);
      }
    }
  }
}

TEST_CASE("planar joint to the world, and invalid settings", "[constraints][planar]") {
  const Pose A0{Vec3(1, 2, 3), Quat::Identity()};
  PlanarJoint joint({.name = "p", .anchor_W = Vec3(1, 2, 0), .normal_W = Vec3::UnitZ()}, 0,
                    kWorldBody, A0, Pose{});
  ConstraintRows rows;
  // the body slides in x, y and turns about z: allowed; rises in z: g_0 = −0.5 (n fixed in A)
  joint.equality(Pose{Vec3(4, -1, 3), axis_angle(Vec3::UnitZ(), 1.0)}, Pose{}, rows);
  CHECK(rows.g.norm() < 1e-12);
  joint.equality(Pose{Vec3(1, 2, 3.5), Quat::Identity()}, Pose{}, rows);
  CHECK(rows.g(0) == Approx(-0.5).margin(1e-12));
  CHECK_THAT(error_message([&] {
               PlanarJoint bad({.name = "p", .normal_W = Vec3::Zero()}, 0, kWorldBody, A0, Pose{});
             }),
             Catch::Contains("planar joint 'p'") && Catch::Contains("normal_W"));
  CHECK_THAT(error_message([&] {
               PlanarJoint bad({.name = "p", .anchor_W = Vec3(NAN, 0, 0)}, 0, kWorldBody, A0,
                               Pose{});
             }),
             Catch::Contains("anchor_W"));
}
