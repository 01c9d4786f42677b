// Struben's animator mode (engine/animator.hpp, docs/animator.md): the projection LCP against
// Struben 1998 Eq. 4.15, the translate/rotate fractions honoured exactly, a several-body overlap
// removed in one joint solve where sequential pairwise projection (implemented here as the
// baseline) needs many passes, and the relaxation of corrections at the documented rate.
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>

#include "pivot/engine/animator.hpp"

using namespace pivot;

namespace {

int sphere(World& w, const std::string& name, const Vec3& p, double r = 0.5) {
  return w.add_body({.name = name, .mass = 1.0, .shape = make_sphere(r), .p_WS = p});
}

AnimatorBodySettings rigid(double R, double t = 1.0, double r = 1.0) {
  AnimatorBodySettings s;
  s.rigidity = R;
  s.translate = t;
  s.rotate = r;
  return s;
}

}  // namespace

TEST_CASE("animator: the rigidity split of two overlapping spheres is Struben's Eq. 4.15") {
  // spheres of radius 0.5 at x = 0 and x = 0.9: P1 = (0.5, 0, 0) on sphere 1, P2 = (0.4, 0, 0) on
  // sphere 2. Eq. 4.15: P′ = R P1 + (1 − R) P2 with R = R1/(R1 + R2); sphere 1 moves by P′ − P1,
  // sphere 2 by P′ − P2.
  struct Case {
    double R1, R2;
    bool infinite;  // R2 = ∞: sphere 2 never moves (translate = rotate = 0), R = 0
  };
  for (const Case c : {Case{1, 1, false}, Case{1, 9, false}, Case{9, 1, false}, Case{1, 0, true}}) {
    World w({.time_step = 0.04});
    const int a = sphere(w, "a", Vec3(0, 0, 0)), b = sphere(w, "b", Vec3(0.9, 0, 0));
    const double R = c.infinite ? 0.0 : c.R1 / (c.R1 + c.R2);
    const double P1 = 0.5, P2 = 0.4, P = R * P1 + (1 - R) * P2;
    Animator anim(w, {std::nullopt, std::nullopt},
                  {rigid(c.R1), c.infinite ? rigid(1, 0, 0) : rigid(c.R2)});
    const AnimatorFrame& f = anim.frame(0);
    INFO("R1 = " << c.R1 << ", R2 = " << (c.infinite ? "inf" : std::to_string(c.R2)));
    CHECK(f.overlaps == 1);
    CHECK(f.overlap_before == Approx(0.1).margin(1e-12));
    CHECK(f.overlap_after <= 1e-9);
    CHECK(f.passes == 1);
    CHECK(w.pose(a).p_WB.x() == Approx(P - P1).margin(1e-12));
    CHECK(w.pose(b).p_WB.x() - 0.9 == Approx(P - P2).margin(1e-12));
    CHECK(w.pose(a).p_WB.tail<2>().norm() < 1e-15);
  }
}

TEST_CASE("animator: translate = 0 and rotate = 0 are honoured exactly") {
  // a bar (half extents 0.5 × 0.05 × 0.05) with an immovable sphere of radius 0.1 pressing
  // 1 cm into its top face near the end
  for (const bool translate_only : {false, true}) {
    World w({.time_step = 0.04});
    const int bar = w.add_body({.name = "bar", .mass = 1.0, .shape = make_box(Vec3(0.5, 0.05, 0.05))});
    const int ball = sphere(w, "ball", Vec3(0.4, 0, 0.14), 0.1);
    const AnimatorBodySettings controls = translate_only ? rigid(1, 1, 0) : rigid(1, 0, 1);
    Animator anim(w, {std::nullopt, std::nullopt}, {controls, rigid(1, 0, 0)});
    const Pose before = w.pose(bar);
    const AnimatorFrame& f = anim.frame(0);
    INFO((translate_only ? "rotate = 0" : "translate = 0"));
    CHECK(f.overlap_after <= 1e-9);
    CHECK(w.pose(ball).p_WB == Vec3(0.4, 0, 0.14));  // immovable
    if (translate_only) {
      CHECK(w.pose(bar).q_WB.coeffs() == before.q_WB.coeffs());
      CHECK(anim.correction(bar).head<3>() == Vec3::Zero());
      // the only translation that opens the face contact: 1 cm straight down
      CHECK(w.pose(bar).p_WB.z() == Approx(-0.01).margin(1e-12));
    } else {
      CHECK(w.pose(bar).p_WB == before.p_WB);
      CHECK(anim.correction(bar).tail<3>() == Vec3::Zero());
      // tilted: its end goes down, about y (the ball is at +x)
      CHECK(w.pose(bar).q_WB.angularDistance(before.q_WB) > 0.01);
    }
  }
}

