// Scene keys of the hybrid mode (docs/scene-format.md "Smooth surfaces", "Settings"): every
// smooth surface type, its placement, the convex hull sampled from a surface, the centre of
// mass, the hybrid settings, their errors with JSON pointers, and the round trip through the
// writer. The shipped rattleback scenes enter reduced mode at t = 0 without moving.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <string>

#include <fmt/core.h>

#include "pivot/collision/convex_hull.hpp"
#include "pivot/scenes/scene.hpp"
#include "support/hybrid_entry.hpp"
#include "support/test_data.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
namespace fs = std::filesystem;

namespace {

Scene parse(std::string_view text) {
  return parse_scene(text, fs::current_path(), "inline.json");
}

std::string error_of(std::string_view text) {
  try {
    (void)build_world(parse(text));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

/// a scene with one free sphere whose "smooth_surface" is `surface` (JSON text)
std::string with_surface(const std::string& surface) {
  return R"({"pivot_scene": 1, "bodies": [{"name": "b", "shape": {"type": "sphere", "radius": 1},
             "smooth_surface": )" +
         surface + "}]}";
}

const SmoothSurface& surface_of(const Scene& scene, int body = 0) {
  REQUIRE(scene.bodies[body].smooth_surface);
  REQUIRE(scene.bodies[body].settings.smooth_surface);
  return *scene.bodies[body].settings.smooth_surface;
}

fs::path scenes_dir() {
  return pivot::test::source_scenes_dir();
}

// the App. B rattleback patch (Kry 2000 App. B.1), P_ij at 4 i + j
constexpr const char* kRattlebackPatch = R"([
  [-1.5, -1.5, -2], [-1.5, -0.5, -1], [-1.5, 0.5, -1], [-1.5, 1.5, -2],
  [-0.5, -1.5, -1], [-0.5, -0.5, 0], [-0.5, 0.5, 0], [-0.5, 1.5, -1],
  [0.5, -1.5, -1], [0.5, -0.5, 0], [0.5, 0.5, 0], [0.5, 1.5, -1],
  [1.5, -1.5, -2], [1.5, -0.5, -1], [1.5, 0.5, -1], [1.5, 1.5, -2]])";

/// a flat patch over [x0, x0 + 3] × [y0, y0 + 3] at z = 0 (linear: points at thirds)
std::string flat_patch(double x0, double y0) {
  std::string out = "[";
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      out +=
          (i + j ? ", [" : "[") + std::to_string(x0 + i) + ", " + std::to_string(y0 + j) + ", 0]";
  return out + "]";
}

}  // namespace

TEST_CASE("smooth_surface: a bezier patch is scaled, turned and moved like App. B",
          "[scene][smooth]") {
  // Kry 2000 App. B.1: scale (0.6, 0.2, 0.2), rotate -0.174 rad about z, offset (0, 0, 0.2).
  // The patch is x = 3s - 1.5, y = 3t - 1.5, z = -(E(s) + E(t)), E(s) = (1-s)³ + s³, so its
  // centre (0.5, 0.5) is (0, 0, -0.5) before and (0, 0, 0.1) after the placement (Kry 2000
  // App. B: the apex 0.1 above the centre of mass); its corner (0, 0) is (-1.5, -1.5, -2) scaled
  // to (-0.9, -0.3, -0.4), turned, moved.
  const double a = -0.174;
  const Scene scene = parse(with_surface(
      std::string(R"({"type": "bezier", "patches": [)") + kRattlebackPatch +
      R"(], "scale": [0.6, 0.2, 0.2], "position": [0, 0, 0.2], "quat_wxyz": [)" +
      std::to_string(std::cos(a / 2)) + ", 0, 0, " + std::to_string(std::sin(a / 2)) + "]}"));
  const SmoothSurface& s = surface_of(scene);
  CHECK(s.name() == "bezier");
  CHECK(s.patch_count() == 1);
  CHECK((s.point(0, Vec2(0.5, 0.5)) - Vec3(0, 0, 0.1)).norm() < 1e-15);
  const Vec3 corner(std::cos(a) * -0.9 - std::sin(a) * -0.3,
                    std::sin(a) * -0.9 + std::cos(a) * -0.3, -0.4 + 0.2);
  CHECK((s.point(0, Vec2(0, 0)) - corner).norm() < 1e-6);  // the quaternion has 6 digits
  // outward normal +z at the apex (the solid is below)
  const SurfaceJet j = s.evaluate(0, Vec2(0.5, 0.5));
  CHECK(j.p_u.cross(j.p_v).normalized().z() == Approx(1.0));
}

