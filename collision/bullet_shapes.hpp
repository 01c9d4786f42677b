#pragma once
// Bullet's side of the bridge (internal; included by collision_world.cpp only, the one source
// that talks to Bullet): Bullet's headers with their warnings silenced, conversions between
// Eigen and Bullet, an exact ellipsoid shape, and a dispatcher that gives every manifold the
// margin of the current call.

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wdeprecated-copy"
#pragma GCC diagnostic ignored "-Wclass-memaccess"
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <btBulletCollisionCommon.h>
#pragma GCC diagnostic pop

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

inline btVector3 to_bt(const Vec3& v) {
  return {v.x(), v.y(), v.z()};
}
inline Vec3 to_eigen(const btVector3& v) {
  return {v.x(), v.y(), v.z()};
}

inline btTransform to_bt(const Mat3& R, const Vec3& p) {
  btMatrix3x3 basis(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1),
                    R(2, 2));
  return btTransform(basis, to_bt(p));
}

// An ellipsoid with semi-axes a (diagonal A): support(d) = A² d / |A d|, exact, margin 0.
class EllipsoidShape final : public btConvexInternalShape {
 public:
  explicit EllipsoidShape(const Vec3& radii) : radii_(radii) {
    m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
    m_implicitShapeDimensions = to_bt(radii);
    btConvexInternalShape::setMargin(0.0);
  }
  btVector3 localGetSupportingVertexWithoutMargin(const btVector3& dir) const override {
    const Vec3 d = to_eigen(dir);
    const Vec3 ad = radii_.cwiseProduct(d);
    const double length = ad.norm();
    if (!(length > 1e-300)) return {radii_.x(), 0.0, 0.0};
    return to_bt(radii_.cwiseProduct(ad) / length);
  }
  void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3* vectors, btVector3* out,
                                                         int count) const override {
    for (int i = 0; i < count; ++i) out[i] = localGetSupportingVertexWithoutMargin(vectors[i]);
  }
  void getAabb(const btTransform& t, btVector3& lo, btVector3& hi) const override {
    // the half width along world axis i is |row i of R A|, plus the margin
    const btMatrix3x3& R = t.getBasis();
    btVector3 half;
    for (int i = 0; i < 3; ++i) {
      const Vec3 row(R[i].x() * radii_.x(), R[i].y() * radii_.y(), R[i].z() * radii_.z());
      half[i] = row.norm() + getMargin();
    }
    lo = t.getOrigin() - half;
    hi = t.getOrigin() + half;
  }
  void calculateLocalInertia(btScalar mass, btVector3& inertia) const override {
    const Vec3& a = radii_;
    inertia.setValue(mass * (a.y() * a.y() + a.z() * a.z()) / 5.0,
                     mass * (a.x() * a.x() + a.z() * a.z()) / 5.0,
                     mass * (a.x() * a.x() + a.y() * a.y()) / 5.0);
  }
  const char* getName() const override { return "PivotEllipsoid"; }

 private:
  Vec3 radii_;
};

// The dispatcher's manifolds get this call's margin as their breaking threshold (instead of
// the global gContactBreakingThreshold), so Bullet keeps exactly the points with gap ≤ margin.
class MarginDispatcher final : public btCollisionDispatcher {
 public:
  using btCollisionDispatcher::btCollisionDispatcher;
  double margin = 0.0;
  btPersistentManifold* getNewManifold(const btCollisionObject* b0,
                                       const btCollisionObject* b1) override {
    btPersistentManifold* m = btCollisionDispatcher::getNewManifold(b0, b1);
    m->setContactBreakingThreshold(margin);
    m->setContactProcessingThreshold(margin);
    return m;
  }
};

}  // namespace pivot::detail
