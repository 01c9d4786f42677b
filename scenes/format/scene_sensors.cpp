// Scene::sensors → a SensorSet (scene.hpp, build_sensors).
#include "pivot/scenes/scene.hpp"

namespace pivot {

SensorSet build_sensors(const Scene& scene) {
  SensorSet sensors;
  for (std::size_t i = 0; i < scene.sensors.size(); ++i) {
    try {
      sensors.add(scene.sensors[i]);
    } catch (const std::exception& e) {
      throw Error(scene.source, "/sensors/" + std::to_string(i), e.what());
    }
  }
  return sensors;
}

}  // namespace pivot