TEST_CASE("smooth_surface: bezier patches sharing an edge are linked", "[scene][smooth]") {
  // two flat patches side by side along x: edge 1 (u = 1) of the first is edge 3 (u = 0) of
  // the second (collision/bezier_surface.hpp)
  const Scene scene = parse(with_surface(R"({"type": "bezier", "patches": [)" + flat_patch(0, 0) +
                                         ", " + flat_patch(3, 0) + "]}"));
  const SmoothSurface& s = surface_of(scene);
  CHECK(s.patch_count() == 2);
  CHECK(s.neighbour(0, 1).patch == 1);
  CHECK(s.neighbour(0, 1).edge == 3);
  CHECK(s.neighbour(1, 3).patch == 0);
  CHECK(s.neighbour(0, 0).open());
}

TEST_CASE("smooth_surface: torus paraboloid ellipsoid sphere and plane", "[scene][smooth]") {
  SECTION("torus, moved") {
    const Scene scene = parse(with_surface(
        R"({"type": "torus", "major_radius": 0.3, "minor_radius": 0.1, "position": [1, 2, 3]})"));
    const SmoothSurface& s = surface_of(scene);
    CHECK(s.name() == "torus");
    // p(0, 0) = (R + r, 0, 0)
    CHECK((s.point(0, Vec2(0, 0)) - Vec3(1.4, 2, 3)).norm() < 1e-15);
  }
  SECTION("paraboloid, turned upside down") {
    // 180 degrees about x: the apex stays, the cap opens towards +z
    const Scene scene = parse(with_surface(
        R"({"type": "paraboloid", "curvature_radii": [2.7, 0.3], "half_extents": [0.9, 0.3],
            "quat_wxyz": [0, 1, 0, 0]})"));
    const SmoothSurface& s = surface_of(scene);
    CHECK(s.name() == "paraboloid");
    CHECK(s.point(0, Vec2(0, 0)).norm() < 1e-15);
    // z = -v²/(2 R_v) before the turn, +v²/(2 R_v) after; v → -v
    CHECK((s.point(0, Vec2(0, 0.3)) - Vec3(0, -0.3, 0.09 / 0.6)).norm() < 1e-12);
  }
  SECTION("ellipsoid") {
    const Scene scene = parse(with_surface(R"({"type": "ellipsoid", "radii": [0.3, 0.2, 0.1]})"));
    const SmoothSurface& s = surface_of(scene);
    CHECK(s.name() == "ellipsoid");
    CHECK(s.patch_count() == 6);
    const Vec3 p = s.point(3, Vec2(0.2, -0.4));
    CHECK(std::pow(p.x() / 0.3, 2) + std::pow(p.y() / 0.2, 2) + std::pow(p.z() / 0.1, 2) ==
          Approx(1.0));
  }
  SECTION("sphere") {
    const Scene scene =
        parse(with_surface(R"({"type": "sphere", "radius": 0.5, "position": [0, 0, 1]})"));
    const SmoothSurface& s = surface_of(scene);
    CHECK((s.point(1, Vec2(0.3, 0.7)) - Vec3(0, 0, 1)).norm() == Approx(0.5));
  }
  SECTION("plane") {
    const Scene scene =
        parse(with_surface(R"({"type": "plane", "normal": [0, 0, 2], "offset": 0.25})"));
    const SmoothSurface& s = surface_of(scene);
    CHECK(s.name() == "plane");
    CHECK(s.point(0, Vec2(1, 2)).z() == 0.25);
  }
}

