// A controller before each step: see controller.hpp.
#include "pivot/engine/controller.hpp"

#include <fmt/core.h>

#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

double ControlContext::time() const {
  return world_.time();
}

const SensorSample& ControlContext::sample(const std::string& sensor) const {
  const int i = sensors_.find(sensor);
  if (i < 0) throw Error(fmt::format("controller: no sensor named {}", pivot::quoted(sensor)));
  return sensors_.latest(i);
}

double ControlContext::value(const std::string& sensor, const std::string& field) const {
  const SensorSample& s = sample(sensor);
  const std::vector<std::string> fields = sensors_.fields(sensors_.find(sensor));
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (fields[k] != field) continue;
    if (k >= s.values.size())
      throw Error(
          fmt::format("controller: sensor {} has no sample yet (observe the sensors "
                      "before the first step)",
                      pivot::quoted(sensor)));
    return s.values[k];
  }
  throw Error(fmt::format("controller: sensor {} has no field {}", pivot::quoted(sensor),
                          pivot::quoted(field)));
}

void ControlContext::set_target(int actuator, double value) {
  world_.set_actuator_target(actuator, value);
}

void ControlContext::set_target(const std::string& actuator, double value) {
  world_.set_actuator_target(actuator, value);
}

const StepReport& control_step(World& world, SensorSet& sensors, const Controller& controller) {
  if (controller) {
    ControlContext context(world, sensors);
    controller(context);
  }
  const StepReport& report = world.step();
  sensors.observe(world);
  return report;
}

}  // namespace pivot
