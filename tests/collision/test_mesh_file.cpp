// collision/mesh_file.hpp: every mesh-reading path (a `mesh` shape's file, an `sdf` shape's, a
// Loop surface's control mesh) reads through read_mesh_text and its 64 MiB bound, as scene,
// trajectory and BVH files do (docs/limits.md); every format reads a box the test writes to the
// same corners; malformed files are errors that name the file.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>

#include <fmt/core.h>

#include "pivot/collision/loop_surface.hpp"
#include "pivot/collision/mesh_file.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"
#include "support/box_mesh_files.hpp"

using namespace pivot;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

/// every reader of a mesh file, by the name the scene format gives it
const std::vector<std::pair<std::string, std::function<void(const std::string&)>>>& readers() {
  static const std::vector<std::pair<std::string, std::function<void(const std::string&)>>> all{
      {"mesh obj", [](const std::string& p) { (void)load_mesh_file(p); }},
      {"sdf mesh", [](const std::string& p) { (void)load_sdf_shape(p, SdfShapeSettings{}); }},
      {"loop obj", [](const std::string& p) { (void)load_loop_surface(p); }},
      {"mesh file reader", [](const std::string& p) { (void)detail::read_mesh_file(p); }},
      {"hull of a mesh",
       [](const std::string& p) { (void)load_mesh_shape(p, MeshCollision::hull); }},
  };
  return all;
}

}  // namespace