TEST_CASE("smooth_surface and the hybrid settings round-trip through the writer",
          "[scene][smooth]") {
  const std::string text = std::string(R"({
    "pivot_scene": 1,
    "settings": {"hybrid": true, "hybrid_entry_steps": 0, "hybrid_point_tolerance": 0.002,
                 "hybrid_max_normal_speed": 0.1, "hybrid_dt_max": 0.005, "hybrid_tolerance": 1e-10,
                 "hybrid_mu_static": 0.4, "hybrid_mu_spin_static": 0.01,
                 "hybrid_slip_threshold": 0.0025, "hybrid_spin_threshold": 0.5,
                 "hybrid_min_slide_time": 0.02, "hybrid_rolling": false,
                 "hybrid_slip_regularization": 0.001, "hybrid_mu_rolling": 0.0015,
                 "hybrid_mu_spinning": 0.0005, "hybrid_rolling_stick": false},
    "bodies": [
      {"name": "floor", "fixed": true, "shape": {"type": "plane"},
       "smooth_surface": {"type": "plane"}},
      {"name": "rattleback", "smooth_surface": {"type": "bezier", "patches": [)") +
                           kRattlebackPatch + R"(], "scale": [0.6, 0.2, 0.2]},
       "shape": {"type": "convex", "surface_samples": 8}, "mass": 5,
       "inertia_diag": [1, 10, 10], "centre_of_mass": [0, 0, 0], "position": [0, 0, 1]},
      {"name": "ring", "shape": {"type": "sphere", "radius": 0.4},
       "smooth_surface": {"type": "torus", "major_radius": 0.3, "minor_radius": 0.1}},
      {"name": "cap", "shape": {"type": "sphere", "radius": 0.4}, "position": [3, 0, 0],
       "smooth_surface": {"type": "paraboloid", "curvature_radii": [1, 2],
                          "half_extents": [0.1, 0.2]}},
      {"name": "egg", "shape": {"type": "sphere", "radius": 0.4}, "position": [6, 0, 0],
       "smooth_surface": {"type": "ellipsoid", "radii": [0.1, 0.2, 0.3]}},
      {"name": "ball", "shape": {"type": "sphere", "radius": 0.4}, "position": [9, 0, 0],
       "smooth_surface": {"type": "sphere", "radius": 0.4}}
    ]})";
  const Scene scene = parse(text);
  const WorldSettings& w = scene.settings.world;
  CHECK(w.hybrid_entry_steps == 0);
  CHECK(w.hybrid_point_tolerance == 0.002);
  CHECK(w.hybrid_max_normal_speed == 0.1);
  CHECK(w.hybrid_integrator.dt_max == 0.005);
  CHECK(w.hybrid_integrator.tolerance == 1e-10);
  const ContactFriction& f = w.hybrid_friction;
  CHECK(f.mu_static == 0.4);
  CHECK(f.mu_spin_static == 0.01);
  CHECK(f.slip_threshold == 0.0025);
  CHECK(f.spin_threshold == 0.5);
  CHECK(f.min_slide_time == 0.02);
  CHECK_FALSE(f.rolling);
  CHECK(f.slip_regularization == 0.001);
  CHECK(w.hybrid_torques.mu_rolling == 0.0015);
  CHECK(w.hybrid_torques.mu_spinning == 0.0005);
  CHECK_FALSE(w.hybrid_torques.stick);
  CHECK(WorldSettings{}.hybrid_torques.stick);  // on by default
  CHECK(scene.bodies[1].shape->points.size() == 64);
  const std::string resolved = resolved_scene_json(scene);
  CHECK(resolved_scene_json(parse(resolved)) == resolved);
  CHECK(resolved.find(R"("surface_samples": 8)") != std::string::npos);
  CHECK(resolved.find(R"("hybrid_mu_static": 0.4)") != std::string::npos);
  CHECK(resolved.find(R"("hybrid_mu_rolling": 0.0015)") != std::string::npos);
  CHECK(resolved.find(R"("hybrid_mu_spinning": 0.0005)") != std::string::npos);
  CHECK(resolved.find(R"("hybrid_rolling_stick": false)") != std::string::npos);
  // the World receives them (the pair copies them at entry: test_world_friction_torques.cpp)
  CHECK(build_world(scene).settings().hybrid_torques.mu_rolling == 0.0015);
}

