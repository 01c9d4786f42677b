// pivot run [SCENE.json | NAME] [--out DIR] [--duration T] [--dt H] [--set P=V]... [--quiet]
//           [--no-forces] [--html] [--threads N] [--profile] [--checkpoint-every T]
// pivot run --resume DIR [--duration T] [--quiet] [--threads N]
//
// Runs a scene (a file, the name of a shipped scene, or the built-in default scene without
// SCENE), edited by --set, and writes DIR/trajectory.csv, DIR/metrics.csv, DIR/summary.json and
// DIR/shapes.json, DIR/contacts.csv and DIR/joints.csv unless --no-forces, and DIR/replay.html
// with --html (docs/cli.md has their columns and units). DIR defaults to
// ./pivot-out/<scene name, slugified>. The library's Simulation (pivot/scenes/simulation.hpp)
// steps the scene; this file writes its frames (RunFiles), shows its progress and warnings, and
// writes its summary. Exit codes: 0 done (LCP failures are counted and reported, not fatal),
// 1 the run failed (non-finite state, write error), 2 bad input (the scene or the options),
// 130 interrupted by SIGINT/SIGTERM (the outputs up to then written).
#include <fmt/core.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/mixed_lcp.hpp"
#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"
#include "replay/replay_geometry.hpp"
#include "replay/replay_html.hpp"
#include "run_files/run_checkpoint.hpp"
#include "run_files/run_forces.hpp"
#include "run_files/run_interactions.hpp"
#include "run_files/run_output.hpp"
#include "run_files/run_profile.hpp"
#include "run_files/run_sensors.hpp"
#include "scene_source.hpp"
#include "seconds_option.hpp"
#include "stop_signals.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

struct RunArgs {
  std::string scene;
  std::string out;
  double duration = 0.0;
  double dt = 0.0;
  bool quiet = false;
  std::vector<std::string> sets;  // --set POINTER=VALUE
  bool no_forces = false;
  bool no_ground = false;  // a URDF model without the ground plane
  bool html = false;
  int threads = 0;                // 0: every core
  bool profile = false;           // stage times (run_profile.hpp)
  std::string dump_failed_lcp;    // folder, empty: none
  double checkpoint_every = 0.0;  // s of simulated time; 0: no checkpoints
  std::string resume;             // the folder of the run to continue
  CLI::Option* duration_option = nullptr;
  CLI::Option* dt_option = nullptr;
};

/// the \r-updated progress line on stderr, only on a terminal: shown for every run that takes
/// more than a second of wall time, from its start (once 0.1 s of it tells the rate, when the
/// estimate of the whole run is above a second), with the time left at the current rate
class Progress {
 public:
  Progress(bool enabled, long total_steps)
      : enabled_(enabled && ::isatty(STDERR_FILENO) == 1),
        total_(total_steps),
        start_(Clock::now()),
        last_(start_) {}

  void update(long step, double t) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (now - start_ < std::chrono::milliseconds(100) ||
        now - last_ < std::chrono::milliseconds(200))
      return;
    last_ = now;
    const double wall = std::chrono::duration<double>(now - start_).count();
    const double rate = static_cast<double>(step) / wall;  // steps per second so far
    const double left = static_cast<double>(total_ - step) / rate;
    if (!shown_ && wall + left <= 1.0) return;
    fmt::print(stderr, "\r  {:5.1f}%  t = {:.4g} s  {:.0f} steps/s  ETA {}   ",
               100.0 * static_cast<double>(step) / static_cast<double>(total_), t, rate,
               duration_text(left));
    std::fflush(stderr);
    shown_ = true;
  }
  /// erases the line
  void done() {
    if (shown_) fmt::print(stderr, "\r{:72}\r", "");
    shown_ = false;
  }

 private:
  /// "42 s", "3 min 05 s", "1 h 02 min"
  static std::string duration_text(double seconds) {
    const long s = std::lround(seconds);
    if (s < 60) return fmt::format("{} s", s);
    if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
    return fmt::format("{} h {:02} min", s / 3600, (s % 3600) / 60);
  }

  bool enabled_;
  long total_;
  Clock::time_point start_, last_;
  bool shown_ = false;
};

