#pragma once
// A controller: the program's part in a control loop, called before each step with the
// sensors' latest samples to read and the actuators' targets to write (docs/control.md).
//
//   pivot::Controller hold = [&](pivot::ControlContext& c) {
//     const double q = c.value("hinge", "q");          // a joint sensor's latest sample
//     c.set_target("motor", m * g * l * std::sin(q));  // an effort actuator's command
//   };
//   // in a loop of one's own:
//   pivot::SensorSet sensors;  // sensors.add(...)
//   sensors.observe(world);    // t = 0
//   for (int k = 0; k < n; ++k) pivot::control_step(world, sensors, hold);
//   // or in a scene's run: pivot::Simulation::set_controller(hold)
//
// A controller changes nothing but the targets it sets (World::set_actuator_target): a run with
// a controller that sets none steps bit for bit as a run without one.

#include <functional>
#include <string>

#include "pivot/engine/sensors.hpp"
#include "pivot/engine/step_report.hpp"

namespace pivot {

class World;

/// what a controller sees before a step: the World (read only), the sensors' latest samples,
/// and the actuators' targets to set
class ControlContext {
 public:
  ControlContext(World& world, const SensorSet& sensors) : world_(world), sensors_(sensors) {}

  /// the World's time, s (the step about to be taken starts here)
  [[nodiscard]] double time() const;
  [[nodiscard]] const World& world() const { return world_; }
  [[nodiscard]] const SensorSet& sensors() const { return sensors_; }
  /// the latest sample of the sensor named `sensor`; pivot::Error for an unknown name
  [[nodiscard]] const SensorSample& sample(const std::string& sensor) const;
  /// one field of that sample ("q", "ax", "error", ... SensorSet::fields); pivot::Error for an
  /// unknown sensor or field, or a sensor not sampled yet
  [[nodiscard]] double value(const std::string& sensor, const std::string& field) const;
  /// sets an actuator's target from this step on (World::set_actuator_target: a constant in
  /// rad, m, rad/s, m/s, N·m or N by its type); pivot::Error for an unknown actuator or a
  /// non-finite value
  void set_target(int actuator, double value);
  void set_target(const std::string& actuator, double value);

 private:
  World& world_;
  const SensorSet& sensors_;
};

/// called before each step
using Controller = std::function<void(ControlContext&)>;

/// one step of a control loop: the controller (when set), World::step, then sensors.observe
/// (the caller observes once before the first step, for the samples at t = 0)
const StepReport& control_step(World& world, SensorSet& sensors, const Controller& controller);

}  // namespace pivot
