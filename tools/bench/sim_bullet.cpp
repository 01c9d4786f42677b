// Bullet (libbullet-dev, double precision) built from a SceneSpec: btDiscreteDynamicsWorld with
// either btMLCPSolver + btLemkeSolver (the MLCP path) or the default
// btSequentialImpulseConstraintSolver (10 iterations). Bullet's defaults otherwise (collision
// margins, split impulse, ERP); deactivation (sleeping) is switched off so that every step does
// the same work in every engine. One fixed step of h per stepSimulation(h, 0) call.
// BulletDynamics is linked by this benchmark only, never by the Pivot library.
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletDynamics/ConstraintSolver/btPoint2PointConstraint.h>
#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <BulletDynamics/MLCPSolvers/btLemkeSolver.h>
#include <BulletDynamics/MLCPSolvers/btMLCPSolver.h>
#include <fmt/core.h>

#include <cmath>
#include <memory>

#include "scene_spec.hpp"

namespace pivot::bench {
namespace {

btVector3 bt(const Vec3& v) {
  return {v.x(), v.y(), v.z()};
}

class BulletSimulation final : public Simulation {
 public:
  BulletSimulation(const SceneSpec& spec, bool mlcp) : h_(spec.time_step) {
    config_ = std::make_unique<btDefaultCollisionConfiguration>();
    dispatcher_ = std::make_unique<btCollisionDispatcher>(config_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    if (mlcp) {
      lemke_ = std::make_unique<btLemkeSolver>();
      auto solver = std::make_unique<btMLCPSolver>(lemke_.get());
      mlcp_ = solver.get();
      solver_ = std::move(solver);
    } else {
      solver_ = std::make_unique<btSequentialImpulseConstraintSolver>();
    }
    world_ = std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(),
                                                       solver_.get(), config_.get());
    world_->setGravity(bt(spec.gravity));
    // as Bullet's MLCP demos do: the whole island in one matrix
    if (mlcp) world_->getSolverInfo().m_minimumSolverBatchSize = 1;

    // Bullet's pair friction is the product μ_A μ_B: √μ on every body gives μ
    const double mu = std::sqrt(spec.friction);
    if (spec.ground) {
      shapes_.push_back(std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), 0.0));
      add_body(0.0, btVector3(0, 0, 0), shapes_.back().get(), btVector3(0, 0, 0), mu, true);
    }
    for (const BodySpec& b : spec.bodies) {
      if (b.shape == ShapeKind::sphere)
        shapes_.push_back(std::make_unique<btSphereShape>(b.radius));
      else
        shapes_.push_back(std::make_unique<btBoxShape>(bt(b.half_extents)));
      btRigidBody* body = add_body(b.mass, bt(b.inertia_diag), shapes_.back().get(), bt(b.position),
                                   mu, b.shape != ShapeKind::none);
      body->setLinearVelocity(bt(b.velocity));
      bodies_.push_back(body);
    }
    for (const BallJointSpec& j : spec.joints) {
      btRigidBody* a = bodies_[j.body_a];
      const btVector3 in_a = bt(j.anchor_W) - a->getCenterOfMassPosition();
      std::unique_ptr<btTypedConstraint> c;
      if (j.body_b < 0) {
        c = std::make_unique<btPoint2PointConstraint>(*a, in_a);
      } else {
        btRigidBody* b = bodies_[j.body_b];
        c = std::make_unique<btPoint2PointConstraint>(
            *a, *b, in_a, bt(j.anchor_W) - b->getCenterOfMassPosition());
      }
      world_->addConstraint(c.get(), true);
      constraints_.push_back(std::move(c));
    }
  }
  ~BulletSimulation() override {
    for (auto& c : constraints_) world_->removeConstraint(c.get());
    for (auto& b : all_bodies_) world_->removeRigidBody(b.get());
  }
  BulletSimulation(const BulletSimulation&) = delete;
  BulletSimulation& operator=(const BulletSimulation&) = delete;

  void step() override { world_->stepSimulation(h_, 0); }
  Vec3 position(int body) const override {
    const btVector3 p = bodies_[body]->getCenterOfMassPosition();
    return {p.x(), p.y(), p.z()};
  }
  Quat orientation(int body) const override {
    const btQuaternion q = bodies_[body]->getOrientation();
    return Quat(q.w(), q.x(), q.y(), q.z());
  }
  Vec3 velocity(int body) const override {
    const btVector3 v = bodies_[body]->getLinearVelocity();
    return {v.x(), v.y(), v.z()};
  }
  int contacts() const override {
    int n = 0;
    for (int i = 0; i < dispatcher_->getNumManifolds(); ++i)
      n += dispatcher_->getManifoldByIndexInternal(i)->getNumContacts();
    return n;
  }
  std::string note() const override {
    if (!mlcp_ || mlcp_->getNumFallbacks() == 0) return {};
    return fmt::format("{} MLCP fallbacks to SI", mlcp_->getNumFallbacks());
  }

 private:
  btRigidBody* add_body(double mass, const btVector3& inertia, btCollisionShape* shape,
                        const btVector3& position, double friction, bool collides) {
    btTransform start;
    start.setIdentity();
    start.setOrigin(position);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform = start;
    info.m_friction = friction;
    info.m_restitution = 0.0;
    auto body = std::make_unique<btRigidBody>(info);
    body->setActivationState(DISABLE_DEACTIVATION);
    if (collides)
      world_->addRigidBody(body.get());
    else
      world_->addRigidBody(body.get(), 1, 0);  // collides with nothing
    all_bodies_.push_back(std::move(body));
    return all_bodies_.back().get();
  }

  double h_;
  std::unique_ptr<btDefaultCollisionConfiguration> config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btDbvtBroadphase> broadphase_;
  std::unique_ptr<btLemkeSolver> lemke_;
  std::unique_ptr<btConstraintSolver> solver_;
  btMLCPSolver* mlcp_ = nullptr;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> all_bodies_;
  std::vector<btRigidBody*> bodies_;
  std::vector<std::unique_ptr<btTypedConstraint>> constraints_;
};

}  // namespace

Engine bullet_mlcp_engine() {
  return {"bullet-mlcp", "Bullet 3.24 btDiscreteDynamicsWorld, btMLCPSolver + btLemkeSolver",
          [](const SceneSpec& spec) -> std::unique_ptr<Simulation> {
            return std::make_unique<BulletSimulation>(spec, true);
          }};
}

Engine bullet_si_engine() {
  return {
      "bullet-si",
      "Bullet 3.24 btDiscreteDynamicsWorld, btSequentialImpulseConstraintSolver (10 iterations)",
      [](const SceneSpec& spec) -> std::unique_ptr<Simulation> {
        return std::make_unique<BulletSimulation>(spec, false);
      }};
}

}  // namespace pivot::bench
