// pivot run [SCENE.json | NAME] [--out DIR] [--duration T] [--dt H] [--set P=V]... [--quiet]
//           [--no-forces] [--html] [--threads N] [--profile]
//
// Runs a scene (a file, the name of a shipped scene, or the built-in default scene without
// SCENE), edited by --set, and writes DIR/trajectory.csv, DIR/metrics.csv, DIR/summary.json and
// DIR/shapes.json, DIR/contacts.csv and DIR/joints.csv unless --no-forces, and DIR/replay.html
// with --html (docs/cli.md has their columns and units). DIR defaults to
// ./pivot-out/<scene name, slugified>. Exit codes: 0 done (LCP failures are counted and
// reported, not fatal), 1 the run failed (non-finite state, write error), 2 bad input (the
// scene or the options), 130 interrupted by SIGINT/SIGTERM (the outputs up to then written).
#include <fmt/core.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/mixed_lcp.hpp"
#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/version.hpp"
#include "replay_geometry.hpp"
#include "replay_html.hpp"
#include "run_forces.hpp"
#include "run_interactions.hpp"
#include "run_output.hpp"
#include "run_profile.hpp"
#include "scene_source.hpp"
#include "stop_signals.hpp"
#include "seconds_option.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr int kMaxWarnings = 20;  // distinct step warnings shown before the rest are only counted
constexpr std::size_t kMaxTrackedWarnings = 1000;  // distinct warnings remembered

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
  int threads = 0;              // 0: every core
  bool profile = false;         // stage times (run_profile.hpp)
  std::string dump_failed_lcp;  // folder, empty: none
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

struct Energy {
  double kinetic = 0.0, potential = 0.0;
  [[nodiscard]] double total() const { return kinetic + potential; }
};

/// the simulated time of the outputs: k h for k steps (run_output.hpp, step_time)
double output_time(const World& world) {
  // after a change of h (a recorded live run's set_dt), the sum of each stretch's k h
  const auto& stretches = world.time_step_history();
  if (stretches.empty()) return step_time(world.step_count(), world.settings().time_step);
  double t = 0.0;
  for (std::size_t i = 0; i < stretches.size(); ++i) {
    const long end = i + 1 < stretches.size() ? stretches[i + 1].first : world.step_count();
    t += step_time(end - stretches[i].first, stretches[i].second);
  }
  return t;
}

Energy energy(const World& world) {
  return {world.kinetic_energy(), world.potential_energy()};
}

ojson energy_json(const Energy& e) {
  return {{"kinetic", e.kinetic}, {"potential", e.potential}, {"total", e.total()}};
}

void write_frame(OutputFile& out, const World& world) {
  write_trajectory_rows(out, world, output_time(world));
}

bool state_is_finite(const World& world) {
  return world.bodies().positions().allFinite() && world.bodies().velocities().allFinite();
}

/// what the loop gathered, for summary.json and the summary on stdout
struct RunStats {
  long steps = 0;
  double wall_seconds = 0.0;
  long contacts = 0;
  long failed_steps = 0;  // steps whose report had failures
  long failures = 0;      // island failures summed over steps
  double max_joint_error = 0.0;
  double max_penetration = 0.0;
  // hybrid: steps that ended with at least one pair in reduced mode, and the most pairs at once
  long reduced_steps = 0;
  int max_reduced_pairs = 0;
  std::vector<std::string> warnings;  // distinct, in order of first occurrence
  long more_warnings = 0;             // distinct warnings beyond kMaxWarnings
  // hybrid entries: the largest changes their projections made (SwitchEvent)
  double entry_position_change = 0.0, entry_rotation_change = 0.0, entry_twist_change = 0.0,
         entry_energy_change = 0.0;

  // hybrid exits by the kind of their reason, in order of first occurrence: the reason up to
  // its first ':' ("separated", "step_failed", "bad_geometry", ...), "new contact" for the
  // contacts with another body
  std::vector<std::pair<std::string, long>> exit_reasons;

