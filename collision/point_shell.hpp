#pragma once
// A point shell with its nested point tree (Barbič 2007, §3.8–3.9): points on a closed surface
// with outward unit normals, in farthest-point order, cut into levels of 8, 64, 512, ... points
// (B = 8 per level, §3.9.1); the last level holds all of them. Level i holds every point of the
// levels before it, so point k is a node of every level from its own one down. A node of level
// i + 1 has as parent the nearest node of level i (a point present at level i is its own
// parent), and each node stores the radius of the sphere about its point that holds every
// deepest-level point of its subtree (rest pose; rigid, so static radii, §3.7).

#include <array>
#include <cstdint>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

struct PointShell {
  std::vector<Vec3> points;       ///< p_A, in farthest-point order, m
  std::vector<Vec3> normals;      ///< outward unit normals
  std::vector<int> level_size;    ///< points of levels 0..i (cumulative), last = points.size()
  std::vector<int> level_offset;  ///< node id of (level i, point k) = level_offset[i] + k
  std::vector<double> radius;     ///< per node: its subtree's bounding-sphere radius, m
  std::vector<double> reach;      ///< per node: |p_k| + radius, the sphere's reach from the origin
  std::vector<int> child_begin;   ///< per node (+1): its new children in `children`
  std::vector<int> children;      ///< the points new at level i + 1, grouped by parent
  std::vector<int> first_level;   ///< per point: the level where it first appears
  double spacing = 0.0;           ///< sqrt(area / points): the mean sample spacing, m

  [[nodiscard]] int levels() const { return static_cast<int>(level_size.size()); }
  [[nodiscard]] int nodes() const { return static_cast<int>(radius.size()); }
};

/// samples `count` points of a closed, outward-oriented triangle mesh: 2·count area-weighted
/// random candidates (a fixed seed: the same mesh gives the same shell), farthest-point ordered
/// from the first, the first `count` kept (so the shell is near-uniform, §3.8); normals are the
/// triangles' own. Throws pivot::Error for count < 8 or a mesh without area.
[[nodiscard]] PointShell sample_point_shell(const std::vector<Vec3>& vertices,
                                            const std::vector<std::array<int, 3>>& triangles,
                                            int count);

/// the mesh's own vertices as a shell (its corners: a polyhedron's extreme points in any
/// direction, which random samples of its faces miss by up to a sample spacing times the faces'
/// slope), each with its angle-weighted pseudonormal (Bærentzen & Aanæs 2005: Σ over the
/// incident triangles of the corner angle times the triangle's normal, normalized); vertices
/// in no triangle are left out. The order is a fixed-seed shuffle (levels spread over the
/// surface in O(V), where farthest-point order is O(V²)), of which the first `max_count` are
/// kept (the tree's parents cost O(count²/8): a mesh of more vertices is dense, and its
/// samples lie close to its vertices); spacing is sqrt(area / count).
[[nodiscard]] PointShell corner_shell(const std::vector<Vec3>& vertices,
                                      const std::vector<std::array<int, 3>>& triangles,
                                      int max_count);

/// builds the levels and the tree of points already in farthest-point order (tests build
/// shells from given points this way)
[[nodiscard]] PointShell make_point_shell(std::vector<Vec3> points, std::vector<Vec3> normals,
                                          double spacing);

}  // namespace pivot::detail
