// engine/hybrid/contact_frame.hpp, engine/hybrid/contact_kinematics.hpp: H and Ḣ against finite
// differences of the forward map ^2_1E(q) (P9), the sign-corrected H against the independent Python
// check of an independent Python check (outside this repository), the two-free-body Jacobian
// against finite differences of world poses, and the twist ↔ q̇ maps against each other.
#include <catch2/catch.hpp>

#include <algorithm>

#include <functional>
#include <random>

#include "pivot/collision/bezier_surface.hpp"
#include "pivot/collision/ellipsoid_surface.hpp"
#include "pivot/collision/paraboloid_surface.hpp"
#include "pivot/collision/plane_surface.hpp"
#include "pivot/collision/torus_surface.hpp"
#include "pivot/engine/hybrid/contact_kinematics.hpp"
#include "reduced_test_support.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using pivot::test::fd_body_twist;

namespace {

/// a surface given by a formula in Taylor arithmetic, one unbounded patch (test helper)
class FormulaSurface final : public SmoothSurface {
 public:
  using Formula = std::function<Taylor2Vec3(const Taylor2&, const Taylor2&)>;
  explicit FormulaSurface(Formula f) : f_(std::move(f)) {}
  std::string name() const override { return "formula"; }
  int patch_count() const override { return 1; }
  const PatchDomain& domain(int) const override { return domain_; }
  SurfaceJet evaluate(int, const Vec2& uv) const override {
    return f_(Taylor2::variable_u(uv.x()), Taylor2::variable_v(uv.y())).to_jet();
  }

 private:
  Formula f_;
  PatchDomain domain_;
};

/// the two generic surfaces of an independent Python check (outside this repository)
SmoothSurfacePtr check_py_c1() {
  return std::make_shared<FormulaSurface>([](const Taylor2& s, const Taylor2& t) {
    Taylor2Vec3 p;
    p.e[0] = s + 0.1 * t * t;
    p.e[1] = t + 0.05 * s * t;
    p.e[2] = 0.3 * s * s + 0.1 * s * t - 0.25 * t * t + 0.05 * s * s * s;
    return p;
  });
}
SmoothSurfacePtr check_py_c2() {
  return std::make_shared<FormulaSurface>([](const Taylor2& u, const Taylor2& v) {
    Taylor2Vec3 p;
    p.e[0] = u;
    p.e[1] = v + 0.1 * u * u;
    p.e[2] = -0.2 * u * u + 0.15 * u * v - 0.1 * v * v + 0.03 * v * v * v;
    return p;
  });
}

BezierPatch bumpy_patch() {
  BezierPatch P;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      P[4 * i + j] = Vec3(i + 0.1 * j * j, j - 0.15 * i * j, 0.3 * std::sin(1.3 * i + 0.7 * j));
  return P;
}

Pose some_pose(double a, const Vec3& axis, const Vec3& x) {
  Pose X;
  X.q_WB = Quat(Eigen::AngleAxisd(a, axis.normalized()));
  X.p_WB = x;
  return X;
}

struct Pair {
  const char* name;
  ContactSurface s1, s2;
  ContactCoordinates q;
};

std::vector<Pair> pairs() {
  std::vector<Pair> out;
  ContactSurface bez{std::make_shared<BezierSurface>(std::vector<BezierPatch>{bumpy_patch()}),
                     some_pose(0.4, Vec3(1, 2, 3), Vec3(0.1, -0.2, 0.3))};
  ContactSurface ell{make_ellipsoid_surface(Vec3(0.3, 0.2, 0.5)),
                     some_pose(-0.7, Vec3(0, 1, 1), Vec3(0.05, 0.0, -0.1))};
  ContactSurface tor{std::make_shared<TorusSurface>(0.5, 0.2),
                     some_pose(1.1, Vec3(1, 0, 0), Vec3::Zero())};
  ContactSurface par{std::make_shared<ParaboloidSurface>(2.7, 0.3, 0.9, 0.3),
                     some_pose(0.2, Vec3(0, 0, 1), Vec3(0, 0, 0.1))};
  ContactSurface pla{make_plane_surface(Vec3(0.1, 0.2, 1.0), -0.3), Pose{}};
  auto q = [](int p1, int p2, double s, double t, double u, double v, double psi) {
    ContactCoordinates c;
    c.patch_1 = p1;
    c.patch_2 = p2;
    c.q << s, t, u, v, psi;
    return c;
  };
  out.push_back({"bezier on ellipsoid", bez, ell, q(0, 4, 0.3, 0.6, 0.2, -0.4, 0.9)});
  out.push_back({"ellipsoid on torus", ell, tor, q(2, 0, -0.5, 0.3, 1.0, 2.5, -2.0)});
  out.push_back({"paraboloid on plane", par, pla, q(0, 0, 0.3, -0.1, 0.4, -0.2, 0.5)});
  out.push_back({"torus on bezier", tor, bez, q(0, 0, 4.0, 0.5, 0.7, 0.3, 3.0)});
  out.push_back({"check.py surfaces", ContactSurface{check_py_c1(), Pose{}},
                 ContactSurface{check_py_c2(), Pose{}}, q(0, 0, 0.2, -0.1, 0.15, 0.3, 0.7)});
  return out;
}

Vec5 random_rates(std::mt19937& gen) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Vec5 r;
  for (int i = 0; i < 5; ++i) r[i] = U(gen);
  return r;
}

