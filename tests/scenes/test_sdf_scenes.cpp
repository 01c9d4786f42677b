// sdf shapes in whole scenes (docs/distributed-contact.md): contacts from point shells against
// distance fields feed the LCP and post-stabilization. Expected values are geometric: a body
// resting on a face stays where the face holds it; the meshes are those of
// tools/scenes/sdf_meshes.py (scenes/meshes/).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "pivot/collision/sdf_query.hpp"
#include "pivot/scenes/scene.hpp"
#include "support/test_data.hpp"

using namespace pivot;

namespace {

/// a scene with the shipped meshes' folder as its base
Scene sdf_scene(const std::string& bodies, double dt) {
  const std::string text = R"({"pivot_scene": 1, "settings": {"dt": )" + std::to_string(dt) +
                           R"(, "duration": 2.0, "contact_margin": 0.002}, "bodies": [)" + bodies + "]}";
  return parse_scene(text, pivot::test::source_scenes_dir(), "sdf.json");
}

struct RunStats {
  double drift = 0.0;        // largest |p(t) − p(0)| of the body, m
  double deepest = 0.0;      // most negative contact gap seen, m
  std::size_t most_contacts = 0;
  double off_surface = 0.0;  // largest distance of a contact's point Ca from the peg's faces, m
};

/// the distance of x from the surface of the 21 × 21 × 40 mm peg (peg.obj) at pose P
double from_peg_surface(const Vec3& x, const Pose& P) {
  const Vec3 q = (P.q_WB.conjugate() * (x - P.p_WB)).cwiseAbs() - Vec3(0.0105, 0.0105, 0.02);
  return std::abs(q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0));
}

RunStats run(World& w, int body, double duration) {
  RunStats s;
  const Vec3 p0 = w.pose(body).p_WB;
  while (w.time() < duration - 1e-9) {
    w.step();
    s.drift = std::max(s.drift, (w.pose(body).p_WB - p0).norm());
    for (const ContactInfo& c : w.contacts()) {
      s.deepest = std::min(s.deepest, c.contact.gap);
      // A is the moving peg; its point shell must be the one traversed (roles: the fixed
      // body holds the field), so every Ca lies on the peg's faces
      if (c.contact.body_a == body)
        s.off_surface = std::max(s.off_surface, from_peg_surface(c.contact.p_WCa, w.pose(body)));
    }
    s.most_contacts = std::max(s.most_contacts, w.contacts().size());
  }
  return s;
}

}  // namespace

TEST_CASE("sdf scenes: a peg resting in its hole stays: penetration within a voxel, drift "
          "<= 1e-6 m over 2 s",
          "[scene]") {
  // the hole's bottom is at z = 0 and the peg is 40 mm long: its centre rests at z = 0.02
  const Scene scene = sdf_scene(R"(
    {"name": "block", "fixed": true, "friction": 0.3,
     "shape": {"type": "sdf", "mesh": "meshes/holed_block.obj", "voxel": 0.001, "points": 4000}},
    {"name": "peg", "mass": 0.1, "friction": 0.3, "position": [0, 0, 0.02],
     "shape": {"type": "sdf", "mesh": "meshes/peg.obj", "voxel": 0.002, "points": 4000}})",
                                0.004);
  World w = build_world(scene);
  const RunStats s = run(w, w.find_body("peg"), 2.0);
  INFO("drift " << s.drift << " m, deepest gap " << s.deepest << " m, contacts up to "
                << s.most_contacts);
  CHECK(s.drift <= 1e-6);
  CHECK(s.deepest >= -0.001);  // a voxel of the block's field
  CHECK(s.most_contacts <= 32u);  // reduced (before reduction: hundreds of shell points)
  CHECK(s.most_contacts >= 4u);
  CHECK(s.off_surface < 1e-5);  // (the contacts are at the start of a step, the pose at its end)
}

TEST_CASE("sdf scenes: an sdf peg standing on a plane rests at its half length", "[scene]") {
  const Scene scene = sdf_scene(R"(
    {"name": "ground", "fixed": true, "shape": {"type": "plane"}, "friction": 0.5},
    {"name": "peg", "mass": 0.1, "friction": 0.5, "position": [0, 0, 0.02],
     "shape": {"type": "sdf", "mesh": "meshes/peg.obj", "points": 2000}})",
                                0.005);
  World w = build_world(scene);
  const int peg = w.find_body("peg");
  const RunStats s = run(w, peg, 1.0);
  // the plane's distance is exact and the shell's points lie on the faces: no drift at all
  CHECK(s.drift <= 1e-9);
  CHECK(w.pose(peg).p_WB.z() == Approx(0.02).margin(1e-9));
}

