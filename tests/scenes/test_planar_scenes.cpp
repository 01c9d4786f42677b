// The planar world (issue #22 part 2, docs/planar.md): "dimension": 2 scenes against closed
// forms (an incline's stick and slip, a pendulum's period, a resting stack, an elastic table),
// against the 3-D engine on the same planar motion, their round trip through
// resolved_scene_json, and the errors of scenes and Worlds that leave the plane.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "pivot/collision/planar_shape.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"
#include "support/test_data.hpp"

using namespace pivot;

namespace {

World load_world(const std::string& file, Scene* out = nullptr) {
  Scene scene = load_scene(pivot::test::source_scenes_dir() / file);
  World world = build_world(scene);
  if (out) *out = scene;
  return world;
}

World parse_world(const std::string& text) {
  return build_world(parse_scene(text, pivot::test::source_scenes_dir(), "inline.json"));
}

/// runs `steps` steps; fails the test on a failed step
void run(World& world, int steps) {
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = world.step();
    REQUIRE(r.failures == 0);
  }
}

/// the body's pose and twist (ω; v) as 13 numbers, to compare two worlds
std::vector<double> state(const World& w, int body) {
  const Pose X = w.pose(body);
  const Vec6 V = w.twist(body);
  return {X.p_WB.x(), X.p_WB.y(), X.p_WB.z(), X.q_WB.w(), X.q_WB.x(), X.q_WB.y(), X.q_WB.z(),
          V(0),       V(1),       V(2),       V(3),       V(4),       V(5)};
}

double largest_difference(const World& a, const World& b) {
  double d = 0.0;
  REQUIRE(a.bodies().size() == b.bodies().size());
  for (int i = 0; i < a.bodies().size(); ++i) {
    const auto x = state(a, i), y = state(b, i);
    for (std::size_t k = 0; k < x.size(); ++k) d = std::max(d, std::abs(x[k] - y[k]));
  }
  return d;
}

/// the angle about +y of a body turned about y only
double angle_about_y(const World& w, int body) {
  const Quat q = w.pose(body).q_WB;
  return 2.0 * std::atan2(q.y(), q.w());
}

}  // namespace

TEST_CASE("planar scene: the incline's boxes stick and slide as the closed form says", "[planar]") {
  // scenes/planar_incline.json: slope 20°, h = 1 ms. A sliding box's acceleration along the
  // slope is a = g (sin α − μ cos α) with the pair's μ = √(0.5 · 0.02) = 0.1; the step gives
  // v_k = k a h exactly, and positions advance with v⁺, so after N steps s_N = a h² N(N+1)/2.
  Scene scene;
  World w = load_world("planar_incline.json", &scene);
  const int sticks = w.bodies().find("sticks"), slides = w.bodies().find("slides");
  const Vec3 p0_stick = w.pose(sticks).p_WB, p0_slide = w.pose(slides).p_WB;
  const int N = 1000;
  run(w, N);
  const double alpha = 20.0 * std::numbers::pi / 180.0, g = 9.81, h = 1e-3;
  const Vec3 down(-std::cos(alpha), 0.0, -std::sin(alpha));  // down the slope, in the plane
  CHECK((w.pose(sticks).p_WB - p0_stick).norm() < 1e-9);
  CHECK(w.twist(sticks).norm() < 1e-9);
  const double a = g * (std::sin(alpha) - 0.1 * std::cos(alpha));
  const double expected = a * h * h * N * (N + 1) / 2.0;
  const Vec3 moved = w.pose(slides).p_WB - p0_slide;
  CHECK(moved.dot(down) == Approx(expected).epsilon(1e-9));
  CHECK((moved - moved.dot(down) * down).norm() < 1e-9);  // no lift off, no sinking
  CHECK(w.twist(slides).tail<3>().dot(down) == Approx(N * a * h).epsilon(1e-9));
  CHECK(std::abs(angle_about_y(w, slides) + alpha) < 1e-9);  // no tipping
}

