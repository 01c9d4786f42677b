#include "pivot/engine/sensors.hpp"

#include "pivot/engine/checkpoint_bytes.hpp"

#include <fmt/core.h>
#include <cmath>

#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

const std::string& name_of(const SensorSettings& s) {
  return std::visit([](const auto& x) -> const std::string& { return x.name; }, s);
}
double period_of(const SensorSettings& s) {
  return std::visit([](const auto& x) { return x.period; }, s);
}

void check_body(const World& world, int body, const std::string& sensor) {
  if (body < 0 || body >= world.body_count())
    throw Error(
        fmt::format("sensor \"{}\": body index {} is not a body of the world", sensor, body));
}

// the velocity of the material point p_W of a body: v_P = v + ω × (p − x)
Vec3 point_velocity(const World& world, int body, const Vec3& p_W) {
  const Twist t = world.twist(body);
  return t.v() + t.w().cross(p_W - world.pose(body).p_WB);
}

// the wrench a joint's equality rows put on body A over the last step, at A's COM, world:
//   w_A = J_Aᵀ λ_e / h   (angular first; Cline 2002 §2.5.2, the rows' impulses λ_e in N·s)
// and its torque moved to the anchor P: τ_P = τ_C + (x_C − p_P) × f
std::vector<double> joint_values(const World& world, int j) {
  const Joint& joint = world.joint(j);
  const int a = joint.body_a(), b = joint.body_b();
  const Pose A = world.pose(a);
  const Pose B = b == kWorldBody ? Pose{} : world.pose(b);
  const Vec6 v_A = world.twist(a);
  const Vec6 v_B = b == kWorldBody ? Vec6(Vec6::Zero()) : Vec6(world.twist(b));
  ConstraintRows rows;
  joint.equality(A, B, rows);
  const double h = world.settings().time_step;
  const Eigen::VectorXd& lambda = world.joint_impulse(j);
  Vec6 w = Vec6::Zero();
  if (lambda.size() == rows.rows()) w = rows.J_A.transpose() * lambda / h;
  const Vec3 f = w.tail<3>();
  const Vec3 p_anchor = A.to_world(joint.anchor_in_A());
  const Vec3 tau = w.head<3>() + (A.p_WB - p_anchor).cross(f);
  return {joint.coordinate(A, B),
          joint.coordinate_rate(A, B, v_A, v_B),
          f.x(),
          f.y(),
          f.z(),
          tau.x(),
          tau.y(),
          tau.z(),
          world.joint_limit_impulse(j) / h,
          world.joint_motor_impulse(j) / h};
}

// the wrench of the last step's contacts on `body` (from `other` only when ≥ 0), world, torque
// about the COM: each contact pushes A with λ_n n + λ_t at Ca and B with its negative at Cb
std::vector<double> contact_values(const World& world, const ContactSensorSettings& s) {
  const double h = world.settings().time_step;
  const Vec3 x = world.pose(s.body).p_WB;
  Vec3 f = Vec3::Zero(), tau = Vec3::Zero();
  for (const ContactInfo& c : world.contacts()) {
    const Contact& k = c.contact;
    const Vec3 impulse_A = c.normal_impulse * k.n_BA_W + c.tangent_impulse;
    if (k.body_a == s.body && (s.other < 0 || k.body_b == s.other)) {
      f += impulse_A;
      tau += (k.p_WCa - x).cross(impulse_A);
    } else if (k.body_b == s.body && (s.other < 0 || k.body_a == s.other)) {
      f -= impulse_A;
      tau -= (k.p_WCb - x).cross(impulse_A);
    }
  }
  f /= h;
  tau /= h;
  return {f.x(), f.y(), f.z(), tau.x(), tau.y(), tau.z()};
}

// an actuator's target at the sample time, the value it commands (position: q, velocity: q̇,
// effort: the clamped effort it applies), target − value and its last effort (actuator.hpp)
std::vector<double> actuator_values(const World& world, const ActuatorSensorSettings& s) {
  if (s.actuator < 0 || s.actuator >= world.actuator_count())
    throw Error(fmt::format("sensor \"{}\": actuator index {} is not an actuator of the world",
                            s.name, s.actuator));
  const Actuator& act = world.actuator(s.actuator);
  const Joint& joint = world.joint(act.joint());
  const int a = joint.body_a(), b = joint.body_b();
  const Pose A = world.pose(a);
  const Pose B = b == kWorldBody ? Pose{} : world.pose(b);
  const double target = act.target(world.time());
  double value = act.effort();
  if (act.type() == ActuatorType::position) {
    value = joint.coordinate(A, B);
  } else if (act.type() == ActuatorType::velocity) {
    const Vec6 v_A = world.twist(a);
    const Vec6 v_B = b == kWorldBody ? Vec6(Vec6::Zero()) : Vec6(world.twist(b));
    value = joint.coordinate_rate(A, B, v_A, v_B);
  }
  return {target, value, target - value, act.effort()};
}

}  // namespace

