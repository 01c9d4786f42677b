// Long file: the one Bullet bridge, every Bullet-backed manifold and the narrow-phase dispatch
// in one place (docs/collision.md).
//
// The Bullet bridge, the only source of Pivot that includes Bullet (through bullet_shapes.hpp):
// the shapes as Bullet objects, the broadphase, GJK/EPA, the mesh queries, and the narrow
// phase's dispatch through the pair table (pair_table.hpp); the analytic manifolds are in
// manifold_plane.cpp and manifold_segments.cpp (manifold.hpp).
//
// What Bullet does here: it holds one btCollisionObject per body (shapes mapped one to one:
// btSphereShape, btBoxShape, btCapsuleShapeZ, btCylinderShapeZ, an exact ellipsoid,
// btConvexHullShape, btStaticPlaneShape, btBvhTriangleMeshShape, btCompoundShape) and gives
// their bounding boxes (grown by the margin), computes closest points with GJK/EPA
// (btGjkPairDetector), and finds the triangles of a mesh near a convex shape (its
// convex–concave algorithm). The candidate pairs come from Pivot's sort and sweep
// (broad_phase.hpp): Bullet's btDbvtBroadphase, whose tree grows one level per body for
// bodies added in a row, takes 2.5 s a call for 5 000 separated spheres.
//
// What Pivot does itself, and why:
//  - Margins. Bullet's convex shapes carry a collision margin that rounds their corners. All
//    shapes here have margin 0 (box, cylinder, hull, ellipsoid, mesh) or a margin that is the
//    exact rounding radius (sphere: r, capsule: r), so the points lie on the true surfaces.
//  - Speculative contacts (gap ≤ margin) without global switches. Bullet's distance threshold
//    is the global gContactBreakingThreshold (scaled per shape); it is never touched. GJK is
//    run with an unlimited distance and filtered here. For meshes, the dispatcher subclass
//    below gives every manifold this call's margin as its breaking threshold, and
//    btManifoldResult::m_closestPointDistanceThreshold = margin widens Bullet's triangle query;
//    a collecting result object takes the points (see against_mesh).
//  - Full manifolds in one call. Bullet builds a face manifold over several frames (one new
//    point per frame in its persistent contact cache), or, for boxes and polyhedra, only when
//    they penetrate (btBoxBoxDetector and the polyhedral clipping path report nothing for
//    separated shapes, so speculative contacts would be lost). A resting box needs its 4
//    corners at once: every pair of shape types gets its manifold from the pair table
//    (pair_table.hpp, which lists them).
//    Manifolds of more than 4 points are reduced to 4 (reduce_manifold).
//  - Determinism. No manifold, GJK or contact-cache state lives across calls (everything is
//    made per pair per call), the candidate pairs are found anew every call,
//    pairs are processed in body order, and the output is sorted by (body_a, body_b, point_a).

#include "pivot/collision/collision_world.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/core.h>

#include "pivot/collision/broad_phase.hpp"
#include "pivot/collision/bullet_shapes.hpp"
#include "pivot/collision/convex_hull.hpp"
#include "pivot/collision/manifold.hpp"
#include "pivot/collision/mesh_info.hpp"
#include "pivot/collision/pair_table.hpp"
#include "pivot/collision/planar_shape.hpp"
#include "pivot/collision/polytope.hpp"
#include "pivot/collision/sdf_manifold.hpp"
#include "pivot/collision/sdf_model.hpp"
#include "pivot/core/error.hpp"

namespace pivot {

using namespace detail;

// Part and Object are fields of CollisionWorld::Impl, which has external linkage: in an anonymous
// namespace they drew GCC's -Wsubobject-linkage warning, so they live in a named one
namespace collision_world_detail {

/// a leaf shape of an object (a compound is flattened into its leaves): its geometry, which
/// the analytic manifolds read, and its Bullet shape
struct Part : PartGeometry {
  btCollisionShape* bt = nullptr;
  Mat3 R_SP = Mat3::Identity();  // part frame in the object's shape frame
  Vec3 p_SP = Vec3::Zero();
  std::shared_ptr<const MeshInfo> mesh;  // mesh
  // set per detect() call
  btTransform T = btTransform::getIdentity();
};

struct Object {
  CollisionObjectSettings settings;
  std::unique_ptr<btCollisionObject> bt;
  std::vector<Part> parts;
  btVector3 aabb_lo, aabb_hi;  // at the last detect()'s pose, grown by its margin
};

}  // namespace collision_world_detail

using namespace collision_world_detail;

struct CollisionWorld::Impl {
  btDefaultCollisionConfiguration config;
  MarginDispatcher dispatcher{&config};
  btDispatcherInfo dispatch_info;  // Bullet's defaults, for the convex–concave algorithm

