// Long file: to be split into one file per concept (issue #25, in progress).
// The Bullet bridge. This is the only file of Pivot that includes Bullet headers.
//
// What Bullet does here: it holds one btCollisionObject per body (shapes mapped one to one:
// btSphereShape, btBoxShape, btCapsuleShapeZ, btCylinderShapeZ, an exact ellipsoid,
// btConvexHullShape, btStaticPlaneShape, btBvhTriangleMeshShape, btCompoundShape), finds the
// candidate pairs with btDbvtBroadphase (AABBs grown by the margin), computes closest points
// with GJK/EPA (btGjkPairDetector), and finds the triangles of a mesh near a convex shape
// (its convex–concave algorithm).
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
//    corners at once, so:
//      · any shape against a plane is analytic and exact (box and hull: every vertex within
//        the margin; capsule: both end spheres; cylinder: 4 fixed rim points per cap and the
//        deepest rim point; sphere, ellipsoid: the support point);
//      · box/hull against box/hull: separating axes + face clipping (polytope.cpp), exact;
//        a separated pair whose SAT value is only a lower bound is refereed by GJK, and a
//        penetrating pair whose deepest vertex was clipped away gets EPA's point added;
//      · sphere–sphere, sphere–capsule, capsule–capsule: analytic (segment closest points;
//        parallel capsules get both ends of their overlap);
//      · a capsule against a box/hull/ellipsoid/cylinder/mesh: GJK's point plus its end
//        spheres, so a lying capsule rests on two points;
//      · against a mesh, a box/hull face contact becomes the clipped face (as on a plane),
//        and contacts on edges between coplanar triangles are dropped;
//      · the rest (cylinder, ellipsoid against curved or polyhedral shapes): one GJK/EPA pair.
//    Manifolds of more than 4 points are reduced to 4 (reduce_manifold).
//  - Determinism. No manifold, GJK or contact-cache state lives across calls (everything is
//    made per pair per call), the broadphase pair list is purged of stale pairs every call,
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

#include "pivot/collision/convex_hull.hpp"
#include "pivot/collision/polytope.hpp"
#include "pivot/core/error.hpp"

namespace pivot {

namespace {

btVector3 to_bt(const Vec3& v) {
  return {v.x(), v.y(), v.z()};
}
Vec3 to_eigen(const btVector3& v) {
  return {v.x(), v.y(), v.z()};
}

btTransform to_bt(const Mat3& R, const Vec3& p) {
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

/// a triangle mesh's neighbourhood, to drop Bullet's contacts on internal edges (a contact
/// normal tilted at an edge between coplanar triangles is an artefact of the triangulation)
struct MeshInfo {
  std::vector<Vec3> v;  // mesh frame
  std::vector<std::array<int, 3>> t;
  std::vector<Vec3> n;                           // unit normals, mesh frame (zero if degenerate)
  std::vector<std::array<bool, 3>> smooth_edge;  // edge k = t[k]→t[k+1]: flat or concave
  std::vector<bool> flat_vertex;                 // all triangles around it coplanar

  explicit MeshInfo(const Shape& mesh) : v(mesh.points), t(mesh.triangles) {
    for (const auto& tri : t) {
      const Vec3 c = (v[tri[1]] - v[tri[0]]).cross(v[tri[2]] - v[tri[0]]);
      n.push_back(c.norm() > 0.0 ? Vec3(c.normalized()) : Vec3::Zero());
    }
    std::map<std::pair<int, int>, std::vector<std::pair<std::size_t, int>>> edges;
    for (std::size_t i = 0; i < t.size(); ++i)
      for (int k = 0; k < 3; ++k) {
        const int a = t[i][k], b = t[i][(k + 1) % 3];
        edges[{std::min(a, b), std::max(a, b)}].emplace_back(i, k);
      }
    smooth_edge.assign(t.size(), {false, false, false});
    for (const auto& [e, users] : edges) {
      if (users.size() != 2) continue;  // boundary or non-manifold: a real edge
      for (int side = 0; side < 2; ++side) {
        const auto [i, k] = users[static_cast<std::size_t>(side)];
        const auto [j, kj] = users[static_cast<std::size_t>(1 - side)];
        const int opposite = t[j][(kj + 2) % 3];
        const Vec3& a = v[static_cast<std::size_t>(e.first)];
        const double length = (v[static_cast<std::size_t>(e.second)] - a).norm();
        // the neighbour's far vertex not below this triangle's plane: flat or concave edge
        smooth_edge[i][static_cast<std::size_t>(k)] =
            n[i].dot(v[static_cast<std::size_t>(opposite)] - a) >= -1e-9 * length;
      }
    }
    flat_vertex.assign(v.size(), true);
    std::vector<Vec3> first(v.size(), Vec3::Zero());
    for (std::size_t i = 0; i < t.size(); ++i)
      for (const int k : t[i]) {
        auto& f = first[static_cast<std::size_t>(k)];
        if (f.isZero())
          f = n[i];
        else if (f.dot(n[i]) < 1.0 - 1e-9)
          flat_vertex[static_cast<std::size_t>(k)] = false;
      }
  }
};

/// a leaf shape of an object (a compound is flattened into its leaves)
struct Part {
  const Shape* shape = nullptr;
  btCollisionShape* bt = nullptr;
  Mat3 R_SP = Mat3::Identity();  // part frame in the object's shape frame
  Vec3 p_SP = Vec3::Zero();
  std::shared_ptr<const Polytope> polytope;  // box and convex
  std::shared_ptr<const MeshInfo> mesh;      // mesh
  double scale = 1.0;                        // a length (bounding radius) for tolerances
  // set per detect() call
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  btTransform T = btTransform::getIdentity();
};

struct Object {
  CollisionObjectSettings settings;
  std::unique_ptr<btCollisionObject> bt;
  std::vector<Part> parts;
  btVector3 aabb_lo, aabb_hi;
  bool in_world = false;  // enters the broadphase at its first detect(), at its real pose
};

ContactPoint sphere_sphere(const Vec3& ca, double ra, const Vec3& cb, double rb) {
  const Vec3 d = ca - cb;
  const double length = d.norm();
  ContactPoint c;
  c.normal = length > 1e-300 ? Vec3(d / length) : Vec3::UnitZ();
  c.point_a = ca - ra * c.normal;
  c.point_b = cb + rb * c.normal;
  c.gap = length - ra - rb;
  return c;
}

bool is_polytope(ShapeType t) {
  return t == ShapeType::box || t == ShapeType::convex;
}

}  // namespace

struct CollisionWorld::Impl {
  btDefaultCollisionConfiguration config;
  MarginDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &config};
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver epa;

