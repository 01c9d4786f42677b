#pragma once
// A closed triangle mesh as a set of convex parts (docs/meshes.md "Convex decomposition"): the
// mesh's bounding box is cut by axis-aligned planes into boxes, and each part is the convex hull
// of the solid inside its box, hull(solid ∩ box), computed exactly from the triangles clipped to
// the box and the box corners inside the solid. The parts lie in disjoint boxes, so their union
// covers the solid and its volume is Σ volume(part) ≥ volume(solid). The box to cut next is the
// one whose hull exceeds its solid the most (V-HACD's greedy order, Mamou 2016 §3), measured on
// a voxel grid; the cut is the plane along which the two halves' voxels fill their bounding
// boxes best. Cutting stops when the parts together exceed the solid by at most `tolerance`
// of its volume, or at `max_parts`.

#include <vector>

#include "pivot/collision/convex_hull.hpp"
#include "pivot/collision/mesh_file.hpp"

namespace pivot::detail {

struct ConvexDecompositionSettings {
  int resolution = 32;      ///< voxels along the bounding box's largest side, [4, 256]
  int max_parts = 32;       ///< the most parts, [1, 256]
  double tolerance = 0.02;  ///< Σ volume(part) ≤ (1 + tolerance) volume(solid) ends the cutting
};

/// the parts of a closed, outward-oriented mesh (check_closed_mesh first), in the mesh's frame,
/// in a deterministic order (by box, cut order); throws pivot::Error prefixed by `who` if no
/// part has a volume
[[nodiscard]] std::vector<ConvexHull> convex_decomposition(
    const TriangleMesh& mesh, const ConvexDecompositionSettings& settings, const std::string& who);

/// the volume of a closed, outward-oriented triangle surface (divergence theorem), m³
[[nodiscard]] double enclosed_volume(const std::vector<Vec3>& vertices,
                                     const std::vector<std::array<int, 3>>& triangles);

}  // namespace pivot::detail
