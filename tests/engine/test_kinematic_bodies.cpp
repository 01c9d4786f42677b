// Kinematic (key-framed) bodies in the dynamics (docs/step.md "Kinematic bodies"): infinite
// mass in both LCPs, their step-average twist in the rows' right-hand sides. Expected values
// are the prescribed tracks and Coulomb's closed forms, never the engine's own output.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>

#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

constexpr double kG = 9.81;

std::shared_ptr<const KinematicTrack> line(double t0, const Vec3& p0, double t1, const Vec3& p1) {
  auto k = std::make_shared<KinematicTrack>();
  k->keyframes = {{t0, p0, Quat::Identity()}, {t1, p1, Quat::Identity()}};
  return k;
}

int add_ground(World& w, double mu = 0.5) {
  return w.add_body({.name = "ground",
                     .fixed = true,
                     .shape = make_plane(Vec3::UnitZ(), 0.0),
                     .friction = mu});
}

}  // namespace

TEST_CASE("a kinematic body follows its track to 1e-12 at its key frames") {
  World w({.time_step = 1e-3});
  auto k = std::make_shared<KinematicTrack>();
  k->interpolation = TrackInterpolation::cubic;
  k->keyframes = {{0.0, Vec3(0, 0, 1), Quat::Identity()},
                  {0.25, Vec3(1, 0, 1.5), Quat(Eigen::AngleAxisd(1.0, Vec3(0, 1, 1).normalized()))},
                  {0.5, Vec3(1, 2, 1), Quat(Eigen::AngleAxisd(2.5, Vec3(1, 0, 0)))}};
  // an offset centre of mass: the track is the shape frame's, the state the centre of mass'
  const int b = w.add_body({.name = "arm",
                            .centre_of_mass = Vec3(0.1, 0, 0),
                            .shape = make_box(Vec3(0.2, 0.1, 0.1)),
                            .kinematic = k});
  const Vec3 com_S(0.1, 0, 0);
  for (int step = 1; step <= 600; ++step) {
    w.step();
    REQUIRE(w.bodies().positions().allFinite());
    for (const KeyFrame& f : k->keyframes) {
      if (std::abs(step * 1e-3 - f.t) > 1e-9) continue;
      const Pose p = w.pose(b);
      CHECK((p.p_WB - (f.p_WS + f.q_WB * com_S)).norm() < 1e-12);
      CHECK(p.q_WB.angularDistance(f.q_WB) < 1e-12);
    }
  }
  // held at the last key frame afterwards, with zero twist
  CHECK(w.twist(b).norm() == 0.0);
}

TEST_CASE("a kinematic body stays on its track when the time step changes mid-run") {
  // x(t) = t on a straight line; 100 steps of 1 ms, then 50 of 4 ms: t = 0.1 + 0.2 = 0.3 s.
  // With the track sampled at k h after the change it would jump to 150 · 4 ms = 0.6 s.
  World w({.time_step = 1e-3});
  const int b = w.add_body({.name = "slider",
                            .shape = make_sphere(0.1),
                            .kinematic = line(0.0, Vec3(0, 0, 1), 1.0, Vec3(1, 0, 1))});
  for (int k = 0; k < 100; ++k) w.step();
  w.set_time_step(4e-3);
  w.step();
  CHECK(w.pose(b).p_WB.x() == Approx(0.104).margin(1e-12));
  CHECK(w.twist(b).tail<3>().x() == Approx(1.0).margin(1e-9));  // the step average, 1 m/s
  for (int k = 1; k < 50; ++k) w.step();
  CHECK(w.time() == Approx(0.3).margin(1e-12));
  CHECK(w.time_at_step(w.step_count()) == Approx(0.3).margin(1e-12));
  CHECK(w.pose(b).p_WB.x() == Approx(0.3).margin(1e-12));
}

TEST_CASE("a kinematic pusher moves a box on the ground by the prescribed displacement") {
  // the pusher's face reaches the box at x = −0.2 (half extents 0.1 each) and pushes it at
  // 0.5 m/s to x = 0.2; then the box slides on, decelerated by μ g: v²/(2 μ g) further
  World w({.time_step = 1e-3});
  add_ground(w);
  const int box = w.add_body(
      {.name = "box", .mass = 1.0, .shape = make_box(Vec3(0.1, 0.1, 0.1)), .p_WS = Vec3(0, 0, 0.1)});
  w.add_body({.name = "pusher",
              .shape = make_box(Vec3(0.1, 0.1, 0.1)),
              .friction = 0.0,
              .kinematic = line(0.0, Vec3(-0.3, 0, 0.1), 1.0, Vec3(0.2, 0, 0.1))});
  for (int i = 0; i < 1500; ++i) w.step();
  const double mu = 0.5;  // √(0.5 · 0.5)
  const double expected = 0.2 + 0.2 + 0.5 * 0.5 / (2 * mu * kG);
  CHECK(w.pose(box).p_WB.x() == Approx(expected).margin(2e-3));
  CHECK(std::abs(w.pose(box).p_WB.z() - 0.1) < 1e-4);
  CHECK(w.twist(box).norm() < 1e-9);
}