  // the mesh arrays are declared first so that they outlive the shapes that point to them
  std::vector<std::unique_ptr<std::vector<btScalar>>> mesh_vertices;
  std::vector<std::unique_ptr<std::vector<int>>> mesh_indices;
  std::vector<std::unique_ptr<btTriangleIndexVertexArray>> meshes;  // kept alive for the BVHs
  std::vector<std::unique_ptr<btCollisionShape>> shapes;            // owned Bullet shapes
  std::map<const Shape*, Part> leaves;                              // built leaf shapes, by Shape
  std::vector<std::unique_ptr<Object>> objects;                     // in order of addition
  // the candidate pairs the last detect() skipped, and its margin (skipped_contacts())
  std::vector<std::pair<const Object*, const Object*>> skipped;
  double skipped_margin = 0.0;
  std::map<int, std::size_t> by_body;
  std::set<std::pair<int, int>> excluded;
  SdfCaches sdf_caches;  // the point-tree traversals' memory, per pair of bodies
  // detect()'s lists, kept from call to call for their memory (each is written before it is
  // read): a detection whose pairs and contacts fit in the last one's allocates nothing
  std::vector<Aabb> boxes;                                     // the objects' bounding boxes
  BroadPhaseWork broad;                                        // the sweep's order and pairs
  std::vector<std::pair<const Object*, const Object*>> pairs;  // the candidate pairs
  std::vector<std::vector<Contact>> lists;                     // parallel: each pair's contacts
  std::vector<std::size_t> spread;                             // parallel: the threads' pairs

  btCollisionShape* own(std::unique_ptr<btCollisionShape> s) {
    shapes.push_back(std::move(s));
    return shapes.back().get();
  }

  /// the Bullet shape of `shape`; leaves are appended to `parts` with their pose in the
  /// object's shape frame (R, p)
  btCollisionShape* build(const Shape& shape, const Mat3& R, const Vec3& p,
                          std::vector<Part>& parts) {
    // bodies sharing a shape share its Bullet shape, polytope and mesh data (Bullet allows
    // one shape on many objects; the Shape stays alive in the settings that hold it)
    if (const auto it = leaves.find(&shape); it != leaves.end()) {
      Part part = it->second;
      part.R_SP = R;
      part.p_SP = p;
      part.leaf = static_cast<int>(parts.size());
      parts.push_back(std::move(part));
      return parts.back().bt;
    }
    btCollisionShape* bt = nullptr;
    Part part;
    part.shape = &shape;
    part.R_SP = R;
    part.p_SP = p;
    switch (shape.type) {
      case ShapeType::sphere:
        bt = own(std::make_unique<btSphereShape>(shape.radius));  // margin = radius: exact
        part.scale = shape.radius;
        break;
      case ShapeType::box: {
        auto box = std::make_unique<btBoxShape>(to_bt(shape.half_extents));
        box->setMargin(0.0);  // keeps the full half extents, sharp corners
        box->initializePolyhedralFeatures();
        part.polytope =
            std::make_shared<detail::Polytope>(detail::make_box_polytope(shape.half_extents));
        part.scale = shape.half_extents.norm();
        bt = own(std::move(box));
        break;
      }
      case ShapeType::capsule:
        // btCapsuleShapeZ(radius, cylinder length); its margin is the radius: exact
        bt = own(std::make_unique<btCapsuleShapeZ>(shape.radius, 2.0 * shape.half_length));
        part.scale = shape.radius + shape.half_length;
        break;
      case ShapeType::cylinder: {
        auto cyl = std::make_unique<btCylinderShapeZ>(
            btVector3(shape.radius, shape.radius, shape.half_length));
        cyl->setMargin(0.0);
        part.scale = std::hypot(shape.radius, shape.half_length);
        bt = own(std::move(cyl));
        break;
      }
      case ShapeType::ellipsoid:
        bt = own(std::make_unique<EllipsoidShape>(shape.radii));
        part.scale = shape.radii.maxCoeff();
        break;
      case ShapeType::convex: {
        detail::ConvexHull storage;
        const detail::ConvexHull& hull = detail::hull_of(shape, storage);
        auto h = std::make_unique<btConvexHullShape>();
        for (const Vec3& v : hull.vertices) h->addPoint(to_bt(v), false);
        h->recalcLocalAabb();
        h->setMargin(0.0);
        h->initializePolyhedralFeatures();
        part.polytope = std::make_shared<detail::Polytope>(detail::make_polytope(hull));
        part.scale = part.polytope->radius + part.polytope->centroid.norm();
        bt = own(std::move(h));
        break;
      }
      case ShapeType::plane:
        bt = own(std::make_unique<btStaticPlaneShape>(to_bt(shape.normal), shape.offset));
        part.scale = 1.0;
        break;
      case ShapeType::mesh: {
        auto verts = std::make_unique<std::vector<btScalar>>();
        auto idx = std::make_unique<std::vector<int>>();
        for (const Vec3& v : shape.points) verts->insert(verts->end(), {v.x(), v.y(), v.z()});
        for (const auto& t : shape.triangles) idx->insert(idx->end(), {t[0], t[1], t[2]});
        auto array = std::make_unique<btTriangleIndexVertexArray>(
            static_cast<int>(shape.triangles.size()), idx->data(),
            static_cast<int>(3 * sizeof(int)), static_cast<int>(shape.points.size()), verts->data(),
            static_cast<int>(3 * sizeof(btScalar)));
        auto m = std::make_unique<btBvhTriangleMeshShape>(array.get(), true, true);
        m->setMargin(0.0);
        part.mesh = std::make_shared<MeshInfo>(shape);
        mesh_vertices.push_back(std::move(verts));
        mesh_indices.push_back(std::move(idx));
        meshes.push_back(std::move(array));
        part.scale = 1.0;
        bt = own(std::move(m));
        break;
      }
      case ShapeType::sdf: {
        // for the broadphase only: the mesh's bounding box (the narrow phase is sdf_manifold)
        Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
        for (const Vec3& v : shape.points) {
          lo = lo.cwiseMin(v);
          hi = hi.cwiseMax(v);
        }
        auto box = std::make_unique<btBoxShape>(to_bt(0.5 * (hi - lo)));
        box->setMargin(0.0);
        auto holder = std::make_unique<btCompoundShape>(false);
        holder->addChildShape(to_bt(Mat3::Identity(), 0.5 * (hi + lo)), own(std::move(box)));
        part.scale = shape.sdf->bounding_radius;
        bt = own(std::move(holder));
        break;
      }
      case ShapeType::planar: {
        // for the broadphase only (the narrow phase is planar_manifold): a half-plane as the
        // plane through its boundary, any other shape as its bounding sphere about the origin
        const PlanarShape& planar = *shape.planar;
        if (planar.type == PlanarShapeType::half_plane) {
          bt = own(std::make_unique<btStaticPlaneShape>(
              btVector3(planar.normal.x(), 0.0, planar.normal.y()), planar.offset));
          part.scale = 1.0;
        } else {
          part.scale = planar_bounding_radius(planar);
          bt = own(std::make_unique<btSphereShape>(part.scale));
        }
        break;
      }
      case ShapeType::compound: {
        auto compound = std::make_unique<btCompoundShape>(false);
        for (const CompoundChild& child : shape.children) {
          const Mat3 R_child = child.orientation.normalized().toRotationMatrix();
          btCollisionShape* c = build(*child.shape, R * R_child, p + R * child.position, parts);
          compound->addChildShape(to_bt(R_child, child.position), c);
        }
        return own(std::move(compound));
      }
    }
    part.bt = bt;
    leaves[&shape] = part;
    part.leaf = static_cast<int>(parts.size());
    parts.push_back(std::move(part));
    return bt;
  }

