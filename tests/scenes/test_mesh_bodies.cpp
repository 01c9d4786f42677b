// Mesh files on moving bodies (docs/meshes.md): a box written by the test in every format Pivot
// reads, as the convex hull of a moving body, rests on a plane exactly as the `box` shape of the
// same size does: the same rest height, the same contact points. The box is [0, a] × [0, b] ×
// [0, c] in its file, so the body's centre of mass (the closed mesh's centroid) is at the box's
// centre and the shape frame's origin at its corner.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <fmt/core.h>

#include "pivot/scenes/scene.hpp"
#include "support/box_mesh_files.hpp"

using namespace pivot;
namespace fs = std::filesystem;

namespace {

constexpr double a = 0.5, b = 0.25, c = 0.75;

struct Rest {
  Vec3 com = Vec3::Zero();   // final centre of mass, m
  std::vector<Vec3> points;  // the contacts of the last step, on the body, world, sorted
  double speed = 0.0;
};

/// one body dropped 1 mm onto the plane z = 0 and run for 0.5 s
Rest rest(const std::string& shape, const Vec3& position, const fs::path& dir) {
  const std::string text = fmt::format(
      R"({{"pivot_scene": 1, "settings": {{"dt": 0.002, "duration": 0.5}}, "bodies": [
      {{"name": "ground", "fixed": true, "shape": {{"type": "plane"}}, "friction": 0.5}},
      {{"name": "b", "shape": {}, "mass": 2.0, "friction": 0.5,
        "position": [{}, {}, {}]}}]}})",
      shape, position.x(), position.y(), position.z());
  World w = build_world(parse_scene(text, dir, "rest.json"));
  while (w.time() < 0.5 - 1e-9) w.step();
  Rest r;
  r.com = w.pose(1).p_WB;
  r.speed = w.twist(1).norm();
  for (const ContactInfo& info : w.contacts())
    r.points.push_back(info.contact.body_a == 1 ? info.contact.p_WCa : info.contact.p_WCb);
  std::sort(r.points.begin(), r.points.end(), [](const Vec3& p, const Vec3& q) {
    return std::lexicographical_compare(p.data(), p.data() + 3, q.data(), q.data() + 3);
  });
  return r;
}

}  // namespace

TEST_CASE("mesh bodies: a box from every mesh format rests as a box shape does", "[scene][mesh]") {
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("pivot-test-mesh-bodies-{}", ::getpid());
  fs::create_directories(dir);
  // the peer: a box of the same size, its centre where the mesh's centroid will be
  const Rest box =
      rest(fmt::format(R"({{"type": "box", "half_extents": [{}, {}, {}]}})", a / 2, b / 2, c / 2),
           Vec3(a / 2, b / 2, c / 2 + 0.001), dir);
  CHECK(box.com.z() == Approx(c / 2).margin(1e-6));
  REQUIRE(box.points.size() == 4);
  for (const test::BoxMeshFile& f : test::box_mesh_formats()) {
    INFO(f.format);
    test::write_box_mesh(f.format, (dir / f.name).string(), 0.5f, 0.25f, 0.75f);
    const Rest mesh =
        rest(fmt::format(R"({{"type": "mesh", "file": "{}"}})", f.name), Vec3(0, 0, 0.001), dir);
    CHECK((mesh.com - box.com).norm() < 1e-9);
    CHECK(mesh.speed < 1e-6);
    // as many contacts as the box, every one on the box's footprint on the plane (the box's
    // own are its four bottom corners)
    REQUIRE(mesh.points.size() == box.points.size());
    for (const Vec3& p : mesh.points) {
      CHECK(std::abs(p.z()) < 1e-6);
      CHECK(p.x() >= -1e-9);
      CHECK(p.x() <= a + 1e-9);
      CHECK(p.y() >= -1e-9);
      CHECK(p.y() <= b + 1e-9);
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("mesh bodies: the three collision modes and the compound part", "[scene][mesh]") {
  // the same box file as its hull, its sdf shape, its convex parts, and as the one part of a
  // compound: every one rests with its centre of mass at c/2 (the sdf within its 1e-6 m)
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("pivot-test-mesh-modes-{}", ::getpid());
  fs::create_directories(dir);
  test::write_box_mesh("stl", (dir / "box.stl").string(), 0.5f, 0.25f, 0.75f);
  for (const std::string shape :
       {R"({"type": "mesh", "file": "box.stl", "collision": "hull"})",
        R"({"type": "mesh", "file": "box.stl", "collision": "sdf", "voxel": 0.02})",
        R"({"type": "mesh", "file": "box.stl", "collision": "decomposition"})",
        R"({"type": "compound", "children": [{"shape": {"type": "mesh", "file": "box.stl"}}]})"}) {
    INFO(shape);
    const Rest r = rest(shape, Vec3(0, 0, 0.001), dir);
    CHECK(r.com.z() == Approx(c / 2).margin(1e-6));
    CHECK(r.speed < 1e-5);
  }
  fs::remove_all(dir);
}
