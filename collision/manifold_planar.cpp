// The planar manifold (collision/manifold.hpp): a planar world's parts through the 2-D narrow
// phase (collision/planar_contacts.hpp), lifted to the plane y = 0 (docs/planar.md).
#include <cmath>

#include "pivot/collision/manifold.hpp"
#include "pivot/collision/planar_contacts.hpp"
#include "pivot/collision/planar_shape.hpp"

namespace pivot::detail {

namespace {

/// the planar pose of a part whose rotation is R_y(θ): R(0,0) = cos θ, R(0,2) = sin θ
PlanarPose planar_pose(const PartGeometry& part) {
  return PlanarPose{std::atan2(part.R(0, 2), part.R(0, 0)), Vec2(part.p.x(), part.p.z())};
}

Vec3 lift(const Vec2& v) {
  return Vec3(v.x(), 0.0, v.y());
}

}  // namespace

std::vector<ContactPoint> planar_manifold(const PartGeometry& A, const PartGeometry& B,
                                          double margin) {
  std::vector<ContactPoint> out;
  for (const PlanarContact& c : planar_contacts(*A.shape->planar, planar_pose(A), *B.shape->planar,
                                                planar_pose(B), margin)) {
    ContactPoint k;
    k.p_WCa = lift(c.p_a);
    k.p_WCb = lift(c.p_b);
    k.n_BA_W = lift(c.n_ba);
    k.gap = c.gap;
    out.push_back(k);
  }
  return out;
}

}  // namespace pivot::detail
