// World: bodies, joints, forces, and state access. The step itself is in world_step.cpp.
#include "pivot/engine/world.hpp"

#include "pivot/collision/collision_world.hpp"
#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/hybrid/hybrid_switch.hpp"
#include "pivot/engine/step_workspace.hpp"
#include "pivot/engine/thread_pool.hpp"
#include "pivot/engine/world_hybrid_access.hpp"
#include "pivot/engine/world_settings_table.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "pivot/collision/plane_surface.hpp"

namespace pivot {

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

double baumgarte_rate(const WorldSettings& s) {
  return std::min(s.baumgarte_alpha, 1.0 / s.time_step);
}

bool World::is_reduced(int body) const {
  return hybrid_->is_reduced(body);
}

const char* to_string(Stabilization s) {
  switch (s) {
    case Stabilization::post:
      return "post";
    case Stabilization::baumgarte:
      return "baumgarte";
    case Stabilization::none:
      return "none";
  }
  return "unknown";
}

World::World(WorldSettings settings)
    : settings_(std::move(settings)),
      collision_(std::make_unique<CollisionWorld>()),
      hybrid_(std::make_unique<detail::HybridSwitch>()),
      rows_(std::make_unique<detail::ConstraintSet>()) {
  // Lemke's paths poll the same check (a long cold solve ends within 64 pivots of a signal)
  if (settings_.interrupted && !settings_.lemke.interrupted)
    settings_.lemke.interrupted = settings_.interrupted;
  // each setting's range (the settings table), then what a planar world needs
  validate(settings_);
  check_planar_settings(settings_);
}

int World::add_body(const BodySettings& settings) {
  if (!settings.name.empty() && set_.find(settings.name) >= 0)
    throw Error(fmt::format("body {}: the name is already taken", pivot::quoted(settings.name)));
  RigidBody model = make_rigid_body(settings);
  Vec6 twist;
  twist << settings.w_WB, settings.v_WB;
  // the state holds the centre of mass: the shape frame's origin minus the shape offset
  Quat q = settings.q_WB.normalized();
  Vec3 com = settings.p_WS - q * model.shape_offset;
  if (model.kinematic) {
    // a kinematic body starts where its track is at the world's time (docs/step.md)
    const Pose pose = kinematic_pose(model, time_);
    q = pose.q_WB;
    com = pose.p_WB;
    twist.setZero();
  }
  check_planar_body(model, Pose{com, q}, twist);
  CollisionObjectSettings object;
  if (model.shape) {
    object.shape = model.shape;
    object.shape_offset = model.shape_offset;
    object.fixed = model.fixed;
    object.group = model.collision_group;
    object.mask = model.collision_mask;
  }
  const int index = set_.add(std::move(model), Pose{com, q}, twist);
  if (object.shape) {
    object.body = index;
    collision_->add(object);
  }
  return index;
}

void World::check_body(int body, const char* what) const {
  if (body == kWorldBody) return;
  if (body < 0 || body >= set_.size())
    throw Error(
        fmt::format("{}: body index {} does not exist ({} bodies)", what, body, set_.size()));
}

int World::add_joint_impl(std::unique_ptr<Joint> joint) {
  for (const auto& j : joints_)
    if (!joint->name().empty() && j->name() == joint->name())
      throw Error(fmt::format("joint {}: the name is already taken", pivot::quoted(joint->name())));
  const int a = joint->body_a(), b = joint->body_b();
  const bool a_fixed = a < 0 || set_.body(a).fixed;
  const bool b_fixed = b < 0 || set_.body(b).fixed;
  if (a_fixed && b_fixed)
    throw Error(fmt::format("joint {}: both bodies are fixed", pivot::quoted(joint->name())));
  if (!a_fixed || !b_fixed) {
    // bodies joined by a joint do not collide unless asked (set_joint_collision)
    if (a >= 0 && b >= 0) collision_->exclude_pair(a, b);
  }
  joints_.push_back(std::move(joint));
  joint_impulse_.emplace_back(Eigen::VectorXd::Zero(joints_.back()->equality_rows()));
  limit_impulse_.push_back(0.0);
  motor_impulse_.push_back(0.0);
  return static_cast<int>(joints_.size()) - 1;
}

template <typename JointT, typename SettingsT>
int World::add_joint_of(const SettingsT& s, int body_a, int body_b) {
  check_body(body_a, "joint");
  check_body(body_b, "joint");
  if (body_a == kWorldBody)
    throw Error(fmt::format("joint {}: body_a must be a body (use body_b for the world)",
                            pivot::quoted(s.name)));
  return add_joint_impl(
      std::make_unique<JointT>(s, body_a, body_b, set_.pose(body_a), set_.pose(body_b)));
}

int World::add_joint(const BallJointSettings& s, int body_a, int body_b) {
  check_planar_joint(JointType::ball, s.name, nullptr);
  return add_joint_of<BallJoint>(s, body_a, body_b);
}
int World::add_joint(const HingeJointSettings& s, int body_a, int body_b) {
  check_planar_joint(JointType::hinge, s.name, &s.axis_W);
  return add_joint_of<HingeJoint>(s, body_a, body_b);
}
int World::add_joint(const UniversalJointSettings& s, int body_a, int body_b) {
  check_planar_joint(JointType::universal, s.name, nullptr);
  return add_joint_of<UniversalJoint>(s, body_a, body_b);
}
int World::add_joint(const SliderJointSettings& s, int body_a, int body_b) {
  check_planar_joint(JointType::slider, s.name, &s.axis_W);
  return add_joint_of<SliderJoint>(s, body_a, body_b);
}
int World::add_joint(const FixedJointSettings& s, int body_a, int body_b) {
  check_planar_joint(JointType::fixed, s.name, nullptr);
  return add_joint_of<FixedJoint>(s, body_a, body_b);
}
int World::add_joint(const PlanarJointSettings& s, int body_a, int body_b) {
  check_planar_joint(JointType::planar, s.name, nullptr);
  return add_joint_of<PlanarJoint>(s, body_a, body_b);
}

void World::add_force(const ConstantForceSettings& s) {
  check_body(s.body, "constant force");
  if (s.body < 0) throw Error("constant force: needs a body, not the world");
  forces_.push_back(make_constant_force(s));
}

void World::add_spring(const SpringSettings& s) {
  check_body(s.body_a, "spring");
  check_body(s.body_b, "spring");
  forces_.push_back(make_spring(s));
}

void World::add_force_callback(ForceCallback callback) {
  forces_.push_back(make_callback_force(std::move(callback)));
}

ExternalForce& World::add_force(std::unique_ptr<ExternalForce> force) {
  if (!force) throw Error("add_force: the force is null");
  forces_.push_back(std::move(force));
  return *forces_.back();
}

void World::set_time_step(double h) {
  if (!(h > 0.0) || !std::isfinite(h))
    throw Error(fmt::format("time_step must be positive and finite (got {})", h));
  if (time_step_history_.empty()) time_step_history_.emplace_back(0, settings_.time_step);
  if (time_step_history_.back().first == steps_)
    time_step_history_.back().second = h;  // no step was taken with the previous h
  else
    time_step_history_.emplace_back(steps_, h);
  for (const auto& force : forces_) force->time_step_changed(settings_.time_step, h);
  settings_.time_step = h;
}

double World::time_at_step(long k) const {
  if (time_step_history_.empty()) return static_cast<double>(k) * settings_.time_step;
  double t = 0.0;
  for (std::size_t s = 0; s < time_step_history_.size(); ++s) {
    const auto [first, h] = time_step_history_[s];
    const long end = s + 1 < time_step_history_.size() ? time_step_history_[s + 1].first : k;
    if (k <= end) return t + static_cast<double>(k - first) * h;
    t += static_cast<double>(end - first) * h;
  }
  return t;  // not reached: the last stretch ends at k
}

void World::set_state(int body, const Pose& pose, const Vec6& twist) {
  check_body(body, "set_state");
  if (body < 0)
    throw Error(
        fmt::format("set_state: body index {} is the world (kWorldBody), which has no "
                    "state; bodies are 0 … {}",
                    body, set_.size() - 1));
  if (set_.body(body).kinematic)
    throw Error(fmt::format("body \"{}\": set_state: a kinematic body follows its key frames",
                            set_.body(body).name));
  if (!pose.all_finite() || !twist.allFinite() || pose.q_WB.norm() < 1e-6)
    throw Error(fmt::format("body {}: set_state needs a finite pose and twist",
                            pivot::quoted(set_.body(body).name)));
  check_planar_body(set_.body(body), pose, twist);
  // a pair in hybrid reduced mode leaves it: its state is the user's now
  const auto& pairs = hybrid_->pairs();
  for (std::size_t k = pairs.size(); k-- > 0;)
    if (pairs[k].body == body || pairs[k].partner == body) {
      HybridAccess host(*this, settings_.time_step);  // between steps
      hybrid_->exit(host, k, "set_state");
    }
  set_.set_pose(body, pose);
  if (!set_.body(body).fixed) set_.twist(body) = twist;
}

void World::apply_impulse(int body, const Vec3& impulse_W, const Vec3& point_W) {
  check_body(body, "detail::apply_impulse");
  if (body < 0) throw Error("apply_impulse: the world does not move");
  const RigidBody& b = set_.body(body);
  if (b.fixed)
    throw Error(fmt::format("body {}: apply_impulse: a {} body does not take impulses",
                            pivot::quoted(b.name), b.kinematic ? "kinematic" : "fixed"));
  if (!impulse_W.allFinite() || !point_W.allFinite())
    throw Error(fmt::format("body {}: detail::apply_impulse needs a finite impulse and point",
                            pivot::quoted(b.name)));
  const Pose X = set_.pose(body);
  Vec6 wrench;
  wrench << (point_W - X.p_WB).cross(impulse_W), impulse_W;
  // Δv = J / m, Δω = R I_B⁻¹ Rᵀ (r × J)
  const Mat3 R = X.q_WB.toRotationMatrix();
  Vec6 twist = set_.twist(body);
  twist.head<3>() += R * (b.inverse_inertia_B * (R.transpose() * wrench.head<3>()));
  twist.tail<3>() += b.inverse_mass * impulse_W;
  check_planar_body(b, X, twist);                 // before anything changes
  HybridAccess host(*this, settings_.time_step);  // between steps
  if (hybrid_->apply_impulse(host, body, wrench)) return;
  set_.twist(body) = twist;
}

void World::set_joint_collision(int j, bool collide) {
  const Joint& jt = joint(j);
  if (jt.body_a() < 0 || jt.body_b() < 0) return;
  collision_->set_pair_excluded(jt.body_a(), jt.body_b(), !collide);
}

const Joint& World::joint(int j) const {
  if (j < 0 || j >= joint_count()) throw Error(fmt::format("joint index {} does not exist", j));
  return *joints_[j];
}

const Eigen::VectorXd& World::joint_impulse(int j) const {
  (void)joint(j);
  return joint_impulse_[j];
}

double World::joint_limit_impulse(int j) const {
  (void)joint(j);
  return limit_impulse_[j];
}

int World::add_actuator(const ActuatorSettings& s) {
  Actuator act(s);
  if (s.joint < 0 || s.joint >= joint_count())
    throw Error(fmt::format("actuator {}: joint index {} out of range [0, {})",
                            pivot::quoted(s.name), s.joint, joint_count()));
  const Joint& joint = *joints_[s.joint];
  Row6 J_A, J_B;
  if (!joint.coordinate_row(set_.pose(joint.body_a()), set_.pose(joint.body_b()), J_A, J_B))
    throw Error(
        fmt::format("actuator {}: joint {} is a {} joint, without a single free "
                    "coordinate (hinge or slider wanted)",
                    pivot::quoted(s.name), pivot::quoted(joint.name()), to_string(joint.type())));
  for (const Actuator& other : actuators_)
    if (!s.name.empty() && other.name() == s.name)
      throw Error(fmt::format("actuator {}: the name is already taken", pivot::quoted(s.name)));
  actuators_.push_back(std::move(act));
  return actuator_count() - 1;
}

Actuator& World::actuator(int a) {
  return const_cast<Actuator&>(static_cast<const World&>(*this).actuator(a));
}

const Actuator& World::actuator(int a) const {
  if (a < 0 || a >= actuator_count())
    throw Error(fmt::format("actuator index {} out of range [0, {})", a, actuator_count()));
  return actuators_[a];
}

Actuator& World::actuator(const std::string& name) {
  for (Actuator& act : actuators_)
    if (act.name() == name) return act;
  throw Error(fmt::format("no actuator named {}", pivot::quoted(name)));
}

double World::joint_motor_impulse(int j) const {
  (void)joint(j);
  return motor_impulse_[j];
}

double World::max_joint_error() const {
  double err = 0.0;
  ConstraintRows own;  // before the first step; then the step's buffers of each joint
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    ConstraintRows& rows = work_ ? work_->equality_rows(j) : own;
    err = std::max(err, joints_[j]->equality_error(set_.pose(joints_[j]->body_a()),
                                                   set_.pose(joints_[j]->body_b()), rows));
  }
  return err;
}

