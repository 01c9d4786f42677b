// The pull (engine/pull_force.hpp): its gradients against finite differences, and the linearly
// implicit step against the closed-form recurrence of a stiff spring that the explicit step
// cannot integrate.
#include <catch2/catch.hpp>
#include <cmath>

#include "pivot/engine/pull_force.hpp"
#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

Eigen::VectorXd wrenches(const RigidBodySet& set, const ExternalForce& f) {
  Eigen::VectorXd w = Eigen::VectorXd::Zero(6 * set.size());
  f.apply(set, 0.0, w);
  return w;
}

RigidBodySet one_body(const Vec6& twist) {
  RigidBodySet set;
  BodySettings s;
  s.inertia_diag = Vec3(0.5, 1.0, 1.5);
  set.add(make_rigid_body(s),
          Pose{Vec3(0.1, 0.2, 0.3), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()))},
          twist);
  return set;
}

}  // namespace

TEST_CASE("pull gradients match finite differences", "[forces][pull]") {
  // positions: with no velocity the damping adds nothing, so ∂W/∂p is exact
  {
    const RigidBodySet set = one_body(Vec6::Zero());
    PullForce pull;
    pull.start({.body = 0, .p_BP = Vec3(0.1, -0.05, 0.2), .p_WT = Vec3(0.7, -0.3, 1.1),
                .stiffness = 250.0, .damping = 3.0});
    Triplets dp, dv;
    REQUIRE(pull.add_gradients(set, 0.0, dp, dv));
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
      fd.col(k) = (wrenches(plus, pull) - wrenches(minus, pull)) / (2 * eps);
    }
    INFO("max |analytic − fd| = " << (analytic - fd).cwiseAbs().maxCoeff());
    CHECK((analytic - fd).cwiseAbs().maxCoeff() < 1e-6 * fd.cwiseAbs().maxCoeff());
  }
  // velocities: the wrench is linear in the twist, so differences are exact
  {
    const Vec6 V = (Vec6() << 0.3, -0.2, 0.5, 1.0, 0.1, -0.4).finished();
    const RigidBodySet set = one_body(V);
    PullForce pull;
    pull.start({.body = 0, .p_BP = Vec3(0.1, -0.05, 0.2), .p_WT = Vec3(0.7, -0.3, 1.1),
                .stiffness = 250.0, .damping = 3.0});
    Triplets dp, dv;
    REQUIRE(pull.add_gradients(set, 0.0, dp, dv));
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
      fd.col(k) = (wrenches(plus, pull) - wrenches(minus, pull)) / 2e-3;
    }
    CHECK((analytic - fd).cwiseAbs().maxCoeff() < 1e-9 * fd.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("an inactive pull adds nothing; bad settings are errors", "[forces][pull]") {
  const RigidBodySet set = one_body(Vec6::Ones());
  PullForce pull;
  Triplets dp, dv;
  CHECK_FALSE(pull.add_gradients(set, 0.0, dp, dv));
  CHECK(wrenches(set, pull).isZero());
  CHECK_THROWS_AS(pull.start({.body = 0, .p_WT = Vec3(NAN, 0, 0), .stiffness = 1.0}), Error);
  CHECK_THROWS_AS(pull.start({.body = 0, .stiffness = -1.0}), Error);
  CHECK_FALSE(pull.active());
  pull.start({.body = 0, .p_WT = Vec3(1, 2, 3), .stiffness = 10.0});
  CHECK(pull.active());
  CHECK_THROWS_AS(pull.move(Vec3(0, INFINITY, 0)), Error);
  CHECK(pull.settings().p_WT == Vec3(1, 2, 3));
  pull.release();
  CHECK(wrenches(set, pull).isZero());
}

// A 2 kg body pulled at its centre of mass towards T, no gravity: along the line,
//   m ẍ = k (T − x) − c ẋ.
// The engine's step with the pull's gradients (Cline eq. 2.55: M̃ = M − h²∂f/∂p − h∂f/∂v,
// f̃ = f − (∂f/∂v) v; then x += h v⁺) is, for this linear force,
//   (m + h c + h² k) v⁺ = m v + h k (T − x),   x⁺ = x + h v⁺,
// and the explicit step (no gradients) is the symplectic Euler step
//   m v⁺ = m v + h (k (T − x) − c v),          x⁺ = x + h v⁺,
// which grows without bound when h √(k/m) > 2. Here h √(k/m) = 20.
TEST_CASE("a stiff pull is stable in the linearly implicit step only", "[forces][pull]") {
  const double m = 2.0, h = 0.01, k = m * 2000.0 * 2000.0, c = 5.0;  // ω = 2000/s, h ω = 20
  REQUIRE(h * std::sqrt(k / m) == Approx(20.0));
  const Vec3 T(0.3, -0.4, 1.2);
  const Vec3 x0(0.0, 0.0, 1.0);
  for (const bool implicit : {true, false}) {
    World world({.time_step = h, .gravity = Vec3::Zero(), .implicit_forces = implicit});
    const int body = world.add_body({.name = "b", .mass = m, .inertia_diag = Vec3(1, 1, 1),
                                     .p_WS = x0});
    auto& pull = static_cast<PullForce&>(world.add_force(std::make_unique<PullForce>()));
    pull.start({.body = body, .p_WT = T, .stiffness = k, .damping = c});
    Vec3 x = x0, v = Vec3::Zero();
    const int steps = implicit ? 200 : 6;
    for (int i = 0; i < steps; ++i) {
      world.step();
      if (implicit)
        v = (m * v + h * k * (T - x)) / (m + h * c + h * h * k);
      else
        v = v + h * (k * (T - x) - c * v) / m;
      x = x + h * v;
    }
    const Vec3 got = world.pose(body).p_WB;
    INFO((implicit ? "implicit" : "explicit") << ": engine " << got.transpose() << ", recurrence "
                                              << x.transpose());
    CHECK((got - x).norm() <= 1e-9 * std::max(1.0, x.norm()));
    if (implicit)
      CHECK((got - T).norm() < 1e-3 * (x0 - T).norm());  // settled at the target
    else
      CHECK((got - T).norm() > 1e6 * (x0 - T).norm());  // |λ| ≈ h²k/m − 2 = 398 per step
  }
}