TEST_CASE("planar scene: a rod on a revolute joint swings with the compound pendulum's period",
          "[planar]") {
  // a 1 kg rod 0.5 m × 0.02 m hung at one end, released at θ₀ = 0.05 rad: T₀ = 2π √(I_O/(m g d))
  // with I_O = m(a² + b²)/12 + m d², d = 0.25 m; at amplitude θ₀, T = T₀ (1 + θ₀²/16 + …)
  const double theta0 = 0.05, d = 0.25, m = 1.0, g = 9.81;
  // the rod's axis is x in its frame, turned so that it hangs at θ₀ from the downward vertical: the
  // centre at (d sin θ₀, −d cos θ₀); the body angle β about +y maps the rod's +x axis to (cos β,
  // −sin β): pointing from the anchor to the centre needs cos β = sin θ₀, −sin β = −cos θ₀, i.e. β
  // = π/2 − θ₀.
  const double beta = std::numbers::pi / 2.0 - theta0;
  const std::string scene = fmt::format(
      R"({{"pivot_scene": 1, "dimension": 2,
          "settings": {{"dt": 0.001, "duration": 10, "gravity": [0, -9.81]}},
          "bodies": [{{"name": "rod", "shape": {{"type": "box", "half_extents": [0.25, 0.01]}},
                      "mass": 1, "position": [{:.17g}, {:.17g}], "angle": {:.17g}}}],
          "joints": [{{"type": "revolute", "body_a": "rod", "anchor": [0, 0]}}]}})",
      d * std::sin(theta0), -d * std::cos(theta0), beta);
  World w = parse_world(scene);
  const double I_O = m * (0.5 * 0.5 + 0.02 * 0.02) / 12.0 + m * d * d;
  const double T0 = 2.0 * std::numbers::pi * std::sqrt(I_O / (m * g * d));
  const double T = T0 * (1.0 + theta0 * theta0 / 16.0);
  // the swing angle: the centre's direction from the anchor against the downward vertical
  const auto swing = [&] {
    const Vec3 c = w.pose(0).p_WB;
    return std::atan2(c.x(), -c.z());
  };
  std::vector<double> crossings;  // upward zero crossings of the swing angle
  double previous = swing(), t_prev = 0.0;
  while (w.time() < 4.5 * T) {
    run(w, 1);
    const double now = swing();
    if (previous < 0.0 && now >= 0.0)
      crossings.push_back(t_prev + (w.time() - t_prev) * (-previous) / (now - previous));
    previous = now;
    t_prev = w.time();
  }
  REQUIRE(crossings.size() >= 4);
  const double measured = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  // the series' next term is 11 θ₀⁴/3072 = 2e-8 and the step's phase error O((ωh)²) ~ 1e-6
  CHECK(measured == Approx(T).epsilon(1e-5));
  // the joint keeps the rod's end at the anchor (post-stabilization)
  const Vec3 end = w.pose(0).to_world(Vec3(-0.25, 0.0, 0.0));
  CHECK(end.norm() < 1e-9);
}

TEST_CASE("planar scene: the stack of five boxes stays where it is", "[planar]") {
  World w = load_world("planar_box_stack.json");
  std::vector<Vec3> start;
  for (int i = 0; i < w.bodies().size(); ++i) start.push_back(w.pose(i).p_WB);
  run(w, 400);  // 2 s at h = 5 ms
  for (int i = 0; i < w.bodies().size(); ++i) {
    INFO("body " << i);
    CHECK((w.pose(i).p_WB - start[i]).norm() < 1e-9);
    CHECK(std::abs(angle_about_y(w, i)) < 1e-9);
  }
}

TEST_CASE("planar scene: the air-hockey table keeps its kinetic energy", "[planar]") {
  // frictionless, e = 1, no gravity: each impact (single contacts; the pieces are small on a
  // large table) returns the normal velocity reversed, so ½ Σ m v² is kept to rounding
  World w = load_world("planar_air_hockey.json");
  const auto energy = [&] {
    double E = 0.0;
    for (int i = 0; i < w.bodies().size(); ++i) E += w.bodies().kinetic_energy(i);
    return E;
  };
  const double E0 = energy();
  int impacts = 0;
  for (int k = 0; k < 5000; ++k) {
    const StepReport& r = w.step();
    REQUIRE(r.failures == 0);
    impacts += r.contacts > 0 ? 1 : 0;
  }
  CHECK(impacts > 10);  // the pieces do meet the walls and each other
  CHECK(energy() == Approx(E0).epsilon(1e-9));
  for (int i = 0; i < w.bodies().size(); ++i) {  // everything still on the table
    const Vec3 p = w.pose(i).p_WB;
    CHECK(std::abs(p.x()) < 1.0);
    CHECK(std::abs(p.z()) < 0.5);
    CHECK(p.y() == 0.0);
  }
}

