#pragma once
// Triangle meshes from files (docs/meshes.md): STL (binary and ASCII), PLY, Collada (.dae) and
// glTF 2.0 (.gltf, .glb) read by Assimp (Debian's libassimp-dev), Wavefront OBJ by Pivot's own
// double-precision reader (obj_reader.cpp), and the check that a mesh bounds a solid: closed
// (every edge shared by exactly two triangles, traversed in opposite directions) and wound
// counter-clockwise seen from outside (positive signed volume).

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

/// the whole text of a mesh file, the one way every mesh reader reads its file (the main file
/// and, for glTF, its buffers): at most kMaxMeshBytes + 1 bytes are read, so a larger file or
/// an endless one (/dev/zero) is refused at once. Throws pivot::Error naming the file: "FILE:
/// the file is larger than the limit of 64 MiB for a mesh (docs/limits.md)", "is a folder",
/// "cannot open", "cannot read".
[[nodiscard]] std::string read_mesh_text(const std::string& path);

/// the file formats, by file name extension (any case)
inline constexpr std::array<const char*, 6> kMeshFileExtensions = {".obj", ".stl",  ".ply",
                                                                   ".dae", ".gltf", ".glb"};

/// reads a mesh file of any format of kMeshFileExtensions, chosen by its extension: every
/// triangle of every mesh of the file, placed by the file's node transforms and in metres by
/// its own unit (Collada's <unit>), its up axis turned to +z (Collada's <up_axis>; glTF is
/// +y up), then scaled by `scale` (per axis, > 0). Polygons are split into triangles (OBJ's
/// fanned from their first vertex); points and lines are ignored. Vertices at exactly the same
/// position are one vertex (the first in file order keeps its place), and triangles that then
/// repeat a vertex (no area) are dropped. Throws pivot::Error naming the file and what is
/// wrong: unknown extension, unreadable or malformed file, no triangles, a vertex that is not
/// finite or beyond ±kMaxMeshCoordinate.
[[nodiscard]] TriangleMesh read_mesh_file(const std::string& path,
                                          const Vec3& scale = Vec3::Ones());

/// the largest |coordinate| of a mesh's vertex, m: a scene's bound on lengths
inline constexpr double kMaxMeshCoordinate = 1e9;

/// throws pivot::Error (prefixed by `who`) unless the mesh is closed, consistently oriented,
/// with finite vertices within ±kMaxMeshCoordinate and a positive volume; returns the volume, m³
double check_closed_mesh(const TriangleMesh& mesh, const std::string& who);

// the format readers behind read_mesh_file (the file's bytes already read and bounded)

/// a Wavefront OBJ's `v` and `f` records: coordinates as the nearest doubles to the decimals
/// written, vertices in file order, faces fanned from their first vertex; throws pivot::Error
/// "PATH:LINE: what"
[[nodiscard]] TriangleMesh read_obj_text(const std::string& text, const std::string& path);
/// every other format, by Assimp; Collada and glTF turned from +y up to +z up
[[nodiscard]] TriangleMesh read_assimp_file(const std::string& path, const std::string& extension);

}  // namespace pivot::detail
