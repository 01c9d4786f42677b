// pivot-soak: runs shipped scenes for many steps (10⁶ by default) and reports what a long run
// does to them (docs/reliability.md "Soak"):
//   drift      the largest distance any free body's centre of mass moves from where it was at
//              step S/100 (after the first 1 % settles the scene), m, and the largest joint
//              error |g| and penetration over the whole run;
//   energy     E = kinetic + potential (World::kinetic_energy + potential_energy); the change
//              E_end − E_0 and the largest |E − E_0| over the run, J (a stack at rest should
//              keep E; a swinging chain with the post-step and a rattleback with friction lose
//              some: the figure is reported, not judged);
//   pivots     Lemke pivots in total and the most in one step; failed island LCPs; warnings;
//   memory     resident set size (VmRSS of /proc/self/status) sampled 100 times over the run:
//              first sample after 1 % of the steps, the peak, and the end (flat means the end
//              equals the first sample to within allocator noise);
//   time       wall seconds, and CPU microseconds per step (CLOCK_PROCESS_CPUTIME_ID: the cost
//              of a step even on a loaded machine, where wall time also counts waiting).
// Each scene runs through the library's Simulation (the loop of `pivot run`, with its checks: a
// non-finite state ends the scene's run). Progress goes to stderr every 5 % of each scene.
//
//   pivot-soak [--steps N] [SCENE...]     scenes by name in scenes/ (default: the four below)
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"

namespace {

/// resident set size of this process, MiB (VmRSS, Linux); −1 where unreadable
double rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      double kib = 0.0;
      status >> kib;
      return kib / 1024.0;
    }
    status.ignore(4096, '\n');
  }
  return -1.0;
}

/// CPU time of this process, s
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct SoakResult {
  std::string scene;
  long steps = 0;
  double seconds = 0.0;           // wall
  double cpu = 0.0;               // CPU seconds
  double drift = 0.0;             // m, largest COM distance from the settled positions
  double joint_error = 0.0;       // m or rad, largest over the run
  double penetration = 0.0;       // m, largest over the run
  double energy_start = 0.0;      // J
  double energy_change = 0.0;     // J, E_end − E_0
  double energy_max_error = 0.0;  // J, max |E − E_0|
  long pivots = 0;
  int max_pivots = 0;
  long failures = 0;
  long warnings = 0;
  double rss_first = 0.0, rss_peak = 0.0, rss_end = 0.0;  // MiB
  bool finite = true;
};

/// the soak's measurements after every step of the Simulation
class SoakSink : public pivot::RunSink {
 public:
  SoakSink(SoakResult& r, long steps) : r_(r), settle_(std::max(1L, steps / 100)) {}

  void frame(const pivot::World&, double) override {}

  void step(const pivot::World& world, const pivot::StepReport& report, const pivot::Energy& energy,
            double) override {
    const long s = world.step_count();
    r_.max_pivots = std::max(r_.max_pivots, report.pivots);
    r_.warnings += static_cast<long>(report.warnings.size());
    r_.energy_max_error = std::max(r_.energy_max_error, std::abs(energy.total() - r_.energy_start));
    if (s == settle_) {
      for (int b = 0; b < world.body_count(); ++b) settled_.push_back(world.pose(b).p_WB);
      r_.rss_first = rss_mib();
    }
    if (s > settle_) {
      for (int b = 0; b < world.body_count(); ++b)
        if (!world.bodies().body(b).fixed)
          r_.drift = std::max(r_.drift, (world.pose(b).p_WB - settled_[b]).norm());
    }
    // samples every 1 % of the steps (settle_ is that many)
    if (s % settle_ == 0) r_.rss_peak = std::max(r_.rss_peak, rss_mib());
  }

 private:
  SoakResult& r_;
  long settle_;
  std::vector<pivot::Vec3> settled_;
};

