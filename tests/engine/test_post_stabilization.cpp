// Post-stabilization (Cline 2002 §3.4, eq. 3.7) against the thesis' experiment and closed forms.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {
// Cline §5.2.1: six links of 100 mm, one end pinned to the world by a ball joint, starting
// horizontal, h = 1 ms; returns the max joint error after each step (the post-step's "after")
// and, with post-stabilization, the error before each post-step
std::vector<std::pair<double, double>> chain_errors(Stabilization stab, double alpha) {
  World world({.time_step = 1e-3, .stabilization = stab, .baumgarte_alpha = alpha});
  int prev = kWorldBody;
  for (int i = 0; i < 6; ++i) {
    // a thin 100 mm × 10 mm × 10 mm link of 0.1 kg along x
    const int link = world.add_body({.name = std::string("link").append(std::to_string(i)),
                                     .mass = 0.1,
                                     .shape = make_box(Vec3(0.05, 0.005, 0.005)),
                                     .p_WS = Vec3(0.05 + 0.1 * i, 0.0, 0.0)});
    world.add_joint(BallJointSettings{.name = std::string("j").append(std::to_string(i)),
                                      .anchor_W = Vec3(0.1 * i, 0.0, 0.0)},
                    link, prev);
    prev = link;
  }
  std::vector<std::pair<double, double>> errors;
  for (int k = 0; k < 800; ++k) {
    const StepReport& r = world.step();
    errors.emplace_back(r.joint_error_before, r.joint_error_after);
  }
  return errors;
}
double max_after(const std::vector<std::pair<double, double>>& e) {
  double m = 0.0;
  for (const auto& p : e) m = std::max(m, p.second);
  return m;
}
}  // namespace

TEST_CASE("Cline's 6-link chain: post-stabilization keeps the joints closed", "[post]") {
  const auto none = chain_errors(Stabilization::none, 0.0);
  const auto baum = chain_errors(Stabilization::baumgarte, 200.0);
  const auto post = chain_errors(Stabilization::post, 0.0);
  const double e_none = max_after(none), e_baum = max_after(baum), e_post = max_after(post);
  double e_post_before = 0.0;
  for (const auto& p : post) e_post_before = std::max(e_post_before, p.first);
  INFO("max joint error over 800 steps: none "
       << e_none << " m, Baumgarte(200) " << e_baum << " m, post " << e_post
       << " m (before the post-step " << e_post_before << " m)");
  // thesis: none grows to about 20 mm by step 600; Baumgarte α = 200 stays near 3 mm; post
  // stays below 0.01 mm after each post-step (Figs. 5.6–5.10)
  CHECK(e_post < 1e-5);
  CHECK(e_post * 100.0 < e_none);
  CHECK(e_baum < e_none);
  CHECK(e_none > 1e-3);
  // the three curves, to plot against Cline 2002 Figs. 5.6–5.10 (written where the test runs)
  if (const char* dir = std::getenv("PIVOT_TEST_OUTPUT_DIR")) {
    std::ofstream csv(std::string(dir) + "/chain_errors.csv");
    csv << "step,none,baumgarte_200,post_before,post_after\n";
    for (std::size_t k = 0; k < post.size(); ++k)
      csv << k + 1 << ',' << none[k].second << ',' << baum[k].second << ',' << post[k].first << ','
          << post[k].second << '\n';
  }
}

TEST_CASE("two overlapping spheres are separated in proportion to the other's mass", "[post]") {
  // the mass-weighted correction moves sphere 1 by d m₂/(m₁+m₂) and sphere 2 by d m₁/(m₁+m₂)
  // along the line of centres (head-on, no velocity, no gravity)
  const double r = 0.1, d = 0.01;
  for (double m2 : {1.0, 10.0, 0.0 /* fixed */}) {
    World world({.time_step = 1e-3, .gravity = Vec3::Zero()});
    const int s1 =
        world.add_body({.name = "s1", .mass = 1.0, .shape = make_sphere(r), .p_WS = Vec3(0, 0, 0)});
    const bool fixed = m2 == 0.0;
    const int s2 = world.add_body({.name = "s2",
                                   .fixed = fixed,
                                   .mass = fixed ? 1.0 : m2,
                                   .shape = make_sphere(r),
                                   .p_WS = Vec3(2 * r - d, 0, 0)});
    world.step();
    const double share1 = fixed ? 1.0 : m2 / (1.0 + m2);
    const double x1 = world.pose(s1).p_WB.x(), x2 = world.pose(s2).p_WB.x();
    INFO("m2 = " << m2 << ": x1 = " << x1 << ", x2 = " << x2);
    CHECK(std::abs(x1 - (-d * share1)) < 1e-9);
    CHECK(std::abs(x2 - (2 * r - d + d * (1.0 - share1))) < 1e-9);
    CHECK(world.twist(s1).norm() == 0.0);  // positions only: velocities untouched
  }
}

TEST_CASE("a box dropped on a plane: penetration below 1e-6 m after every post-step", "[post]") {
  World world({.time_step = 1e-3});
  world.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  world.add_body({.name = "box",
                  .mass = 1.0,
                  .shape = make_box(Vec3(0.1, 0.1, 0.05)),
                  .p_WS = Vec3(0, 0, 0.3),
                  .q_WB = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized())),
                  .v_WB = Vec3(0, 0, -2.0)});
  double worst = 0.0;
  for (int k = 0; k < 1000; ++k) worst = std::max(worst, world.step().penetration_after);
  INFO("largest penetration after a post-step: " << worst << " m");
  CHECK(worst < 1e-6);
}

