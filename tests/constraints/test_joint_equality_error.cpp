// Joint::equality_error, the error of a joint's equality rows without their Jacobians
// (World::max_joint_error): for every joint type, at random poses near and far from the
// joint's configuration and with the world as body B, it must be the largest |g_e| of the rows
// equality() writes, to the bit; and a non-finite pose gives NaN, not a finite number.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "joint_fd.hpp"
#include "pivot/constraints/ball_joint.hpp"
#include "pivot/constraints/fixed_joint.hpp"
#include "pivot/constraints/hinge_joint.hpp"
#include "pivot/constraints/planar_joint.hpp"
#include "pivot/constraints/slider_joint.hpp"
#include "pivot/constraints/universal_joint.hpp"

using namespace pivot;
using namespace pivot::test;

namespace {

// every joint type between bodies at A0 and B0 (B0 the identity pose for the world)
std::vector<std::unique_ptr<Joint>> every_joint(Rng& rng, const Pose& A0, const Pose& B0,
                                                int body_b) {
  std::vector<std::unique_ptr<Joint>> joints;
  const Vec3 anchor = rng.vec(1.0);
  const Vec3 u = rng.unit();
  const Vec3 v = (u.cross(rng.unit())).normalized();
  joints.push_back(std::make_unique<BallJoint>(BallJointSettings{.name = "b", .anchor_W = anchor},
                                               0, body_b, A0, B0));
  joints.push_back(std::make_unique<HingeJoint>(
      HingeJointSettings{.name = "h", .anchor_W = anchor, .axis_W = u}, 0, body_b, A0, B0));
  joints.push_back(std::make_unique<UniversalJoint>(
      UniversalJointSettings{.name = "u", .anchor_W = anchor, .axis_a_W = u, .axis_b_W = v}, 0,
      body_b, A0, B0));
  joints.push_back(std::make_unique<FixedJoint>(FixedJointSettings{.name = "f", .anchor_W = anchor},
                                                0, body_b, A0, B0));
  joints.push_back(std::make_unique<SliderJoint>(
      SliderJointSettings{.name = "s", .anchor_W = anchor, .axis_W = u}, 0, body_b, A0, B0));
  joints.push_back(std::make_unique<PlanarJoint>(
      PlanarJointSettings{.name = "p", .anchor_W = anchor, .normal_W = u}, 0, body_b, A0, B0));
  return joints;
}

double rows_error(const Joint& joint, const Pose& A, const Pose& B) {
  ConstraintRows rows;
  joint.equality(A, B, rows);
  double m = 0.0;
  for (Eigen::Index i = 0; i < rows.g.size(); ++i) m = std::max(m, std::abs(rows.g(i)));
  return m;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST_CASE("joint equality error: the largest |g| of the rows, to the bit", "[constraints]") {
  Rng rng(2024);
  int compared = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const bool to_world = trial % 4 == 0;
    const Pose A0 = rng.pose();
    const Pose B0 = to_world ? Pose{} : rng.pose();
    for (const auto& joint : every_joint(rng, A0, B0, to_world ? kWorldBody : 1)) {
      INFO("trial " << trial << ", joint " << joint->name());
      // near the joint's configuration (errors of rounding and of a step) and far from it
      for (const double size : {0.0, 1e-9, 1e-3, 0.5}) {
        const Pose A = size > 0.0 ? integrate(A0, rng.twist(size)) : A0;
        const Pose B = to_world ? B0 : (size > 0.0 ? integrate(B0, rng.twist(size)) : B0);
        ConstraintRows scratch;
        const double error = joint->equality_error(A, B, scratch);
        CHECK(same_bits(error, rows_error(*joint, A, B)));
        ++compared;
      }
    }
  }
  CHECK(compared == 400 * 6 * 4);
}

TEST_CASE("joint equality error: a non-finite pose is not a finite error", "[constraints]") {
  Rng rng(7);
  const Pose A0 = rng.pose(), B0 = rng.pose();
  Pose bad = A0;
  bad.p_WB.x() = std::numeric_limits<double>::quiet_NaN();
  for (const auto& joint : every_joint(rng, A0, B0, 1)) {
    INFO("joint " << joint->name());
    ConstraintRows scratch;
    CHECK(std::isnan(joint->equality_error(bad, B0, scratch)));
  }
}
