// pivot-bench: Pivot side by side with peer engines, in one run.
//
//   pivot-bench [all]      everything below, in this order (a few minutes on 2 cores)
//   pivot-bench lcp        LCP solvers on the shared data set and on LCPs of Pivot's own steps
//   pivot-bench scenes     the same scenes in Pivot, ODE and Bullet: time per step and error
//   pivot-bench scaling    time per step against pyramid size, with fitted exponents
//   pivot-bench hybrid     rolling ellipsoid: reduced contact coordinates against the LCP
//                          (accuracy and cost; docs/hybrid.md)
//   pivot-bench bowl       the bowl thrown on a table, Loop surfaces: Kry & Pai 2002 Table II
//                          (docs/loop-surfaces.md)
//   pivot-bench speed      the speed targets: small scenes, a 20-cube stack, large and
//                          separate pyramids (1 and 2 threads)
//   pivot-bench character  the motion-capture-driven character: steps/s of the 54-DOF walk,
//                          tracking error, explicit against implicit feedback (docs/character.md)
//   pivot-bench control    a batch of 64 cart-poles on the thread pool: world-steps/s (not in
//                          all)
//   pivot-bench dump-lcps  only write the LCPs of Pivot's scenes (to --scene-lcps)
//
// Tables are Markdown, printed to stdout; docs/benchmarks.md holds the latest run.
#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "bowl_benchmark.hpp"
#include "character_benchmark.hpp"
#include "control_benchmark.hpp"
#include "hybrid_benchmark.hpp"
#include "lcp_benchmark.hpp"
#include "report.hpp"
#include "scene_benchmark.hpp"
#include "scene_lcps.hpp"
#include "sdf_benchmark.hpp"
#include "sdf_build_benchmark.hpp"
#include "speed_benchmark.hpp"

namespace fs = std::filesystem;
using namespace pivot::bench;

