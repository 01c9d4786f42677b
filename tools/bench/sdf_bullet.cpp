// Bullet's GImpact on the meshes of an sdf pair (sdf_bullet.hpp). Only BulletCollision is used:
// a btCollisionDispatcher with btGImpactCollisionAlgorithm registered finds the algorithm for
// the two btGImpactMeshShapes once, and each query calls its processCollision with the shapes'
// collision objects at the query's poses, as the dispatcher's near callback does in a world
// (no broadphase, no world: the pair is known).
#include "sdf_bullet.hpp"

#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>

#include <stdexcept>
#include <vector>

namespace pivot::bench {
namespace {

btTransform bt(const Pose& pose) {
  const Quat& q = pose.q_WB;
  return btTransform(btQuaternion(q.x(), q.y(), q.z(), q.w()),
                     btVector3(pose.p_WB.x(), pose.p_WB.y(), pose.p_WB.z()));
}

/// a shape's triangles as Bullet's indexed mesh (which points into these arrays) and its GImpact
/// shape, on a collision object
struct GImpactMesh {
  GImpactMesh(const Shape& shape, double margin) {
    if (shape.points.empty() || shape.triangles.empty())
      throw std::invalid_argument("GImpactPair: the shape has no triangle mesh");
    for (const Vec3& v : shape.points) vertices.insert(vertices.end(), {v.x(), v.y(), v.z()});
    for (const auto& t : shape.triangles) indices.insert(indices.end(), {t[0], t[1], t[2]});
    array = std::make_unique<btTriangleIndexVertexArray>(
        static_cast<int>(shape.triangles.size()), indices.data(), 3 * static_cast<int>(sizeof(int)),
        static_cast<int>(shape.points.size()), vertices.data(),
        3 * static_cast<int>(sizeof(btScalar)));
    gimpact = std::make_unique<btGImpactMeshShape>(array.get());
    gimpact->setMargin(margin);
    gimpact->updateBound();  // builds the box tree of each part, with the margin
    object.setCollisionShape(gimpact.get());
  }
  std::vector<btScalar> vertices;
  std::vector<int> indices;
  std::unique_ptr<btTriangleIndexVertexArray> array;
  std::unique_ptr<btGImpactMeshShape> gimpact;
  btCollisionObject object;
};

/// the manifold result, also counting the points offered to the manifold
class CountingResult final : public btManifoldResult {
 public:
  using btManifoldResult::btManifoldResult;
  void addContactPoint(const btVector3& normal, const btVector3& point, btScalar depth) override {
    ++found;
    btManifoldResult::addContactPoint(normal, point, depth);
  }
  int found = 0;
};

}  // namespace

struct GImpactPair::Impl {
  Impl(const Shape& a, const Shape& b, double margin)
      : dispatcher(&config), mesh_a(a, 0.5 * margin), mesh_b(b, 0.5 * margin) {
    btGImpactCollisionAlgorithm::registerAlgorithm(&dispatcher);
    btCollisionObjectWrapper wa(nullptr, mesh_a.gimpact.get(), &mesh_a.object,
                                mesh_a.object.getWorldTransform(), -1, -1);
    btCollisionObjectWrapper wb(nullptr, mesh_b.gimpact.get(), &mesh_b.object,
                                mesh_b.object.getWorldTransform(), -1, -1);
    algorithm = dispatcher.findAlgorithm(&wa, &wb, nullptr, BT_CONTACT_POINT_ALGORITHMS);
    if (algorithm == nullptr) throw std::runtime_error("GImpactPair: no GImpact algorithm");
  }
  ~Impl() {
    algorithm->~btCollisionAlgorithm();
    dispatcher.freeCollisionAlgorithm(algorithm);
  }
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher;
  GImpactMesh mesh_a, mesh_b;
  btCollisionAlgorithm* algorithm = nullptr;
  btDispatcherInfo info;
};

GImpactPair::GImpactPair(const Shape& a, const Shape& b, double margin)
    : impl_(std::make_unique<Impl>(a, b, margin)) {}

GImpactPair::~GImpactPair() = default;

GImpactQueryStats GImpactPair::collide(const Pose& pose_a, const Pose& pose_b) {
  Impl& m = *impl_;
  m.mesh_a.object.setWorldTransform(bt(pose_a));
  m.mesh_b.object.setWorldTransform(bt(pose_b));
  btCollisionObjectWrapper wa(nullptr, m.mesh_a.gimpact.get(), &m.mesh_a.object,
                              m.mesh_a.object.getWorldTransform(), -1, -1);
  btCollisionObjectWrapper wb(nullptr, m.mesh_b.gimpact.get(), &m.mesh_b.object,
                              m.mesh_b.object.getWorldTransform(), -1, -1);
  CountingResult result(&wa, &wb);
  // GImpact releases the previous call's manifold and fills a new one
  m.algorithm->processCollision(&wa, &wb, m.info, &result);
  GImpactQueryStats s;
  s.found = result.found;
  if (const btPersistentManifold* manifold = result.getPersistentManifold())
    s.manifold = manifold->getNumContacts();
  return s;
}

}  // namespace pivot::bench
