#include "control_benchmark.hpp"

#include <fmt/core.h>

#include <cmath>
#include <ctime>
#include <ostream>
#include <vector>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/world_batch.hpp"
#include "report.hpp"

namespace pivot::bench {

namespace {

struct Measured {
  int threads = 0;
  long world_steps = 0;
  double seconds = 0.0;
  double cpu_seconds = 0.0;  ///< the process's CPU time over the same span, every thread
  double worst_angle = 0.0;  ///< rad, the largest |θ| at the end of a round
};

/// rounds of 1 s of simulated time from a small tilt, each copy's cart pushed by a PD law on the
/// pole's angle, until the budget is spent
Measured measure(const Scene& scene, const ControlBenchOptions& o, int threads) {
  WorldBatch batch(scene, o.worlds, threads);
  const int k = batch.action_size(), m = batch.observation_size();
  const double h = scene.settings.world.time_step;
  const long calls_per_round = std::lround(1.0 / (h * o.steps_per_call));
  std::vector<double> actions(static_cast<std::size_t>(o.worlds * k)),
      obs(static_cast<std::size_t>(o.worlds * m));
  Measured r{.threads = batch.threads()};
  const auto t0 = Clock::now();
  const std::clock_t c0 = std::clock();
  do {
    batch.reset(obs.data());
    for (long c = 0; c < calls_per_round; ++c) {
      for (int i = 0; i < o.worlds; ++i) {
        // (x, ẋ) of the slider then (θ, θ̇) of the hinge when the scene actuates both; else a
        // push that differs per copy
        const double* s = &obs[static_cast<std::size_t>(i * m)];
        const double push = 0.5 * std::sin(0.1 * i + 0.01 * static_cast<double>(c));
        actions[static_cast<std::size_t>(i * k)] = m >= 4 ? 40.0 * s[2] + 5.0 * s[3] + push : push;
      }
      batch.step(actions.data(), o.steps_per_call, obs.data());
    }
    r.world_steps += calls_per_round * o.steps_per_call * o.worlds;
  } while (seconds_since(t0) < o.budget_seconds);
  r.seconds = seconds_since(t0);
  r.cpu_seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  return r;
}

}  // namespace

void run_control_benchmark(const ControlBenchOptions& o, std::ostream& out) {
  const Scene scene = load_scene(o.scene);
  out << fmt::format(
      "## Batches of worlds: {} cart-poles (`{}`)\n\n"
      "pivot::WorldBatch (pivot.Batch without Python): each call sets every copy's push and "
      "steps each copy {} times on the thread pool; rounds of 1 s of simulated time at h = {} s. "
      "Target: ≥ 100 000 world-steps/s on 2 cores.\n\n",
      o.worlds, scene.name, o.steps_per_call, scene.settings.world.time_step);
  // the CPU time per world-step leaves out the time other processes take from the cores: on a
  // loaded machine it, not the wall time, says what a world-step costs
  out << "| threads | world-steps/s | µs per world-step (wall) | CPU µs per world-step | "
         "world-steps/s per busy core (1e6 / CPU µs) |\n"
         "| ---: | ---: | ---: | ---: | ---: |\n";
  for (const int threads : {1, 2}) {
    const Measured r = measure(scene, o, threads);
    const double rate = static_cast<double>(r.world_steps) / r.seconds;
    const double cpu_us = 1e6 * r.cpu_seconds / static_cast<double>(r.world_steps);
    out << fmt::format("| {} | {:.0f} | {:.2f} | {:.2f} | {:.0f} |\n", r.threads, rate, 1e6 / rate,
                       cpu_us, 1e6 / cpu_us);
  }
  out << "\n";
}

}  // namespace pivot::bench