int SensorSet::add(const SensorSettings& settings) {
  const std::string& name = name_of(settings);
  const double period = period_of(settings);
  if (!(period >= 0.0) || !std::isfinite(period))
    throw Error(
        fmt::format("sensor \"{}\": period must be finite and >= 0 (got {})", name, period));
  if (const auto* r = std::get_if<RangeSensorSettings>(&settings)) {
    if (!(r->max_range > 0.0) || !std::isfinite(r->max_range))
      throw Error(fmt::format("sensor \"{}\": max_range must be finite and > 0 (got {})", name,
                              r->max_range));
    if (!r->direction_B.allFinite() || !(r->direction_B.norm() > 0.0) || !r->origin_B.allFinite())
      throw Error(
          fmt::format("sensor \"{}\": origin and direction must be finite, the direction "
                      "non-zero",
                      name));
  }
  if (const auto* m = std::get_if<ImuSensorSettings>(&settings)) {
    if (!m->p_BS.allFinite() || !m->q_BS.coeffs().allFinite() || !(m->q_BS.norm() > 0.0))
      throw Error(fmt::format("sensor \"{}\": offset and orientation must be finite", name));
  }
  if (!name.empty() && find(name) >= 0)
    throw Error(fmt::format("sensor \"{}\": the name is used twice", name));
  Entry e;
  e.settings = settings;
  sensors_.push_back(std::move(e));
  return size() - 1;
}

const std::string& SensorSet::name(int sensor) const {
  return name_of(sensors_.at(static_cast<std::size_t>(sensor)).settings);
}

int SensorSet::find(const std::string& name) const {
  for (int i = 0; i < size(); ++i)
    if (this->name(i) == name) return i;
  return -1;
}

std::vector<std::string> SensorSet::fields(int sensor) const {
  return std::visit(
      Overloaded{
          [](const JointSensorSettings&) -> std::vector<std::string> {
            return {"q", "qd", "fx", "fy", "fz", "tx", "ty", "tz", "limit", "motor"};
          },
          [](const ContactSensorSettings&) -> std::vector<std::string> {
            return {"fx", "fy", "fz", "tx", "ty", "tz"};
          },
          [](const ImuSensorSettings&) -> std::vector<std::string> {
            return {"ax", "ay", "az", "wx", "wy", "wz", "qw", "qx", "qy", "qz"};
          },
          [](const RangeSensorSettings&) -> std::vector<std::string> { return {"distance"}; },
          [](const ActuatorSensorSettings&) -> std::vector<std::string> {
            return {"target", "value", "error", "effort"};
          }},
      sensors_.at(static_cast<std::size_t>(sensor)).settings);
}

std::vector<double> SensorSet::compute(const World& world, const Entry& e) const {
  return std::visit(
      Overloaded{[&](const JointSensorSettings& s) {
                   if (s.joint < 0 || s.joint >= world.joint_count())
                     throw Error(
                         fmt::format("sensor \"{}\": joint index {} is not a joint of the world",
                                     s.name, s.joint));
                   return joint_values(world, s.joint);
                 },
                 [&](const ContactSensorSettings& s) {
                   check_body(world, s.body, s.name);
                   if (s.other >= world.body_count())
                     throw Error(
                         fmt::format("sensor \"{}\": other body index {} is not a body of the "
                                     "world",
                                     s.name, s.other));
                   return contact_values(world, s);
                 },
                 [&](const ImuSensorSettings& s) {
                   // specific force a − g in the sensor frame S; a from the sensor point's velocity
                   // difference over the time since the previous observe()
                   check_body(world, s.body, s.name);
                   const Pose P = world.pose(s.body);
                   const Quat q_WS = (P.q_WB * s.q_BS).normalized();
                   const Vec3 v_W = point_velocity(world, s.body, P.to_world(s.p_BS));
                   const double dt = world.time() - e.t_prev;
                   const Vec3 a_W = e.t_prev >= 0.0 && dt > 0.0 ? Vec3((v_W - e.v_prev_W) / dt)
                                                                : Vec3(Vec3::Zero());
                   const Vec3 f_S = q_WS.conjugate() * (a_W - world.settings().gravity);
                   const Vec3 w_S = q_WS.conjugate() * Vec3(world.twist(s.body).w());
                   return std::vector<double>{f_S.x(), f_S.y(),  f_S.z(),  w_S.x(),  w_S.y(),
                                              w_S.z(), q_WS.w(), q_WS.x(), q_WS.y(), q_WS.z()};
                 },
                 [&](const RangeSensorSettings& s) {
                   check_body(world, s.body, s.name);
                   const Pose P = world.pose(s.body);
                   const RayHit hit = world.ray_cast(P.to_world(s.origin_B),
                                                     P.rotate(s.direction_B), s.max_range, s.body);
                   return std::vector<double>{hit.distance};
                 },
                 [&](const ActuatorSensorSettings& s) { return actuator_values(world, s); }},
      e.settings);
}