TEST_CASE("sdf scenes: the shipped peg drops into its hole and rests on the bottom", "[scene]") {
  const Scene scene = load_scene(pivot::test::source_scenes_dir() / "sdf_peg_in_hole.json");
  World w = build_world(scene);
  const int peg = w.find_body("peg");
  const RunStats s = run(w, peg, scene.settings.duration);
  const Vec3 p = w.pose(peg).p_WB;
  INFO("final " << p.transpose() << ", deepest gap " << s.deepest);
  CHECK(p.z() == Approx(0.02).margin(0.001));  // on the bottom, within a voxel
  CHECK(std::abs(p.x()) <= 0.0005 + 0.001);     // inside the hole (clearance + a voxel)
  CHECK(std::abs(p.y()) <= 0.0005 + 0.001);
  CHECK(w.twist(peg).norm() < 1e-3);
}

TEST_CASE("sdf scenes: the sled rides over the bumps and slows down", "[scene]") {
  const Scene scene = load_scene(pivot::test::source_scenes_dir() / "sdf_bumps.json");
  World w = build_world(scene);
  const int sled = w.find_body("sled");
  double lowest = 1.0;
  while (w.time() < scene.settings.duration - 1e-9) {
    w.step();
    lowest = std::min(lowest, w.pose(sled).p_WB.z());
    REQUIRE(w.pose(sled).p_WB.allFinite());
  }
  const Vec3 p = w.pose(sled).p_WB;
  INFO("final " << p.transpose() << ", lowest centre " << lowest);
  // the plate's troughs are 5 mm high and its bump tops 6 mm, the sled 5 mm half thick and 40 mm
  // long (always across a bump top): its centre rides near 11 mm and never drops below the
  // troughs' 10 mm less half a voxel (2 mm voxels; trilinear lookup reads up to about half a
  // voxel of false penetration, docs/distributed-contact.md)
  CHECK(lowest >= 0.010 - 0.001);
  CHECK(p.x() > -0.06 + 0.02);                     // it moved forward over at least one bump
  CHECK(w.twist(sled).v().x() < 0.3);              // and friction slowed it
}

// The dense-contact pair (scenes/sdf_comb_in_slots.json, tools/scenes/dense_contact_meshes.py):
// resting, the comb's bar underside lies on the block's top (100 × 20 mm less the five 8 × 20 mm
// tooth roots: 1200 mm²) and the teeth's x faces 1 mm from the pockets' walls (5 × 2 × 20 × 15
// mm²: 3000 mm²), all within the 2 mm margin. The shell's points are spread evenly over the
// comb's 10600 mm² of surface (bar 2 (100·20 + 100·10 + 20·10) − 5 · 160 roots, teeth 5 ·
// (2 · 8·15 + 2 · 20·15 + 8·20)), so at least those areas' share of the 8000 points touches
// (less 10 % for the random sampling): hundreds of points before reduction, as the thesis'
// knight and axe (820 of a 1.02M-point shell, Table 3.1).
TEST_CASE(
    "sdf scenes: the comb in its slots touches with thousands of points, reduced to at "
    "most 32 contacts",
    "[scene]") {
  const Scene scene = load_scene(pivot::test::source_scenes_dir() / "sdf_comb_in_slots.json");
  const int block = scene.find_body("block"), comb = scene.find_body("comb");
  SdfQuery query(scene.bodies[static_cast<std::size_t>(comb)].shape->built,
                 scene.bodies[static_cast<std::size_t>(block)].shape->built);
  const Pose rest{};  // the comb's frame at the block's: the bar on the top, teeth centred
  const SdfQueryStats brute = query.brute_force(rest, Pose{}, 0.002);
  const SdfQueryStats tree = query.traverse(rest, Pose{}, 0.002);
  const double per_mm2 = brute.points / 10600.0;
  INFO("touching " << brute.touching << " of " << brute.points << ", tree " << tree.touching
                   << ", contacts " << tree.contacts);
  CHECK(brute.points == 8000);
  CHECK(brute.touching >= 0.9 * per_mm2 * (1200.0 + 3000.0));
  CHECK(tree.touching == brute.touching);
  CHECK(tree.contacts <= 32);
  CHECK(tree.contacts >= 8);  // the bar's underside and the teeth's faces: several patches

  // the shipped run: the comb drops 5 mm and rests with the bar on the top face, the teeth in
  // their pockets (1 mm clearance along x, 2 mm along y)
  World w = build_world(scene);
  std::size_t most = 0;
  while (w.time() < scene.settings.duration - 1e-9) {
    w.step();
    most = std::max(most, w.contacts().size());
    REQUIRE(w.pose(comb).p_WB.allFinite());
  }
  const Vec3 p = w.pose(comb).p_WB;  // the COM: 0.3125 mm above the frame's origin
  INFO("final COM " << p.transpose() << ", most contacts " << most);
  CHECK(p.z() == Approx(0.0003125).margin(0.001));
  CHECK(std::abs(p.x()) <= 0.001 + 0.001);
  CHECK(std::abs(p.y()) <= 0.002 + 0.001);
  CHECK(w.twist(comb).norm() < 1e-2);
  CHECK(most <= 32u);
}