  // the mesh arrays are declared first so that they outlive the shapes that point to them
  std::vector<std::unique_ptr<std::vector<btScalar>>> mesh_vertices;
  std::vector<std::unique_ptr<std::vector<int>>> mesh_indices;
  std::vector<std::unique_ptr<btTriangleIndexVertexArray>> meshes;  // kept alive for the BVHs
  std::vector<std::unique_ptr<btCollisionShape>> shapes;            // owned Bullet shapes
  std::map<const Shape*, Part> leaves;                              // built leaf shapes, by Shape
  std::vector<std::unique_ptr<Object>> objects;                     // in order of addition
  std::map<int, std::size_t> by_body;
  std::set<std::pair<int, int>> excluded;

  Impl() {
    // check every cached pair for overlap each call (default: 10% per call), so the pair
    // list holds exactly the overlapping pairs
    broadphase.m_cupdates = 100;
  }
  ~Impl() {
    for (auto& o : objects)
      if (o->in_world) world.removeCollisionObject(o->bt.get());
  }

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
        part.polytope = std::make_shared<Polytope>(make_box_polytope(shape.half_extents));
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
        const ConvexHull hull = convex_hull(shape.points);
        auto h = std::make_unique<btConvexHullShape>();
        for (const Vec3& v : hull.vertices) h->addPoint(to_bt(v), false);
        h->recalcLocalAabb();
        h->setMargin(0.0);
        h->initializePolyhedralFeatures();
        part.polytope = std::make_shared<Polytope>(make_polytope(hull));
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
    parts.push_back(std::move(part));
    return bt;
  }

  // ---- narrow phase between two parts; normals from B to A ----

  std::optional<ContactPoint> gjk(const btCollisionShape* a, const btTransform& ta,
                                  const btCollisionShape* b, const btTransform& tb) {
    simplex.reset();
    btGjkPairDetector detector(static_cast<const btConvexShape*>(a),
                               static_cast<const btConvexShape*>(b), &simplex, &epa);
    btGjkPairDetector::ClosestPointInput input;
    input.m_transformA = ta;
    input.m_transformB = tb;
    input.m_maximumDistanceSquared = BT_LARGE_FLOAT;
    btPointCollector out;
    detector.getClosestPoints(input, out, nullptr);
    if (!out.m_hasResult) return std::nullopt;
    ContactPoint c;
    c.normal = to_eigen(out.m_normalOnBInWorld).normalized();  // Bullet: from B to A
    c.point_b = to_eigen(out.m_pointInWorld);
    c.gap = out.m_distance;
    c.point_a = c.point_b + c.gap * c.normal;
    return c;
  }