ContactCoordinates moved(ContactCoordinates q, const Vec5& dq) {
  q.q += dq;
  return q;
}

}  // namespace

TEST_CASE("contact frame: origin, outward normal, H block against finite differences",
          "[engine][contact_kinematics]") {
  const ContactSurface ell{make_ellipsoid_surface(Vec3(0.3, 0.2, 0.5)),
                           some_pose(-0.7, Vec3(0, 1, 1), Vec3(0.05, 0.0, -0.1))};
  const Vec2 ab(0.3, -0.6);
  const ContactFrame f = contact_frame(ell.evaluate(1, ab));
  CHECK((f.Theta.transpose() * f.Theta - Mat3::Identity()).norm() < 1e-14);
  CHECK(f.Theta.determinant() == Approx(1.0));
  CHECK(f.regularity > 0.5);
  // ^{kc}φ(k, kc) = H (u̇, v̇): the frame's body-frame twist by finite differences
  const double h = 1e-6;
  for (int col = 0; col < 2; ++col) {
    const Vec2 d = col == 0 ? Vec2(h, 0) : Vec2(0, h);
    auto pose_at = [&](const Vec2& uv) {
      const ContactFrame g = contact_frame(ell.evaluate(1, uv));
      Pose X;
      X.p_WB = g.c;
      X.q_WB = Quat(g.Theta);
      return X;
    };
    const Vec6 fd = fd_body_twist(pose_at(ab - d), pose_at(ab), pose_at(ab + d), h);
    CHECK((fd - f.H.col(col)).norm() < 1e-8);
    // ∂H/∂u, ∂H/∂v and ∂Θ/∂u by central differences
    const ContactFrame fp = contact_frame(ell.evaluate(1, ab + d)),
                       fm = contact_frame(ell.evaluate(1, ab - d));
    const Mat62 dH = (fp.H - fm.H) / (2 * h);
    CHECK((dH - (col == 0 ? f.H_u : f.H_v)).norm() < 1e-7);
    const Mat3 dT = (fp.Theta - fm.Theta) / (2 * h);
    CHECK((dT - (col == 0 ? f.Theta_u : f.Theta_v)).norm() < 1e-8);
  }
  // normal row and y·c_u vanish exactly
  CHECK(f.H(5, 0) == 0.0);
  CHECK(f.H(5, 1) == 0.0);
  CHECK(f.H(4, 0) == 0.0);
}

