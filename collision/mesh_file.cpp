#include "pivot/collision/mesh_file.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include <fmt/core.h>
#include <tiny_obj_loader.h>

#include "pivot/core/error.hpp"

namespace pivot::detail {

std::string read_mesh_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(path, "", "is a folder, not a mesh file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, "", "cannot open the mesh file");
  // read at most kMaxMeshBytes + 1 bytes: a larger file (or an endless one, /dev/zero) is
  // refused without reading it all
  std::string text;
  std::array<char, 1 << 16> chunk{};
  while (in && text.size() <= kMaxMeshBytes) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw Error(path, "", "cannot read the mesh file");
  if (text.size() > kMaxMeshBytes)
    throw Error(
        path, "",
        fmt::format("the file is larger than the limit of {} MiB for a mesh (docs/limits.md)",
                    kMaxMeshBytes >> 20));
  return text;
}

TriangleMesh read_obj_file(const std::string& path) {
  const std::string text = read_mesh_text(path);
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  config.mtl_search_path = "";
  tinyobj::ObjReader reader;
  // materials are not read (no MTL text): only the geometry matters for collision
  if (!reader.ParseFromString(text, "", config)) {
    std::string message = reader.Error();
    while (!message.empty() && (message.back() == '\n' || message.back() == '\r'))
      message.pop_back();
    throw Error(
        fmt::format("mesh \"{}\": {}", path, message.empty() ? "cannot read the file" : message));
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  TriangleMesh mesh;
  for (std::size_t i = 0; i + 2 < attrib.vertices.size(); i += 3) {
    const Vec3 v(attrib.vertices[i], attrib.vertices[i + 1], attrib.vertices[i + 2]);
    if (!v.allFinite())
      throw Error(fmt::format("mesh \"{}\": vertex {} is not finite", path, i / 3 + 1));
    mesh.vertices.push_back(v);
  }
  const int count = static_cast<int>(mesh.vertices.size());
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    std::size_t index = 0;
    for (const unsigned char fv : shape.mesh.num_face_vertices) {
      if (fv != 3) throw Error(fmt::format("mesh \"{}\": a face with {} vertices", path, fv));
      std::array<int, 3> t{};
      for (std::size_t k = 0; k < 3; ++k) {
        t[k] = shape.mesh.indices[index + k].vertex_index;
        if (t[k] < 0 || t[k] >= count)
          throw Error(fmt::format("mesh \"{}\": face vertex index out of range", path));
      }
      index += 3;
      mesh.triangles.push_back(t);
    }
  }
  if (mesh.triangles.empty()) throw Error(fmt::format("mesh \"{}\": no faces in the file", path));
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