  // ---- narrow phase between two parts; normals from B to A ----

  std::optional<detail::ContactPoint> gjk(const btCollisionShape* a, const btTransform& ta,
                                          const btCollisionShape* b, const btTransform& tb) {
    // the solvers' state is local: pairs may run on several threads (runs_in_parallel)
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btGjkPairDetector detector(static_cast<const btConvexShape*>(a),
                               static_cast<const btConvexShape*>(b), &simplex, &epa);
    btGjkPairDetector::ClosestPointInput input;
    input.m_transformA = ta;
    input.m_transformB = tb;
    input.m_maximumDistanceSquared = BT_LARGE_FLOAT;
    btPointCollector out;
    detector.getClosestPoints(input, out, nullptr);
    if (!out.m_hasResult) return std::nullopt;
    detail::ContactPoint c;
    c.n_BA_W = to_eigen(out.m_normalOnBInWorld).normalized();  // Bullet: from B to A
    c.p_WCb = to_eigen(out.m_pointInWorld);
    c.gap = out.m_distance;
    c.p_WCa = c.p_WCb + c.gap * c.n_BA_W;
    return c;
  }

  /// Bullet's convex–concave algorithm for a convex part A against mesh part B. With a
  /// positive m_closestPointDistanceThreshold Bullet widens its triangle query by it and runs
  /// each triangle in closest-point mode, whose points reach only the result object (not a
  /// manifold we could read), so a collecting result takes them as they come, with the
  /// triangle they came from. Then, per triangle:
  ///  - a face contact (normal = the triangle's) of a box or hull is replaced by the clipped
  ///    incident face, as against a plane, so a box on a mesh floor gets its corners;
  ///  - a contact at an edge between coplanar (or concave) triangles, or at a vertex inside a
  ///    flat patch, is dropped: the neighbour's face contact holds the true normal.
  std::vector<detail::ContactPoint> against_mesh(const Part& A, const btCollisionObject* objA,
                                                 const Part& B, const btCollisionObject* objB,
                                                 double margin) {
    struct Collector final : btManifoldResult {
      using btManifoldResult::btManifoldResult;
      std::vector<std::pair<int, detail::ContactPoint>> points;  // (triangle, contact)
      int triangle = -1;
      double limit = 0.0;
      void setShapeIdentifiersA(int, int) override {}
      void setShapeIdentifiersB(int, int index) override { triangle = index; }
      // the algorithm is called as (convex A, triangle of B): the normal points from B to A
      void addContactPoint(const btVector3& normal_on_b, const btVector3& point_on_b,
                           btScalar depth) override {
        if (depth > limit) return;
        detail::ContactPoint c;
        c.n_BA_W = to_eigen(normal_on_b).normalized();
        c.p_WCb = to_eigen(point_on_b);
        c.p_WCa = c.p_WCb + depth * to_eigen(normal_on_b);
        c.gap = depth;
        points.emplace_back(triangle, c);
      }
    };
    btCollisionObjectWrapper wa(nullptr, A.bt, objA, A.T, -1, -1);
    btCollisionObjectWrapper wb(nullptr, B.bt, objB, B.T, -1, -1);
    dispatcher.margin = margin;
    btCollisionAlgorithm* algorithm =
        dispatcher.findAlgorithm(&wa, &wb, nullptr, BT_CLOSEST_POINT_ALGORITHMS);
    if (!algorithm) return {};
    Collector result(&wa, &wb);
    result.limit = margin;
    // > 0 selects Bullet's closest-point path (see above); 1e-12 m when margin is 0
    result.m_closestPointDistanceThreshold = std::max(margin, 1e-12);
    algorithm->processCollision(&wa, &wb, dispatch_info, &result);
    algorithm->~btCollisionAlgorithm();
    dispatcher.freeCollisionAlgorithm(algorithm);

    const MeshInfo& mesh = *B.mesh;
    const double tol = 1e-9 * std::max(A.scale, 1e-3);
    std::set<int> clipped;  // triangles whose face contact becomes the clipped incident face
    std::vector<detail::ContactPoint> out;
    auto add = [&](const detail::ContactPoint& c) {
      append_unless_near(out, c, [&](const detail::ContactPoint& o, const detail::ContactPoint& x) {
        return (o.p_WCa - x.p_WCa).norm() <= tol && (o.n_BA_W - x.n_BA_W).norm() < 1e-9;
      });
    };
    for (const auto& [tri, c] : result.points) {
      if (tri < 0 || tri >= static_cast<int>(mesh.t.size())) {
        add(c);
        continue;
      }
      const std::size_t ti = static_cast<std::size_t>(tri);
      const Vec3 n_T = B.R * mesh.n[ti];
      if (c.n_BA_W.dot(n_T) >= 1.0 - 1e-9) {
        if (A.polytope)
          clipped.insert(tri);
        else
          add(c);
        continue;
      }
      // the feature of the triangle that holds point_b, by barycentric coordinates
      const Vec3 x = B.R.transpose() * (c.p_WCb - B.p);
      const auto& tv = mesh.t[ti];
      const Vec3 a = mesh.v[static_cast<std::size_t>(tv[0])],
                 b = mesh.v[static_cast<std::size_t>(tv[1])],
                 cc = mesh.v[static_cast<std::size_t>(tv[2])];
      const Vec3 nn = (b - a).cross(cc - a);
      const double area = nn.squaredNorm();
      if (!(area > 0.0)) continue;
      const double w0 = (b - x).cross(cc - x).dot(nn) / area;  // weight of vertex 0
      const double w1 = (cc - x).cross(a - x).dot(nn) / area;
      const double w2 = 1.0 - w0 - w1;
      const double w[3] = {w0, w1, w2};
      int zeros = 0, vertex = -1, edge = -1;
      for (int k = 0; k < 3; ++k) {
        if (std::abs(w[k]) < 1e-7) {
          ++zeros;
          edge = (k + 1) % 3;  // the edge opposite vertex k
        } else {
          vertex = k;
        }
      }
      if (zeros == 1 && mesh.smooth_edge[ti][static_cast<std::size_t>(edge)]) continue;
      if (zeros == 2 &&
          mesh.flat_vertex[static_cast<std::size_t>(tv[static_cast<std::size_t>(vertex)])])
        continue;
      add(c);
    }
    for (const int tri : clipped) {
      const std::size_t ti = static_cast<std::size_t>(tri);
      const Vec3 n_T = B.R * mesh.n[ti];
      std::vector<Vec3> loop;
      for (const int k : mesh.t[ti])
        loop.push_back(B.R * mesh.v[static_cast<std::size_t>(k)] + B.p);
      const double d = n_T.dot(loop[0]);
      for (const Vec3& p : detail::clip_to_face(detail::incident_face(*A.polytope, A.R, A.p, n_T),
                                                loop, n_T, tol)) {
        const detail::ContactPoint c = point_plane_contact(p, n_T, d);
        if (c.gap <= margin) add(c);
      }
    }
    return detail::reduce_manifold(std::move(out));
  }