TEST_CASE("planar scene: a prismatic joint, a polygon and a capsule behave as the closed forms say",
          "[planar]") {
  SECTION("a body on a prismatic joint slides along its axis at g·axis") {
    // axis (cos 30°, −sin 30°) in (x, z): the body accelerates at a = g sin 30° along it; the
    // step gives v_k = k a h exactly and x_N = a h² N(N+1)/2
    World w = parse_world(R"({"pivot_scene": 1, "dimension": 2,
        "settings": {"dt": 0.001, "gravity": [0, -9.81]},
        "bodies": [{"name": "slider", "shape": {"type": "polygon",
                    "points": [[-0.1, -0.05], [0.1, -0.05], [0.0, 0.1]]}, "mass": 2}],
        "joints": [{"type": "prismatic", "body_a": "slider",
                    "axis": [0.8660254037844387, -0.5]}]})");
    const Vec3 p0 = w.pose(0).p_WB;
    const int N = 500;
    run(w, N);
    const double a = 9.81 * 0.5, h = 1e-3;
    const Vec3 axis(0.8660254037844387, 0.0, -0.5);
    const Vec3 moved = w.pose(0).p_WB - p0;
    CHECK(moved.dot(axis) == Approx(a * h * h * N * (N + 1) / 2.0).epsilon(1e-9));
    CHECK((moved - moved.dot(axis) * axis).norm() < 1e-9);
    CHECK(std::abs(angle_about_y(w, 0)) < 1e-9);
  }
  SECTION("a triangle and a capsule lying on the ground stay where they are") {
    World w = parse_world(R"({"pivot_scene": 1, "dimension": 2,
        "settings": {"dt": 0.005, "gravity": [0, -9.81]},
        "bodies": [{"name": "ground", "fixed": true,
                    "shape": {"type": "half_plane", "normal": [0, 1], "offset": 0}},
                   {"name": "triangle", "shape": {"type": "polygon",
                    "points": [[-0.2, 0], [0.2, 0], [0, 0.3]]}, "density": 10,
                    "position": [0, 0]},
                   {"name": "capsule", "shape": {"type": "capsule", "radius": 0.05,
                    "half_length": 0.2}, "mass": 1, "position": [1, 0.05]}]})");
    const Vec3 t0 = w.pose(1).p_WB, c0 = w.pose(2).p_WB;
    // the triangle's centre of mass is its centroid, a third of the way up
    CHECK(t0.z() == Approx(0.1).epsilon(1e-12));
    run(w, 200);
    CHECK((w.pose(1).p_WB - t0).norm() < 1e-9);
    CHECK((w.pose(2).p_WB - c0).norm() < 1e-9);
  }
}

