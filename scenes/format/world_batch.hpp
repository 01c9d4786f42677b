#pragma once
// Batches of worlds (docs/python.md "Batches of worlds", `pivot-bench control`): n independent
// Worlds built from one scene, stepped together on a thread pool, each exactly as a World of
// its own would step (every copy runs single-threaded and writes only its own state, so its
// results do not depend on which thread steps it).
//
//   pivot::WorldBatch batch(scene, 64);
//   std::vector<double> actions(batch.size() * batch.action_size()), obs(...);
//   batch.step(actions.data(), 1, obs.data());   // n × k targets in, n × m observations out
//
// An observation (observe()) is, in actuator order, each actuated joint's coordinate and rate
// (q, q̇), followed by the latest sample of each of the scene's sensors in their order.

#include <memory>
#include <string>
#include <vector>

#include "pivot/engine/sensors.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot {

namespace detail {
class ThreadPool;
}

/// the number of values observe() writes: 2 per actuator, plus every sensor's field count
[[nodiscard]] int observation_size(const World& world, const SensorSet& sensors);

/// writes the observation of `world` to out[0 .. observation_size): per actuator, in actuator
/// order, its joint's coordinate q and rate q̇ (Joint::coordinate, coordinate_rate; rad and
/// rad/s or m and m/s), then each sensor's latest sample (SensorSet::latest; its values now,
/// SensorSet::read, before its first sample)
void observe(const World& world, const SensorSet& sensors, double* out);

class WorldBatch {
 public:
  /// n ≥ 1 copies of the scene's World (each with WorldSettings::threads = 1), with the scene's
  /// sensors observed once at t = 0; min(n, threads) threads step them (0: every core).
  /// Throws pivot::Error for n < 1, threads outside [0, kMaxThreads] or a scene that does not
  /// build
  WorldBatch(const Scene& scene, int n, int threads = 0);
  ~WorldBatch();
  WorldBatch(const WorldBatch&) = delete;
  WorldBatch& operator=(const WorldBatch&) = delete;

  [[nodiscard]] int size() const { return static_cast<int>(worlds_.size()); }
  /// k: the scene's actuator count
  [[nodiscard]] int action_size() const;
  /// m: observation_size of a copy
  [[nodiscard]] int observation_size() const;
  [[nodiscard]] int threads() const;
  [[nodiscard]] const World& world(int i) const { return worlds_.at(static_cast<std::size_t>(i)); }

  /// every copy back to the scene's initial state (its checkpoint restored, the actuators'
  /// targets the scene's, the sensors new); writes the n × m observations when not null
  void reset(double* observations = nullptr);
  /// copy i's actuator targets ← actions[i k .. i k + k) (World::set_actuator_target, in
  /// actuator order), then `steps` ≥ 1 steps of every copy, each copy's sensors observed after
  /// each of its steps; writes the n × m observations (row-major) when not null. Throws
  /// pivot::Error for a non-finite target (naming the copy and the actuator) before any copy
  /// steps, or the first copy's error of a step
  void step(const double* actions, int steps, double* observations);

 private:
  void restart(int i);
  void write_observations(double* out) const;

  Scene scene_;
  std::string initial_;  ///< World::save_state of a copy as built
  std::vector<World> worlds_;
  std::vector<SensorSet> sensors_;
  std::unique_ptr<detail::ThreadPool> pool_;
};

}  // namespace pivot