namespace {
// the baseline: Struben's per-pair response applied pair by pair (Eq. 4.15 for each
// overlapping pair in turn, the less rigid side moving), repeated until no overlap exceeds
// `tol`; spheres of radius 0.5 on the x axis, immovable where `fixed`. Returns the passes.
int pairwise_passes(std::vector<double> x, const std::vector<bool>& fixed, double tol) {
  for (int pass = 1; pass < 10000; ++pass) {
    for (std::size_t i = 0; i + 1 < x.size(); ++i) {
      const double d = 1.0 - (x[i + 1] - x[i]);
      if (d <= 0) continue;
      const double share_left = fixed[i] ? 0.0 : (fixed[i + 1] ? 1.0 : 0.5);
      x[i] -= share_left * d;
      x[i + 1] += (1.0 - share_left) * d;
    }
    double worst = 0.0;
    for (std::size_t i = 0; i + 1 < x.size(); ++i) worst = std::max(worst, 1.0 - (x[i + 1] - x[i]));
    if (worst <= tol) return pass;
  }
  return 10000;
}
}  // namespace

TEST_CASE("animator: a four-body overlap is removed in one joint solve") {
  // spheres of radius 0.5 at x = 0, 0.9, 1.8, 2.7 (each neighbour 0.1 deep), the first immovable:
  // the least-norm answer of x_B ≥ 0.1, x_C − x_B ≥ 0.1, x_D − x_C ≥ 0.1 is (0.1, 0.2, 0.3)
  World w({.time_step = 0.04});
  std::vector<int> s;
  // (the name is appended, not "s" + to_string(i): g++ 12 warns falsely on that, -Wrestrict)
  for (int i = 0; i < 4; ++i) {
    std::string name = "s";
    name += std::to_string(i);
    s.push_back(sphere(w, name, Vec3(0.9 * i, 0, 0)));
  }
  Animator anim(w, std::vector<std::optional<KinematicTrack>>(4),
                {rigid(1, 0, 0), rigid(1), rigid(1), rigid(1)});
  const AnimatorFrame& f = anim.frame(0);
  CHECK(f.overlaps == 3);
  CHECK(f.passes == 1);
  CHECK(f.overlap_after <= 1e-9);
  for (int i = 1; i < 4; ++i) CHECK(w.pose(s[i]).p_WB.x() - 0.9 * i == Approx(0.1 * i).margin(1e-12));
  // sequential pairwise projection on the same spheres
  const int passes = pairwise_passes({0, 0.9, 1.8, 2.7}, {true, false, false, false}, 1e-9);
  INFO("pairwise passes: " << passes);
  CHECK(passes >= 10);
}