TEST_CASE("planar scene: the 2-D step equals the 3-D engine's on the same planar motion",
          "[planar]") {
  // each pair: a planar scene and the 3-D scene of the same bodies (the same mass and I_yy,
  // 3-D shapes whose sections are the 2-D ones), 2 friction directions in both
  SECTION("a chain of three links on revolute joints (no contacts)") {
    std::string bodies2, bodies3, joints2, joints3;
    for (int i = 0; i < 3; ++i) {
      const double x = 0.25 + 0.5 * i;
      const std::string sep = i ? "," : "";
      const std::string parent = i ? fmt::format("\"link{}\"", i - 1) : "\"world\"";
      bodies2 += fmt::format(
          R"({}{{"name": "link{}", "shape": {{"type": "box", "half_extents": [0.25, 0.025]}},
                 "mass": 1, "position": [{}, 2]}})",
          sep, i, x);
      bodies3 += fmt::format(
          R"({}{{"name": "link{}", "shape": {{"type": "box", "half_extents": [0.25, 0.1, 0.025]}},
                 "mass": 1, "position": [{}, 0, 2]}})",
          sep, i, x);
      joints2 += fmt::format(
          R"({}{{"type": "revolute", "body_a": "link{}", "body_b": {}, "anchor": [{}, 2]}})", sep,
          i, parent, 0.5 * i);
      joints3 += fmt::format(
          R"({}{{"type": "hinge", "body_a": "link{}", "body_b": {}, "anchor": [{}, 0, 2],
                 "axis": [0, 1, 0]}})",
          sep, i, parent, 0.5 * i);
    }
    World w2 = parse_world(fmt::format(
        R"({{"pivot_scene": 1, "dimension": 2, "settings": {{"dt": 0.001, "gravity": [0, -9.81]}},
            "bodies": [{}], "joints": [{}]}})",
        bodies2, joints2));
    World w3 = parse_world(fmt::format(
        R"({{"pivot_scene": 1, "settings": {{"dt": 0.001, "gravity": [0, 0, -9.81],
            "friction_directions": 2}}, "bodies": [{}], "joints": [{}]}})",
        bodies3, joints3));
    run(w2, 1000);
    run(w3, 1000);
    CHECK(w2.pose(2).p_WB.z() < 1.9);  // it did fall
    CHECK(largest_difference(w2, w3) < 1e-10);
  }
  SECTION("a disc that slides, then rolls, on the ground") {
    // the disc and the sphere get the same I_yy = 0.005 kg m² (explicit inertia)
    World w2 = parse_world(R"({"pivot_scene": 1, "dimension": 2,
        "settings": {"dt": 0.001, "gravity": [0, -9.81]},
        "bodies": [{"name": "ground", "fixed": true,
                    "shape": {"type": "half_plane", "normal": [0, 1], "offset": 0}},
                   {"name": "disc", "shape": {"type": "circle", "radius": 0.1}, "mass": 1,
                    "inertia": 0.005, "position": [0, 0.1], "velocity": [2, 0],
                    "friction": 0.3}]})");
    World w3 = parse_world(R"({"pivot_scene": 1,
        "settings": {"dt": 0.001, "gravity": [0, 0, -9.81], "friction_directions": 2},
        "bodies": [{"name": "ground", "fixed": true,
                    "shape": {"type": "plane", "normal": [0, 0, 1], "offset": 0}},
                   {"name": "disc", "shape": {"type": "sphere", "radius": 0.1}, "mass": 1,
                    "inertia_diag": [0.0025, 0.005, 0.0025], "position": [0, 0, 0.1],
                    "velocity": [2, 0, 0], "friction": 0.3}]})");
    run(w2, 1000);
    run(w3, 1000);
    // it rolls by now: v = r ω (ω about +y turns z toward x: rolling along +x has ω_y > 0)
    CHECK(w2.twist(1)(3) == Approx(0.1 * w2.twist(1)(1)).epsilon(1e-9));
    CHECK(largest_difference(w2, w3) < 1e-10);
  }
  SECTION("a box that slides to rest") {
    World w2 = parse_world(R"({"pivot_scene": 1, "dimension": 2,
        "settings": {"dt": 0.001, "gravity": [0, -9.81]},
        "bodies": [{"name": "ground", "fixed": true,
                    "shape": {"type": "half_plane", "normal": [0, 1], "offset": 0}},
                   {"name": "box", "shape": {"type": "box", "half_extents": [0.2, 0.1]},
                    "mass": 1, "position": [0, 0.1], "velocity": [1, 0], "friction": 0.3}]})");
    World w3 = parse_world(R"({"pivot_scene": 1,
        "settings": {"dt": 0.001, "gravity": [0, 0, -9.81], "friction_directions": 2},
        "bodies": [{"name": "ground", "fixed": true,
                    "shape": {"type": "plane", "normal": [0, 0, 1], "offset": 0}},
                   {"name": "box", "shape": {"type": "box", "half_extents": [0.2, 0.15, 0.1]},
                    "mass": 1, "position": [0, 0, 0.1], "velocity": [1, 0, 0],
                    "friction": 0.3}]})");
    run(w2, 500);
    run(w3, 500);
    // the pair's μ = √(0.3 · 0.5) (the ground's default 0.5): the step takes μ g h off the
    // speed until the next step would reverse it, where friction holds it at 0; positions
    // advance with v⁺, so x = h Σ_k max(v₀ − k μ g h, 0) (≈ v₀²/(2 μ g) = 0.13 m)
    const double mu = std::sqrt(0.3 * 0.5), h = 1e-3;
    double x = 0.0;
    for (int k = 1; k <= 500; ++k) x += h * std::max(1.0 - k * mu * 9.81 * h, 0.0);
    CHECK(w2.twist(1).norm() < 1e-12);
    CHECK(w2.pose(1).p_WB.x() == Approx(x).epsilon(1e-9));
    CHECK(largest_difference(w2, w3) < 1e-10);
  }
}