// sdf shapes against the other shapes (sdf_manifold.hpp): the sdf body's shell meets their
// exact distance. A flat face resting on a flat face is held exactly where the faces meet.
TEST_CASE(
    "sdf scenes: an sdf comb dropped onto a mesh block rests with its teeth in the "
    "pockets; an sdf peg on a hull rests at its half length",
    "[scene]") {
  {
    const Scene scene = sdf_scene(R"(
      {"name": "block", "fixed": true, "shape": {"type": "mesh", "obj": "meshes/slotted_block.obj"},
       "friction": 0.3},
      {"name": "comb", "mass": 0.1, "friction": 0.3, "position": [0.0003, 0, 0.005],
       "shape": {"type": "sdf", "mesh": "meshes/comb.obj", "voxel": 0.002, "points": 4000}})",
                                  0.004);
    World w = build_world(scene);
    const int comb = w.find_body("comb");
    while (w.time() < 0.5 - 1e-9) w.step();
    const Vec3 p = w.pose(comb).p_WB;
    INFO("comb COM " << p.transpose());
    // the bar's underside on the top face: the COM 0.3125 mm above it (see the comb test);
    // the mesh's distance is exact and the shell's points lie on the faces
    CHECK(p.z() == Approx(0.0003125).margin(1e-6));
    CHECK(std::abs(p.x()) <= 0.001);
    CHECK(w.twist(comb).norm() < 1e-3);
  }
  {
    const Scene scene = sdf_scene(R"(
      {"name": "table", "fixed": true, "friction": 0.5,
       "shape": {"type": "convex", "points": [[-0.1, -0.1, -0.02], [0.1, -0.1, -0.02],
         [0.1, 0.1, -0.02], [-0.1, 0.1, -0.02], [-0.08, -0.08, 0], [0.08, -0.08, 0],
         [0.08, 0.08, 0], [-0.08, 0.08, 0]]}},
      {"name": "peg", "mass": 0.1, "friction": 0.5, "position": [0.01, 0, 0.0205],
       "shape": {"type": "sdf", "mesh": "meshes/peg.obj", "points": 2000}})",
                                  0.005);
    World w = build_world(scene);
    const int peg = w.find_body("peg");
    while (w.time() < 0.5 - 1e-9) w.step();
    CHECK(w.pose(peg).p_WB.z() == Approx(0.02).margin(1e-6));
    CHECK(w.twist(peg).norm() < 1e-3);
  }
}

// the other way round: a moving cylinder or ellipsoid on a fixed sdf block, whose shell points
// on the top face (z = 0.02) meet the cylinder's and ellipsoid's exact distances. A flat cap
// rests exactly on the face; a curved apex sinks between the shell's points by at most
// s²/(2ρ) (s the shell's spacing, ρ the apex's radius of curvature a²/c): with 4000 points over
// the block's ~27,800 mm², s ≈ 2.6 mm, and ρ = 12.5 mm, at most 0.27 mm
TEST_CASE("sdf scenes: a cylinder and an ellipsoid rest on a fixed sdf block", "[scene]") {
  for (const bool cylinder : {true, false}) {
    const std::string shape = cylinder
                                  ? R"({"type": "cylinder", "radius": 0.01, "half_length": 0.006})"
                                  : R"({"type": "ellipsoid", "radii": [0.01, 0.01, 0.008]})";
    const double half_height = cylinder ? 0.006 : 0.008;
    const Scene scene = sdf_scene(R"(
      {"name": "block", "fixed": true, "friction": 0.5,
       "shape": {"type": "sdf", "mesh": "meshes/holed_block.obj", "voxel": 0.001, "points": 4000}},
      {"name": "body", "mass": 0.05, "friction": 0.5, "position": [0.025, 0.02, )" +
                                      std::to_string(0.0205 + half_height) + R"(],
       "shape": )" + shape + "}",
                                  0.004);
    World w = build_world(scene);
    const int body = w.find_body("body");
    while (w.time() < 1.0 - 1e-9) w.step();
    const Vec3 p = w.pose(body).p_WB;
    INFO((cylinder ? "cylinder" : "ellipsoid")
         << " at " << p.transpose() << ", twist " << w.twist(body).transpose());
    if (cylinder)
      CHECK(p.z() == Approx(0.02 + half_height).margin(1e-6));
    else
      CHECK((p.z() <= 0.02 + half_height + 1e-6 && p.z() >= 0.02 + half_height - 0.00027));
    CHECK((p.head<2>() - Vec2(0.025, 0.02)).norm() < 0.003);
    CHECK(w.twist(body).norm() < 1e-6);  // at rest (every point near the apex is a contact)
  }
}
