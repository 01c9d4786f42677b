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
};

/// the reduced contacts, deterministic for the same input order
[[nodiscard]] std::vector<ContactPoint> reduce_patches(const std::vector<ContactPoint>& points,
                                                       const ReductionSettings& settings);

/// patches found (for tests and statistics): patch index of each point, in input order
[[nodiscard]] std::vector<int> contact_patches(const std::vector<ContactPoint>& points,
                                               const ReductionSettings& settings);

}  // namespace pivot::detail