TEST_CASE("planar scene: resolved_scene_json writes the 2-D form, which loads back the same",
          "[planar]") {
  for (const char* file : {"planar_incline.json", "planar_pendulum_chain.json",
                           "planar_box_stack.json", "planar_air_hockey.json"}) {
    INFO(file);
    const Scene scene = load_scene(pivot::test::source_scenes_dir() / file);
    const std::string once = resolved_scene_json(scene);
    CHECK(once.find("\"dimension\": 2") != std::string::npos);
    const Scene again = parse_scene(once, pivot::test::source_scenes_dir(), "resolved.json");
    CHECK(resolved_scene_json(again) == once);
    World a = build_world(scene), b = build_world(again);
    run(a, 50);
    run(b, 50);
    CHECK(state_hash(a) == state_hash(b));
  }
}

TEST_CASE("planar scene: unit vectors and angles read back bit for bit from the resolved form",
          "[planar]") {
  // normalizing [1, -1] gives 0.7071067811865475, normalizing that again 0.7071067811865476 (a
  // scene-loader fuzz finding, tests/fuzz/regressions/scene_loader/
  // planar_half_plane_normal_renormalized); an angle through a quaternion and back can move too
  const Scene scene = parse_scene(R"({"pivot_scene": 1, "dimension": 2,
      "bodies": [{"name": "ramp", "fixed": true,
                  "shape": {"type": "half_plane", "normal": [1, -1], "offset": 0.1}},
                 {"name": "block", "shape": {"type": "box", "half_extents": [0.1, 0.1]},
                  "position": [0.3, 0.7], "angle": 0.1}],
      "joints": [{"type": "prismatic", "body_a": "block", "axis": [1, 1]}]})",
                                  ".", "inline.json");
  const std::string once = resolved_scene_json(scene);
  const std::string twice = resolved_scene_json(parse_scene(once, ".", "resolved.json"));
  CHECK(twice == once);
  CHECK(once.find("\"angle\": 0.1,") != std::string::npos);
}