/// the run's files: trajectory.csv and metrics.csv, contacts.csv and joints.csv (ForceWriter),
/// character.csv for a character's tracking error (docs/character.md), sensors.csv for the
/// scene's sensors (SensorWriter); the warnings on stderr
class RunFiles : public RunSink {
 public:
  RunFiles(const Scene& scene, const Simulation& sim, const std::vector<Pose>& initial,
           OutputDir& dir, bool forces, Progress& progress)
      : scene_(scene),
        progress_(progress),
        trajectory_(dir.file("trajectory.csv")),
        metrics_(dir.file("metrics.csv")) {
    trajectory_.print("{}\n", kTrajectoryHeader);
    metrics_.print("{}\n", kMetricsHeader);
    if (forces)
      forces_ = std::make_unique<ForceWriter>(scene, sim.world(), initial, dir.file("contacts.csv"),
                                              dir.file("joints.csv"));
    if (!sim.sensors().empty())
      sensors_ = std::make_unique<SensorWriter>(sim.sensors(), dir.file("sensors.csv"));
    if (scene.character) {
      character_ = std::make_unique<OutputFile>(dir.file("character.csv"));
      character_->print("t,tracking_error_rad\n");
    }
  }

  void frame(const World& world, double t) override {
    write_trajectory_rows(trajectory_, world, t);
    if (forces_) forces_->write_frame(world);
    if (character_)
      character_->print("{},{}\n", step_time(world.step_count(), world.settings().time_step),
                        character_tracking_error(world, *scene_.character));
  }

  void step(const World&, const StepReport& r, const Energy& e, double t) override {
    metrics_.print("{},{},{},{},{},{},{},{},{},{},{},{}\n", t, e.kinetic, e.potential, e.total(),
                   r.contacts, r.lcp_size, r.pivots, r.solve_seconds, r.joint_error_after,
                   r.penetration_after, r.reduced_pairs,
                   // an island answered by a fallback after a ray (the squeeze) shows the ray
                   lcp::to_string(r.status == lcp::LcpStatus::solved && r.rays > 0
                                      ? lcp::LcpStatus::ray_termination
                                      : r.status));
  }

  void sensors(const SensorSet& sensors, double t) override {
    if (sensors_) sensors_->write(sensors, t);
  }

  void warning(const std::string& message, double t) override {
    progress_.done();
    fmt::print(stderr, "pivot: warning: t = {:.6g} s: {}\n", t, message);
  }

  void close() {
    trajectory_.close();
    metrics_.close();
    if (forces_) forces_->close();
    if (character_) character_->close();
    if (sensors_) sensors_->close();
  }

 private:
  const Scene& scene_;
  Progress& progress_;
  OutputFile trajectory_, metrics_;
  std::unique_ptr<ForceWriter> forces_;
  std::unique_ptr<OutputFile> character_;
  std::unique_ptr<SensorWriter> sensors_;
};

void print_summary(const World& world, const RunSummary& s, const fs::path& out) {
  const double wall = s.wall_time_s;
  const double steps = static_cast<double>(s.steps);
  const RunTotals& t = s.totals;
  fmt::print("pivot run: {} ({})\n", s.scene, s.scene_file);
  fmt::print("  steps        {} of h = {:g} s, t = {:.6g} s\n", s.steps, s.dt, s.simulated_time_s);
  fmt::print("  wall time    {:.3f} s: {:.0f} steps/s, realtime factor {:.3g}\n", wall,
             wall > 0 ? steps / wall : 0.0, wall > 0 ? s.simulated_time_s / wall : 0.0);
  fmt::print("  contacts     {:.2f} per step{}\n",
             s.steps > 0 ? static_cast<double>(s.contacts) / steps : 0.0,
             world.settings().hybrid ? " in the LCP" : "");
  fmt::print("  LCP          {} solves, {} pivots, {} failures\n", t.lcp_solves, t.pivots,
             t.failures);
  if (s.failed_steps > 0)
    fmt::print("  failures     {} steps had LCP failures ({} islands fell back); see metrics.csv\n",
               s.failed_steps, s.failures);
  if (world.settings().hybrid)
    fmt::print(
        "  hybrid       entries {}, exits {}; reduced pairs {} at the end, at most {}; "
        "{:.6g} s of {:.6g} s in reduced mode\n",
        t.reduced_entries, t.reduced_exits, s.final_reduced_pairs, s.max_reduced_pairs,
        step_time(s.reduced_steps, s.dt), s.simulated_time_s);
  if (world.joint_count() == 0)
    fmt::print("  joint error  no joints\n");
  else
    fmt::print("  joint error  max {:.3g} (m or rad)\n", s.max_joint_error);
  fmt::print("  final hash   {}\n", hash_to_hex(s.final_state_hash));
  fmt::print("  output       {}\n", out.string());
}