TEST_CASE("hybrid settings default to WorldSettings's; mu_static null is the pair's mu",
          "[scene][smooth]") {
  const Scene scene = parse(R"({"pivot_scene": 1})");
  const WorldSettings defaults;
  const WorldSettings& w = scene.settings.world;
  CHECK(w.hybrid_entry_steps == defaults.hybrid_entry_steps);
  CHECK(w.hybrid_point_tolerance == defaults.hybrid_point_tolerance);
  CHECK(w.hybrid_max_normal_speed == defaults.hybrid_max_normal_speed);
  CHECK(w.hybrid_integrator.dt_max == defaults.hybrid_integrator.dt_max);
  CHECK(w.hybrid_integrator.tolerance == defaults.hybrid_integrator.tolerance);
  CHECK(w.hybrid_friction.mu_static < 0.0);
  CHECK(w.hybrid_friction.slip_threshold == defaults.hybrid_friction.slip_threshold);
  CHECK(w.hybrid_friction.rolling);
  CHECK(w.hybrid_torques.mu_rolling == 0.0);  // off: no rolling or spinning friction
  CHECK(w.hybrid_torques.mu_spinning == 0.0);
  CHECK(w.hybrid_torques.regularization == defaults.hybrid_torques.regularization);
  const std::string resolved = resolved_scene_json(scene);
  CHECK(resolved.find(R"("hybrid_mu_static": null)") != std::string::npos);
  CHECK(resolved.find(R"("hybrid_entry_steps": 10)") != std::string::npos);
  CHECK(parse(R"({"pivot_scene": 1, "settings": {"hybrid_mu_static": null}})")
            .settings.world.hybrid_friction.mu_static < 0.0);
}

TEST_CASE("centre_of_mass places the body frame in the shape frame", "[scene][smooth]") {
  // a sphere of radius 1, mass 2, centre of mass 0.5 off its centre: the body (COM) frame is
  // at position + R·com, and the inertia moves by parallel axes: 2/5 m r² + m d² across
  const Scene scene = parse(R"({"pivot_scene": 1, "bodies": [{"name": "b",
      "shape": {"type": "sphere", "radius": 1}, "mass": 2, "centre_of_mass": [0, 0, 0.5],
      "position": [1, 2, 3], "quat_wxyz": [0, 1, 0, 0]}]})");
  const World world = build_world(scene);
  CHECK((world.pose(0).p_WB - Vec3(1, 2, 2.5)).norm() < 1e-15);  // turned upside down
  const Mat3& I = world.bodies().body(0).inertia_B;
  CHECK(I(0, 0) == Approx(0.4 * 2 + 2 * 0.25));
  CHECK(I(1, 1) == Approx(0.4 * 2 + 2 * 0.25));
  CHECK(I(2, 2) == Approx(0.4 * 2));
  CHECK((world.bodies().body(0).shape_offset - Vec3(0, 0, -0.5)).norm() < 1e-15);
}

TEST_CASE("a convex hull sampled from the rattleback's patch lies within 0.35 mm of it",
          "[scene][smooth]") {
  // the LCP's collision shape of scenes/rattleback_*.json: the hull of the App. B patch sampled
  // on 32 × 32 parameter points. All samples are on the surface and the patch is convex, so the
  // hull is inside it; the largest distance of the surface from the hull (over a 4× finer
  // grid; for a point outside a convex hull the largest signed distance to its face planes is
  // its distance when the nearest feature is a face) is measured and reported in
  // docs/hybrid.md.
  const Scene scene = load_scene(scenes_dir() / "rattleback_spin.json");
  const SceneBody& rb = scene.bodies[1];
  REQUIRE(rb.shape->surface_samples == 32);
  const ConvexHull hull = convex_hull(rb.shape->points);
  const SmoothSurface& s = *rb.settings.smooth_surface;
  double worst = 0.0;
  double inside = 0.0;  // deepest point of the surface inside the hull (should be none)
  for (int i = 0; i <= 124; ++i)
    for (int j = 0; j <= 124; ++j) {
      const Vec3 p = s.point(0, Vec2(i / 124.0, j / 124.0));
      double d = -1e300;
      for (const auto& t : hull.triangles) {
        const Vec3 &a = hull.vertices[t[0]], &b = hull.vertices[t[1]], &c = hull.vertices[t[2]];
        const Vec3 n = (b - a).cross(c - a).normalized();
        d = std::max(d, n.dot(p - a));
      }
      worst = std::max(worst, d);
      inside = std::min(inside, d);
    }
  // measured: 0.312 mm (docs/hybrid.md "Rattleback and bowl scenes")
  INFO("surface to hull: largest " << worst << " m");
  CHECK(worst < 3.5e-4);
  CHECK(worst > 1e-4);  // it is an approximation from inside
  CHECK(inside > -1e-12);
}