  void add_exit(const std::string& reason) {
    std::string kind = reason.substr(0, reason.find(':'));
    if (kind.starts_with("new contact")) kind = "new contact";
    for (auto& [k, n] : exit_reasons)
      if (k == kind) {
        ++n;
        return;
      }
    exit_reasons.emplace_back(kind, 1);
  }

  void add_switches(const std::vector<SwitchEvent>& switches) {
    for (const SwitchEvent& e : switches) {
      if (!e.entered) add_exit(e.reason);
      if (!e.entered) continue;
      entry_position_change = std::max(entry_position_change, e.position_change);
      entry_rotation_change = std::max(entry_rotation_change, e.rotation_change);
      entry_twist_change = std::max(entry_twist_change, e.twist_change);
      entry_energy_change = std::max(entry_energy_change, std::abs(e.energy_change));
    }
  }
};

ojson summary_json(const Scene& scene, const World& world, const RunStats& stats,
                   const Energy& initial, const Energy& final_energy, std::uint64_t hash,
                   const std::vector<std::string>& outputs, bool interrupted) {
  ojson j;
  j["pivot_version"] = kVersion;
  j["scene"] = scene.name;
  j["scene_file"] = scene.source;
  j["steps"] = stats.steps;
  j["dt"] = world.settings().time_step;
  j["simulated_time_s"] = output_time(world);
  j["wall_time_s"] = stats.wall_seconds;
  j["steps_per_second"] =
      stats.wall_seconds > 0.0 ? static_cast<double>(stats.steps) / stats.wall_seconds : 0.0;
  j["realtime_factor"] = stats.wall_seconds > 0.0 ? output_time(world) / stats.wall_seconds : 0.0;
  j["final_state_hash"] = hash_to_hex(hash);
  j["final_state"] = final_state_json(world);
  j["energy"] = {{"initial", energy_json(initial)}, {"final", energy_json(final_energy)}};
  j["max_joint_error"] = stats.max_joint_error;
  j["max_penetration"] = stats.max_penetration;
  j["contacts_per_step"] =
      stats.steps > 0 ? static_cast<double>(stats.contacts) / static_cast<double>(stats.steps)
                      : 0.0;
  const RunTotals& t = world.totals();
  j["lcp"] = {
      {"solves", t.lcp_solves},         {"pivots", t.pivots}, {"failures", t.failures},
      {"fallbacks", t.fallbacks},       {"rays", t.rays},     {"failed_steps", stats.failed_steps},
      {"solve_time_s", t.solve_seconds}};
  j["hybrid"] = {{"entries", t.reduced_entries},
                 {"exits", t.reduced_exits},
                 {"reduced_time_s", step_time(stats.reduced_steps, world.settings().time_step)},
                 {"max_reduced_pairs", stats.max_reduced_pairs},
                 {"final_reduced_pairs", world.last_report().reduced_pairs},
                 {"entry_max_position_change", stats.entry_position_change},
                 {"entry_max_rotation_change", stats.entry_rotation_change},
                 {"entry_max_twist_change", stats.entry_twist_change},
                 {"entry_max_energy_change", stats.entry_energy_change}};
  ojson reasons = ojson::object();
  for (const auto& [kind, count] : stats.exit_reasons) reasons[kind] = count;
  j["hybrid"]["exit_reasons"] = reasons;
  // the reduced integrator's accepted steps by size (Kry & Pai 2002 Fig. 8), bins of powers of 2
  ojson starts = ojson::array(), counts_by_size = ojson::array();
  for (int k = 0; k < kReducedStepBins; ++k) {
    starts.push_back(reduced_step_bin_start(k));
    counts_by_size.push_back(t.reduced_steps[k]);
  }
  j["hybrid"]["accepted_steps"] = {{"bin_start_s", starts}, {"count", counts_by_size}};
  j["warnings"] = stats.warnings;
  j["more_warnings"] = stats.more_warnings;
  nlohmann::ordered_json counts = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < kStepWarningKinds; ++k)
    counts[to_string(static_cast<StepWarning>(k))] = world.totals().warnings[k];
  j["warning_counts"] = counts;
  j["outputs"] = outputs;
  j["interrupted"] = interrupted;
  if (world.settings().profile) j["profile"] = profile_json(world);
  return j;
}