namespace {

fs::path default_data_dir() {
  if (const char* env = std::getenv("PIVOT_SHARED_DATA_DIR")) return env;
  return PIVOT_SHARED_DATA_DIR;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return buffer;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pivot-bench: Pivot against peer engines (LCP solvers, scenes, scaling)"};
  fs::path data = default_data_dir();
  fs::path scene_lcps = fs::path(PIVOT_BENCH_OUT_DIR) / "scene-lcps";
  bool quick = false;
  SceneBenchOptions scene_options;
  app.add_option("--data", data, "shared data folder (default: PIVOT_SHARED_DATA_DIR)");
  app.add_option("--scene-lcps", scene_lcps, "folder for the LCPs written from Pivot's scenes");
  const CLI::Option* budget =
      app.add_option("--budget", scene_options.budget_seconds,
                     "wall-time budget of one scene run, s (when given, also of the speed part's "
                     "runs, 15 s otherwise)")
          ->capture_default_str();
  app.add_flag("--quick", quick, "smaller pyramids and fewer repeats (a smoke run)");
  app.fallthrough();  // the options above are taken after the part's name too
  auto* all = app.add_subcommand("all", "everything (the default)");
  auto* lcp = app.add_subcommand("lcp", "LCP solvers");
  auto* scenes = app.add_subcommand("scenes", "scenes in every engine");
  auto* scaling = app.add_subcommand("scaling", "time per step against pyramid size");
  auto* hybrid =
      app.add_subcommand("hybrid", "rolling ellipsoid: reduced coordinates against the LCP");
  auto* speed = app.add_subcommand("speed", "the speed targets");
  auto* small = app.add_subcommand("small", "the small scenes against ODE and the 20-cube stack");
  auto* bowl = app.add_subcommand("bowl", "bowl on table, Loop surfaces: Kry & Pai 2002 Table II");
  auto* character = app.add_subcommand("character", "the motion-capture-driven character");
  auto* control = app.add_subcommand(
      "control", "a batch of 64 cart-poles on the thread pool: world-steps/s (not in all)");
  auto* dump = app.add_subcommand("dump-lcps", "only write the LCPs of Pivot's scenes");
  auto* sdf = app.add_subcommand(
      "sdf", "sdf contact generation: point tree against brute force and Bullet GImpact");
  auto* sdf_build = app.add_subcommand(
      "sdf-build", "an sdf shape from a 100k-triangle mesh at 256 voxels across (not in all)");
  app.require_subcommand(0, 1);
  CLI11_PARSE(app, argc, argv);
  const bool everything = app.get_subcommands().empty() || all->parsed();

  HybridBenchOptions hybrid_options;
  BowlBenchOptions bowl_options;
  bowl_options.scene = fs::path(PIVOT_SOURCE_SCENES_DIR) / "bowl_on_table.json";
  SpeedBenchOptions speed_options;
  LcpBenchOptions lcp_options;
  lcp_options.data_dir = data;
  if (quick) {
    lcp_options.budget_seconds = 0.05;
    lcp_options.max_repeats = 5;
    scene_options.budget_seconds = std::min(scene_options.budget_seconds, 5.0);
    scene_options.pyramid_levels = {5};
    scene_options.scaling_levels = {3, 5, 7};
    scene_options.scaling_steps = 10;
    hybrid_options.duration = 1.0;
    hybrid_options.lcp_steps = {1e-2, 1e-3, 4e-4, 2e-4};
    hybrid_options.min_repeats = 1;
    hybrid_options.budget_seconds = 0.0;
    bowl_options.min_repeats = 1;
    bowl_options.budget_seconds = 0.0;
    speed_options.budget_seconds = 5.0;
    speed_options.large_pyramids = {7};
    speed_options.scaling_levels = {3, 5, 7};
    speed_options.separate_pyramids = 2;
    speed_options.separate_steps = 5;
    speed_options.separate_rounds = 1;
    speed_options.stack_duration = 0.5;
  }
  if (budget->count() > 0) speed_options.budget_seconds = scene_options.budget_seconds;

  std::cout << "# pivot-bench, " << today() << "\n\n" << machine_summary() << "\n\n";
  const auto start = Clock::now();
  if (everything || lcp->parsed() || dump->parsed()) {
    std::cout << "Writing the LCPs of Pivot's scenes to " << scene_lcps.string() << ":\n\n";
    write_scene_lcps(scene_lcps, std::cout);
    std::cout << "\n";
    lcp_options.extra_dirs.push_back(scene_lcps);
  }
  if (everything || lcp->parsed()) run_lcp_benchmark(lcp_options, std::cout);
  if (everything || scenes->parsed()) run_scene_benchmark(scene_options, std::cout);
  if (everything || scaling->parsed()) run_scaling_benchmark(scene_options, std::cout);
  if (everything || speed->parsed()) run_speed_benchmark(speed_options, std::cout);
  if (small->parsed()) run_small_speed_benchmark(speed_options, std::cout);
  if (everything || hybrid->parsed()) run_hybrid_benchmark(hybrid_options, std::cout);
  if (everything || bowl->parsed()) run_bowl_benchmark(bowl_options, std::cout);
  if (everything || character->parsed())
    run_character_benchmark(
        {.scenes_dir = PIVOT_SOURCE_SCENES_DIR, .budget_seconds = quick ? 0.0 : 3.0}, std::cout);
  if (everything || sdf->parsed()) {
    SdfBenchOptions sdf_options;
    sdf_options.meshes = fs::path(PIVOT_SOURCE_SCENES_DIR) / "meshes";
    if (quick) {
      sdf_options.steps = 10;
      sdf_options.points = 8192;
    }
    run_sdf_benchmark(sdf_options, std::cout);
  }
  if (sdf_build->parsed()) run_sdf_build_benchmark({}, std::cout);
  if (control->parsed())
    run_control_benchmark({.scene = std::string(PIVOT_SOURCE_SCENES_DIR) + "/cart_pole.json",
                           .budget_seconds = quick ? 0.5 : 3.0},
                          std::cout);
  std::cout << fmt::format("pivot-bench: done in {:.0f} s\n", seconds_since(start));
  return 0;
}