TEST_CASE("the shipped rattleback and bowl scenes enter reduced mode at t = 0 unchanged",
          "[scene][smooth]") {
  for (const char* file : {"rattleback_spin.json", "rattleback_tap.json",
                           "rattleback_frictionless.json", "marble_in_bowl.json"}) {
    INFO(file);
    const Scene scene = load_scene(scenes_dir() / file);
    World world = build_world(scene);
    // the entry's contact search converges to a residual of 1e-14: a few ulps of the state
    test::check_entry_at_start(world, world.step(), 1e-14);
  }
}

TEST_CASE("bad smooth surfaces and hybrid settings name the JSON pointer",
          "[scene][smooth][errors]") {
  struct Case {
    const char* what;
    std::string json;
    const char* expected;
  };
  const std::string patch15 = R"({"type": "bezier", "patches": [[[0,0,0],[1,0,0],[2,0,0],
      [3,0,0],[0,1,0],[1,1,0],[2,1,0],[3,1,0],[0,2,0],[1,2,0],[2,2,0],[3,2,0],[0,3,0],[1,3,0],
      [2,3,0]]]})";
  const Case cases[] = {
      {"unknown surface type", with_surface(R"({"type": "nurbs"})"),
       "/bodies/0/smooth_surface/type: unknown smooth surface type \"nurbs\""},
      {"key of another type", with_surface(R"({"type": "torus", "radius": 1})"),
       "/bodies/0/smooth_surface/radius: unknown key"},
      {"missing key", with_surface(R"({"type": "torus", "major_radius": 1})"),
       "/bodies/0/smooth_surface/minor_radius: missing"},
      {"torus minor >= major",
       with_surface(R"({"type": "torus", "major_radius": 0.1, "minor_radius": 0.1})"),
       "/bodies/0/smooth_surface/minor_radius: expected minor_radius < major_radius"},
      {"patch of 15 points", with_surface(patch15),
       "/bodies/0/smooth_surface/patches/0: expected the 16 control points"},
      {"no patches", with_surface(R"({"type": "bezier", "patches": []})"),
       "/bodies/0/smooth_surface/patches: expected at least one patch"},
      {"bad control point", with_surface(R"({"type": "bezier", "patches": [[1]]})"),
       "/bodies/0/smooth_surface/patches/0"},
      {"negative scale",
       with_surface(R"({"type": "bezier", "patches": [)" + flat_patch(0, 0) +
                    R"(], "scale": [1, -1, 1]})"),
       "/bodies/0/smooth_surface/scale/1: expected a positive number"},
      {"paraboloid radii of 3",
       with_surface(
           R"({"type": "paraboloid", "curvature_radii": [1, 2, 3], "half_extents": [1, 1]})"),
       "/bodies/0/smooth_surface/curvature_radii: expected an array of 2 numbers"},
      {"zero sphere radius", with_surface(R"({"type": "sphere", "radius": 0})"),
       "/bodies/0/smooth_surface/radius: expected a positive number"},
      {"zero plane normal", with_surface(R"({"type": "plane", "normal": [0, 0, 0]})"),
       "/bodies/0/smooth_surface/normal: expected a non-zero direction"},
      {"bad placement quaternion", with_surface(R"({"type": "sphere", "radius": 1,
          "quat_wxyz": [2, 0, 0, 0]})"),
       "/bodies/0/smooth_surface/quat_wxyz: expected a unit quaternion"},
      {"not an object", with_surface("3"), "/bodies/0/smooth_surface: expected an object"},
      {"surface_samples without a surface", R"({"pivot_scene": 1, "bodies": [{"name": "b",
          "shape": {"type": "convex", "surface_samples": 8}}]})",
       "/bodies/0/shape/surface_samples: needs the body's \"smooth_surface\""},
      {"surface_samples and points", R"({"pivot_scene": 1, "bodies": [{"name": "b",
          "smooth_surface": {"type": "sphere", "radius": 1},
          "shape": {"type": "convex", "surface_samples": 8, "points": []}}]})",
       "/bodies/0/shape/surface_samples: give either \"points\" or \"surface_samples\""},
      {"surface_samples of 1", R"({"pivot_scene": 1, "bodies": [{"name": "b",
          "smooth_surface": {"type": "sphere", "radius": 1},
          "shape": {"type": "convex", "surface_samples": 1}}]})",
       "/bodies/0/shape/surface_samples: expected an integer in [2, 256] (got 1)"},
      {"surface_samples of a plane", R"({"pivot_scene": 1, "bodies": [{"name": "b",
          "smooth_surface": {"type": "plane"},
          "shape": {"type": "convex", "surface_samples": 8}}]})",
       "/bodies/0/shape/surface_samples: plane: an unbounded surface cannot be sampled"},
      {"surface_samples in a compound", R"({"pivot_scene": 1, "bodies": [{"name": "b",
          "smooth_surface": {"type": "sphere", "radius": 1}, "shape": {"type": "compound",
          "children": [{"shape": {"type": "convex", "surface_samples": 8}}]}}]})",
       "/bodies/0/shape/children/0/shape/surface_samples: not inside a compound"},
      {"centre_of_mass on a fixed body", R"({"pivot_scene": 1, "bodies": [{"name": "b",
          "fixed": true, "shape": {"type": "plane"}, "centre_of_mass": [0, 0, 0]}]})",
       "/bodies/0/centre_of_mass: a fixed body has no mass"},
      {"centre_of_mass without a shape", R"({"pivot_scene": 1, "bodies": [{"name": "b",
          "mass": 1, "centre_of_mass": [0, 0, 0]}]})",
       "/bodies/0/centre_of_mass: \"centre_of_mass\" is in the shape's frame: it needs a shape"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string message = error_of(c.json);
    INFO(message);
    CHECK(message.find(std::string("inline.json: ") + c.expected) != std::string::npos);
  }
  // settings: key, value, what the message says after "/settings/<key>: "
  const char* const negative = "expected a number >= 0 (got -0.5)";
  const std::array<std::array<const char*, 3>, 21> settings_cases = {{
      {"hybrid_entry_steps", "-1", "expected an integer >= 0 (got -1)"},
      {"hybrid_entry_steps", "1.5", "expected an integer"},
      {"hybrid_point_tolerance", "0", "expected a positive number"},
      {"hybrid_dt_max", "0", "expected a positive number"},
      {"hybrid_dt_max", "1e-9", "expected at least the smallest step"},
      {"hybrid_tolerance", "0", "expected a positive number"},
      {"hybrid_mu_static", "\"mu\"", "expected a number"},
      {"hybrid_rolling", "1", "expected true or false"},
      {"hybrid_rolling_stick", "\"yes\"", "expected true or false"},
      {"hybrid_mu", "0.3", "unknown key"},
      {"hybrid_max_normal_speed", "-0.5", negative},
      {"hybrid_mu_static", "-0.5", negative},
      {"hybrid_mu_spin_static", "-0.5", negative},
      {"hybrid_slip_threshold", "-0.5", negative},
      {"hybrid_spin_threshold", "-0.5", negative},
      {"hybrid_min_slide_time", "-0.5", negative},
      {"hybrid_slip_regularization", "-0.5", negative},
      {"hybrid_mu_rolling", "-0.5", negative},
      {"hybrid_mu_spinning", "-0.5", negative},
      {"hybrid_mu_rolling", "\"1 mm\"", "expected a number (got the string \"1 mm\")"},
      {"hybrid_mu_spinning", "1e999",
       "expected a finite number (got a number out of the range of a double)"},
  }};
  for (const auto& [key, value, expected] : settings_cases) {
    INFO(key << " = " << value);
    const std::string message =
        error_of(std::string(R"({"pivot_scene": 1, "settings": {")") + key + "\": " + value + "}}");
    CHECK(message.find(std::string("inline.json: /settings/") + key + ": " + expected) !=
          std::string::npos);
  }
}