TEST_CASE("contact frame: the closed forms agree with third-order Taylor arithmetic",
          "[engine][contact_kinematics]") {
  // The frame and its partials are computed in closed form (engine/hybrid/contact_frame.cpp).
  // Here they are computed independently, as before session 16: forward-mode differentiation
  // to third order with Taylor2 (collision/surface_jet.hpp) throughout. The two agree to
  // rounding, on every surface kind of the tests.
  const auto reference = [](const SurfaceJet& jet) {
    const Taylor2Vec3 c = Taylor2Vec3::from_jet(jet);
    const Taylor2Vec3 c_u = c.d_u(), c_v = c.d_v();
    const Taylor2Vec3 x = normalized(c_u);
    const Taylor2Vec3 z = normalized(cross(c_u, c_v));
    const Taylor2Vec3 y = cross(z, x);
    const Taylor2Vec3 x_u = x.d_u(), x_v = x.d_v(), z_u = z.d_u(), z_v = z.d_v();
    const std::array<Taylor2, 12> h{-dot(y, z_u), -dot(z, x_u), dot(y, x_u),  dot(x, c_u),
                                    Taylor2{},    Taylor2{},    -dot(y, z_v), -dot(z, x_v),
                                    dot(y, x_v),  dot(x, c_v),  dot(y, c_v),  Taylor2{}};
    ContactFrame f;
    const int du = Taylor2::index(1, 0), dv = Taylor2::index(0, 1);
    for (int col = 0; col < 2; ++col)
      for (int row = 0; row < 6; ++row) {
        f.H(row, col) = h[6 * col + row].c[0];
        f.H_u(row, col) = h[6 * col + row].c[du];
        f.H_v(row, col) = h[6 * col + row].c[dv];
      }
    f.Theta << x.value(), y.value(), z.value();
    f.Theta_u << x.coefficient(du), y.coefficient(du), z.coefficient(du);
    f.Theta_v << x.coefficient(dv), y.coefficient(dv), z.coefficient(dv);
    return f;
  };
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> offset(-0.05, 0.05);
  int compared = 0;
  for (const Pair& p : pairs()) {
    INFO(p.name);
    for (int side = 0; side < 2; ++side)
      for (int k = 0; k < 5; ++k) {
        const Vec2 uv = (side == 0 ? p.q.st() : p.q.uv()) + Vec2(offset(rng), offset(rng));
        const SurfaceJet jet =
            side == 0 ? p.s1.evaluate(p.q.patch_1, uv) : p.s2.evaluate(p.q.patch_2, uv);
        const ContactFrame f = contact_frame(jet), g = reference(jet);
        const auto close = [](const auto& A, const auto& B) {
          return (A - B).cwiseAbs().maxCoeff() <= 1e-12 * std::max(1.0, B.cwiseAbs().maxCoeff());
        };
        CHECK(close(f.H, g.H));
        CHECK(close(f.H_u, g.H_u));
        CHECK(close(f.H_v, g.H_v));
        CHECK(close(f.Theta, g.Theta));
        CHECK(close(f.Theta_u, g.Theta_u));
        CHECK(close(f.Theta_v, g.Theta_v));
        CHECK(f.H(4, 0) == 0.0);  // y·c_u = 0 exactly
        ++compared;
      }
  }
  CHECK(compared == 50);
}

TEST_CASE("contact pose: the contact points meet and the normals oppose",
          "[engine][contact_kinematics]") {
  for (const Pair& p : pairs()) {
    INFO(p.name);
    const ContactKinematics k = contact_kinematics(p.s1, p.s2, p.q, Vec5::Zero());
    const Mat3 R21 = k.X_21.q_WB.toRotationMatrix();
    // body 1's contact point, seen in body 2, is body 2's contact point
    CHECK((k.X_21.p_WB + R21 * k.frame_1.c - k.frame_2.c).norm() < 1e-13);
    // z_1c = −z_2c
    CHECK((R21 * k.frame_1.Theta.col(2) + k.frame_2.Theta.col(2)).norm() < 1e-13);
    // x_2c in 1c coordinates is (cos ψ, −sin ψ, 0) (P7)
    const Vec3 x2_in_1c = (R21 * k.frame_1.Theta).transpose() * k.frame_2.Theta.col(0);
    CHECK((x2_in_1c - Vec3(std::cos(p.q.psi()), -std::sin(p.q.psi()), 0.0)).norm() < 1e-13);
    // contact_pose() is the same pose
    const Pose X = contact_pose(p.s1, p.s2, p.q);
    CHECK((X.p_WB - k.X_21.p_WB).norm() < 1e-13);
    CHECK(X.q_WB.angularDistance(k.X_21.q_WB) < 1e-13);
  }
}