/// WorldSettings::on_failed_lcp that writes each failed island LCP into `dir` as
/// failed-lcp-<pid>-<n>.dat (reduced to a pure LCP), to reproduce with `pivot lcp`. Best
/// effort: a problem that cannot be reduced (regularized joints) or written is skipped.
FailedLcpCallback failed_lcp_writer(const fs::path& dir) {
  auto counter = std::make_shared<int>(0);
  return [dir, counter](const FailedLcp& failed) {
    if (failed.options.regularization.size() > 0) return;
    try {
      lcp::MixedLcpProblem dense;
      dense.P = failed.problem.P;
      dense.Q = failed.problem.Q;
      dense.K = failed.problem.K;
      dense.S = failed.problem.S;
      dense.u = failed.problem.u;
      dense.v = failed.problem.v;
      const lcp::LcpProblem reduced = lcp::reduce_mixed_lcp(dense);
      const fs::path path =
          dir / fmt::format("failed-lcp-{}-{}.dat", static_cast<long>(::getpid()), (*counter)++);
      lcp::write_lcp_file(path, reduced, "island LCP that failed: " + failed.result.lcp.message);
    } catch (const std::exception&) {
      // best effort only
    }
  };
}

}  // namespace

void write_json(const fs::path& file, const ojson& j) {
  OutputFile out(file);
  out.write(j.dump(2) + "\n");
  out.close();
}

int run_scene(const Scene& scene, const fs::path& target, const RunOptions& options) {
  StopSignals signals;  // from before the world is built: a signal is never a kill
  if (scene.settings.animator && options.checkpoint)
    throw Error("--checkpoint-every: an animator scene is not checkpointed");
  if (scene.settings.animator) return animate_scene(scene, target, options);  // cmd_animate.cpp
  const bool quiet = options.quiet;
  const fs::path& dump_failed_dir = options.dump_failed_dir;
  if (options.html) require_viewer();
  Simulation sim(scene);
  World& world = sim.world();
  // what the files describe as the run's start: shapes.json's poses and the joints' frames (a
  // resumed run's World is at its checkpoint from here on)
  const ojson shapes = replay_shapes(scene, world);
  std::vector<Pose> initial_poses;
  for (int b = 0; b < world.body_count(); ++b) initial_poses.push_back(world.pose(b));
  if (options.resume) resume_simulation(sim, scene, *options.resume, target);
  if (!dump_failed_dir.empty()) {
    std::error_code ec;
    fs::create_directories(dump_failed_dir, ec);
    if (ec)
      throw Error(fmt::format("--dump-failed-lcp {}: cannot create the folder: {}",
                              dump_failed_dir.string(), ec.message()));
    world.set_failed_lcp_callback(failed_lcp_writer(dump_failed_dir));
  }

  // a recorded live run (scene "interactions") re-applies its events at their steps
  InteractionPlayer interactions(scene, world);
  if (const auto end = interactions.end_step()) sim.set_total_steps(*end);
  if (options.html && interactions.throws())
    throw Error(
        "--html: the replay cannot show balls thrown during a run yet (the scene's "
        "\"interactions\" throw some); run without --html");

  if (options.checkpoint && !scene.interactions.empty())
    throw Error("--checkpoint-every: a recorded run's interactions are not checkpointed");
  std::unique_ptr<OutputDir> dir_in =
      options.checkpoint ? std::make_unique<OutputDir>(target, OutputDir::InPlace{})
                         : std::make_unique<OutputDir>(target);
  OutputDir& dir = *dir_in;
  std::optional<RunCheckpointer> checkpoints;
  if (options.checkpoint) checkpoints.emplace(*options.checkpoint, dir.target(), options.resume);
  if (options.resume) checkpoints->continue_files(*options.resume);
  write_json(dir.file("shapes.json"), shapes);
  Progress progress(!quiet, sim.total_steps());
  RunFiles files(scene, sim, initial_poses, dir, options.forces, progress);
  std::vector<std::string> outputs = {"trajectory.csv", "metrics.csv", "summary.json",
                                      "shapes.json"};
  if (options.forces) outputs.insert(outputs.end(), {"contacts.csv", "joints.csv"});
  if (options.html) outputs.push_back("replay.html");
  if (scene.character) outputs.push_back("character.csv");
  if (!sim.sensors().empty()) outputs.push_back("sensors.csv");

  if (checkpoints) checkpoints->start();
  RunHooks hooks;
  hooks.stop = [] { return g_stop_signal != 0; };
  hooks.progress = [&](long k, long, double t) {
    progress.update(k, t);
    if (checkpoints) checkpoints->after_step(sim, t, g_stop_signal != 0);
  };
  hooks.before_step = [&](long steps) { interactions.apply_until(steps); };
  const RunSummary& summary = sim.run(&files, hooks);
  progress.done();
  if (summary.status == RunStatus::not_finite)
    throw std::runtime_error(summary.failure + "; no output written");
  interactions.warn_unapplied();
  if (summary.interrupted())
    fmt::print(stderr,
               "pivot: interrupted (signal {}) at t = {:.6g} s after {} of {} steps; writing the "
               "outputs of the time simulated\n",
               static_cast<int>(g_stop_signal), summary.simulated_time_s, summary.steps,
               sim.total_steps());
  if (summary.more_warnings > 0)
    fmt::print(stderr, "pivot: warning: {} more warnings not shown\n", summary.more_warnings);

  const auto write_summary = [&] {
    ojson j = ojson::parse(summary_json(summary, outputs));
    if (world.settings().profile) j["profile"] = profile_json(world);
    write_json(dir.file("summary.json"), j);
  };
  write_summary();
  files.close();
  // the steps after the simulation never cost its results: a replay that fails is left out of
  // the committed folder and reported against it
  RunReplay replay;
  if (options.html) {
    replay = write_run_replay(dir, outputs);
    if (!replay.error.empty()) write_summary();
  }
  dir.commit(outputs, stale_outputs(checkpoints ? with_checkpoint(outputs) : outputs));
  if (!quiet) {
    print_summary(world, summary, dir.target());
    if (replay.written) print_replay_written(*replay.written);
    if (world.settings().profile) print_profile(stdout, world);
  }
  if (!replay.error.empty()) throw std::runtime_error(replay_failed_message(dir, replay.error));
  return summary.interrupted() ? kInterruptedExitCode : 0;
}