TEST_CASE("smooth_surface: a loop surface reads its control mesh relative to the scene",
          "[scene][smooth][loop]") {
  const Scene scene = load_scene(scenes_dir() / "bowl_on_table.json");
  const SmoothSurface& table = surface_of(scene, 0);
  const SmoothSurface& bowl = surface_of(scene, 1);
  CHECK(table.name() == "loop");
  CHECK(bowl.name() == "loop");
  // the 14-triangle bowl of Kry 2000 App. B.2 has triangles with two EVs: one global step
  // (Kry 2000 §5.2) gives its 56 patches
  CHECK(bowl.patch_count() == 56);
  // the table's top is flat: a patch in the middle lies in z = 0 of the control mesh (the
  // surface is placed 15 mm up in the body's frame) with an upward normal
  const SurfacePoint mid = table.closest_point(Vec3(0.01, 0.02, 0.1));
  const SurfaceJet j = table.evaluate(mid.patch, mid.uv);
  CHECK(std::abs(j.p.z() - 0.015) < 1e-12);
  CHECK((j.p.head<2>() - Vec2(0.01, 0.02)).norm() < 1e-9);
  CHECK(j.p_u.cross(j.p_v).normalized().z() == Approx(1.0).epsilon(1e-12));
  // the writer keeps the path (resolved) and the type
  const Scene again = parse_scene(resolved_scene_json(scene), fs::path("/"), "again.json");
  CHECK(again.bodies[1].smooth_surface->type == SceneSurfaceType::loop);
  CHECK(surface_of(again, 1).patch_count() == 56);
}