double World::max_penetration() {
  // the step's list of contacts at p(t+h), its memory reused (the post-step is done with it)
  std::vector<Contact>& contacts = workspace().contacts_at_end;
  detect_contacts(contacts);
  return deepest_penetration(contacts);
}

std::vector<Contact> World::current_contacts() {
  std::vector<Contact> contacts;
  detect_contacts(contacts, false);
  return contacts;
}

RayHit World::ray_cast(const Vec3& origin_W, const Vec3& direction_W, double max_range,
                       int ignore_body) const {
  return collision_->ray_cast([this](int i) { return set_.pose(i); }, origin_W, direction_W,
                              max_range, ignore_body);
}

double World::deepest_penetration(const std::vector<Contact>& contacts) {
  double depth = 0.0;
  for (const Contact& c : contacts) depth = std::max(depth, -c.gap);
  return depth;
}

double World::kinetic_energy() const {
  double e = 0.0;
  for (int i = 0; i < set_.size(); ++i) e += set_.kinetic_energy(i);
  return e;
}

double World::potential_energy() const {
  double e = 0.0;
  for (int i = 0; i < set_.size(); ++i)
    if (!set_.body(i).fixed) e -= set_.body(i).mass * settings_.gravity.dot(set_.position(i));
  for (const auto& force : forces_) e += force->potential_energy(set_);
  return e;
}

}  // namespace pivot
