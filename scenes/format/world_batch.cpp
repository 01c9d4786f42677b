#include "pivot/scenes/world_batch.hpp"

#include <fmt/core.h>

#include <cmath>

#include "pivot/core/error.hpp"
#include "pivot/engine/thread_pool.hpp"

namespace pivot {

int observation_size(const World& world, const SensorSet& sensors) {
  int m = 2 * world.actuator_count();
  for (int s = 0; s < sensors.size(); ++s) m += static_cast<int>(sensors.fields(s).size());
  return m;
}

void observe(const World& world, const SensorSet& sensors, double* out) {
  for (int a = 0; a < world.actuator_count(); ++a) {
    const Joint& joint = world.joint(world.actuator(a).joint());
    const int ia = joint.body_a(), ib = joint.body_b();
    const Pose A = world.pose(ia);
    const Pose B = ib == kWorldBody ? Pose{} : world.pose(ib);
    const Vec6 v_B = ib == kWorldBody ? Vec6(Vec6::Zero()) : Vec6(world.twist(ib));
    *out++ = joint.coordinate(A, B);
    *out++ = joint.coordinate_rate(A, B, world.twist(ia), v_B);
  }
  for (int s = 0; s < sensors.size(); ++s) {
    const SensorSample& latest = sensors.latest(s);
    const std::vector<double> values = latest.time < 0.0 ? sensors.read(world, s) : latest.values;
    for (const double v : values) *out++ = v;
  }
}

WorldBatch::WorldBatch(const Scene& scene, int n, int threads) : scene_(scene) {
  if (n < 1) throw Error(fmt::format("a batch needs at least one world (got {})", n));
  if (threads < 0 || threads > kMaxThreads)
    throw Error(fmt::format("a batch's threads must be in [0, {}] (got {})", kMaxThreads, threads));
  // each copy single-threaded: the batch's pool runs the copies side by side
  scene_.settings.world.threads = 1;
  worlds_.reserve(static_cast<std::size_t>(n));
  sensors_.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    worlds_.push_back(build_world(scene_));
    if (i == 0) initial_ = worlds_.front().save_state();
    for (const SensorSettings& s : scene_.sensors) sensors_[i].add(s);
    sensors_[i].observe(worlds_[i]);
  }
  pool_ = std::make_unique<detail::ThreadPool>(std::min(n, detail::resolve_thread_count(threads)));
}

WorldBatch::~WorldBatch() = default;

int WorldBatch::action_size() const {
  return worlds_.front().actuator_count();
}
int WorldBatch::observation_size() const {
  return pivot::observation_size(worlds_.front(), sensors_.front());
}
int WorldBatch::threads() const {
  return pool_->threads();
}

// the scene's initial state back through the engine's checkpoint (docs/checkpoints.md: a World
// that restores it steps on bit for bit as one built anew), without building the World again
// (a new World sets up its collision world: milliseconds); the actuators' targets are the
// scene's again and the sensors start anew
void WorldBatch::restart(int i) {
  const auto k = static_cast<std::size_t>(i);
  World& w = worlds_[k];
  w.restore_state(initial_);
  for (int a = 0; a < w.actuator_count(); ++a) {
    w.actuator(a).set_keys(scene_.actuators[static_cast<std::size_t>(a)].settings.keys);
    w.actuator(a).set_effort(0.0);
  }
  sensors_[k] = SensorSet();
  for (const SensorSettings& s : scene_.sensors) sensors_[k].add(s);
  sensors_[k].observe(w);
}

void WorldBatch::write_observations(double* out) const {
  if (out == nullptr) return;
  const int m = observation_size();
  for (int i = 0; i < size(); ++i)
    observe(worlds_[static_cast<std::size_t>(i)], sensors_[static_cast<std::size_t>(i)],
            out + static_cast<std::ptrdiff_t>(i) * m);
}

void WorldBatch::reset(double* observations) {
  pool_->run(size(), [&](int i) { restart(i); });
  write_observations(observations);
}

void WorldBatch::step(const double* actions, int steps, double* observations) {
  if (steps < 1) throw Error(fmt::format("a batch step needs steps ≥ 1 (got {})", steps));
  const int k = action_size();
  for (int i = 0; i < size(); ++i)
    for (int a = 0; a < k; ++a)
      if (!std::isfinite(actions[static_cast<std::ptrdiff_t>(i) * k + a]))
        throw Error(fmt::format("batch copy {}: actuator \"{}\": the target is not finite", i,
                                worlds_.front().actuator(a).name()));
  pool_->run(size(), [&](int i) {
    World& w = worlds_[static_cast<std::size_t>(i)];
    SensorSet& s = sensors_[static_cast<std::size_t>(i)];
    for (int a = 0; a < k; ++a)
      w.set_actuator_target(a, actions[static_cast<std::ptrdiff_t>(i) * k + a]);
    for (int n = 0; n < steps; ++n) {
      w.step();
      if (!s.empty()) s.observe(w);
    }
  });
  write_observations(observations);
}

}  // namespace pivot
