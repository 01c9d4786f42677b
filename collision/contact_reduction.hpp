#pragma once
// Contact reduction for point-shell contacts (Barbič 2007 reports 40–820 touching points per
// pair, Table 3.1; Lemke's cost grows with the cube of the contact count, so the LCP must see
// tens): the points are clustered into patches (neighbours within a link distance whose normals
// agree within ~37°, cos ≥ 0.8), and each patch keeps its deepest point and up to three
// extremes that maximize the area they span (as Bullet's persistent manifold keeps 4 points):
//   p0 = the deepest point; p1 = the farthest from p0; p2 = the largest triangle p0 p1 x;
//   p3 = the largest area added to triangle p0 p1 p2 (Σ of the three sub-triangles − the triangle).
// Patches are taken deepest first until the cap per pair is reached. The reduction only
// chooses among the input points (their gaps and normals are kept as they are).

#include <vector>

#include "pivot/collision/polytope.hpp"

namespace pivot::detail {

struct ReductionSettings {
  double link = 0.0;        ///< neighbours closer than this join a patch, m
  double normal_cos = 0.8;  ///< and only when their normals' cosine is at least this
  int per_patch = 4;        ///< points kept per patch (1 to 4)
  int cap = 32;             ///< points kept per pair
  /// reduce_supporting: points within this of a patch's deepest gap form its resting layer, m
  double rest_tolerance = 1e-6;
  /// reduce_supporting: the tilt (as a slope, rise over run) up to which the points that would
  /// touch first are kept
  double guard_slope = 0.1;
  /// reduce_supporting: the directions in the tangent plane the tilt is guarded in
  int guard_directions = 8;
};

/// the reduced contacts, deterministic for the same input order
[[nodiscard]] std::vector<ContactPoint> reduce_patches(const std::vector<ContactPoint>& points,
                                                       const ReductionSettings& settings);

/// the reduction for points against one exact surface (an sdf shell against a plane, box,
/// sphere, ...), whose gaps are true heights above that surface. Per patch, with p0 its deepest
/// point, n its normal and x̄ a point's offset from p0 projected on the plane ⟂ n:
///   - the resting layer (gap ≤ gap(p0) + rest_tolerance) keeps p0 and up to three extremes
///     of the projected layer by area, as reduce_patches does in 3D: a body resting on a face
///     or a ring of points rests on the layer's outline;
///   - for each of guard_directions directions e in that plane, the point that touches first
///     when the body tilts about p0 by the slope s = guard_slope toward e,
///         argmin over the patch of (gap − gap(p0)) − s x̄·e   (kept when below 0),
///     a vertex of the lower convex hull of the points over the plane: a tilt up to s brings
///     no dropped point below the kept ones.
/// (reduce_patches' 3D extremes ignore the gaps: on a torus lying on a plane they were the
/// deepest point and three points high on the tube, and the ring rocked on the deepest alone.)
/// Patches deepest first until the cap; deterministic for the same input order.
[[nodiscard]] std::vector<ContactPoint> reduce_supporting(const std::vector<ContactPoint>& points,
                                                          const ReductionSettings& settings);

/// patches found (for tests and statistics): patch index of each point, in input order
[[nodiscard]] std::vector<int> contact_patches(const std::vector<ContactPoint>& points,
                                               const ReductionSettings& settings);

}  // namespace pivot::detail
