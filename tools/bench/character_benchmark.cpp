// pivot-bench character: see character_benchmark.hpp.
#include "character_benchmark.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <ostream>

#include "pivot/scenes/character.hpp"
#include "pivot/scenes/scene.hpp"
#include "report.hpp"

namespace pivot::bench {
namespace {

std::shared_ptr<const BvhMotion> clip(const CharacterBenchOptions& o, const char* name) {
  return std::make_shared<BvhMotion>(load_bvh(o.scenes_dir + "/mocap/" + name), BvhMapping{});
}

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Rate {
  double wall = 0.0;  ///< steps per wall-clock second (median)
  double cpu = 0.0;   ///< steps per second of this process's CPU time (median): on a shared
                      ///< machine the wall clock also counts the time other processes ran
};

// steps per second of whole runs (medians over repeats within the budget)
Rate steps_per_second(const std::function<long()>& run, double budget) {
  std::vector<double> wall, cpu;
  const auto start = Clock::now();
  while (wall.size() < 3 || (seconds_since(start) < budget && wall.size() < 21)) {
    const auto t0 = Clock::now();
    const double c0 = cpu_seconds();
    const long steps = run();
    cpu.push_back(static_cast<double>(steps) / (cpu_seconds() - c0));
    wall.push_back(static_cast<double>(steps) / seconds_since(t0));
  }
  return {median(wall), median(cpu)};
}

std::vector<std::string> speed_row(const std::string& name, int bodies, int joints, long n,
                                   const Rate& r) {
  return {name, std::to_string(bodies), std::to_string(joints), std::to_string(n),
          fmt::format("{:.0f}", r.wall), fmt::format("{:.0f}", r.cpu),
          fmt::format("{:.2f}", r.cpu * 1e-3),
          r.cpu >= 1000 ? "≥ 1000: **met**" : "≥ 1000: **missed**"};
}

void speed(const CharacterBenchOptions& o, std::ostream& out) {
  out << "### Speed: the 54-DOF character at h = 1 ms\n\n";
  Table table;
  table.header = {"run",       "bodies",      "joints",
                  "steps",     "steps/s wall", "steps/s CPU",
                  "× real time (CPU)", "target (CPU)"};
  table.right = {false, true, true, true, true, true, true, false};
  const auto walk = clip(o, "walk.bvh");
  {
    int bodies = 0, joints = 0;
    long n = 0;
    const Rate rate = steps_per_second(
        [&] {
          World world({.time_step = 1e-3});
          (void)add_character(world, walk, {});
          bodies = world.body_count();
          joints = world.joint_count();
          n = 0;
          while (world.time() < walk->duration() - 1e-9) {
            world.step();
            ++n;
          }
          return n;
        },
        o.budget_seconds);
    table.add(speed_row("walk.bvh, undisturbed", bodies, joints, n, rate));
  }
  {
    const Scene scene = load_scene(o.scenes_dir + "/character_full_body.json");
    int bodies = 0, joints = 0;
    long n = 0;
    const Rate rate = steps_per_second(
        [&] {
          World world = build_world(scene);
          bodies = world.body_count();
          joints = world.joint_count();
          n = 0;
          while (world.time() < scene.settings.duration - 1e-9) {
            world.step();
            ++n;
          }
          return n;
        },
        o.budget_seconds);
    table.add(speed_row("character_full_body.json (two balls, contacts)", bodies, joints, n, rate));
  }
  table.print(out);
  out << "\nWhole runs (building the World and the inverse dynamics included) over their "
         "simulated steps, one thread. The target is judged on CPU time: on a shared machine "
         "the wall clock also counts other processes' time.\n\n";
}

void tracking(const CharacterBenchOptions& o, std::ostream& out) {
  out << "### Undisturbed tracking error against the time step (gains k_s = 100, k_d = 10)\n\n";
  Table table;
  table.header = {"clip", "h ms", "max error rad", "ratio to the next larger h"};
  table.right = {false, true, true, true};
  for (const char* name : {"arm_swing.bvh", "walk.bvh"}) {
    const auto motion = clip(o, name);
    double previous = 0.0;
    for (double h : {1e-3, 5e-4, 2.5e-4}) {
      World world({.time_step = h});
      Character c = add_character(world, motion, {});
      double worst = 0.0;
      while (world.time() < motion->duration() - 1e-9) {
        world.step();
        worst = std::max(worst, c.tracking_error(world));
      }
      table.add({name, fmt::format("{:g}", h * 1e3), fmt::format("{:.3e}", worst),
                 previous > 0 ? fmt::format("{:.2f}", previous / worst) : ""});
      previous = worst;
    }
  }
  table.print(out);
  out << "\n";
}

void stability(const CharacterBenchOptions& o, std::ostream& out) {
  out << "### Explicit against linearly implicit feedback (arm_swing.bvh, h = 1 ms, 2 s)\n\n";
  Table table;
  table.header = {"k_s 1/rad", "k_d s/rad", "explicit: max error rad", "implicit: max error rad"};
  table.right = {true, true, true, true};
  const auto motion = clip(o, "arm_swing.bvh");
  for (double ks : {3.0, 10.0, 30.0, 100.0, 1000.0}) {
    const double kd = std::sqrt(ks);
    std::string cells[2];
    for (int implicit = 0; implicit < 2; ++implicit) {
      World world({.time_step = 1e-3, .implicit_forces = implicit == 1});
      Character c = add_character(world, motion, {.gains = {ks, kd, 1.0}});
      double worst = 0.0;
      while (world.time() < 2.0 && worst < 1.0) {
        world.step();
        const double e = c.tracking_error(world);
        worst = std::isfinite(e) ? std::max(worst, e) : 10.0;
      }
      cells[implicit] = worst >= 1.0 ? fmt::format("blew up (> 1 rad at t = {:.3f} s)", world.time())
                                     : fmt::format("{:.3e}", worst);
    }
    table.add({fmt::format("{:g}", ks), fmt::format("{:.3g}", kd), cells[0], cells[1]});
  }
  table.print(out);
  out << "\n";
}

void disturbances(const CharacterBenchOptions& o, std::ostream& out) {
  out << "### Disturbances: the shipped scenes' tracking error over time\n\n";
  for (const char* file : {"character_arm_hit.json", "character_full_body.json"}) {
    const Scene scene = load_scene(o.scenes_dir + "/" + file);
    World world = build_world(scene);
    Table table;
    table.header = {"t s", "tracking error rad", "contacts"};
    table.right = {true, true, true};
    double window = 0.0;
    int contacts = 0;
    long step = 0;
    while (world.time() < scene.settings.duration - 1e-9) {
      world.step();
      ++step;
      window = std::max(window, character_tracking_error(world, *scene.character));
      contacts = std::max(contacts, static_cast<int>(world.contacts().size()));
      if (step % 100 == 0) {
        table.add({fmt::format("{:.1f}", world.time()), fmt::format("{:.2e}", window),
                   std::to_string(contacts)});
        window = 0.0;
        contacts = 0;
      }
    }
    out << "`scenes/" << file << "` (largest error and contact count in each 0.1 s):\n\n";
    table.print(out);
    out << "\n";
  }
}

}  // namespace

void run_character_benchmark(const CharacterBenchOptions& options, std::ostream& out) {
  out << "## The motion-capture-driven character (docs/character.md)\n\n";
  speed(options, out);
  tracking(options, out);
  stability(options, out);
  disturbances(options, out);
}

}  // namespace pivot::bench
