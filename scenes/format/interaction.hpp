#pragma once
// Interactions: what a user did to a running simulation (`pivot serve`, docs/cli.md "pivot
// serve"), as events with the step they happened at, so that a recorded live run re-runs
// exactly (`"interactions"` in a scene file, docs/scene-format.md "Interactions").
//
// An event with step k is applied after k steps have been taken, before step k + 1; events of
// the same step in their order. The InteractionDriver applies them to a World: `pivot serve`
// and `pivot run` both go through it, so a recording reproduces its final hash.

#include <string>
#include <vector>

#include "pivot/engine/pull_force.hpp"

namespace pivot {

class World;
struct SceneBody;

enum class InteractionType {
  pull,        ///< start pulling `body` at `point` (body frame) towards `target`
  move,        ///< move the pull's target
  release,     ///< stop pulling
  throw_ball,  ///< a ball from `origin` along `direction` at `speed` (Cline 2002 §4.7)
  set_dt,      ///< change the time step to `dt`
  hybrid,      ///< switch the hybrid mode `on` or off
  set_target,  ///< give actuator `actuator` the constant target `value`
               ///< (World::set_actuator_target)
  end,         ///< the run ends after `step` steps (the last event; overrides settings.duration)
};

/// "pull", "move", "release", "throw", "set_dt", "hybrid", "set_target", "end" (as in scene
/// files)
[[nodiscard]] const char* to_string(InteractionType type);

/// one event; only the fields of its type are meaningful
struct SceneInteraction {
  long step = 0;  ///< applied after this many steps, ≥ 0
  InteractionType type = InteractionType::release;
  std::string body;                ///< pull: the body's name (a thrown ball's too)
  Vec3 point = Vec3::Zero();       ///< pull: the grabbed point from the COM, body frame, m
  Vec3 target = Vec3::Zero();      ///< pull, move: the target, world, m
  double stiffness = 0.0;          ///< pull: k, N/m
  double damping = 0.0;            ///< pull: c, N·s/m
  Vec3 origin = Vec3::Zero();      ///< throw: the ball's centre at release, world, m
  Vec3 direction = Vec3::UnitX();  ///< throw: unit direction of flight, world
  double speed = 0.0;              ///< throw: m/s, ≥ 0
  double radius = 0.05;            ///< throw: the ball's radius, m, > 0
  double density = 1000.0;         ///< throw: the ball's density, kg/m³, > 0
  double dt = 0.0;                 ///< set_dt: the new time step, s, > 0
  bool on = false;                 ///< hybrid
  std::string actuator;            ///< set_target: the actuator's name
  double value = 0.0;              ///< set_target: rad, m, rad/s, m/s, N·m or N by type
};

/// the pull a user gets without choosing (Cline §4.7 gives no law): a spring of natural
/// frequency 3 Hz on the body's mass, critically damped, k = m ω², c = 2 m ω, ω = 2π · 3 Hz
struct PullDefaults {
  double stiffness = 0.0;  ///< N/m
  double damping = 0.0;    ///< N·s/m
};
[[nodiscard]] PullDefaults default_pull(double mass);

/// the largest throw speed, radius and density accepted (sane bounds for a UI), m/s, m, kg/m³
inline constexpr double kMaxThrowSpeed = 1000.0;
inline constexpr double kMaxThrowRadius = 100.0;

/// Applies interactions to a World it does not own (it must outlive the driver). The
/// constructor adds the one PullForce the driver moves (inactive until a pull).
class InteractionDriver {
 public:
  explicit InteractionDriver(World& world);
  /// applies one event now; a bad event (unknown body, fixed body, non-finite value, ...)
  /// throws pivot::Error and changes nothing
  void apply(const SceneInteraction& event);
  /// the ball a throw adds (named "thrown-N", N = 1, 2, ... in order), as a scene body: a
  /// sphere, or in a planar world a disc (a planar circle) in the plane y = 0, thrown along the
  /// direction's x–z part from the origin's projection on the plane
  [[nodiscard]] SceneBody thrown_ball(const SceneInteraction& event) const;
  [[nodiscard]] const PullForce& pull() const { return *pull_; }
  /// balls thrown so far
  [[nodiscard]] int thrown() const { return thrown_; }

 private:
  World* world_;
  PullForce* pull_;
  int thrown_ = 0;
};

}  // namespace pivot