TEST_CASE("H against finite differences of the forward map E(q)", "[engine][contact_kinematics]") {
  std::mt19937 gen(5);
  for (const Pair& p : pairs()) {
    INFO(p.name);
    for (int trial = 0; trial < 4; ++trial) {
      const Vec5 qdot = random_rates(gen);
      const ContactKinematics k = contact_kinematics(p.s1, p.s2, p.q, qdot);
      // move q by ±ε q̇ and compare the relative body-frame twist of body 1 w.r.t. body 2
      const double h = 1e-6;
      const Vec6 fd = fd_body_twist(contact_pose(p.s1, p.s2, moved(p.q, -h * qdot)), k.X_21,
                                    contact_pose(p.s1, p.s2, moved(p.q, h * qdot)), h);
      CHECK((fd - k.H_1 * qdot).norm() < 1e-8 * std::max(1.0, fd.norm()));
    }
    const ContactKinematics k = contact_kinematics(p.s1, p.s2, p.q, Vec5::Zero());
    // in the contact frame: zero normal row, H(3,5) = +1 (P§3.4.3)
    CHECK(k.H_1c.row(5).norm() < 1e-14);
    CHECK(k.H_1c(2, 4) == 1.0);
    CHECK(k.H_1c.col(4).norm() == 1.0);
    CHECK((k.Ad_1_1c * k.H_1c - k.H_1).norm() < 1e-14);
  }
}

TEST_CASE("H matches an independent Python check (outside this repository)",
          "[engine][contact_kinematics]") {
  // expected: ^{1c}H by finite differences of ^2_1E(q) in an independent Python check (outside this
  // repository) ("numeric in 1c coords"), printed to 9 digits by running its functions; its own
  // error is ~2e-9
  Mat65 expected;
  expected << -0.105143327, 0.510487807, -0.129791434, -0.018570729, 0.0,  //
      0.649560994, 0.094894413, -0.405410736, 0.211546412, 0.0,            //
      -0.046580727, -0.056598245, -0.211282768, 0.004339278, 1.0,          //
      -1.006717935, 0.016817025, 0.765272290, -0.620928481, 0.0,           //
      0.0, -1.012480710, -0.644579958, -0.784418371, 0.0,                  //
      0.0, 0.0, 0.0, 0.0, 0.0;
  const Pair p = pairs().back();
  const ContactKinematics k = contact_kinematics(p.s1, p.s2, p.q, Vec5::Zero());
  CHECK((k.H_1c - expected).cwiseAbs().maxCoeff() < 2e-8);
  // the pose ^2_1E(q) of the same script
  Mat3 R;
  R << 0.782416337912, -0.621919449950, 0.032262547040,   //
      -0.610637716020, -0.776331545428, -0.156303907009,  //
      0.122254872875, 0.102594002486, -0.987181957246;
  CHECK((k.X_21.q_WB.toRotationMatrix() - R).cwiseAbs().maxCoeff() < 1e-9);
  CHECK((k.X_21.p_WB - Vec3(-0.070334422487, 0.347813495697, -0.012352497735)).norm() < 1e-9);
}

TEST_CASE("Hdot against finite differences of H along qdot", "[engine][contact_kinematics]") {
  std::mt19937 gen(7);
  for (const Pair& p : pairs()) {
    INFO(p.name);
    for (int trial = 0; trial < 4; ++trial) {
      const Vec5 qdot = random_rates(gen);
      const ContactKinematics k = contact_kinematics(p.s1, p.s2, p.q, qdot);
      const double h = 1e-6;
      const ContactKinematics kp = contact_kinematics(p.s1, p.s2, moved(p.q, h * qdot), qdot);
      const ContactKinematics km = contact_kinematics(p.s1, p.s2, moved(p.q, -h * qdot), qdot);
      const Mat65 fd_1 = (kp.H_1 - km.H_1) / (2 * h);
      const Mat65 fd_1c = (kp.H_1c - km.H_1c) / (2 * h);
      CHECK((fd_1 - k.Hdot_1).norm() < 1e-7 * std::max(1.0, fd_1.norm()));
      CHECK((fd_1c - k.Hdot_1c).norm() < 1e-7 * std::max(1.0, fd_1c.norm()));
      // the relative acceleration term Ḣ q̇ against the second difference of the pose
      const Vec6 a_fd = (kp.H_1 * qdot - km.H_1 * qdot) / (2 * h);
      CHECK((a_fd - k.Hdot_1 * qdot).norm() < 1e-7 * std::max(1.0, a_fd.norm()));
    }
  }
}