// Kry 2000 §6.3's plate has 192 patches after its one global subdivision. The shipped plate
// has 48 control triangles (tools/scenes/lumpy_marble_plate.py) of which none has two EVs, so it
// needs no global step: 48 patches (the same limit surface as 192 sub-patches would give). The
// lumpy icosahedron (20 triangles, every vertex of valence 5) needs one: 80. Both are closed, so
// their limit surfaces have outward normals everywhere: checked at the plate's top centre (up) and
// at the marble's poles.
TEST_CASE("smooth_surface: the plate and the lumpy marble of Kry 2000 §6.3",
          "[scene][smooth][loop]") {
  const Scene scene = load_scene(scenes_dir() / "lumpy_marble_in_plate.json");
  const SmoothSurface& plate = surface_of(scene, 0);
  const SmoothSurface& marble = surface_of(scene, 1);
  CHECK(plate.patch_count() == 48);
  CHECK(marble.patch_count() == 80);
  const SurfacePoint top = plate.closest_point(Vec3(0.0, 0.0, 0.05));
  const SurfaceJet j = plate.evaluate(top.patch, top.uv);
  CHECK(j.p_u.cross(j.p_v).normalized().z() == Approx(1.0).epsilon(1e-9));
  for (const double z : {-0.1, 0.1}) {
    const SurfacePoint pole = marble.closest_point(Vec3(0.0, 0.0, z));
    const SurfaceJet m = marble.evaluate(pole.patch, pole.uv);
    CHECK(m.p_u.cross(m.p_v).normalized().dot(m.p.normalized()) > 0.99);
  }
}

