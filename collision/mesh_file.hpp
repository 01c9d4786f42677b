#pragma once
// Triangle meshes from files, read by tinyobjloader (Debian's libtinyobjloader-dev, double
// precision build), and the check that a mesh bounds a solid: closed (every edge shared by
// exactly two triangles, traversed in opposite directions) and wound counter-clockwise seen
// from outside (positive signed volume).

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

struct TriangleMesh {
  std::vector<Vec3> vertices;                 ///< m
  std::vector<std::array<int, 3>> triangles;  ///< counter-clockwise seen from outside
};

/// the largest mesh file read, bytes (64 MiB, as scene files; docs/limits.md)
inline constexpr std::size_t kMaxMeshBytes = std::size_t{64} << 20;

/// the whole text of a mesh file, the one way every mesh reader (the `mesh` shape's, the `sdf`
/// shape's, a Loop surface's control mesh) reads its file: at most kMaxMeshBytes + 1 bytes are
/// read, so a larger file or an endless one (/dev/zero) is refused at once. Throws
/// pivot::Error naming the file: "FILE: the file is larger than the limit of 64 MiB for a
/// mesh (docs/limits.md)", "is a folder", "cannot open", "cannot read".
[[nodiscard]] std::string read_mesh_text(const std::string& path);

/// reads a Wavefront OBJ (faces with more than 3 vertices are triangulated by the loader);
/// throws pivot::Error naming the file and the loader's message
[[nodiscard]] TriangleMesh read_obj_file(const std::string& path);

/// the largest |coordinate| of a closed mesh's vertex, m: a scene's bound on lengths
inline constexpr double kMaxMeshCoordinate = 1e9;

/// throws pivot::Error (prefixed by `who`) unless the mesh is closed, consistently oriented,
/// with finite vertices within ±kMaxMeshCoordinate and a positive volume; returns the volume, m³
double check_closed_mesh(const TriangleMesh& mesh, const std::string& who);

}  // namespace pivot::detail