std::vector<double> SensorSet::read(const World& world, int sensor) const {
  return compute(world, sensors_.at(static_cast<std::size_t>(sensor)));
}

bool SensorSet::observe(const World& world) {
  bool any = false;
  const double t = world.time();
  // half a step of slack: the step grid's times carry rounding
  const double slack = 0.5 * world.settings().time_step;
  for (Entry& e : sensors_) {
    e.sampled = false;
    if (t + slack >= e.next_time) {
      e.latest.time = t;
      e.latest.values = compute(world, e);
      e.sampled = any = true;
      const double period = period_of(e.settings);
      e.next_time = period > 0.0 ? e.next_time + period : t;
      if (e.next_time + slack <= t) e.next_time = t + period;  // a time step longer than the period
    }
    if (const auto* s = std::get_if<ImuSensorSettings>(&e.settings)) {
      e.v_prev_W = point_velocity(world, s->body, world.pose(s->body).to_world(s->p_BS));
      e.t_prev = t;
    }
  }
  return any;
}

bool SensorSet::sampled(int sensor) const {
  return sensors_.at(static_cast<std::size_t>(sensor)).sampled;
}

const SensorSample& SensorSet::latest(int sensor) const {
  return sensors_.at(static_cast<std::size_t>(sensor)).latest;
}

std::string SensorSet::save_state() const {
  detail::ByteWriter w;
  w.u64(sensors_.size());
  for (const Entry& e : sensors_) {
    w.f64(e.next_time);
    w.i64(e.sampled ? 1 : 0);
    w.f64(e.latest.time);
    w.u64(e.latest.values.size());
    for (const double v : e.latest.values) w.f64(v);
    for (int k = 0; k < 3; ++k) w.f64(e.v_prev_W[k]);
    w.f64(e.t_prev);
  }
  return std::move(w.str());
}

void SensorSet::restore_state(std::string_view bytes) {
  detail::ByteReader r(bytes);
  const std::size_t n = r.count("the sensors", 8);
  if (n != sensors_.size())
    throw Error(fmt::format("checkpoint: {} sensors saved, the run has {}", n, sensors_.size()));
  std::vector<Entry> entries = sensors_;
  for (std::size_t i = 0; i < n; ++i) {
    Entry& e = entries[i];
    e.next_time = r.f64("a sensor's next sample time");
    e.sampled = r.i64("a sensor's state") != 0;
    e.latest.time = r.f64("a sensor's sample");
    e.latest.values.resize(r.count("a sensor's values", 8));
    const std::size_t fields_n = fields(static_cast<int>(i)).size();
    if (!e.latest.values.empty() && e.latest.values.size() != fields_n)
      throw Error(fmt::format("checkpoint: sensor \"{}\" saved with {} values, it has {} fields",
                              name(static_cast<int>(i)), e.latest.values.size(), fields_n));
    for (double& v : e.latest.values) v = r.f64("a sensor's values");
    for (int k = 0; k < 3; ++k) e.v_prev_W[k] = r.f64("an IMU's previous velocity");
    e.t_prev = r.f64("an IMU's previous time");
  }
  if (r.remaining() != 0) throw Error("checkpoint: corrupt (bytes left after the sensors)");
  sensors_ = std::move(entries);
}

}  // namespace pivot