  /// part A (not a plane) against plane part B
  static std::vector<ContactPoint> against_plane(const Part& A, const Part& B, double margin) {
    const Vec3 n = B.R * B.shape->normal;
    const double d = B.shape->offset + n.dot(B.p);  // n·x = d in world
    std::vector<Vec3> candidates;
    const Shape& s = *A.shape;
    switch (s.type) {
      case ShapeType::sphere:
        candidates.push_back(A.p - s.radius * n);
        break;
      case ShapeType::capsule: {
        const Vec3 axis = A.R.col(2);
        candidates.push_back(A.p + s.half_length * axis - s.radius * n);
        candidates.push_back(A.p - s.half_length * axis - s.radius * n);
        break;
      }
      case ShapeType::cylinder: {
        // four fixed rim points per cap (so a cylinder standing on its cap rests on a
        // polygon) and the deepest rim point (the exact closest point when tilted)
        const Vec3 axis = A.R.col(2), u = A.R.col(0), v = A.R.col(1);
        Vec3 w = -n + n.dot(axis) * axis;
        const double wl = w.norm();
        for (const double sign : {1.0, -1.0}) {
          const Vec3 cap = A.p + sign * s.half_length * axis;
          candidates.push_back(cap + s.radius * u);
          candidates.push_back(cap + s.radius * v);
          candidates.push_back(cap - s.radius * u);
          candidates.push_back(cap - s.radius * v);
          if (wl > 1e-9) {
            const Vec3 deepest = cap + s.radius * w / wl;
            bool duplicate = false;
            for (std::size_t k = candidates.size() - 4; k < candidates.size(); ++k)
              if ((candidates[k] - deepest).norm() < 1e-9 * A.scale) duplicate = true;
            if (!duplicate) candidates.push_back(deepest);
          }
        }
        break;
      }
      case ShapeType::ellipsoid: {
        const Vec3 n_S = A.R.transpose() * n;
        const Vec3 an = s.radii.cwiseProduct(n_S);
        candidates.push_back(A.p - A.R * (s.radii.cwiseProduct(an) / an.norm()));
        break;
      }
      case ShapeType::box:
      case ShapeType::convex:
        for (const Vec3& x : A.polytope->vertices) candidates.push_back(A.R * x + A.p);
        break;
      default:
        break;
    }
    std::vector<ContactPoint> out;
    for (const Vec3& x : candidates) {
      ContactPoint c;
      c.normal = n;
      c.gap = n.dot(x) - d;
      if (c.gap > margin) continue;
      c.point_a = x;
      c.point_b = x - c.gap * n;
      out.push_back(c);
    }
    return reduce_manifold(std::move(out));
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
  std::vector<ContactPoint> against_mesh(const Part& A, const btCollisionObject* objA,
                                         const Part& B, const btCollisionObject* objB,
                                         double margin) {
    struct Collector final : btManifoldResult {
      using btManifoldResult::btManifoldResult;
      std::vector<std::pair<int, ContactPoint>> points;  // (triangle, contact)
      int triangle = -1;
      double limit = 0.0;
      void setShapeIdentifiersA(int, int) override {}
      void setShapeIdentifiersB(int, int index) override { triangle = index; }
      // the algorithm is called as (convex A, triangle of B): the normal points from B to A
      void addContactPoint(const btVector3& normal_on_b, const btVector3& point_on_b,
                           btScalar depth) override {
        if (depth > limit) return;
        ContactPoint c;
        c.normal = to_eigen(normal_on_b).normalized();
        c.point_b = to_eigen(point_on_b);
        c.point_a = c.point_b + depth * to_eigen(normal_on_b);
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
    algorithm->processCollision(&wa, &wb, world.getDispatchInfo(), &result);
    algorithm->~btCollisionAlgorithm();
    dispatcher.freeCollisionAlgorithm(algorithm);

    const MeshInfo& mesh = *B.mesh;
    const double tol = 1e-9 * std::max(A.scale, 1e-3);
    std::set<int> clipped;  // triangles whose face contact becomes the clipped incident face
    std::vector<ContactPoint> out;
    auto add = [&](const ContactPoint& c) {
      for (const ContactPoint& o : out)
        if ((o.point_a - c.point_a).norm() <= tol && (o.normal - c.normal).norm() < 1e-9) return;
      out.push_back(c);
    };
    for (const auto& [tri, c] : result.points) {
      if (tri < 0 || tri >= static_cast<int>(mesh.t.size())) {
        add(c);
        continue;
      }
      const std::size_t ti = static_cast<std::size_t>(tri);
      const Vec3 n_T = B.R * mesh.n[ti];
      if (c.normal.dot(n_T) >= 1.0 - 1e-9) {
        if (A.polytope)
          clipped.insert(tri);
        else
          add(c);
        continue;
      }
      // the feature of the triangle that holds point_b, by barycentric coordinates
      const Vec3 x = B.R.transpose() * (c.point_b - B.p);
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
      for (const Vec3& p :
           clip_to_face(incident_face(*A.polytope, A.R, A.p, n_T), loop, n_T, tol)) {
        ContactPoint c;
        c.normal = n_T;
        c.gap = n_T.dot(p) - d;
        if (c.gap > margin) continue;
        c.point_a = p;
        c.point_b = p - c.gap * n_T;
        add(c);
      }
    }
    return reduce_manifold(std::move(out));
  }

  /// capsule part A against a convex part B: GJK's closest point plus the two end spheres
  std::vector<ContactPoint> capsule_convex(const Part& A, const Part& B, double margin) {
    std::vector<ContactPoint> out;
    if (auto c = gjk(A.bt, A.T, B.bt, B.T); c && c->gap <= margin) out.push_back(*c);
    const Vec3 axis = A.R.col(2);
    btSphereShape ball(A.shape->radius);
    for (const double sign : {1.0, -1.0}) {
      const Vec3 end = A.p + sign * A.shape->half_length * axis;
      auto c = gjk(&ball, to_bt(Mat3::Identity(), end), B.bt, B.T);
      if (!c || c->gap > margin) continue;
      // the end sphere's point must be on the capsule (its outer half), not deep inside it
      if ((-c->normal).dot(sign * axis) < -0.25) continue;
      bool duplicate = false;
      for (const ContactPoint& o : out)
        if ((o.point_a - c->point_a).norm() < 1e-6 * A.scale) duplicate = true;
      if (!duplicate) out.push_back(*c);
    }
    return out;
  }

  std::vector<ContactPoint> narrow(const Part& A, const btCollisionObject* objA, const Part& B,
                                   const btCollisionObject* objB, double margin) {
    const ShapeType ta = A.shape->type, tb = B.shape->type;
    auto swapped = [&]() {
      std::vector<ContactPoint> r = narrow(B, objB, A, objA, margin);
      for (ContactPoint& c : r) c = flipped(c);
      return r;
    };
    if (ta == ShapeType::plane || ta == ShapeType::mesh) return swapped();
    if (tb == ShapeType::plane) return against_plane(A, B, margin);
    if (tb == ShapeType::mesh) {
      std::vector<ContactPoint> out = against_mesh(A, objA, B, objB, margin);
      if (ta != ShapeType::capsule) return out;
      // a capsule also tests its end spheres, so that lying on a mesh it rests on both ends
      btSphereShape ball(A.shape->radius);
      for (const double sign : {1.0, -1.0}) {
        Part end = A;
        end.bt = &ball;
        end.p = A.p + sign * A.shape->half_length * A.R.col(2);
        end.T = to_bt(A.R, end.p);
        for (const ContactPoint& c : against_mesh(end, objA, B, objB, margin)) {
          if ((-c.normal).dot(sign * A.R.col(2)) < -0.25) continue;  // deep inside the capsule
          bool duplicate = false;
          for (const ContactPoint& o : out)
            if ((o.point_a - c.point_a).norm() < 1e-6 * A.scale) duplicate = true;
          if (!duplicate) out.push_back(c);
        }
      }
      return reduce_manifold(std::move(out));
    }
    if (is_polytope(ta) && is_polytope(tb)) {
      PolytopeQuery q = polytope_contacts(*A.polytope, A.R, A.p, *B.polytope, B.R, B.p, margin);
      if (q.separated) return {};
      const double tol = 1e-9 * std::max(A.scale, B.scale);
      if (q.separation <= 0.0) {
        // touching or penetrating: the SAT depth is exact; when clipping lost the deepest
        // vertex (it lies beside the reference face) EPA's deepest pair is added
        double least = std::numeric_limits<double>::infinity();
        for (const ContactPoint& c : q.points) least = std::min(least, c.gap);
        if (least <= q.axis_separation + tol) return q.points;
        if (auto c = gjk(A.bt, A.T, B.bt, B.T); c && c->gap <= margin) q.points.push_back(*c);
        return q.points;
      }
      // Separated, the SAT value s is only a lower bound of the distance d: a corner may face
      // a corner, an edge pair's closest points may lie beyond the edges' ends. If a reported
      // pair is as close as s, then s ≤ d ≤ |pa − pb| ≈ s and the manifold is exact.
      double closest_pair = std::numeric_limits<double>::infinity();
      for (const ContactPoint& c : q.points)
        closest_pair = std::min(closest_pair, (c.point_a - c.point_b).norm());
      if (closest_pair <= q.separation + tol) return q.points;
      // Otherwise GJK's distance
      // (relative error ~1e-12 in double precision) is the referee: feature points closer than
      // it are dropped (clamped edge pairs underestimate), and when no feature point reaches
      // it, GJK's closest pair is added.
      const auto closest = gjk(A.bt, A.T, B.bt, B.T);
      if (!closest || closest->gap > margin) return {};
      std::vector<ContactPoint> kept;
      double nearest = std::numeric_limits<double>::infinity();
      for (const ContactPoint& c : q.points)
        if (c.gap >= closest->gap - tol) {
          kept.push_back(c);
          nearest = std::min(nearest, c.gap);
        }
      if (nearest > closest->gap + tol) kept.push_back(*closest);
      return kept;
    }
    if (ta == ShapeType::sphere && tb == ShapeType::sphere) {
      const ContactPoint c = sphere_sphere(A.p, A.shape->radius, B.p, B.shape->radius);
      if (c.gap <= margin) return {c};
      return {};
    }
    if (ta == ShapeType::sphere && tb == ShapeType::capsule) return swapped();
    if (ta == ShapeType::capsule && (tb == ShapeType::sphere || tb == ShapeType::capsule)) {
      // segment(s) with radii: sphere–sphere contacts between closest segment points; two
      // (nearly) parallel capsules also get the contacts at the ends of their overlap
      const Vec3 a0 = A.p - A.shape->half_length * A.R.col(2),
                 a1 = A.p + A.shape->half_length * A.R.col(2);
      const double hb = tb == ShapeType::capsule ? B.shape->half_length : 0.0;
      const Vec3 b0 = B.p - hb * B.R.col(2), b1 = B.p + hb * B.R.col(2);
      std::vector<std::pair<Vec3, Vec3>> centres;
      Vec3 ca, cb;
      closest_points_segments(a0, a1, b0, b1, ca, cb);
      centres.emplace_back(ca, cb);
      if (tb == ShapeType::capsule && A.R.col(2).cross(B.R.col(2)).norm() < 1e-3) {
        for (const Vec3& e : {a0, a1}) {
          closest_points_segments(e, e, b0, b1, ca, cb);
          centres.emplace_back(ca, cb);
        }
        for (const Vec3& e : {b0, b1}) {
          closest_points_segments(a0, a1, e, e, ca, cb);
          centres.emplace_back(ca, cb);
        }
      }
      std::vector<ContactPoint> out;
      for (const auto& [xa, xb] : centres) {
        const ContactPoint c = sphere_sphere(xa, A.shape->radius, xb, B.shape->radius);
        if (c.gap > margin) continue;
        bool duplicate = false;
        for (const ContactPoint& o : out)
          if ((o.point_a - c.point_a).norm() < 1e-9 * A.scale &&
              (o.point_b - c.point_b).norm() < 1e-9 * A.scale)
            duplicate = true;
        if (!duplicate) out.push_back(c);
      }
      return reduce_manifold(std::move(out));
    }
    if (tb == ShapeType::capsule && ta != ShapeType::capsule) return swapped();
    if (ta == ShapeType::capsule) return capsule_convex(A, B, margin);
    if (auto c = gjk(A.bt, A.T, B.bt, B.T); c && c->gap <= margin) return {*c};
    return {};
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

std::vector<Contact> CollisionWorld::detect(const std::function<Pose(int)>& pose, double margin) {
  if (!(margin >= 0.0) || !std::isfinite(margin))
    throw Error(
        fmt::format("collision detection: margin must be finite and >= 0 (got {})", margin));
  Impl& im = *impl_;
  // 1. poses: the shape frame is the body pose composed with the shape offset
  for (auto& o : im.objects) {
    const Pose P = pose(o->settings.body);
    if (!P.x_WB.allFinite() || !P.q_WB.coeffs().allFinite())
      throw Error(
          fmt::format("collision detection: body {} has a non-finite pose", o->settings.body));
    const Mat3 R = P.q_WB.normalized().toRotationMatrix();
    const Vec3 p = P.x_WB + R * o->settings.shape_offset;
    const btTransform T = to_bt(R, p);
    o->bt->setWorldTransform(T);
    for (Part& part : o->parts) {
      part.R = R * part.R_SP;
      part.p = p + R * part.p_SP;
      part.T = to_bt(part.R, part.p);
    }
    if (!o->in_world) {  // not at add(): all objects at the origin would all overlap
      im.world.addCollisionObject(o->bt.get(), static_cast<int>(o->settings.group),
                                  static_cast<int>(o->settings.mask));
      o->in_world = true;
    }
    o->bt->getCollisionShape()->getAabb(T, o->aabb_lo, o->aabb_hi);
    const btVector3 grow(margin, margin, margin);
    o->aabb_lo -= grow;
    o->aabb_hi += grow;
    im.broadphase.setAabb(o->bt->getBroadphaseHandle(), o->aabb_lo, o->aabb_hi, &im.dispatcher);
  }
  // 2. candidate pairs from the broadphase, filtered and put in body order
  im.broadphase.calculateOverlappingPairs(&im.dispatcher);
  std::vector<std::pair<const Object*, const Object*>> pairs;
  btBroadphasePairArray& array = im.broadphase.getOverlappingPairCache()->getOverlappingPairArray();
  for (int i = 0; i < array.size(); ++i) {
    const auto* c0 = static_cast<const btCollisionObject*>(array[i].m_pProxy0->m_clientObject);
    const auto* c1 = static_cast<const btCollisionObject*>(array[i].m_pProxy1->m_clientObject);
    const Object* o0 = im.objects[im.by_body.at(c0->getUserIndex())].get();
    const Object* o1 = im.objects[im.by_body.at(c1->getUserIndex())].get();
    const auto& s0 = o0->settings;
    const auto& s1 = o1->settings;
    if (s0.fixed && s1.fixed) continue;
    if (!(s0.group & s1.mask) || !(s1.group & s0.mask)) continue;
    if (im.excluded.count({std::min(s0.body, s1.body), std::max(s0.body, s1.body)})) continue;
    if (!TestAabbAgainstAabb2(o0->aabb_lo, o0->aabb_hi, o1->aabb_lo, o1->aabb_hi))
      continue;  // stale pair
    // A: the dynamic body when the other is fixed, else the lower index
    const bool swap = s0.fixed || (!s1.fixed && s1.body < s0.body);
    pairs.emplace_back(swap ? o1 : o0, swap ? o0 : o1);
  }
  std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
    return std::make_pair(x.first->settings.body, x.second->settings.body) <
           std::make_pair(y.first->settings.body, y.second->settings.body);
  });
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  // 3. narrow phase, part against part
  std::vector<Contact> contacts;
  for (const auto& [oa, ob] : pairs) {
    for (const Part& pa : oa->parts)
      for (const Part& pb : ob->parts)
        for (const ContactPoint& c : im.narrow(pa, oa->bt.get(), pb, ob->bt.get(), margin)) {
          Contact k;
          k.body_a = oa->settings.body;
          k.body_b = ob->settings.body;
          k.point_a = c.point_a;
          k.point_b = c.point_b;
          k.normal = c.normal.normalized();
          k.gap = k.normal.dot(k.point_a - k.point_b);
          contacts.push_back(k);
        }
  }
  // 4. a canonical order: (body_a, body_b, point_a)
  std::stable_sort(contacts.begin(), contacts.end(), [](const Contact& x, const Contact& y) {
    return std::make_tuple(x.body_a, x.body_b, x.point_a.x(), x.point_a.y(), x.point_a.z()) <
           std::make_tuple(y.body_a, y.body_b, y.point_a.x(), y.point_a.y(), y.point_a.z());
  });
  return contacts;
}

}  // namespace pivot