SoakResult soak(const std::string& name, long steps) {
  const pivot::Scene scene =
      pivot::load_scene(std::string(PIVOT_SCENES_DIR) + "/" + name + ".json");
  pivot::Simulation sim(scene);
  sim.set_total_steps(steps);
  SoakResult r;
  r.scene = name;
  r.energy_start = pivot::energy(sim.world()).total();
  SoakSink sink(r, steps);
  const long progress_every = std::max(1L, steps / 20);
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  pivot::RunHooks hooks;
  hooks.progress = [&](long s, long total, double) {
    if (s % progress_every != 0 && s != total) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double eta = elapsed / static_cast<double>(s) * static_cast<double>(total - s);
    std::fprintf(stderr,
                 "  %-18s %3.0f %%  step %ld of %ld  %.0f s (CPU %.0f s), about %.0f s left, "
                 "RSS %.1f MiB\n",
                 name.c_str(), 100.0 * static_cast<double>(s) / static_cast<double>(total), s,
                 total, elapsed, cpu_seconds() - cpu_start, eta, rss_mib());
  };
  const pivot::RunSummary& summary = sim.run(&sink, hooks);
  r.finite = summary.status != pivot::RunStatus::not_finite;
  r.steps = summary.steps;
  r.seconds = summary.wall_time_s;
  r.cpu = cpu_seconds() - cpu_start;
  r.pivots = summary.totals.pivots;
  r.failures = summary.failures;
  r.joint_error = summary.max_joint_error;
  r.penetration = summary.max_penetration;
  r.energy_change = summary.final_energy.total() - r.energy_start;
  r.rss_end = rss_mib();
  r.rss_peak = std::max(r.rss_peak, r.rss_end);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  long steps = 1000000;
  std::vector<std::string> scenes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--steps" && i + 1 < argc) {
      char* end = nullptr;
      steps = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || steps < 100) {
        std::fprintf(stderr, "pivot-soak: --steps needs an integer ≥ 100\n");
        return 2;
      }
    } else if (arg == "-h" || arg == "--help") {
      std::printf(
          "usage: pivot-soak [--steps N] [SCENE...]  (default: box_stack_10 "
          "chain_6_links box_pyramid rattleback_spin, 10^6 steps each)\n");
      return 0;
    } else {
      scenes.push_back(arg);
    }
  }
  if (scenes.empty()) scenes = {"box_stack_10", "chain_6_links", "box_pyramid", "rattleback_spin"};

  int status = 0;
  std::vector<SoakResult> results;
  for (const auto& name : scenes) {
    try {
      results.push_back(soak(name, steps));
      const SoakResult& r = results.back();
      if (!r.finite || r.failures > 0) status = 1;
    } catch (const pivot::Error& e) {
      std::fprintf(stderr, "pivot-soak: %s\n", e.what());
      return 2;
    }
  }
  fmt::print(
      "{:<16} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>9} {:>6} {:>5} {:>5} "
      "{:>18} {}\n",
      "scene", "steps", "wall s", "cpu us/st", "drift m", "joint g", "penetr m", "dE J",
      "max|dE| J", "pivots", "max/st", "fail", "warn", "RSS MiB 1%/peak/end", "finite");
  for (const auto& r : results)
    fmt::print(
        "{:<16} {:>8} {:>8.1f} {:>9.1f} {:>9.2e} {:>9.2e} {:>9.2e} {:>10.3e} {:>10.3e} "
        "{:>9} {:>6} {:>5} {:>5} {:>6.1f}/{:>5.1f}/{:>5.1f} {}\n",
        r.scene, r.steps, r.seconds, 1e6 * r.cpu / static_cast<double>(r.steps), r.drift,
        r.joint_error, r.penetration, r.energy_change, r.energy_max_error, r.pivots, r.max_pivots,
        r.failures, r.warnings, r.rss_first, r.rss_peak, r.rss_end, r.finite ? "yes" : "NO");
  return status;
}