TEST_CASE("a box on four redundant contacts: the post-step LCP solves and leaves it", "[post]") {
  // a face on a plane gives 4 contacts for 3 constrained directions: J M⁻¹ Jᵀ is singular
  // (rank 3), so the pseudo-inverse form of Ascher–Chin fails; the LCP form does not
  World world({.time_step = 1e-3, .gravity = Vec3::Zero()});
  world.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  const int box = world.add_body({.name = "box",
                                  .mass = 1.0,
                                  .shape = make_box(Vec3(0.1, 0.1, 0.05)),
                                  .p_WS = Vec3(0, 0, 0.05 - 1e-4)});  // 0.1 mm deep
  const StepReport& r = world.step();
  CHECK(r.contacts == 4);
  CHECK(r.failures == 0);
  CHECK(r.post_steps >= 1);
  // lifted out to touching, and nothing else moved
  CHECK(world.pose(box).p_WB.z() == Approx(0.05).margin(1e-9));
  CHECK(world.pose(box).p_WB.head<2>().norm() < 1e-9);
  CHECK(world.pose(box).q_WB.angularDistance(Quat::Identity()) < 1e-9);
  for (int k = 0; k < 100; ++k) world.step();
  CHECK(world.pose(box).p_WB.z() == Approx(0.05).margin(1e-9));
}

TEST_CASE("a capped post-step applies a large correction in pieces of the cap", "[post]") {
  // Cline §5.2.3: two equal spheres overlapping by d = 0.05 m, cap 0.01 m. Each pass moves
  // each sphere by min(remaining/2, cap): 0.01, 0.01, then the last 0.005 uncapped, so three
  // passes close the gap exactly; with max_post_steps = 2 a 0.01 m overlap remains.
  const double r = 0.1, d = 0.05, cap = 0.01;
  for (const int max_passes : {10, 2}) {
    World world({.time_step = 1e-3,
                 .gravity = Vec3::Zero(),
                 .post_step_cap = cap,
                 .max_post_steps = max_passes});
    const int s1 =
        world.add_body({.name = "s1", .mass = 1.0, .shape = make_sphere(r), .p_WS = Vec3(0, 0, 0)});
    const int s2 = world.add_body(
        {.name = "s2", .mass = 1.0, .shape = make_sphere(r), .p_WS = Vec3(2 * r - d, 0, 0)});
    const StepReport& report = world.step();
    const double overlap = 2 * r - (world.pose(s2).p_WB.x() - world.pose(s1).p_WB.x());
    INFO("max_post_steps " << max_passes << ": " << report.post_steps << " passes, overlap "
                           << overlap << " m");
    const int incomplete = report.warning_count(StepWarning::post_step_incomplete);
    if (max_passes == 10) {
      CHECK(report.post_steps == 3);
      CHECK(std::abs(overlap) < 1e-9);
      CHECK(std::abs(world.pose(s1).p_WB.x() + d / 2) < 1e-9);
      CHECK(incomplete == 0);  // the third pass was not capped: nothing left
    } else {
      CHECK(report.post_steps == 2);
      CHECK(std::abs(overlap - (d - 4 * cap)) < 1e-9);
      CHECK(report.penetration_after == Approx(d - 4 * cap).epsilon(1e-6));
      // the bound on passes was reached with the correction still capped: a reported warning
      // (issue #24: every inner loop's excess is reported), naming a sphere
      REQUIRE(incomplete == 1);
      const StepWarningRecord& w = report.warnings.back();
      CHECK(w.kind == StepWarning::post_step_incomplete);
      CHECK((w.subject == s1 || w.subject == s2));
      CHECK(w.message.find("after 2 passes") != std::string::npos);
    }
  }
}

// The error the post-step starts from is the joints' error at p(t+h): with equality bias 0 the
// dynamics of Stabilization::post and ::none are the same, so after one step the post world's
// StepReport::joint_error_before is the uncorrected world's World::max_joint_error(), and in
// every later step it is that of the post world's pose before its correction (measured here by a
// copy of the world stepped without post-stabilization from the same state)
TEST_CASE("the post-step's joint error before is the joints' error at p(t+h)", "[post]") {
  auto chain = [](Stabilization stab) {
    World world({.time_step = 1e-3, .stabilization = stab});
    int prev = kWorldBody;
    for (int i = 0; i < 4; ++i) {
      const int link = world.add_body({.mass = 0.1,
                                       .inertia_diag = Vec3(1e-5, 1e-4, 1e-4),
                                       .p_WS = Vec3(0.05 + 0.1 * i, 0.0, 0.0)});
      world.add_joint(BallJointSettings{.anchor_W = Vec3(0.1 * i, 0.0, 0.0)}, link, prev);
      prev = link;
    }
    return world;
  };
  World post = chain(Stabilization::post), none = chain(Stabilization::none);
  for (int k = 0; k < 50; ++k) {
    for (int b = 0; b < post.body_count(); ++b) none.set_state(b, post.pose(b), post.twist(b));
    const double before = post.step().joint_error_before;
    none.step();
    CHECK(before == none.max_joint_error());
    CHECK(before > 0.0);
  }
}
