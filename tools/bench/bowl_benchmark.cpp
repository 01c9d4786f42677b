#include "bowl_benchmark.hpp"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ostream>
#include <string>

#include "pivot/scenes/scene.hpp"

namespace pivot::bench {

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Kry & Pai 2002, Table II: CPU s of the 3 s run on a 1.8 GHz Xeon, by maximum step
double paper_cpu(double h) {
  const double ms[] = {1, 2, 4, 8, 16, 32, 64};
  const double cpu[] = {6.542, 3.328, 1.766, 0.974, 0.521, 0.370, 0.286};
  for (int i = 0; i < 7; ++i)
    if (std::abs(h * 1e3 - ms[i]) < 1e-9) return cpu[i];
  return NAN;
}

struct Run {
  int steps = 0, lcp_steps = 0, entries = 0, exits = 0;
  double reduced_time = 0.0, energy0 = 0.0, energy1 = 0.0;
  std::vector<Vec3> com;  // every 0.5 s
  std::string hash;
};

Run run_once(const Scene& base, double h) {
  Scene scene = base;
  scene.settings.world.time_step = h;
  scene.settings.world.hybrid_integrator.dt_max = h;
  World world = build_world(scene);
  const int bowl = world.find_body("bowl");
  Run r;
  r.energy0 = world.kinetic_energy() + world.potential_energy();
  const int n = static_cast<int>(std::llround(scene.settings.duration / h));
  double next_sample = 0.0;
  for (int i = 0; i <= n; ++i) {
    if (world.time() >= next_sample - 1e-9) {
      r.com.push_back(world.pose(bowl).p_WB);
      next_sample += 0.5;
    }
    if (i == n) break;
    const StepReport& s = world.step();
    ++r.steps;
    if (s.reduced_pairs > 0)
      r.reduced_time += h;
    else
      ++r.lcp_steps;
    for (const SwitchEvent& e : s.switches) (e.entered ? r.entries : r.exits) += 1;
  }
  r.energy1 = world.kinetic_energy() + world.potential_energy();
  return r;
}

}  // namespace

void run_bowl_benchmark(const BowlBenchOptions& o, std::ostream& out) {
  out << "## Bowl thrown on a table: the step-size study (Kry & Pai 2002 §4.2, Table II)\n\n";
  const Scene scene = load_scene(o.scene);
  out << fmt::format(
      "Scene {} ({} s): World step h = maximum reduced step; CPU time of the whole run "
      "(median of repeats, scene loaded once).\n\n",
      o.scene.filename().string(), scene.settings.duration);
  out << "| max step ms | steps | LCP steps | reduced s | entries | exits | E0 J | E(3 s) J | "
         "CPU ms | repeats | paper CPU s (1.8 GHz Xeon) |\n";
  out << "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  std::vector<Run> runs;
  for (const double h : o.max_steps) {
    std::vector<double> cpu;
    Run r;
    const auto start = std::chrono::steady_clock::now();
    while (static_cast<int>(cpu.size()) < o.max_repeats) {
      const double c0 = cpu_seconds();
      r = run_once(scene, h);
      cpu.push_back(cpu_seconds() - c0);
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (static_cast<int>(cpu.size()) >= o.min_repeats && wall >= o.budget_seconds) break;
    }
    out << fmt::format(
        "| {:g} | {} | {} | {:.2f} | {} | {} | {:.5f} | {:.5f} | {:.1f} | {} | {} |\n", h * 1e3,
        r.steps, r.lcp_steps, r.reduced_time, r.entries, r.exits, r.energy0, r.energy1,
        1e3 * median(cpu), cpu.size(),
        std::isnan(paper_cpu(h)) ? std::string("—") : fmt::format("{:.3f}", paper_cpu(h)));
    runs.push_back(r);
  }
  out << "\nThe bowl's centre of mass (x, y, z in mm) every 0.5 s (Fig. 7's data):\n\n";
  out << "| max step ms |";
  for (std::size_t k = 0; k < runs.front().com.size(); ++k)
    out << fmt::format(" t = {:.1f} s |", 0.5 * k);
  out << "\n| ---: |";
  for (std::size_t k = 0; k < runs.front().com.size(); ++k) out << " --- |";
  out << "\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out << fmt::format("| {:g} |", o.max_steps[i] * 1e3);
    for (const Vec3& p : runs[i].com)
      out << fmt::format(" {:.1f}, {:.1f}, {:.1f} |", 1e3 * p.x(), 1e3 * p.y(), 1e3 * p.z());
    out << "\n";
  }
  out << "\n";
}

}  // namespace pivot::bench
