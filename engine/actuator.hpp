#pragma once
// An actuator drives the free coordinate q of a hinge (θ, rad) or slider (s, m) joint; its
// effort u (N·m or N) acts along q̇'s row J = (J_A, J_B) (q̇ = J_A v_A + J_B v_B), as the
// generalized force Jᵀu: +u on the joint's "B side" direction of q̇, equal and opposite on A.
//
//   effort:    u = clamp(target, ±effort_limit), a force applied before the LCP (f += Jᵀu)
//   position:  u = kp (q_ref − q⁺) + kd (q̇_ref − q̇⁺),  |u| ≤ effort_limit
//   velocity:  u = kd (q̇_ref − q̇⁺),                    |u| ≤ effort_limit
//
// The servos are linearly implicit springs: one bounded row of the step's LCP. With the step's
// position update q⁺ = q + h q̇⁺ and the impulse λ = h u,
//   λ = h kp (q_ref − q − h q̇⁺) + h kd (q̇_ref − q̇⁺)
// so that, solving for q̇⁺ (implicit Euler of the spring-damper, as ODE's ERP/CFM derivation):
//   J v⁺ + c λ = b,   c = 1 / (h (h kp + kd)),   b = (kp (q_ref − q) + kd q̇_ref) / (h kp + kd)
// with |λ| ≤ h effort_limit as a bounded complementarity row (the joint motor's two-sided
// cone, constraint_set.hpp): a saturated servo pushes with exactly ±effort_limit. The
// compliance c enters the LCP as the block c [1 −1; −1 1] on (λ⁺, λ⁻), positive semidefinite.
//
// Targets: q_ref(t) (position) or q̇_ref(t) (velocity) or u(t) (effort) is a constant, a
// piecewise-linear curve of keys (t, value) (held constant outside its keys), or a value the
// program sets between steps (set_target, which replaces the curve). A position servo takes
// q_ref at the end of the step, q_ref(t + h), and q̇_ref = (q_ref(t + h) − q_ref(t)) / h.

#include <string>
#include <utility>
#include <vector>

namespace pivot {

enum class ActuatorType { effort, position, velocity };

/// name of an actuator type as written in scene files ("effort", "position", "velocity")
[[nodiscard]] const char* to_string(ActuatorType type);

/// settings of an actuator (World::add_actuator)
struct ActuatorSettings {
  std::string name{};                        ///< unique among actuators; may be empty
  int joint = 0;                             ///< index of a hinge or slider joint
  ActuatorType type = ActuatorType::effort;  ///< what the target commands
  double kp = 0.0;                           ///< N·m/rad or N/m, ≥ 0 (position servos only)
  double kd = 0.0;            ///< N·m·s/rad or N·s/m, ≥ 0; > 0 for velocity servos
  double effort_limit = 0.0;  ///< N·m or N, > 0 (may be +inf)
  /// the target: keys (t in s, value), t strictly increasing; one key is a constant
  std::vector<std::pair<double, double>> keys{{0.0, 0.0}};
};

class Actuator {
 public:
  /// validates the settings (finite non-negative gains, kp + kd > 0 for servos, kd > 0 for a
  /// velocity servo, effort_limit > 0, finite keys with increasing times); throws pivot::Error
  /// naming the actuator
  explicit Actuator(ActuatorSettings s);

  [[nodiscard]] const ActuatorSettings& settings() const { return s_; }
  [[nodiscard]] const std::string& name() const { return s_.name; }
  [[nodiscard]] ActuatorType type() const { return s_.type; }
  [[nodiscard]] int joint() const { return s_.joint; }

  /// the target at time t (s): rad, m, rad/s, m/s, N·m or N by type and joint
  [[nodiscard]] double target(double t) const;
  /// replaces the target by a constant (finite, else pivot::Error)
  void set_target(double value);
  /// replaces the target by keys (as in the settings)
  void set_keys(std::vector<std::pair<double, double>> keys);

  /// the effort of the last step, N·m or N (an effort actuator: its clamped command; a servo:
  /// its row impulse / h)
  [[nodiscard]] double effort() const { return effort_; }
  void set_effort(double u) { effort_ = u; }

  /// a servo's row at coordinate q and time t for a step h: J v⁺ + c λ = b  (see the top)
  struct ServoRow {
    double compliance = 0.0;   ///< c, (rad/s)/(N·m·s) or (m/s)/(N·s)
    double target = 0.0;       ///< b, rad/s or m/s
    double max_impulse = 0.0;  ///< h effort_limit
  };
  [[nodiscard]] ServoRow servo_row(double q, double t, double h) const;
  /// an effort actuator's clamped effort at time t
  [[nodiscard]] double commanded_effort(double t) const;

 private:
  ActuatorSettings s_;
  double effort_ = 0.0;
};

}  // namespace pivot