TEST_CASE("animator: corrections relax at the documented rate, or persist") {
  // a key-framed sphere of radius 0.5 at x = 0; an immovable one at x = 0.9 for frames 0–1,
  // then far away. Frame 1 leaves sphere a corrected by −0.1; afterwards c_k = e^(−ρ Δt) c_k−1.
  for (const bool persist : {false, true}) {
    World w({.time_step = 0.04});
    const int a = sphere(w, "a", Vec3(0, 0, 0));
    sphere(w, "b", Vec3(0.9, 0, 0));
    KinematicTrack away;
    away.keyframes = {{0.0, Vec3(0.9, 0, 0), Quat::Identity()},
                      {0.04, Vec3(0.9, 0, 0), Quat::Identity()},
                      {0.05, Vec3(9, 0, 0), Quat::Identity()}};
    AnimatorBodySettings sa = rigid(1);
    sa.relax_rate = 5.0;
    sa.persist = persist;
    Animator anim(w, {std::nullopt, away}, {sa, rigid(1, 0, 0)});
    anim.frame(0);
    anim.frame(1);
    CHECK(w.pose(a).p_WB.x() == Approx(-0.1).margin(1e-12));
    for (long k = 2; k <= 6; ++k) {
      anim.frame(k);
      const double expected = persist ? -0.1 : -0.1 * std::exp(-5.0 * 0.04 * double(k - 1));
      CHECK(w.pose(a).p_WB.x() == Approx(expected).margin(1e-12));
    }
  }
}

TEST_CASE("animator: an overlap only forbidden motions could remove is reported, not forced") {
  // two immovable bodies overlapping: nothing moves, the overlap is reported as immovable
  World w({.time_step = 0.04});
  sphere(w, "a", Vec3(0, 0, 0));
  sphere(w, "b", Vec3(0.9, 0, 0));
  Animator anim(w, {std::nullopt, std::nullopt}, {rigid(1, 0, 0), rigid(1, 0, 0)});
  const AnimatorFrame& f = anim.frame(0);
  CHECK(f.immovable == 1);
  CHECK(f.overlap_after == Approx(0.1).margin(1e-12));
  // controls out of range name the field
  CHECK_THROWS_WITH(Animator(w, {std::nullopt, std::nullopt}, {rigid(0.5), rigid(1)}),
                    Catch::Contains("body \"a\"") && Catch::Contains("rigidity"));
}

TEST_CASE("animator: per-frame overrides change the controls in their window") {
  World w({.time_step = 0.04});
  sphere(w, "a", Vec3(0, 0, 0));
  AnimatorBodySettings s = rigid(4);
  s.overrides = {{.from = 0.1, .to = 0.2, .translate = 0.0},
                 {.from = 0.15, .to = 0.3, .rigidity = 2.0, .rotate = 0.5}};
  // outside every window: the body's own; inside: each matching window in order, the last wins
  CHECK(controls_at(s, 0.05).translate == 1.0);
  CHECK(controls_at(s, 0.1).translate == 0.0);
  CHECK(controls_at(s, 0.15).translate == 0.0);
  CHECK(controls_at(s, 0.15).rigidity == 2.0);
  CHECK(controls_at(s, 0.2).translate == 1.0);  // [from, to): 0.2 is outside the first
  Animator anim(w, {std::nullopt}, {s});
  const Quat q = Quat::Identity();
  // W = (1/R) diag(r m I⁻¹, t I): a sphere of radius 0.5 and mass 1 has m I⁻¹ = 1/(0.4·0.25) = 10
  const Mat6 W0 = anim.metric(0, q, 0.0), W1 = anim.metric(0, q, 0.12), W2 = anim.metric(0, q, 0.25);
  CHECK(W0(3, 3) == Approx(0.25).margin(1e-15));
  CHECK(W0(0, 0) == Approx(10.0 / 4).margin(1e-12));
  CHECK(W1.bottomRightCorner<3, 3>().isZero(0.0));
  CHECK(W1(0, 0) == Approx(10.0 / 4).margin(1e-12));
  CHECK(W2(3, 3) == Approx(0.5).margin(1e-15));
  CHECK(W2(0, 0) == Approx(0.5 * 10.0 / 2).margin(1e-12));
}