namespace {

/// the scene of `pivot run` from its arguments; `duration`, `dt`: the options when given
Scene load_run_scene(const RunArgs& args, std::optional<double> duration,
                     std::optional<double> dt) {
  std::vector<SceneEdit> edits;
  for (const std::string& s : args.sets) edits.push_back(parse_scene_edit(s));
  Scene scene;
  if (args.scene.empty()) {
    const std::string text(default_scene_json());
    scene = edit_scene(parse_scene(text, fs::current_path(), "<built-in default scene>"), text,
                       fs::current_path(), edits);
  } else {
    scene = load_scene_with_edits(resolve_scene_path(args.scene), edits,
                                  UrdfSceneOptions{.ground = !args.no_ground});
  }
  print_scene_warnings(scene);
  if (duration) scene.settings.duration = *duration;
  if (dt) scene.settings.world.time_step = *dt;
  // the options' names in the message when they made the step longer than the run
  if ((duration || dt) && scene.settings.world.time_step > scene.settings.duration)
    throw Error(fmt::format("{}: the time step {:g} s is longer than the run's duration {:g} s",
                            dt && duration ? "--dt and --duration"
                            : dt           ? "--dt (the scene's duration)"
                                           : "--duration (the scene's dt)",
                            scene.settings.world.time_step, scene.settings.duration));
  scene.settings.world.threads =
      args.threads > 0
          ? args.threads
          : std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxThreads);
  scene.settings.world.profile = args.profile;
  return scene;
}

std::optional<double> option_value(const CLI::Option* option, double value) {
  return option->count() > 0 ? std::optional<double>(value) : std::nullopt;
}

/// what a checkpoint keeps of the arguments (run_checkpoint.hpp)
RunRecipe run_recipe(const RunArgs& args) {
  RunRecipe r;
  if (!args.scene.empty()) {
    const fs::path file = fs::absolute(resolve_scene_path(args.scene));
    r.scene = file.string();
    r.scene_hash = file_hash(file);
  }
  r.sets = args.sets;
  r.duration = option_value(args.duration_option, args.duration);
  r.dt = option_value(args.dt_option, args.dt);
  r.no_ground = args.no_ground;
  r.forces = !args.no_forces;
  r.html = args.html;
  r.profile = args.profile;
  r.dump_failed_lcp = args.dump_failed_lcp;
  r.checkpoint_every = args.checkpoint_every;
  return r;
}