  /// capsule part A against a convex part B: GJK's closest point plus the two end spheres
  detail::ContactPoints capsule_convex(const Part& A, const Part& B, double margin) {
    detail::ContactPoints out;
    if (auto c = gjk(A.bt, A.T, B.bt, B.T); c && c->gap <= margin) out.push_back(*c);
    const Vec3 axis = A.R.col(2);
    btSphereShape ball(A.shape->radius);
    for (const double sign : {1.0, -1.0}) {
      const Vec3 end = A.p + sign * A.shape->half_length * axis;
      auto c = gjk(&ball, to_bt(Mat3::Identity(), end), B.bt, B.T);
      if (!c || c->gap > margin) continue;
      // the end sphere's point must be on the capsule (its outer half), not deep inside it
      if ((-c->n_BA_W).dot(sign * axis) < -0.25) continue;
      append_unless_near(out, *c,
                         [&](const detail::ContactPoint& o, const detail::ContactPoint& x) {
                           return (o.p_WCa - x.p_WCa).norm() < 1e-6 * A.scale;
                         });
    }
    return out;
  }

  /// capsule part A against mesh part B: the mesh query, and the end spheres, so that a
  /// capsule lying on a mesh rests on both ends
  std::vector<detail::ContactPoint> capsule_mesh(const Part& A, const btCollisionObject* objA,
                                                 const Part& B, const btCollisionObject* objB,
                                                 double margin) {
    std::vector<detail::ContactPoint> out = against_mesh(A, objA, B, objB, margin);
    // a capsule also tests its end spheres, so that lying on a mesh it rests on both ends
    btSphereShape ball(A.shape->radius);
    for (const double sign : {1.0, -1.0}) {
      Part end = A;
      end.bt = &ball;
      end.p = A.p + sign * A.shape->half_length * A.R.col(2);
      end.T = to_bt(A.R, end.p);
      for (const detail::ContactPoint& c : against_mesh(end, objA, B, objB, margin)) {
        if ((-c.n_BA_W).dot(sign * A.R.col(2)) < -0.25) continue;  // deep inside the capsule
        append_unless_near(out, c,
                           [&](const detail::ContactPoint& o, const detail::ContactPoint& x) {
                             return (o.p_WCa - x.p_WCa).norm() < 1e-6 * A.scale;
                           });
      }
    }
    return detail::reduce_manifold(std::move(out));
  }

