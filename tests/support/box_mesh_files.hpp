#pragma once
// A box [0, a] × [0, b] × [0, c] written by the tests themselves in every mesh file format Pivot
// reads (docs/meshes.md): STL binary and ASCII, OBJ, PLY, Collada, glTF 2.0 (.gltf with the
// buffer inline, .glb). Sizes that are exact in 32-bit floats keep every format's vertices
// exactly equal. glTF is +y up, so its file holds (x, z, −y) of the box, which Pivot turns back.
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

namespace pivot::test {

struct BoxMeshFile {
  std::string format;  ///< "stl", "stl-ascii", "obj", "ply", "dae", "gltf", "glb"
  std::string name;    ///< the file name written
};

inline const std::vector<BoxMeshFile>& box_mesh_formats() {
  static const std::vector<BoxMeshFile> all = {
      {"stl", "box_binary.stl"}, {"stl-ascii", "box_ascii.stl"},
      {"obj", "box.obj"},        {"ply", "box.ply"},
      {"dae", "box.dae"},        {"gltf", "box.gltf"},
      {"glb", "box.glb"}};
  return all;
}

/// the box's 8 corners (bit k of the index: the upper side along axis k) and its 12 triangles,
/// counter-clockwise seen from outside
inline std::array<std::array<float, 3>, 8> box_corners(float a, float b, float c) {
  std::array<std::array<float, 3>, 8> v{};
  for (int i = 0; i < 8; ++i) v[i] = {(i & 1) ? a : 0.0f, (i & 2) ? b : 0.0f, (i & 4) ? c : 0.0f};
  return v;
}
inline constexpr std::array<std::array<int, 3>, 12> kBoxTriangles = {{{0, 2, 3},
                                                                      {0, 3, 1},
                                                                      {4, 5, 7},
                                                                      {4, 7, 6},
                                                                      {0, 1, 5},
                                                                      {0, 5, 4},
                                                                      {2, 6, 7},
                                                                      {2, 7, 3},
                                                                      {0, 4, 6},
                                                                      {0, 6, 2},
                                                                      {1, 3, 7},
                                                                      {1, 7, 5}}};

inline std::string base64(const std::string& bytes) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t n = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<std::uint8_t>(bytes[i + 2]);
    out += table[(n >> 18) & 63];
    out += table[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? table[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? table[n & 63] : '=';
  }
  return out;
}

template <class T>
void put(std::string& out, T value) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  out.append(raw, sizeof(T));
}

/// the glTF JSON of the box and its binary buffer (positions, then 16-bit indices)
inline std::pair<std::string, std::string> box_gltf(float a, float b, float c, bool inline_buffer) {
  std::string bin;
  for (const auto& p : box_corners(a, b, c)) {
    put(bin, p[0]);
    put(bin, p[2]);   // glTF's y is Pivot's z
    put(bin, -p[1]);  // glTF's z is Pivot's −y
  }
  for (const auto& t : kBoxTriangles)
    for (const int i : t) put(bin, static_cast<std::uint16_t>(i));
  const std::string uri =
      inline_buffer
          ? fmt::format(R"("uri": "data:application/octet-stream;base64,{}", )", base64(bin))
          : "";
  const std::string json = fmt::format(
      R"({{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}],
"nodes": [{{"mesh": 0}}], "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}, "indices": 1}}]}}],
"buffers": [{{{}"byteLength": {}}}],
"bufferViews": [{{"buffer": 0, "byteOffset": 0, "byteLength": 96}}, {{"buffer": 0, "byteOffset": 96, "byteLength": 72}}],
"accessors": [{{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [0, 0, {}], "max": [{}, {}, 0]}},
{{"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}}]}})",
      uri, bin.size(), -b, a, c);
  return {json, bin};
}

/// writes the box in `format` to `path`
/// a Collada document of one triangle mesh: `positions` 24 numbers and `indices` 36, as text;
/// `asset` the <asset> element's content (unit and up axis)
inline std::string box_collada(const std::string& positions, const std::string& indices,
                               const std::string& asset) {
  return fmt::format(
      R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset>{}</asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="24">{}</float_array>
<technique_common><accessor source="#pa" count="8" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="12"><input semantic="VERTEX" source="#v" offset="0"/><p>{}</p></triangles>
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene></COLLADA>
)",
      asset, positions, indices);
}

inline void write_box_mesh(const std::string& format, const std::string& path, float a, float b,
                           float c) {
  const auto v = box_corners(a, b, c);
  std::ofstream out(path, std::ios::binary);
  if (format == "stl") {
    std::string bytes(80, ' ');  // a header that does not begin with "solid"
    put(bytes, static_cast<std::uint32_t>(kBoxTriangles.size()));
    for (const auto& t : kBoxTriangles) {
      for (int k = 0; k < 3; ++k) put(bytes, 0.0f);  // normal: readers recompute it
      for (const int i : t)
        for (int k = 0; k < 3; ++k)
          put(bytes, v[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)]);
      put(bytes, static_cast<std::uint16_t>(0));
    }
    out << bytes;
  } else if (format == "stl-ascii") {
    out << "solid box\n";
    for (const auto& t : kBoxTriangles) {
      out << "facet normal 0 0 0\nouter loop\n";
      for (const int i : t) {
        const auto& p = v[static_cast<std::size_t>(i)];
        out << fmt::format("vertex {} {} {}\n", p[0], p[1], p[2]);
      }
      out << "endloop\nendfacet\n";
    }
    out << "endsolid box\n";
  } else if (format == "obj") {
    for (const auto& p : v) out << fmt::format("v {} {} {}\n", p[0], p[1], p[2]);
    for (const auto& t : kBoxTriangles)
      out << fmt::format("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
  } else if (format == "ply") {
    out << "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\n"
           "property float z\nelement face 12\nproperty list uchar int vertex_indices\n"
           "end_header\n";
    for (const auto& p : v) out << fmt::format("{} {} {}\n", p[0], p[1], p[2]);
    for (const auto& t : kBoxTriangles) out << fmt::format("3 {} {} {}\n", t[0], t[1], t[2]);
  } else if (format == "dae") {
    std::string positions, indices;
    for (const auto& p : v) positions += fmt::format("{} {} {} ", p[0], p[1], p[2]);
    for (const auto& t : kBoxTriangles) indices += fmt::format("{} {} {} ", t[0], t[1], t[2]);
    out << box_collada(positions, indices,
                       R"(<unit name="meter" meter="1"/><up_axis>Z_UP</up_axis>)");
  } else if (format == "gltf") {
    out << box_gltf(a, b, c, true).first;
  } else if (format == "glb") {
    auto [json, bin] = box_gltf(a, b, c, false);
    while (json.size() % 4 != 0) json += ' ';
    while (bin.size() % 4 != 0) bin += '\0';
    std::string bytes = "glTF";
    put(bytes, static_cast<std::uint32_t>(2));
    put(bytes, static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + bin.size()));
    put(bytes, static_cast<std::uint32_t>(json.size()));
    bytes += "JSON";
    bytes += json;
    put(bytes, static_cast<std::uint32_t>(bin.size()));
    bytes += std::string("BIN\0", 4);
    bytes += bin;
    out << bytes;
  }
}

}  // namespace pivot::test
