#pragma once
// Sensors: quantities read from a World after its steps, each sampled at a period of its own.
// Every reading is computed from the World's public state and the last step's impulses
// (World::contacts, World::joint_impulse), so a World without sensors steps exactly as before.
// docs/sensors.md gives each quantity's units, frame and sign.
//
//   pivot::SensorSet sensors;
//   sensors.add(pivot::ImuSensorSettings{.name = "imu", .body = torso, .period = 0.01});
//   for (...) { world.step(); sensors.observe(world); }
//   const pivot::SensorSample& s = sensors.latest(0);   // s.time, s.values
//
// Readings (one value vector per sample, fields named by SensorSet::fields):
//   joint:   q, qd (hinge θ in rad and θ̇; slider s in m and ṡ; 0 for ball, universal, fixed),
//            the reaction wrench the joint's equality rows put on body A, λ_e / h mapped by
//            J_Aᵀ (Cline 2002 §2.5.2): force f (N) and torque τ (N·m) about the joint anchor,
//            world frame; the limit and motor impulses along q over h (N or N·m).
//   contact: the force and torque that the last step's contacts put on `body` (from `other`
//            only, or from every body), Σ (λ_n n + λ_t) / h at the contact points, torque
//            about the body's centre of mass, world frame.
//   imu:     specific force a − g in the sensor frame (m/s²; at rest it reads −g), with a the
//            acceleration of the sensor point over the last step, (v_P(t) − v_P(t − h)) / h;
//            angular velocity in the sensor frame (rad/s); orientation q_WS (w, x, y, z).
//   range:   the distance along a ray fixed in a body to the first surface of another body
//            (m, a World::ray_cast); max_range when nothing is hit within it.
//   actuator: the actuator's target at the sample time, the value it commands (position servo:
//            q; velocity servo: q̇; effort actuator: the effort u applied), the error
//            target − value, and the effort of the last step (Actuator::effort: N·m or N,
//            along q̇'s row, + on body B).

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot {

class World;

/// a joint's coordinate, rate and reaction
struct JointSensorSettings {
  std::string name{};
  int joint = -1;       ///< joint index in the World
  double period = 0.0;  ///< s between samples, ≥ 0; 0 = after every step
};

/// the contact wrench on a body, summed over its contacts
struct ContactSensorSettings {
  std::string name{};
  int body = -1;        ///< the body the wrench acts on
  int other = -1;       ///< only contacts with this body; −1: every contact of `body`
  double period = 0.0;  ///< s, ≥ 0; 0 = after every step
};

/// an inertial measurement unit fixed to a body
struct ImuSensorSettings {
  std::string name{};
  int body = -1;
  Vec3 p_BS = Vec3::Zero();      ///< sensor origin in the body (COM) frame, m
  Quat q_BS = Quat::Identity();  ///< sensor frame in the body frame
  double period = 0.0;           ///< s, ≥ 0; 0 = after every step
};

/// a ray-cast range finder fixed to a body
struct RangeSensorSettings {
  std::string name{};
  int body = -1;
  Vec3 origin_B = Vec3::Zero();      ///< ray origin in the body (COM) frame, m
  Vec3 direction_B = Vec3::UnitX();  ///< ray direction in the body frame (normalized)
  double max_range = 10.0;           ///< m, > 0
  double period = 0.0;               ///< s, ≥ 0; 0 = after every step
};

/// an actuator's target, the value it commands, their difference and its effort
struct ActuatorSensorSettings {
  std::string name{};
  int actuator = -1;    ///< actuator index in the World
  double period = 0.0;  ///< s, ≥ 0; 0 = after every step
};

using SensorSettings = std::variant<JointSensorSettings, ContactSensorSettings, ImuSensorSettings,
                                    RangeSensorSettings, ActuatorSensorSettings>;

/// one sample: its time and the sensor's values in the order of SensorSet::fields
struct SensorSample {
  double time = 0.0;
  std::vector<double> values;
};

class SensorSet {
 public:
  /// adds a sensor; returns its index. Throws pivot::Error naming the sensor for a negative or
  /// non-finite period, a zero direction or a non-positive range (body and joint indices are
  /// actuator indices are
  /// checked by the first observe())
  int add(const SensorSettings& settings);
  [[nodiscard]] int size() const { return static_cast<int>(sensors_.size()); }
  [[nodiscard]] bool empty() const { return sensors_.empty(); }
  [[nodiscard]] const std::string& name(int sensor) const;
  /// the sensor's index by name, or −1
  [[nodiscard]] int find(const std::string& name) const;
  /// the field names of the sensor's values ("fx", "q", ...)
  [[nodiscard]] std::vector<std::string> fields(int sensor) const;
  /// call after every step (and once before the first, to sample t = 0 and to store the twists
  /// the IMUs difference); samples each sensor whose period has elapsed. Returns true when at
  /// least one sensor sampled. Throws pivot::Error for a bad body or joint index
  bool observe(const World& world);
  /// true when the last observe() sampled the sensor
  [[nodiscard]] bool sampled(int sensor) const;
  /// the sensor's latest sample (time −1 and no values before its first)
  [[nodiscard]] const SensorSample& latest(int sensor) const;
  /// the sensor's values now, whatever its period (an IMU reads zero acceleration before its
  /// second observe())
  [[nodiscard]] std::vector<double> read(const World& world, int sensor) const;

  /// what observe() carries between calls (each sensor's next sample time, latest sample and
  /// an IMU's previous velocity), as bytes, so that a run continued from a checkpoint samples as
  /// the run never interrupted (docs/checkpoints.md)
  [[nodiscard]] std::string save_state() const;
  /// puts back save_state()'s bytes into a set of the same sensors; pivot::Error naming what
  /// does not fit (another number of sensors or fields, truncated bytes), the set unchanged
  void restore_state(std::string_view bytes);

 private:
  struct Entry {
    SensorSettings settings;
    double next_time = 0.0;
    bool sampled = false;
    SensorSample latest{-1.0, {}};
    // the IMU's sensor-point velocity at the previous observe(), world, and its time
    Vec3 v_prev_W = Vec3::Zero();
    double t_prev = -1.0;
  };
  std::vector<double> compute(const World& world, const Entry& e) const;
  std::vector<Entry> sensors_;
};

}  // namespace pivot