void print_summary(const Scene& scene, const World& world, const RunStats& stats,
                   std::uint64_t hash, const fs::path& out) {
  const double wall = stats.wall_seconds;
  const double steps = static_cast<double>(stats.steps);
  const RunTotals& t = world.totals();
  fmt::print("pivot run: {} ({})\n", scene.name, scene.source);
  fmt::print("  steps        {} of h = {:g} s, t = {:.6g} s\n", stats.steps,
             world.settings().time_step, output_time(world));
  fmt::print("  wall time    {:.3f} s: {:.0f} steps/s, realtime factor {:.3g}\n", wall,
             wall > 0 ? steps / wall : 0.0, wall > 0 ? output_time(world) / wall : 0.0);
  fmt::print("  contacts     {:.2f} per step{}\n",
             stats.steps > 0 ? static_cast<double>(stats.contacts) / steps : 0.0,
             world.settings().hybrid ? " in the LCP" : "");
  fmt::print("  LCP          {} solves, {} pivots, {} failures\n", t.lcp_solves, t.pivots,
             t.failures);
  if (stats.failed_steps > 0)
    fmt::print("  failures     {} steps had LCP failures ({} islands fell back); see metrics.csv\n",
               stats.failed_steps, stats.failures);
  if (world.settings().hybrid)
    fmt::print(
        "  hybrid       entries {}, exits {}; reduced pairs {} at the end, at most {}; "
        "{:.6g} s of {:.6g} s in reduced mode\n",
        t.reduced_entries, t.reduced_exits, world.last_report().reduced_pairs,
        stats.max_reduced_pairs, step_time(stats.reduced_steps, world.settings().time_step),
        output_time(world));
  if (world.joint_count() == 0)
    fmt::print("  joint error  no joints\n");
  else
    fmt::print("  joint error  max {:.3g} (m or rad)\n", stats.max_joint_error);
  fmt::print("  final hash   {}\n", hash_to_hex(hash));
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
  if (scene.settings.animator) return animate_scene(scene, target, options);  // cmd_animate.cpp
  const bool quiet = options.quiet;
  const fs::path& dump_failed_dir = options.dump_failed_dir;
  if (options.html) require_viewer();
  World world = build_world(scene);
  if (!dump_failed_dir.empty()) {
    std::error_code ec;
    fs::create_directories(dump_failed_dir, ec);
    if (ec)
      throw Error(fmt::format("--dump-failed-lcp {}: cannot create the folder: {}",
                              dump_failed_dir.string(), ec.message()));
    world.set_failed_lcp_callback(failed_lcp_writer(dump_failed_dir));
  }

  const double h = scene.settings.world.time_step;
  // a recorded live run (scene "interactions") re-applies its events at their steps
  InteractionPlayer interactions(scene, world);
  const long total_steps =
      interactions.end_step().value_or(steps_for_duration(scene.settings.duration, h));
  if (options.html && interactions.throws())
    throw Error(
        "--html: the replay cannot show balls thrown during a run yet (the scene's "
        "\"interactions\" throw some); run without --html");
  const double rate = scene.settings.output_rate_hz;

  OutputDir dir(target);
  OutputFile trajectory(dir.file("trajectory.csv"));
  OutputFile metrics(dir.file("metrics.csv"));
  trajectory.print("{}\n", kTrajectoryHeader);
  metrics.print("{}\n", kMetricsHeader);
  std::vector<std::string> outputs = {"trajectory.csv", "metrics.csv", "summary.json",
                                      "shapes.json"};
  write_json(dir.file("shapes.json"), replay_shapes(scene, world));
  std::unique_ptr<ForceWriter> forces;
  if (options.forces) {
    forces = std::make_unique<ForceWriter>(scene, world, dir.file("contacts.csv"),
                                           dir.file("joints.csv"));
    outputs.insert(outputs.end(), {"contacts.csv", "joints.csv"});
  }
  if (options.html) outputs.push_back("replay.html");
  // a character's tracking error against its motion at each frame (docs/character.md)
  std::unique_ptr<OutputFile> character;
  if (scene.character) {
    character = std::make_unique<OutputFile>(dir.file("character.csv"));
    character->print("t,tracking_error_rad\n");
    outputs.push_back("character.csv");
  }
  const auto frame = [&] {
    write_frame(trajectory, world);
    if (forces) forces->write_frame(world);
    if (character)
      character->print("{},{}\n", step_time(world.step_count(), world.settings().time_step),
                       character_tracking_error(world, *scene.character));
  };

  if (!state_is_finite(world)) throw std::runtime_error("the initial state is not finite");
  const Energy initial = energy(world);
  frame();
  long next_frame = 1;  // index of the next output time next_frame / rate
  bool last_written = true;

  RunStats stats;
  std::set<std::pair<StepWarning, int>> seen_warnings;  // (kind, subject) already shown
  Progress progress(!quiet, total_steps);
  world.set_interrupt_check([] { return g_stop_signal != 0; });
  bool interrupted = false;
  const auto start = Clock::now();
  for (long k = 1; k <= total_steps; ++k) {
    interactions.apply_until(k - 1);
    const StepReport& r = world.step();
    const Energy e = energy(world);
    const double values[] = {output_time(world), e.kinetic,           e.potential,        e.total(),
                             r.solve_seconds,    r.joint_error_after, r.penetration_after};
    bool finite = state_is_finite(world);
    for (const double v : values) finite = finite && std::isfinite(v);
    if (!finite) {
      progress.done();
      throw std::runtime_error(fmt::format(
          "the state or its metrics became non-finite at step {} (t = {:.6g} s); no output "
          "written",
          k, output_time(world)));
    }
    metrics.print("{},{},{},{},{},{},{},{},{},{},{},{}\n", output_time(world), e.kinetic,
                  e.potential, e.total(), r.contacts, r.lcp_size, r.pivots, r.solve_seconds,
                  r.joint_error_after, r.penetration_after, r.reduced_pairs,
                  // an island answered by a fallback after a ray (the squeeze) shows the ray
                  lcp::to_string(r.status == lcp::LcpStatus::solved && r.rays > 0
                                     ? lcp::LcpStatus::ray_termination
                                     : r.status));
    ++stats.steps;
    stats.contacts += r.contacts;
    if (r.failures > 0) {
      ++stats.failed_steps;
      stats.failures += r.failures;
    }
    stats.max_joint_error = std::max(stats.max_joint_error, r.joint_error_after);
    stats.max_penetration = std::max(stats.max_penetration, r.penetration_after);
    stats.add_switches(r.switches);
    if (r.reduced_pairs > 0) ++stats.reduced_steps;
    stats.max_reduced_pairs = std::max(stats.max_reduced_pairs, r.reduced_pairs);
    for (const StepWarningRecord& w : r.warnings) {
      // one per kind and subject, while the set stays small; beyond that every one is counted
      if (seen_warnings.size() < kMaxTrackedWarnings &&
          !seen_warnings.insert({w.kind, w.subject}).second)
        continue;
      if (static_cast<int>(stats.warnings.size()) < kMaxWarnings) {
        stats.warnings.push_back(w.message);
        progress.done();
        fmt::print(stderr, "pivot: warning: t = {:.6g} s: {}\n", output_time(world), w.message);
      } else {
        ++stats.more_warnings;
      }
    }
    // frames at the first step at or after each output time j / rate (decided on k h, not on
    // the accumulated time, so a frame never slips by one step through rounding)
    last_written = false;
    if (rate > 0.0 && static_cast<double>(k) * h * rate >= static_cast<double>(next_frame) - 1e-9) {
      frame();
      last_written = true;
      next_frame = static_cast<long>(std::floor(static_cast<double>(k) * h * rate + 1e-9)) + 1;
    }
    progress.update(k, output_time(world));
    if (g_stop_signal != 0) {
      interrupted = true;
      break;
    }
  }
  stats.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  progress.done();
  interactions.apply_until(total_steps);
  interactions.warn_unapplied();
  if (!last_written) frame();
  world.set_interrupt_check({});
  if (interrupted)
    fmt::print(stderr,
               "pivot: interrupted (signal {}) at t = {:.6g} s after {} of {} steps; writing the "
               "outputs of the time simulated\n",
               static_cast<int>(g_stop_signal), output_time(world), stats.steps, total_steps);
  if (stats.more_warnings > 0)
    fmt::print(stderr, "pivot: warning: {} more warnings not shown\n", stats.more_warnings);

  const std::uint64_t hash = state_hash(world);
  const Energy final_energy = energy(world);
  const auto write_summary = [&] {
    write_json(dir.file("summary.json"), summary_json(scene, world, stats, initial, final_energy,
                                                      hash, outputs, interrupted));
  };
  write_summary();
  trajectory.close();
  metrics.close();
  if (forces) forces->close();
  // the steps after the simulation never cost its results: a replay that fails is left out of
  // the committed folder and reported against it
  RunReplay replay;
  if (options.html) {
    replay = write_run_replay(dir, outputs);
    if (!replay.error.empty()) write_summary();
  }
  dir.commit(outputs, stale_outputs(outputs));
  if (!quiet) {
    print_summary(scene, world, stats, hash, dir.target());
    if (replay.written) print_replay_written(*replay.written);
    if (world.settings().profile) print_profile(stdout, world);
  }
  if (!replay.error.empty()) throw std::runtime_error(replay_failed_message(dir, replay.error));
  return interrupted ? kInterruptedExitCode : 0;
}

