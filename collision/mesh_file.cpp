#include "pivot/collision/mesh_file.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include <fmt/core.h>

#include "pivot/core/bounded_file.hpp"
#include "pivot/core/error.hpp"

namespace pivot::detail {

std::string read_mesh_text(const std::string& path) {
  std::string text;
  switch (read_at_most(path, kMaxMeshBytes, text)) {
    case FileRead::ok:
      return text;
    case FileRead::folder:
      throw Error(path, "", "is a folder, not a mesh file");
    case FileRead::cannot_open:
      throw Error(path, "", "cannot open the mesh file");
    case FileRead::cannot_read:
      throw Error(path, "", "cannot read the mesh file");
    case FileRead::too_large:
      break;
  }
  throw Error(path, "",
              fmt::format("the file is larger than the limit of {} MiB for a mesh (docs/limits.md)",
                          kMaxMeshBytes >> 20));
}

namespace {

/// the file name's extension in lower case (".stl"), empty when it has none
std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

/// vertices at exactly the same position become the first of them (file order kept); the
/// triangles that then repeat a vertex have no area and are dropped
void weld(TriangleMesh& mesh) {
  const auto less = [](const Vec3& a, const Vec3& b) {
    return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3);
  };
  std::map<Vec3, int, decltype(less)> first(less);
  std::vector<int> to(mesh.vertices.size());
  std::vector<Vec3> kept;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const auto [it, fresh] = first.emplace(mesh.vertices[i], static_cast<int>(kept.size()));
    if (fresh) kept.push_back(mesh.vertices[i]);
    to[i] = it->second;
  }
  std::vector<std::array<int, 3>> triangles;
  triangles.reserve(mesh.triangles.size());
  for (const auto& t : mesh.triangles) {
    const std::array<int, 3> w = {to[static_cast<std::size_t>(t[0])],
                                  to[static_cast<std::size_t>(t[1])],
                                  to[static_cast<std::size_t>(t[2])]};
    if (w[0] != w[1] && w[1] != w[2] && w[2] != w[0]) triangles.push_back(w);
  }
  mesh.vertices = std::move(kept);
  mesh.triangles = std::move(triangles);
}

}  // namespace

TriangleMesh read_mesh_file(const std::string& path, const Vec3& scale) {
  if (!(scale.minCoeff() > 0.0) || !scale.allFinite())
    throw Error(path, "",
                fmt::format("the scale must be positive and finite (got [{}, {}, {}])", scale.x(),
                            scale.y(), scale.z()));
  // the bounded read first, for every format: a folder, a missing, endless or too large file
  // gets the same message whatever reads it
  const std::string text = read_mesh_text(path);
  const std::string ext = lower_extension(path);
  if (std::find(kMeshFileExtensions.begin(), kMeshFileExtensions.end(), ext) ==
      kMeshFileExtensions.end()) {
    std::string known;
    for (const char* e : kMeshFileExtensions) known += std::string(known.empty() ? "" : ", ") + e;
    throw Error(
        path, "",
        fmt::format("unknown mesh file format {} (expected a file name ending in one of: "
                    "{})",
                    ext.empty() ? std::string("(no extension)") : pivot::quoted(ext), known));
  }
  if (text.empty()) throw Error(path, "", "the file is empty");
  TriangleMesh mesh = ext == ".obj" ? read_obj_text(text, path) : read_assimp_file(path, ext);
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    Vec3& v = mesh.vertices[i];
    if (!v.allFinite())
      throw Error(path, "",
                  fmt::format("vertex {} is not finite ({}, {}, {})", i + 1, v.x(), v.y(), v.z()));
    v = v.cwiseProduct(scale);
    if (!(v.cwiseAbs().maxCoeff() <= kMaxMeshCoordinate))
      throw Error(path, "",
                  fmt::format("vertex {} is ({}, {}, {}) m, beyond the limit of {:g} m per "
                              "coordinate (docs/limits.md); scale the mesh down",
                              i + 1, v.x(), v.y(), v.z(), kMaxMeshCoordinate));
  }
  weld(mesh);
  if (mesh.triangles.empty())
    throw Error(path, "", "no triangle with three distinct vertices in the file");
  return mesh;
}

double check_closed_mesh(const TriangleMesh& mesh, const std::string& who) {
  // every directed edge once, and its reverse once: closed and consistently oriented
  std::map<std::pair<int, int>, int> directed;
  for (const auto& t : mesh.triangles) {
    if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
      throw Error(fmt::format("{}: a triangle repeats a vertex", who));
    for (int e = 0; e < 3; ++e)
      ++directed[{t[static_cast<std::size_t>(e)], t[static_cast<std::size_t>((e + 1) % 3)]}];
  }
  for (const auto& [edge, uses] : directed) {
    if (uses != 1)
      throw Error(
          fmt::format("{}: the edge {}–{} is used {} times in one direction (the mesh "
                      "must be a closed, consistently oriented surface)",
                      who, edge.first + 1, edge.second + 1, uses));
    const auto back = directed.find({edge.second, edge.first});
    if (back == directed.end())
      throw Error(
          fmt::format("{}: the edge {}–{} has no neighbour triangle (the mesh has a hole; "
                      "a distance field needs a closed surface)",
                      who, edge.first + 1, edge.second + 1));
  }
  // the scene's bound on lengths (docs/limits.md "Magnitudes at load"): beyond it the volume,
  // the area and the distance field's grid overflow and no message would name the cause
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    if (!(mesh.vertices[i].cwiseAbs().maxCoeff() <= kMaxMeshCoordinate))
      throw Error(
          fmt::format("{}: vertex {} is ({}, {}, {}) m, beyond the limit of {:g} m per "
                      "coordinate (docs/limits.md); scale the mesh down",
                      who, i + 1, mesh.vertices[i].x(), mesh.vertices[i].y(), mesh.vertices[i].z(),
                      kMaxMeshCoordinate));
  double volume = 0.0;
  for (const auto& t : mesh.triangles) {
    const Vec3& a = mesh.vertices[static_cast<std::size_t>(t[0])];
    const Vec3& b = mesh.vertices[static_cast<std::size_t>(t[1])];
    const Vec3& c = mesh.vertices[static_cast<std::size_t>(t[2])];
    volume += a.dot(b.cross(c)) / 6.0;
  }
  if (!(volume > 0.0))
    throw Error(
        fmt::format("{}: the enclosed volume is {} m³ (the triangles must wind "
                    "counter-clockwise seen from outside)",
                    who, volume));
  return volume;
}

}  // namespace pivot::detail