TEST_CASE("mesh files: an endless file and one over 64 MiB are refused by every reader",
          "[mesh_file][limits]") {
  // before the bound each reader read /dev/zero until memory ran out, and parsed a 64 MiB + 1
  // byte file of NULs whole (then "no faces")
  const fs::path dir =
      fs::temp_directory_path() / ("pivot-test-mesh-file-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // sparse: 64 MiB + 1 byte of zeros that take no disk
  const fs::path big = dir / "big.obj";
  std::ofstream(big).put('v');
  fs::resize_file(big, detail::kMaxMeshBytes + 1);
  // exactly at the bound is read (and then refused for what it holds, not for its size)
  const fs::path at_bound = dir / "at_bound.obj";
  std::ofstream(at_bound) << "# a comment\n";
  fs::resize_file(at_bound, detail::kMaxMeshBytes);
  for (const auto& [name, read] : readers()) {
    INFO(name);
    if (fs::exists("/dev/zero"))
      CHECK_THROWS_WITH(
          read("/dev/zero"),
          Contains("/dev/zero: the file is larger than the limit of 64 MiB for a mesh"));
    CHECK_THROWS_WITH(read(big.string()),
                      Contains(big.string() + ": the file is larger than the limit of 64 MiB"));
    try {
      read(at_bound.string());
      FAIL("a file of NULs is not a mesh");
    } catch (const Error& e) {
      CHECK_THAT(e.what(), !Contains("larger than the limit"));
    }
    CHECK_THROWS_WITH(read(dir.string()), Contains("is a folder, not a mesh file"));
  }
  fs::remove_all(dir);
}

TEST_CASE("mesh files: read_mesh_text returns the file's bytes", "[mesh_file]") {
  const fs::path dir =
      fs::temp_directory_path() / ("pivot-test-mesh-text-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "t.obj";
  std::string text = "v 0 0 0\n";
  text.push_back('\0');
  text += std::string(200000, 'x');  // more than one read chunk
  std::ofstream(file, std::ios::binary) << text;
  CHECK(detail::read_mesh_text(file.string()) == text);
  CHECK_THROWS_WITH(detail::read_mesh_text((dir / "missing.obj").string()),
                    Contains("missing.obj: cannot open the mesh file"));
  fs::remove_all(dir);
}

namespace {

/// a fresh folder for one test case's files
fs::path fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("pivot-test-{}-{}", name, ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("mesh files: a box in every format reads to the same 8 corners, 12 triangles, volume",
          "[mesh_file]") {
  // expected: the box [0, a] × [0, b] × [0, c] the test wrote (sizes exact in 32-bit floats),
  // volume a b c; glTF's file holds the box turned to +y up, read back to +z up
  const double a = 0.5, b = 0.25, c = 0.75;
  const fs::path dir = fresh_dir("mesh-formats");
  for (const test::BoxMeshFile& f : test::box_mesh_formats()) {
    INFO(f.format);
    const fs::path path = dir / f.name;
    test::write_box_mesh(f.format, path.string(), 0.5f, 0.25f, 0.75f);
    const detail::TriangleMesh mesh = detail::read_mesh_file(path.string());
    REQUIRE(mesh.vertices.size() == 8);
    CHECK(mesh.triangles.size() == 12);
    std::set<std::array<double, 3>> corners;
    for (const Vec3& v : mesh.vertices) corners.insert({v.x(), v.y(), v.z()});
    std::set<std::array<double, 3>> expected;
    for (const auto& p : test::box_corners(0.5f, 0.25f, 0.75f)) expected.insert({p[0], p[1], p[2]});
    CHECK(corners == expected);
    CHECK(detail::check_closed_mesh(mesh, path.string()) == Approx(a * b * c).epsilon(1e-15));
    // a scale per axis multiplies the coordinates and the volume by sx sy sz
    const detail::TriangleMesh scaled = detail::read_mesh_file(path.string(), Vec3(2.0, 3.0, 4.0));
    CHECK(detail::check_closed_mesh(scaled, path.string()) ==
          Approx(24.0 * a * b * c).epsilon(1e-15));
  }
  fs::remove_all(dir);
}

TEST_CASE("mesh files: the OBJ reader keeps the file's vertex order and every digit",
          "[mesh_file]") {
  // expected: the doubles nearest to the decimals written (17 digits), in `v` order; 32-bit
  // floats would move 0.10000000000000001 by 1.5e-9
  const fs::path dir = fresh_dir("mesh-obj-order");
  const fs::path path = dir / "t.obj";
  std::ofstream(path) << "v 0.30000000000000004 0 0\nv 0 0.10000000000000001 0\nv 0 0 0\n"
                         "v 0 0 0.7\nf 3 2 1\nf 3 1 4\nf 3 4 2\nf 1 2 4\n";
  const detail::TriangleMesh mesh = detail::read_mesh_file(path.string());
  REQUIRE(mesh.vertices.size() == 4);
  CHECK(mesh.vertices[0] == Vec3(0.30000000000000004, 0, 0));
  CHECK(mesh.vertices[1] == Vec3(0, 0.10000000000000001, 0));
  CHECK(mesh.vertices[3] == Vec3(0, 0, 0.7));
  CHECK(mesh.triangles[0] == std::array<int, 3>{2, 1, 0});
  fs::remove_all(dir);
}

TEST_CASE("mesh files: Collada's unit and up axis", "[mesh_file]") {
  // a box written in centimetres with y up reads as the same box in metres with z up
  const fs::path dir = fresh_dir("mesh-collada-unit");
  const fs::path path = dir / "cm.dae";
  std::string positions, indices;
  for (const auto& p : test::box_corners(50.0f, 25.0f, 75.0f))
    positions += fmt::format("{} {} {} ", p[0], p[2], -p[1]);  // y up: file (x, z, −y)
  for (const auto& t : test::kBoxTriangles) indices += fmt::format("{} {} {} ", t[0], t[1], t[2]);
  std::ofstream(path) << test::box_collada(
      positions, indices, R"(<unit name="centimeter" meter="0.01"/><up_axis>Y_UP</up_axis>)");
  const detail::TriangleMesh mesh = detail::read_mesh_file(path.string());
  REQUIRE(mesh.vertices.size() == 8);
  Vec3 lo = mesh.vertices[0], hi = lo;
  for (const Vec3& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  // the unit 0.01 is a 32-bit float in Assimp: 1e-8 relative
  CHECK((lo - Vec3::Zero()).norm() < 1e-8);
  CHECK((hi - Vec3(0.5, 0.25, 0.75)).norm() < 1e-7);
  CHECK(detail::check_closed_mesh(mesh, path.string()) == Approx(0.5 * 0.25 * 0.75).epsilon(1e-6));
  fs::remove_all(dir);
}

TEST_CASE("mesh files: every malformed file is an error naming the file and what is wrong",
          "[mesh_file]") {
  const fs::path dir = fresh_dir("mesh-malformed");
  const auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  };
  test::write_box_mesh("stl", (dir / "whole.stl").string(), 1, 1, 1);
  std::string stl;
  {
    std::ifstream in(dir / "whole.stl", std::ios::binary);
    stl.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::string open_obj;
  for (const auto& p : test::box_corners(1, 1, 1))
    open_obj += fmt::format("v {} {} {}\n", p[0], p[1], p[2]);
  for (std::size_t i = 1; i < test::kBoxTriangles.size(); ++i)  // one triangle missing: a hole
    open_obj += fmt::format("f {} {} {}\n", test::kBoxTriangles[i][0] + 1,
                            test::kBoxTriangles[i][1] + 1, test::kBoxTriangles[i][2] + 1);
  struct Case {
    std::string path;
    std::string what;
  };
  const std::vector<Case> cases = {
      {write("empty.stl", ""), "the file is empty"},
      {write("truncated.stl", stl.substr(0, 150)), "cannot read the file as stl"},
      {write("nan.stl",
             "solid s\nfacet normal 0 0 0\nouter loop\nvertex nan 0 0\nvertex 1 0 0\n"
             "vertex 0 1 0\nendloop\nendfacet\nendsolid s\n"),
       "not finite"},
      {write("nan.obj", "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), "not finite"},
      {write("open.obj", open_obj), "has no neighbour triangle"},
      {write("flat.obj",
             "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\nf 2 1 4\nf 2 4 3\n"),
       "the enclosed volume is 0"},
      {write("lines.obj", "v 0 0 0\nv 1 0 0\nl 1 2\n"), "no faces"},
      {write("garbage.ply", "ply\nthis is not a header\n"), "cannot read the file as ply"},
      {write("garbage.gltf", "{\"asset\": 1}"), "cannot read the file as gltf"},
      {write("garbage.dae", "<COLLADA><broken"), "cannot read the file as dae"},
      {write("part.xyz", "v 0 0 0\n"), "unknown mesh file format \".xyz\""},
      {(dir / "missing.stl").string(), "cannot open the mesh file"},
      {dir.string(), "is a folder"},
  };
  for (const Case& c : cases) {
    INFO(c.path);
    CHECK_THROWS_WITH(load_mesh_shape(c.path, MeshCollision::hull),
                      Contains(c.path) && Contains(c.what));
  }
  fs::remove_all(dir);
}