TEST_CASE("a kinematic lift carries a box up: the box's height follows the plate") {
  World w({.time_step = 1e-3});
  const int plate = w.add_body({.name = "plate",
                                .shape = make_box(Vec3(0.5, 0.5, 0.05)),
                                .kinematic = line(0.2, Vec3(0, 0, 0.05), 2.2, Vec3(0, 0, 1.05))});
  const int box = w.add_body(
      {.name = "box", .mass = 2.0, .shape = make_box(Vec3(0.1, 0.1, 0.1)), .p_WS = Vec3(0, 0, 0.2)});
  double worst = 0.0;
  for (int i = 1; i <= 2500; ++i) {
    w.step();
    // while the plate rises the box rests on its top face, 0.05 + 0.1 above the plate's centre
    // (when the plate stops at 2.2 s the box flies on by v²/2g = 1.27 cm and lands again)
    if (i > 300 && i <= 2200) worst = std::max(worst, std::abs(w.pose(box).p_WB.z() - w.pose(plate).p_WB.z() - 0.15));
  }
  CHECK(w.pose(plate).p_WB.z() == Approx(1.05).margin(1e-12));
  CHECK(worst < 1e-4);
  CHECK(w.pose(box).p_WB.z() == Approx(1.2).margin(1e-4));
}

TEST_CASE("a kinematic conveyor carries a box at the belt speed after Coulomb's slip phase") {
  // a box set down at rest on a belt moving at u = 1 m/s: friction μ m g accelerates it at μ g
  // until it moves with the belt at t_s = u / (μ g), having slipped u²/(2 μ g) behind the belt
  const double u = 1.0, mu = 0.5, T = 1.0;
  World w({.time_step = 1e-3});
  w.add_body({.name = "belt",
              .shape = make_box(Vec3(3.0, 0.5, 0.05)),
              .friction = mu,
              .kinematic = line(0.0, Vec3(0, 0, 0.05), 10.0, Vec3(u * 10.0, 0, 0.05))});
  const int box = w.add_body({.name = "box",
                              .mass = 1.0,
                              .shape = make_box(Vec3(0.1, 0.1, 0.1)),
                              .p_WS = Vec3(0, 0, 0.2),
                              .friction = mu});
  const double t_s = u / (mu * kG);
  for (int i = 1; i <= 1000; ++i) {
    w.step();
    const double t = i * 1e-3;
    if (i == 100) CHECK(w.twist(box).v().x() == Approx(mu * kG * t).margin(5e-3));
    (void)T;
  }
  CHECK(t_s < 0.25);
  CHECK(w.twist(box).v().x() == Approx(u).margin(1e-6));
  // x(T) = u (T − t_s) + ½ μ g t_s²
  CHECK(w.pose(box).p_WB.x() == Approx(u * (1.0 - t_s) + 0.5 * mu * kG * t_s * t_s).margin(2e-3));
}

TEST_CASE("the squeeze: a kinematic plate pressing a box into the ground ends on a reported ray") {
  World w({.time_step = 1e-3});
  add_ground(w);
  const int box = w.add_body(
      {.name = "box", .mass = 1.0, .shape = make_box(Vec3(0.1, 0.1, 0.1)), .p_WS = Vec3(0, 0, 0.1)});
  // the plate's underside starts 1 cm above the box and goes 5 cm below its top
  w.add_body({.name = "plate",
              .shape = make_box(Vec3(0.3, 0.3, 0.05)),
              .kinematic = line(0.0, Vec3(0, 0, 0.26), 0.5, Vec3(0, 0, 0.2))});
  long rays = 0;
  bool warned = false;
  for (int i = 0; i < 600; ++i) {
    const StepReport& r = w.step();
    rays += r.rays;
    warned = warned || r.warning_count(StepWarning::lcp_ray) > 0;
    REQUIRE(w.bodies().positions().allFinite());
    REQUIRE(w.bodies().velocities().allFinite());
  }
  CHECK(rays > 0);
  CHECK(warned);
  CHECK(w.totals().rays == rays);
  CHECK(w.totals().fallbacks > 0);
  CHECK(w.pose(box).p_WB.allFinite());
}

TEST_CASE("kinematic bodies are validated") {
  World w;
  auto empty = std::make_shared<KinematicTrack>();
  CHECK_THROWS_WITH(w.add_body({.name = "k", .shape = make_sphere(0.1), .kinematic = empty}),
                    Catch::Contains("body \"k\"") && Catch::Contains("at least one key frame"));
  CHECK_THROWS_WITH(w.add_body({.name = "f",
                                .fixed = true,
                                .shape = make_sphere(0.1),
                                .kinematic = line(0, Vec3::Zero(), 1, Vec3::Ones())}),
                    Catch::Contains("cannot also be fixed"));
  const int k = w.add_body(
      {.name = "ok", .shape = make_sphere(0.1), .kinematic = line(0, Vec3::Zero(), 1, Vec3::Ones())});
  CHECK_THROWS_WITH(w.set_state(k, Pose{}, Vec6::Zero()), Catch::Contains("key frames"));
}