/// pivot run --resume DIR: the run of DIR's checkpoint, with the options it was started with
/// (--duration: a new end)
int resume_run(const RunArgs& args) {
  const std::pair<bool, const char*> fixed[] = {
      {!args.scene.empty(), "a scene"},
      {!args.out.empty(), "--out"},
      {!args.sets.empty(), "--set"},
      {args.dt_option->count() > 0, "--dt"},
      {args.no_forces, "--no-forces"},
      {args.no_ground, "--no-ground"},
      {args.html, "--html"},
      {args.profile, "--profile"},
      {!args.dump_failed_lcp.empty(), "--dump-failed-lcp"},
      {args.checkpoint_every > 0.0, "--checkpoint-every"}};
  for (const auto& [given, name] : fixed)
    if (given)
      throw Error(fmt::format(
          "--resume continues a run with the options of its checkpoint; {} is not taken with it",
          name));
  const RunCheckpoint c = read_run_checkpoint(args.resume);
  RunRecipe recipe = c.recipe;
  if (args.duration_option->count() > 0) recipe.duration = args.duration;
  RunArgs again = args;
  again.scene = recipe.scene;
  again.sets = recipe.sets;
  again.no_ground = recipe.no_ground;
  again.profile = recipe.profile;
  const Scene scene = load_run_scene(again, recipe.duration, recipe.dt);
  return run_scene(scene, args.resume,
                   {.quiet = args.quiet,
                    .dump_failed_dir = recipe.dump_failed_lcp,
                    .forces = recipe.forces,
                    .html = recipe.html,
                    .checkpoint = &recipe,
                    .resume = &c});
}

int run(const RunArgs& args) {
  StopSignals signals;
  if (!args.resume.empty()) return resume_run(args);
  const Scene scene = load_run_scene(args, option_value(args.duration_option, args.duration),
                                     option_value(args.dt_option, args.dt));
  if (g_stop_signal != 0) {
    fmt::print(stderr,
               "pivot: interrupted (signal {}) while the scene was loading: nothing was "
               "written\n",
               static_cast<int>(g_stop_signal));
    return kInterruptedExitCode;
  }
  const fs::path target =
      args.out.empty() ? fs::path("pivot-out") / slugify(scene.name) : fs::path(args.out);
  RunOptions options{.quiet = args.quiet,
                     .dump_failed_dir = args.dump_failed_lcp,
                     .forces = !args.no_forces,
                     .html = args.html};
  RunRecipe recipe;
  if (args.checkpoint_every > 0.0) {
    recipe = run_recipe(args);
    options.checkpoint = &recipe;
  }
  return run_scene(scene, target, options);
}

}  // namespace

void register_run(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<RunArgs>();
  auto* sub = app.add_subcommand(
      "run",
      "run a scene (the built-in default scene when none is given) and write its "
      "trajectory, per-step metrics and a summary");
  sub->add_option("scene", args->scene,
                  "scene file (JSON, docs/scene-format.md), or the name of a shipped scene "
                  "(pivot scenes)");
  sub->add_option("--out", args->out, "output folder (default ./pivot-out/<scene name>)");
  args->duration_option =
      sub->add_option("--duration", args->duration, "simulated time in s (overrides the scene)")
          ->check(positive_seconds());
  args->dt_option = sub->add_option("--dt", args->dt, "time step in s (overrides the scene)")
                        ->check(positive_seconds());
  sub->add_option("--set", args->sets,
                  "edit the scene before it runs: /json/pointer=value, the value as JSON "
                  "(repeatable)");
  sub->add_flag("--quiet,-q", args->quiet, "no progress line and no summary on stdout");
  sub->add_flag("--no-ground", args->no_ground,
                "a URDF model (robot.urdf) alone, without the ground plane under it");
  sub->add_flag("--no-forces", args->no_forces,
                "do not write contacts.csv and joints.csv (faster for many contacts)");
  sub->add_flag("--html", args->html,
                "also write replay.html, the run in a browser (docs/viewer.md)");
  sub->add_option("--threads", args->threads,
                  "threads that solve independent islands (default: every core); the results "
                  "are the same for any count")
      ->check(CLI::Range(1, kMaxThreads));
  sub->add_flag("--profile", args->profile,
                "time the stages of every step: a table at the end, and `profile` in summary.json");
  sub->add_option("--dump-failed-lcp", args->dump_failed_lcp,
                  "write every island LCP that fails into this folder (docs/development.md)");
  sub->add_option("--checkpoint-every", args->checkpoint_every,
                  "write OUT/checkpoint.pivot every T s of simulated time, the files in place, "
                  "for --resume (docs/cli.md)")
      ->check(positive_seconds());
  sub->add_option("--resume", args->resume,
                  "continue the checkpointed run in this folder to its end (docs/cli.md)");
  auto action = [args] { return run(*args); };
  registry.actions.emplace_back(sub, action);
  registry.default_action = action;
}

}  // namespace pivot::cli