  /// box/hull part A against box/hull part B: separating axes and clipping, refereed by GJK
  detail::ContactPoints polytopes(const Part& A, const Part& B, double margin) {
    detail::PolytopeQuery q =
        detail::polytope_contacts(*A.polytope, A.R, A.p, *B.polytope, B.R, B.p, margin);
    if (q.separated) return {};
    const double tol = 1e-9 * std::max(A.scale, B.scale);
    if (q.separation <= 0.0) {
      // touching or penetrating: the SAT depth is exact; when clipping lost the deepest
      // vertex (it lies beside the reference face) EPA's deepest pair is added
      double least = std::numeric_limits<double>::infinity();
      for (const detail::ContactPoint& c : q.points) least = std::min(least, c.gap);
      if (least <= q.axis_separation + tol) return q.points;
      if (auto c = gjk(A.bt, A.T, B.bt, B.T); c && c->gap <= margin) q.points.push_back(*c);
      return q.points;
    }
    // Separated, the SAT value s is only a lower bound of the distance d: a corner may face
    // a corner, an edge pair's closest points may lie beyond the edges' ends. If a reported
    // pair is as close as s, then s ≤ d ≤ |pa − pb| ≈ s and the manifold is exact.
    double closest_pair = std::numeric_limits<double>::infinity();
    for (const detail::ContactPoint& c : q.points)
      closest_pair = std::min(closest_pair, (c.p_WCa - c.p_WCb).norm());
    if (closest_pair <= q.separation + tol) return q.points;
    // Otherwise GJK's distance
    // (relative error ~1e-12 in double precision) is the referee: feature points closer than
    // it are dropped (clamped edge pairs underestimate), and when no feature point reaches
    // it, GJK's closest pair is added.
    const auto closest = gjk(A.bt, A.T, B.bt, B.T);
    if (!closest || closest->gap > margin) return {};
    detail::ContactPoints kept;
    double nearest = std::numeric_limits<double>::infinity();
    for (const detail::ContactPoint& c : q.points)
      if (c.gap >= closest->gap - tol) {
        kept.push_back(c);
        nearest = std::min(nearest, c.gap);
      }
    if (nearest > closest->gap + tol) kept.push_back(*closest);
    return kept;
  }

  /// the manifold m of parts A and B, in this order
  detail::ContactPoints manifold(Manifold m, const Part& A, const btCollisionObject* objA,
                                 const Part& B, const btCollisionObject* objB, double margin) {
    // the manifolds that make a std::vector (meshes, sdf shells, planar shapes), listed
    const auto listed = [](const std::vector<detail::ContactPoint>& points) {
      return detail::ContactPoints(points.begin(), points.end());
    };
    switch (m) {
      case Manifold::none:
        return {};
      case Manifold::plane:
        return plane_manifold(A, B, margin);
      case Manifold::mesh:
        return listed(against_mesh(A, objA, B, objB, margin));
      case Manifold::capsule_mesh:
        return listed(capsule_mesh(A, objA, B, objB, margin));
      case Manifold::polytopes:
        return polytopes(A, B, margin);
      case Manifold::spheres: {
        const detail::ContactPoint c = sphere_sphere(A.p, A.shape->radius, B.p, B.shape->radius);
        if (c.gap <= margin) return {c};
        return {};
      }
      case Manifold::segments:
        return segment_manifold(A, B, margin);
      case Manifold::capsule_convex:
        return capsule_convex(A, B, margin);
      case Manifold::gjk:
        if (auto c = gjk(A.bt, A.T, B.bt, B.T); c && c->gap <= margin) return {*c};
        return {};
      case Manifold::sdf_pair: {
        // fixed from the settings (Bullet marks every bare btCollisionObject static)
        const int a = objA->getUserIndex(), b = objB->getUserIndex();
        return listed(sdf_pair_manifold(A, a, objects[by_body.at(a)]->settings.fixed, B, b,
                                        objects[by_body.at(b)]->settings.fixed, margin,
                                        sdf_caches));
      }
      case Manifold::planar:
        return listed(planar_manifold(A, B, margin));
      case Manifold::shell_primitive:
        return listed(shell_primitive_manifold(A, objA->getUserIndex(), B, objB->getUserIndex(),
                                               margin, sdf_caches));
    }
    return {};
  }

