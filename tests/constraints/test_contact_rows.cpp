// constraints/contact_rows.hpp: the contact Jacobian against finite differences of the gap
// function, the friction directions against their definition, and the biases against their
// closed forms (each expectation computed here, not by the code under test).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

#include "joint_fd.hpp"
#include "pivot/constraints/contact_rows.hpp"

using namespace pivot;
using namespace pivot::test;

TEST_CASE("contact rows: J is the derivative of the gap along each direction",
          "[constraints][contact]") {
  // g(p) = d·(p_A − p_B) with the contact points fixed in their bodies and d fixed in world:
  // the linearization the LCP uses (Cline eq. 4.14), for the normal and any tangent alike
  Rng rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const Pose A0 = rng.pose(), B0 = rng.pose();
    const Vec3 p_A = A0.p_WB + rng.vec(0.5), p_B = B0.p_WB + rng.vec(0.5);  // world
    const Vec3 c_A = A0.q_WB.conjugate() * (p_A - A0.p_WB);                 // body frames
    const Vec3 c_B = B0.q_WB.conjugate() * (p_B - B0.p_WB);
    const Vec3 d = rng.unit();
    const GFunction g = [&](const Pose& A, const Pose& B) {
      Eigen::VectorXd out(1);
      out(0) = d.dot(A.to_world(c_A) - B.to_world(c_B));
      return out;
    };
    const FdJacobian fd = fd_jacobian(g, A0, B0);
    const ContactRow row = contact_row(p_A, A0.p_WB, p_B, B0.p_WB, d);
    INFO("trial " << trial);
    CHECK((fd.J_A.row(0) - row.J_A).cwiseAbs().maxCoeff() < 1e-7);
    CHECK((fd.J_B.row(0) - row.J_B).cwiseAbs().maxCoeff() < 1e-7);
  }
}

TEST_CASE("contact rows: the friction directions", "[constraints][contact]") {
  Rng rng(3);
  for (const int k : {4, 8, 16})
    for (int trial = 0; trial < 20; ++trial) {
      const Vec3 n = trial == 0 ? Vec3::UnitX() : rng.unit();  // trial 0: the fallback to y
      const double offset = trial % 2 ? rng.uniform(-1.0, 1.0) : 0.0;
      const auto dirs = friction_directions(n, k, offset);
      REQUIRE(static_cast<int>(dirs.size()) == k);
      // the first direction: the projection of world x (else y) on the plane, turned by offset
      Vec3 t1 = Vec3::UnitX() - n.dot(Vec3::UnitX()) * n;
      if (t1.norm() < 1e-6) t1 = Vec3::UnitY() - n.dot(Vec3::UnitY()) * n;
      t1.normalize();
      const Vec3 expected_first =
          std::cos(offset) * t1 + std::sin(offset) * n.cross(t1);  // Rodrigues about n
      INFO("k " << k << ", trial " << trial);
      CHECK((dirs[0] - expected_first).norm() < 1e-12);
      for (int j = 0; j < k; ++j) {
        CHECK(std::abs(dirs[j].norm() - 1.0) < 1e-12);  // unit
        CHECK(std::abs(dirs[j].dot(n)) < 1e-12);        // tangent
        // 2π/k from the previous one, turning the right way about n
        const Vec3& prev = dirs[(j + k - 1) % k];
        const double angle = std::atan2(prev.cross(dirs[j]).dot(n), prev.dot(dirs[j]));
        CHECK(angle == Approx(2.0 * std::numbers::pi / k).margin(1e-12));
        // each with its negative
        CHECK((dirs[j] + dirs[(j + k / 2) % k]).norm() < 1e-12);
      }
    }
}

TEST_CASE("contact rows: biases in closed form", "[constraints][contact]") {
  const ContactBiasSettings plain{.time_step = 0.01, .restitution_threshold = 0.1};
  // separated by 2 mm: may close it in one step, b = g / h = 0.2 m/s
  CHECK(contact_velocity_bias(0.002, -1.0, plain) == Approx(0.2));
  // penetrating without Baumgarte: left to the post-step, b = 0
  CHECK(contact_velocity_bias(-0.003, -1.0, plain) == 0.0);
  // Baumgarte: b = α g = 100 · (−0.003) = −0.3
  ContactBiasSettings baumgarte = plain;
  baumgarte.baumgarte = true;
  baumgarte.baumgarte_alpha = 100.0;
  CHECK(contact_velocity_bias(-0.003, -1.0, baumgarte) == Approx(-0.3));
  CHECK(contact_velocity_bias(0.002, -1.0, baumgarte) == Approx(0.2));
  // restitution e = 0.5 at 2 m/s closing on a 1 mm gap within the step (2 cm ≥ 1 mm):
  // b = e v_n = −1 m/s, so v_n⁺ ≥ 1 m/s
  ContactBiasSettings bouncy = plain;
  bouncy.restitution = 0.5;
  CHECK(contact_velocity_bias(0.001, -2.0, bouncy) == Approx(-1.0));
  // below the threshold (0.05 m/s < 0.1 m/s): no bounce, the speculative bias
  CHECK(contact_velocity_bias(0.001, -0.05, bouncy) == Approx(0.1));
  // fast, but the gap (5 cm) does not close within the step (2 m/s · 0.01 s = 2 cm): no bounce
  CHECK(contact_velocity_bias(0.05, -2.0, bouncy) == Approx(5.0));
  // post-step: the gap itself; rounding of touching (above −64 ε max(1 m, |p|∞)) is 0
  const Vec3 near(0.3, -0.2, 0.5), far(1e4, 0.0, 0.0);
  CHECK(contact_position_bias(-0.004, near, near) == -0.004);
  CHECK(contact_position_bias(-3e-17, near, near) == 0.0);
  CHECK(contact_position_bias(0.001, near, near) == 0.001);
  // the level: 64 ulps of 1 m near the origin, of the largest coordinate far from it
  const double ulp1 = std::numeric_limits<double>::epsilon();
  CHECK(contact_position_bias(-60 * ulp1, near, near) == 0.0);
  CHECK(contact_position_bias(-70 * ulp1, near, near) == -70 * ulp1);
  CHECK(contact_position_bias(-1e-12, near, near) == -1e-12);  // corrected, not left to grow
  CHECK(contact_position_bias(-1e-12, near, far) == 0.0);      // 1e4 m: rounding is 1.4e-10 m
  CHECK(contact_position_bias(-1e-9, far, near) == -1e-9);
  CHECK(contact_gap_roundoff(NAN) == contact_gap_roundoff(0.0));
}
