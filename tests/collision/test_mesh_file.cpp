// collision/mesh_file.hpp: every mesh-reading path (a `mesh` shape's OBJ, an `sdf` shape's OBJ,
// a Loop surface's control mesh) reads through read_mesh_text and its 64 MiB bound, as scene,
// trajectory and BVH files do (docs/limits.md).
#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "pivot/collision/loop_surface.hpp"
#include "pivot/collision/mesh_file.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"

using namespace pivot;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

/// every reader of a mesh file, by the name the scene format gives it
const std::vector<std::pair<std::string, std::function<void(const std::string&)>>>& readers() {
  static const std::vector<std::pair<std::string, std::function<void(const std::string&)>>> all{
      {"mesh obj", [](const std::string& p) { (void)load_obj_mesh(p); }},
      {"sdf mesh", [](const std::string& p) { (void)load_sdf_shape(p, SdfShapeSettings{}); }},
      {"loop obj", [](const std::string& p) { (void)load_loop_surface(p); }},
      {"tinyobj reader", [](const std::string& p) { (void)detail::read_obj_file(p); }},
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