  /// the narrow phase of one part pair: the pair table's manifold, with the parts exchanged
  /// and the points flipped where the table says so (normals from B to A)
  detail::ContactPoints narrow(const Part& A, const btCollisionObject* objA, const Part& B,
                               const btCollisionObject* objB, double margin) {
    const PairRule rule = pair_rule(A.shape->type, B.shape->type);
    if (!rule.swap) return manifold(rule.manifold, A, objA, B, objB, margin);
    detail::ContactPoints out = manifold(rule.manifold, B, objB, A, objA, margin);
    for (detail::ContactPoint& c : out) c = detail::flipped(c);
    return out;
  }
};

CollisionWorld::CollisionWorld() : impl_(std::make_unique<Impl>()) {}
CollisionWorld::~CollisionWorld() = default;

void CollisionWorld::add(const CollisionObjectSettings& s) {
  if (s.body < 0)
    throw Error(fmt::format("collision object: body index must be >= 0 (got {})", s.body));
  const std::string who = fmt::format("collision object of body {}", s.body);
  if (!s.shape) throw Error(who + ": shape is null");
  if (!s.shape_offset.allFinite()) throw Error(who + ": shape offset must be finite");
  if (!s.fixed && (s.shape->type == ShapeType::plane || s.shape->type == ShapeType::mesh))
    throw Error(fmt::format("{}: a {} shape needs a fixed body", who, to_string(s.shape->type)));
  if (impl_->by_body.count(s.body)) throw Error(who + ": the body already has a collision object");
  // a world's shapes are all planar (a planar world, docs/planar.md) or none is
  const bool planar = s.shape->type == ShapeType::planar;
  if (!impl_->objects.empty() &&
      (impl_->objects.front()->settings.shape->type == ShapeType::planar) != planar)
    throw Error(fmt::format("{}: planar and 3-D shapes cannot meet in one world", who));
  if (planar && !s.fixed && s.shape->planar->type == PlanarShapeType::half_plane)
    throw Error(who + ": a half_plane shape needs a fixed body");

  auto object = std::make_unique<Object>();
  object->settings = s;
  btCollisionShape* shape = impl_->build(*s.shape, Mat3::Identity(), Vec3::Zero(), object->parts);
  object->bt = std::make_unique<btCollisionObject>();
  object->bt->setCollisionShape(shape);
  object->bt->setUserIndex(s.body);
  if (s.fixed) object->bt->setCollisionFlags(btCollisionObject::CF_STATIC_OBJECT);
  impl_->by_body[s.body] = impl_->objects.size();
  impl_->objects.push_back(std::move(object));
}

void CollisionWorld::exclude_pair(int body_a, int body_b) {
  impl_->excluded.insert({std::min(body_a, body_b), std::max(body_a, body_b)});
}

void CollisionWorld::set_pair_excluded(int body_a, int body_b, bool excluded) {
  if (excluded)
    exclude_pair(body_a, body_b);
  else
    impl_->excluded.erase({std::min(body_a, body_b), std::max(body_a, body_b)});
}

int CollisionWorld::object_count() const {
  return static_cast<int>(impl_->objects.size());
}

// the narrow phase goes to the threads (detect's `parallel`) from this many pairs on, in chunks of
// this many pairs: below it the hand-over costs more than the manifolds (a box pair's is about
// 2 µs)
constexpr std::size_t kParallelPairs = 32;

namespace {
// The contacts of one candidate pair, part against part, appended to `out` in the canonical
// order within the pair. The canonical order of all contacts: (body_a, body_b, point_a),
// point_a compared on a grid of 2⁻³⁰ m
// (about 1e-9 m; the product with 2³⁰ is exact): two corners of a box edge along y have the
// same x up to rounding, and comparing the exact x let that rounding order them, so a resting
// pyramid's contacts changed places from step to step and the previous step's active set no
// longer fitted (Lemke's warm start failed, 6000 pivots instead of 0 on 13 levels). On the
// grid they tie in x and y orders them. Two points fall into different cells for rounding
// only when a cell boundary lies within their 1e-17 m, about once in 10⁸.
// The pairs are in (body_a, body_b) order and each gives all its contacts at once, so sorting
// each pair's contacts by point_a (stably) is the same as sorting the whole list, and runs
// with the pair, on its thread (the sort of the whole list was 1.3 ms of the 6.9 ms narrow
// phase of a step of 8 pyramids, 3200 contacts, on one thread).
/// sorts `list` stably by `less`: by insertion for the few contacts of a pair (std::stable_sort
/// takes a temporary buffer from the heap at every call), std::stable_sort for long lists. Both
/// are stable sorts by one order: the same result.
template <class List, class Less>
void stable_sort_contacts(List begin, List end, const Less& less) {
  if (end - begin > 32) {
    std::stable_sort(begin, end, less);
    return;
  }
  for (List i = begin + (begin != end); i < end; ++i)
    for (List j = i; j != begin && less(*j, *(j - 1)); --j) std::iter_swap(j, j - 1);
}

template <class Narrow>
void pair_contacts(const Narrow& narrow, const collision_world_detail::Object& oa,
                   const collision_world_detail::Object& ob, double margin,
                   std::vector<Contact>& out) {
  const std::size_t first = out.size();
  for (const collision_world_detail::Part& pa : oa.parts)
    for (const collision_world_detail::Part& pb : ob.parts)
      for (const detail::ContactPoint& c : narrow(pa, oa.bt.get(), pb, ob.bt.get(), margin)) {
        Contact k;
        k.body_a = oa.settings.body;
        k.body_b = ob.settings.body;
        k.p_WCa = c.p_WCa;
        k.p_WCb = c.p_WCb;
        k.n_BA_W = c.n_BA_W.normalized();
        k.gap = k.n_BA_W.dot(k.p_WCa - k.p_WCb);
        out.push_back(k);
      }
  auto cell = [](double v) { return std::floor(v * 0x1p30); };
  stable_sort_contacts(
      out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
      [&](const Contact& x, const Contact& y) {
        return std::make_tuple(cell(x.p_WCa.x()), cell(x.p_WCa.y()), cell(x.p_WCa.z())) <
               std::make_tuple(cell(y.p_WCa.x()), cell(y.p_WCa.y()), cell(y.p_WCa.z()));
      });
}
}  // namespace

std::vector<Contact> CollisionWorld::skipped_contacts(int body_a, int body_b) {
  Impl& im = *impl_;
  std::vector<Contact> out;
  for (const auto& [oa, ob] : im.skipped) {
    const int a = oa->settings.body, b = ob->settings.body;
    if ((a == body_a && b == body_b) || (a == body_b && b == body_a)) {
      pair_contacts([&im](auto&&... args) { return im.narrow(args...); }, *oa, *ob,
                    im.skipped_margin, out);
      break;
    }
  }
  return out;
}

std::vector<Contact> CollisionWorld::detect(const std::function<Pose(int)>& pose, double margin,
                                            DetectTimes* times, const ParallelFor* parallel,
                                            const PairFilter* skip) {
  std::vector<Contact> contacts;
  detect_into(contacts, pose, margin, times, parallel, skip);
  return contacts;
}

void CollisionWorld::detect_into(std::vector<Contact>& contacts,
                                 const std::function<Pose(int)>& pose, double margin,
                                 DetectTimes* times, const ParallelFor* parallel,
                                 const PairFilter* skip) {
  contacts.clear();
  // the clock only when the caller takes the times (a read of it is a fair part of a small step)
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = times ? Clock::now() : Clock::time_point{};
  if (!(margin >= 0.0) || !std::isfinite(margin))
    throw Error(
        fmt::format("collision detection: margin must be finite and >= 0 (got {})", margin));
  Impl& im = *impl_;
  // 1. poses: the shape frame is the body pose composed with the shape offset
  std::vector<Aabb>& boxes = im.boxes;
  boxes.clear();
  for (auto& o : im.objects) {
    const Pose P = pose(o->settings.body);
    if (!P.all_finite())
      throw Error(
          fmt::format("collision detection: body {} has a non-finite pose", o->settings.body));
    const Mat3 R = P.q_WB.normalized().toRotationMatrix();
    const Vec3 p = P.p_WB + R * o->settings.shape_offset;
    const btTransform T = to_bt(R, p);
    o->bt->setWorldTransform(T);
    for (Part& part : o->parts) {
      part.R = R * part.R_SP;
      part.p = p + R * part.p_SP;
      part.T = to_bt(part.R, part.p);
    }
    o->bt->getCollisionShape()->getAabb(T, o->aabb_lo, o->aabb_hi);
    const btVector3 grow(margin, margin, margin);
    o->aabb_lo -= grow;
    o->aabb_hi += grow;
    boxes.push_back({to_eigen(o->aabb_lo), to_eigen(o->aabb_hi)});
  }
  // 2. candidate pairs: the boxes that overlap (broad_phase.hpp), filtered and put in body order
  auto& pairs = im.pairs;
  pairs.clear();
  overlapping_pairs(boxes, im.broad);
  for (const auto& [i, j] : im.broad.pairs) {
    const Object* o0 = im.objects[static_cast<std::size_t>(i)].get();
    const Object* o1 = im.objects[static_cast<std::size_t>(j)].get();
    const auto& s0 = o0->settings;
    const auto& s1 = o1->settings;
    if (s0.fixed && s1.fixed) continue;
    if (!(s0.group & s1.mask) || !(s1.group & s0.mask)) continue;
    if (im.excluded.count({std::min(s0.body, s1.body), std::max(s0.body, s1.body)})) continue;
    // A: the dynamic body when the other is fixed, else the lower index
    const bool swap = s0.fixed || (!s1.fixed && s1.body < s0.body);
    pairs.emplace_back(swap ? o1 : o0, swap ? o0 : o1);
  }
  std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
    return std::make_pair(x.first->settings.body, x.second->settings.body) <
           std::make_pair(y.first->settings.body, y.second->settings.body);
  });
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  // pairs the caller skips: kept for skipped_contacts()
  im.skipped.clear();
  im.skipped_margin = margin;
  if (skip && *skip)
    std::erase_if(pairs, [&](const auto& p) {
      if (!(*skip)(p.first->settings.body, p.second->settings.body)) return false;
      im.skipped.push_back(p);
      return true;
    });
  // 3. narrow phase, part against part, each pair into its own list (pair_contacts, above, with
  // the canonical order); with `parallel` and enough pairs, the pairs whose manifolds run in
  // parallel are spread over its threads in contiguous chunks, the others run here; the lists
  // are joined in pair order.
  const Clock::time_point narrow_start = times ? Clock::now() : Clock::time_point{};
  const auto narrow = [&im](auto&&... args) { return im.narrow(args...); };
  auto narrow_pair = [&](std::size_t index, std::vector<Contact>& out) {
    pair_contacts(narrow, *pairs[index].first, *pairs[index].second, margin, out);
  };
  if (parallel && *parallel && pairs.size() >= kParallelPairs) {
    std::vector<std::vector<Contact>>& lists = im.lists;  // never shrunk: each keeps its memory
    if (lists.size() < pairs.size()) lists.resize(pairs.size());
    for (std::size_t k = 0; k < pairs.size(); ++k) lists[k].clear();
    std::vector<std::size_t>& spread = im.spread;  // pairs for the threads
    spread.clear();
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      bool safe = true;
      for (const Part& pa : pairs[k].first->parts)
        for (const Part& pb : pairs[k].second->parts)
          safe = safe && runs_in_parallel(pair_rule(pa.shape->type, pb.shape->type).manifold);
      if (safe)
        spread.push_back(k);
      else
        narrow_pair(k, lists[k]);
    }
    const auto chunks = static_cast<int>((spread.size() + kParallelPairs - 1) / kParallelPairs);
    (*parallel)(chunks, [&](int chunk) {
      const std::size_t begin = static_cast<std::size_t>(chunk) * kParallelPairs;
      const std::size_t end = std::min(spread.size(), begin + kParallelPairs);
      for (std::size_t i = begin; i < end; ++i) narrow_pair(spread[i], lists[spread[i]]);
    });
    std::size_t total = 0;
    for (std::size_t k = 0; k < pairs.size(); ++k) total += lists[k].size();
    contacts.reserve(total);
    for (std::size_t k = 0; k < pairs.size(); ++k)
      contacts.insert(contacts.end(), lists[k].begin(), lists[k].end());
  } else {
    for (std::size_t k = 0; k < pairs.size(); ++k) narrow_pair(k, contacts);
  }
  if (times) times->add(start, narrow_start);
}

}  // namespace pivot