TEST_CASE("two free bodies: body 1's twist and bias acceleration by finite differences",
          "[engine][contact_kinematics]") {
  std::mt19937 gen(9);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (const Pair& p : pairs()) {
    INFO(p.name);
    const Pose X_W2 = some_pose(0.8, Vec3(1, -1, 2), Vec3(0.3, 0.1, -0.4));
    const Vec5 qdot = random_rates(gen);
    Vec6 V2;
    for (int i = 0; i < 6; ++i) V2[i] = U(gen);
    // world pose of body 1 along the motion (body 2 moves by its body-frame twist:
    // X_W2(ε) = X_W2 exp(ε V2))
    auto world_pose_1 = [&](double eps) {
      Pose d;
      d.q_WB = quat_exp(eps * V2.head<3>());
      d.p_WB = eps * V2.tail<3>();  // first order in ε is enough for a central difference of
                                    // the twist; the second difference below uses the exact map
      return compose(compose(X_W2, d), contact_pose(p.s1, p.s2, moved(p.q, eps * qdot)));
    };
    const double h = 1e-6;
    const ContactKinematics k = contact_kinematics(p.s1, p.s2, p.q, qdot);
    const Vec6 V1 = body1_twist(k, V2, qdot);
    const Vec6 fd = fd_body_twist(world_pose_1(-h), world_pose_1(0.0), world_pose_1(h), h);
    CHECK((fd - V1).norm() < 1e-7 * std::max(1.0, fd.norm()));
    // J̇ν: the change of body1_twist(config, ν) with ν fixed, config moved along ν
    auto twist_at = [&](double eps) {
      const ContactKinematics ke = contact_kinematics(p.s1, p.s2, moved(p.q, eps * qdot), qdot);
      return body1_twist(ke, V2, qdot);
    };
    // body 2's own motion does not change ^1_2Ad through X_W2, only through q: the bias is the
    // rate of ^1_2Ad(q(t)) ^2φ_2 + ^1H(q(t)) q̇ in the moving frame 1, which adds the frame
    // rotation term −[φ_rel] ^1_2Ad ^2φ_2 (checked through the derivative of ^1_2Ad)
    const Vec6 d_fd = (twist_at(h) - twist_at(-h)) / (2 * h);
    const Vec6 bias = body1_bias_acceleration(k, V2, qdot);
    CHECK((d_fd - bias).norm() < 1e-7 * std::max(1.0, d_fd.norm()));
  }
}

TEST_CASE("twist to contact rates and back", "[engine][contact_kinematics]") {
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (const Pair& p : pairs()) {
    INFO(p.name);
    const Vec5 qdot = random_rates(gen);
    Vec6 V2;
    for (int i = 0; i < 6; ++i) V2[i] = U(gen);
    const ContactKinematics k = contact_kinematics(p.s1, p.s2, p.q, Vec5::Zero());
    const Vec6 V1 = body1_twist(k, V2, qdot);
    const ContactRates r = contact_rates(k, V1, V2);
    CHECK((r.qdot - qdot).norm() < 1e-12 * std::max(1.0, qdot.norm()));
    CHECK(std::abs(r.separation_rate) < 1e-12);
    // add a normal velocity w along z_1c (body 1 moving towards body 2): the gap closes at w
    Vec6 n_1c = Vec6::Zero();
    n_1c[5] = 0.37;
    const ContactRates r2 = contact_rates(k, V1 + k.Ad_1_1c * n_1c, V2);
    CHECK((r2.qdot - qdot).norm() < 1e-12 * std::max(1.0, qdot.norm()));
    CHECK(r2.separation_rate == Approx(-0.37));
  }
  // world ↔ body twists
  const Quat q(Eigen::AngleAxisd(0.9, Vec3(1, 2, 3).normalized()));
  Vec6 t;
  t << 1, 2, 3, 4, 5, 6;
  CHECK((to_body_twist(q, to_world_twist(q, t)) - t).norm() < 1e-14);
}
