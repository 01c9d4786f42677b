#pragma once
// Bullet's GImpact (BulletCollision, libbullet-dev float64) on the meshes of an sdf pair: the
// peer of `pivot-bench sdf` (sdf_benchmark.cpp). Both closed meshes become btGImpactMeshShapes
// (a box tree over their triangles) and one query is the narrow phase of the pair,
// btGImpactCollisionAlgorithm::processCollision, called directly with the shapes at the
// given poses. Compiled in only when PIVOT_BENCH_HAVE_GIMPACT is defined (tools/bench/CMakeLists.txt).
//
// What GImpact produces for two meshes (Bullet 3.24, the SAT/clipping path Debian's library
// calls): every pair of triangles whose margin-grown boxes overlap is clipped, each against the
// other's edge planes, and the clipped points within the pair's margin of the other triangle's
// plane (or behind it) give contacts: the deepest few per triangle pair, depth = margin minus
// the distance to that plane (a depth to a triangle's plane, not to the other solid).
// They go into one btPersistentManifold, which keeps at most 4 points per pair (the deepest
// and the largest area). So GImpact gives a manifold of ≤ 4 points, the sdf query tens of
// contacts reduced from all the shell points within the margin.

#include <memory>

#include "pivot/collision/shape.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::bench {

struct GImpactQueryStats {
  int found = 0;     ///< contact points the triangle pairs produced (before the manifold)
  int manifold = 0;  ///< points the manifold holds afterwards (≤ 4)
};

/// the triangle meshes of two sdf (or mesh) shapes as GImpact shapes
class GImpactPair {
 public:
  /// `margin`: the pair's contact margin, m (each shape gets half: GImpact adds the two)
  GImpactPair(const Shape& a, const Shape& b, double margin);
  ~GImpactPair();
  GImpactPair(const GImpactPair&) = delete;
  GImpactPair& operator=(const GImpactPair&) = delete;

  /// one narrow-phase query with the shapes' frames at these poses
  GImpactQueryStats collide(const Pose& pose_a, const Pose& pose_b);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pivot::bench