TEST_CASE("bad loop surfaces name the JSON pointer and the file", "[scene][smooth][loop][errors]") {
  CHECK_THAT(error_of(with_surface(R"({"type": "loop"})")),
             Catch::Contains("/bodies/0/smooth_surface/file: missing"));
  CHECK_THAT(error_of(with_surface(R"({"type": "loop", "obj": "no_such_mesh.obj"})")),
             Catch::Contains("/bodies/0/smooth_surface/obj: cannot read the mesh file") &&
                 Catch::Contains("no_such_mesh.obj"));
  const fs::path dir = fs::temp_directory_path() / "pivot_scene_loop";
  fs::create_directories(dir);
  {
    // one lone triangle: no patch
    std::ofstream(dir / "lone.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  }
  const std::string lone = R"({"pivot_scene": 1, "bodies": [{"name": "b",
      "shape": {"type": "sphere", "radius": 1},
      "smooth_surface": {"type": "loop", "obj": "lone.obj"}}]})";
  std::string message;
  try {
    (void)build_world(parse_scene(lone, dir, "lone_scene.json"));
  } catch (const Error& e) {
    message = e.what();
  }
  CHECK_THAT(message, Catch::Contains("/bodies/0/smooth_surface/obj") &&
                          Catch::Contains("lone.obj") && Catch::Contains("no triangle"));
}

TEST_CASE("a convex hull of 24 samples a patch over a 32-patch Loop surface loads",
          "[scene][smooth][limits]") {
  // the control mesh: an octahedron split once (each triangle into 4: 32 triangles, 18
  // vertices, the midpoints pushed out to the unit sphere), wound outward. 32 patches × 300
  // samples = 9600 hull points, which the former incremental hull refused (more than 1e8
  // visibility tests) although scene-format.md allows surface_samples up to 256
  std::vector<Vec3> v = {Vec3(1, 0, 0),  Vec3(-1, 0, 0), Vec3(0, 1, 0),
                         Vec3(0, -1, 0), Vec3(0, 0, 1),  Vec3(0, 0, -1)};
  std::vector<std::array<int, 3>> coarse;
  for (const int x : {0, 1})
    for (const int y : {2, 3})
      for (const int z : {4, 5}) {
        std::array<int, 3> t{x, y, z};
        // outward: (b − a) × (c − a) along a + b + c
        if ((v[y] - v[x]).cross(v[z] - v[x]).dot(v[x] + v[y] + v[z]) < 0) std::swap(t[1], t[2]);
        coarse.push_back(t);
      }
  std::map<std::pair<int, int>, int> mid;
  auto midpoint = [&](int a, int b) {
    const auto key = std::minmax(a, b);
    const auto it = mid.find(key);
    if (it != mid.end()) return it->second;
    v.push_back((0.5 * (v[a] + v[b])).normalized());
    return mid[key] = static_cast<int>(v.size()) - 1;
  };
  std::string obj;
  std::vector<std::array<int, 3>> fine;
  for (const auto& [a, b, c] : coarse) {
    const int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
    fine.push_back({a, ab, ca});
    fine.push_back({ab, b, bc});
    fine.push_back({ca, bc, c});
    fine.push_back({ab, bc, ca});
  }
  for (const Vec3& x : v)
    obj += fmt::format("v {} {} {}\n", 0.05 * x.x(), 0.05 * x.y(), 0.05 * x.z());
  for (const auto& t : fine) obj += fmt::format("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
  const fs::path dir =
      fs::temp_directory_path() / ("pivot-test-loop-hull-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "blob.obj") << obj;
  const Scene scene = parse_scene(R"({"pivot_scene": 1, "bodies": [{"name": "blob",
      "shape": {"type": "convex", "surface_samples": 24},
      "smooth_surface": {"type": "loop", "obj": "blob.obj"}, "mass": 1}]})",
                                  dir, "inline.json");
  REQUIRE(fine.size() == 32);
  const Shape& shape = *scene.bodies[0].shape->built;
  CHECK(shape.points.size() >= 9600);
  REQUIRE(shape.hull);
  // every sample inside or on the hull, and the hull's corners among the samples
  for (const auto& t : shape.hull->triangles) {
    const Vec3 a = shape.hull->vertices[t[0]], b = shape.hull->vertices[t[1]],
               c = shape.hull->vertices[t[2]];
    const Vec3 n = (b - a).cross(c - a).normalized();
    double worst = -1.0;
    for (const Vec3& p : shape.points) worst = std::max(worst, n.dot(p - a));
    CHECK(worst <= 1e-12);
  }
  fs::remove_all(dir);
}