namespace {

int run(const RunArgs& args) {
  StopSignals signals;
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
  if (g_stop_signal != 0) {
    fmt::print(stderr,
               "pivot: interrupted (signal {}) while the scene was loading: nothing was "
               "written\n",
               static_cast<int>(g_stop_signal));
    return kInterruptedExitCode;
  }
  if (args.duration_option->count() > 0) scene.settings.duration = args.duration;
  if (args.dt_option->count() > 0) scene.settings.world.time_step = args.dt;
  // the options' names in the message when they made the step longer than the run
  if ((args.duration_option->count() > 0 || args.dt_option->count() > 0) &&
      scene.settings.world.time_step > scene.settings.duration)
    throw Error(fmt::format("{}: the time step {:g} s is longer than the run's duration {:g} s",
                            args.dt_option->count() > 0 && args.duration_option->count() > 0
                                ? "--dt and --duration"
                            : args.dt_option->count() > 0 ? "--dt (the scene's duration)"
                                                          : "--duration (the scene's dt)",
                            scene.settings.world.time_step, scene.settings.duration));
  scene.settings.world.threads =
      args.threads > 0
          ? args.threads
          : std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxThreads);
  scene.settings.world.profile = args.profile;
  const fs::path target =
      args.out.empty() ? fs::path("pivot-out") / slugify(scene.name) : fs::path(args.out);
  return run_scene(scene, target,
                   {.quiet = args.quiet,
                    .dump_failed_dir = args.dump_failed_lcp,
                    .forces = !args.no_forces,
                    .html = args.html});
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
  auto action = [args] { return run(*args); };
  registry.actions.emplace_back(sub, action);
  registry.default_action = action;
}

}  // namespace pivot::cli