TEST_CASE("planar scene: scenes that leave the plane are refused with the place named",
          "[planar]") {
  const auto error_of = [](const std::string& body, const std::string& extra = "") {
    try {
      (void)parse_world(
          fmt::format(R"({{"pivot_scene": 1, "dimension": 2, "bodies": [{}]{}}})", body, extra));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string disc = R"({"name": "d", "shape": {"type": "circle", "radius": 0.1}})";
  CHECK_THAT(error_of(R"({"name": "s", "shape": {"type": "sphere", "radius": 0.1}})"),
             Catch::Contains("/bodies/0/shape/type") &&
                 Catch::Contains("circle, box, capsule, polygon, half_plane"));
  CHECK_THAT(
      error_of(R"({"name": "b", "shape": {"type": "box", "half_extents": [1, 1, 1]}})"),
      Catch::Contains("/bodies/0/shape/half_extents") && Catch::Contains("array of 2 numbers"));
  CHECK_THAT(error_of(R"({"name": "d", "position": [0, 1, 0], "mass": 1})"),
             Catch::Contains("/bodies/0/position"));
  CHECK_THAT(error_of(R"({"name": "d", "quat_wxyz": [1, 0, 0, 0], "mass": 1})"),
             Catch::Contains("unknown key \"quat_wxyz\""));
  CHECK_THAT(
      error_of(
          R"({"name": "p", "shape": {"type": "polygon", "points": [[0, 0], [1, 0], [2, 0]]}})"),
      Catch::Contains("/bodies/0/shape/points"));
  CHECK_THAT(error_of(R"({"name": "h", "shape": {"type": "half_plane", "normal": [0, 1]}})"),
             Catch::Contains("needs a fixed body"));
  CHECK_THAT(error_of(disc, R"(, "joints": [{"type": "ball", "body_a": "d", "anchor": [0, 0]}])"),
             Catch::Contains("/joints/0/type") && Catch::Contains("revolute, prismatic, fixed"));
  CHECK_THAT(error_of(disc, R"(, "settings": {"gravity": [0, 0, -9.81]})"),
             Catch::Contains("/settings/gravity"));
  CHECK_THAT(error_of(disc, R"(, "settings": {"friction_directions": 4})"),
             Catch::Contains("/settings/friction_directions"));
  CHECK_THAT(error_of(disc, R"(, "springs": [])"), Catch::Contains("/springs"));
  try {
    (void)parse_scene(R"({"pivot_scene": 1, "dimension": 4})", ".", "inline.json");
    FAIL("dimension 4 was accepted");
  } catch (const Error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("/dimension"));
  }
}

TEST_CASE("planar world: the engine refuses bodies, joints and settings outside the plane",
          "[planar]") {
  WorldSettings planar;
  planar.dimension = 2;
  planar.friction_directions = 2;
  BodySettings disc;
  disc.name = "disc";
  disc.shape = make_planar(std::make_shared<const PlanarShape>(make_planar_circle(0.1)));
  disc.mass = 1.0;
  SECTION("settings") {
    WorldSettings s = planar;
    s.gravity = Vec3(0.0, -1.0, -9.81);
    CHECK_THROWS_WITH(World(s), Catch::Contains("gravity"));
    s = planar;
    s.friction_directions = 4;
    CHECK_THROWS_WITH(World(s), Catch::Contains("friction"));
    s = planar;
    s.dimension = 1;
    CHECK_THROWS_WITH(World(s), Catch::Contains("dimension"));
  }
  SECTION("bodies") {
    World w(planar);
    BodySettings b = disc;
    b.p_WS = Vec3(0.0, 0.5, 0.0);
    CHECK_THROWS_WITH(w.add_body(b), Catch::Contains("y = 0"));
    b = disc;
    b.q_WB = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
    CHECK_THROWS_WITH(w.add_body(b), Catch::Contains("about y"));
    b = disc;
    b.w_WB = Vec3(1.0, 0.0, 0.0);
    CHECK_THROWS_WITH(w.add_body(b), Catch::Contains("velocity in the plane"));
    b = disc;
    b.shape = make_sphere(0.1);
    CHECK_THROWS_WITH(w.add_body(b), Catch::Contains("planar shape"));
    const int i = w.add_body(disc);
    CHECK_THROWS_WITH(w.set_state(i, Pose{Vec3(0.0, 1.0, 0.0), Quat::Identity()}, Vec6::Zero()),
                      Catch::Contains("y = 0"));
    // and a 3-D world refuses a planar shape
    World w3{WorldSettings{}};
    CHECK_THROWS_WITH(w3.add_body(disc), Catch::Contains("planar world"));
  }
  SECTION("joints") {
    World w(planar);
    const int i = w.add_body(disc);
    CHECK_THROWS_WITH(w.add_joint(BallJointSettings{"ball", Vec3::Zero()}, i, kWorldBody),
                      Catch::Contains("not a ball joint"));
    HingeJointSettings hinge;
    hinge.name = "h";
    hinge.axis_W = Vec3::UnitX();
    CHECK_THROWS_WITH(w.add_joint(hinge, i, kWorldBody), Catch::Contains("about ±y"));
    SliderJointSettings slider;
    slider.name = "s";
    slider.axis_W = Vec3(0.0, 1.0, 1.0);
    CHECK_THROWS_WITH(w.add_joint(slider, i, kWorldBody), Catch::Contains("x–z plane"));
    hinge.axis_W = -Vec3::UnitY();
    CHECK_NOTHROW(w.add_joint(hinge, i, kWorldBody));
  }
}