namespace pivot {

RayHit CollisionWorld::ray_cast(const std::function<Pose(int)>& pose, const Vec3& from_W,
                                const Vec3& direction_W, double max_range, int ignore_body) const {
  if (!from_W.allFinite() || !direction_W.allFinite() || !(direction_W.norm() > 0.0))
    throw Error("ray cast: the origin and direction must be finite and the direction non-zero");
  if (!(max_range > 0.0) || !std::isfinite(max_range))
    throw Error(fmt::format("ray cast: max_range must be finite and > 0 (got {})", max_range));
  const Vec3 d = direction_W.normalized();
  const btVector3 from = to_bt(from_W), to = to_bt(from_W + max_range * d);
  const btTransform T_from(btQuaternion::getIdentity(), from),
      T_to(btQuaternion::getIdentity(), to);
  RayHit best;
  best.distance = max_range;
  for (const auto& o : impl_->objects) {
    if (o->settings.body == ignore_body) continue;
    const Pose P = pose(o->settings.body);
    if (!P.all_finite())
      throw Error(fmt::format("ray cast: body {} has a non-finite pose", o->settings.body));
    const Mat3 R = P.q_WB.normalized().toRotationMatrix();
    // a local transform: the object's own (the last detect()'s) stays as it was
    const btTransform T = to_bt(R, P.p_WB + R * o->settings.shape_offset);
    btCollisionWorld::ClosestRayResultCallback result(from, to);
    btCollisionWorld::rayTestSingle(T_from, T_to, o->bt.get(), o->bt->getCollisionShape(), T,
                                    result);
    if (!result.hasHit()) continue;
    const double distance = result.m_closestHitFraction * max_range;
    if (best.hit && !(distance < best.distance)) continue;
    best.hit = true;
    best.distance = distance;
    best.body = o->settings.body;
    best.p_W = from_W + distance * d;
    best.n_W = to_eigen(result.m_hitNormalWorld).normalized();
  }
  return best;
}

}  // namespace pivot
