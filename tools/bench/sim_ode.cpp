// ODE (libode-dev, double precision) built from a SceneSpec and stepped with dWorldStep, ODE's
// "big matrix" step (one LCP per island, solved by Dantzig's algorithm). ODE's own collision
// detection (hash space; up to 8 points per pair), contacts with the friction pyramid
// (dContactApprox1: |f_i| ≤ μ f_n along two directions), and ODE's defaults otherwise:
// ERP 0.2, CFM 1e-10, no surface layer, no auto-disable.
#include <fmt/core.h>
#include <ode/ode.h>

#include <cstdarg>

#include <array>
#include <memory>

#include "scene_spec.hpp"

namespace pivot::bench {
namespace {

// ODE's messages ("LCP internal error, s <= 0", ...) are counted, not printed
int g_ode_messages = 0;
void count_message(int, const char*, va_list) {
  ++g_ode_messages;
}

// dInitODE2 once per process
void init_ode() {
  static const bool done = [] {
    dInitODE2(0);
    dSetMessageHandler(&count_message);
    return true;
  }();
  (void)done;
}

class OdeSimulation final : public Simulation {
 public:
  OdeSimulation(const SceneSpec& spec, bool quick_step)
      : h_(spec.time_step), mu_(spec.friction), quick_step_(quick_step) {
    init_ode();
    world_ = dWorldCreate();
    space_ = dHashSpaceCreate(nullptr);
    contact_group_ = dJointGroupCreate(0);
    dWorldSetGravity(world_, spec.gravity.x(), spec.gravity.y(), spec.gravity.z());
    if (spec.ground) dCreatePlane(space_, 0, 0, 1, 0);
    for (const BodySpec& b : spec.bodies) {
      dBodyID body = dBodyCreate(world_);
      dMass m;
      dMassSetZero(&m);
      dMassSetParameters(&m, b.mass, 0, 0, 0, b.inertia_diag.x(), b.inertia_diag.y(),
                         b.inertia_diag.z(), 0, 0, 0);
      dBodySetMass(body, &m);
      dBodySetPosition(body, b.position.x(), b.position.y(), b.position.z());
      dBodySetLinearVel(body, b.velocity.x(), b.velocity.y(), b.velocity.z());
      dGeomID geom = nullptr;
      if (b.shape == ShapeKind::box)
        geom = dCreateBox(space_, 2 * b.half_extents.x(), 2 * b.half_extents.y(),
                          2 * b.half_extents.z());
      if (b.shape == ShapeKind::sphere) geom = dCreateSphere(space_, b.radius);
      if (geom) dGeomSetBody(geom, body);
      bodies_.push_back(body);
    }
    for (const BallJointSpec& j : spec.joints) {
      dJointID joint = dJointCreateBall(world_, nullptr);
      dJointAttach(joint, bodies_[j.body_a], j.body_b < 0 ? nullptr : bodies_[j.body_b]);
      dJointSetBallAnchor(joint, j.anchor_W.x(), j.anchor_W.y(), j.anchor_W.z());
    }
  }
  ~OdeSimulation() override {
    dJointGroupDestroy(contact_group_);
    dSpaceDestroy(space_);
    dWorldDestroy(world_);
  }
  OdeSimulation(const OdeSimulation&) = delete;
  OdeSimulation& operator=(const OdeSimulation&) = delete;

  void step() override {
    contacts_ = 0;
    dSpaceCollide(space_, this, &OdeSimulation::near_callback);
    if (quick_step_)
      dWorldQuickStep(world_, h_);
    else
      dWorldStep(world_, h_);
    dJointGroupEmpty(contact_group_);
  }
  Vec3 position(int body) const override {
    const dReal* p = dBodyGetPosition(bodies_[body]);
    return {p[0], p[1], p[2]};
  }
  Quat orientation(int body) const override {
    const dReal* q = dBodyGetQuaternion(bodies_[body]);  // w, x, y, z
    return Quat(q[0], q[1], q[2], q[3]);
  }
  Vec3 velocity(int body) const override {
    const dReal* v = dBodyGetLinearVel(bodies_[body]);
    return {v[0], v[1], v[2]};
  }
  int contacts() const override { return contacts_; }
  std::string note() const override {
    if (g_ode_messages == 0) return {};
    return fmt::format("{} ODE messages (e.g. \"LCP internal error\")", g_ode_messages);
  }

 private:
  static void near_callback(void* data, dGeomID o1, dGeomID o2) {
    auto* self = static_cast<OdeSimulation*>(data);
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    std::array<dContact, 8> contact{};
    const int n =
        dCollide(o1, o2, static_cast<int>(contact.size()), &contact[0].geom, sizeof(dContact));
    for (int i = 0; i < n; ++i) {
      contact[i].surface.mode = dContactApprox1;
      contact[i].surface.mu = self->mu_;
      dJointID j = dJointCreateContact(self->world_, self->contact_group_, &contact[i]);
      dJointAttach(j, b1, b2);
    }
    self->contacts_ += n;
  }

  double h_, mu_;
  bool quick_step_;
  dWorldID world_ = nullptr;
  dSpaceID space_ = nullptr;
  dJointGroupID contact_group_ = nullptr;
  std::vector<dBodyID> bodies_;
  int contacts_ = 0;
};

}  // namespace

Engine ode_engine() {
  return {"ode", "ODE 0.16 dWorldStep (Dantzig LCP), friction pyramid, ERP 0.2, CFM 1e-10",
          [](const SceneSpec& spec) -> std::unique_ptr<Simulation> {
            return std::make_unique<OdeSimulation>(spec, false);
          }};
}

Engine ode_quickstep_engine() {
  return {"ode-quickstep",
          "ODE 0.16 dWorldQuickStep (projected Gauss–Seidel, its default 20 iterations), "
          "otherwise as `ode`",
          [](const SceneSpec& spec) -> std::unique_ptr<Simulation> {
            return std::make_unique<OdeSimulation>(spec, true);
          }};
}

}  // namespace pivot::bench
