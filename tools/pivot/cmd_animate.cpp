// pivot animate SCENE [--out DIR] [--duration T] [--dt H] [--set P=V]... [--quiet] [--html]
//
// Struben's animator mode (docs/animator.md): every body follows its key frames; each frame
// (one per time step dt, for the scene's duration) the overlaps are removed by the
// position-level projection LCP alone. Writes a run folder like `pivot run` (trajectory.csv and
// metrics.csv with their fixed headers, summary.json, shapes.json, replay.html with --html) plus
// animator.csv, the per-frame report. Exit codes as `pivot run`.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "pivot/engine/animator.hpp"
#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/version.hpp"
#include "replay/replay_geometry.hpp"
#include "replay/replay_html.hpp"
#include "run_files/run_output.hpp"
#include "scene_source.hpp"
#include "seconds_option.hpp"

namespace pivot::cli {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

void write_json(const fs::path& file, const ojson& j);  // cmd_run.cpp

namespace {

constexpr const char* kAnimatorHeader =
    "frame,t,overlaps,overlap_before,overlap_after,passes,pivots,rays,immovable,status,"
    "detect_s,convert_s,response_s";

/// the scene with its kinematic bodies made dynamic at their first key-framed pose (their
/// tracks go to the animator instead): in animator mode every body is posed, none simulated
Scene animator_scene(const Scene& scene) {
  Scene s = scene;
  for (SceneBody& b : s.bodies) {
    if (!b.kinematic) continue;
    const TrackPose p = sample_track(*b.kinematic, 0.0);
    b.settings.kinematic = nullptr;
    b.settings.p_WS = p.p_WS;
    b.settings.q_WB = p.q_WB;
  }
  return s;
}

/// Struben's Fig. 5.2 table: per stage, the frames it ran in and its mean wall time
struct StageTally {
  long frames = 0;
  double seconds = 0.0;
  void add(double s, bool ran) {
    if (!ran) return;
    ++frames;
    seconds += s;
  }
  [[nodiscard]] ojson json() const {
    return {{"frames", frames},
            {"mean_ms", frames > 0 ? 1e3 * seconds / static_cast<double>(frames) : 0.0},
            {"total_s", seconds}};
  }
};

}  // namespace

int animate_scene(const Scene& scene, const fs::path& target, const RunOptions& options) {
  if (options.html) require_viewer();
  const Scene posed = animator_scene(scene);
  World world = build_world(posed);
  const int n = world.body_count();
  std::vector<std::optional<KinematicTrack>> tracks(static_cast<std::size_t>(n));
  std::vector<AnimatorBodySettings> controls(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const SceneBody& b = scene.bodies[static_cast<std::size_t>(i)];
    if (b.kinematic) tracks[static_cast<std::size_t>(i)] = *b.kinematic;
    if (b.animator) controls[static_cast<std::size_t>(i)] = *b.animator;
  }
  Animator animator = [&] {
    try {
      return Animator(world, tracks, controls);
    } catch (const Error& e) {
      throw Error(scene.source, "/bodies", e.what());
    }
  }();
  const AnimatorSettings settings{};
  const double h = scene.settings.world.time_step;
  const long frames = steps_for_duration(scene.settings.duration, h);

  OutputDir dir(target);
  OutputFile trajectory(dir.file("trajectory.csv"));
  OutputFile metrics(dir.file("metrics.csv"));
  OutputFile report(dir.file("animator.csv"));
  trajectory.print("{}\n", kTrajectoryHeader);
  metrics.print("{}\n", kMetricsHeader);
  report.print("{}\n", kAnimatorHeader);
  std::vector<std::string> outputs = {"trajectory.csv", "metrics.csv", "animator.csv",
                                      "summary.json", "shapes.json"};
  write_json(dir.file("shapes.json"), replay_shapes(scene, world));
  if (options.html) outputs.push_back("replay.html");

  StageTally detect, convert, response;
  long overlap_frames = 0, above = 0, passes = 0, pivots = 0, rays = 0, immovable_frames = 0;
  double worst_before = 0.0, worst_after = 0.0;
  std::vector<std::string> warnings;
  const auto start = std::chrono::steady_clock::now();
  for (long k = 0; k <= frames; ++k) {
    const AnimatorFrame& f = animator.frame(k);
    const double t = step_time(k, h);
    if (!world.bodies().positions().allFinite())
      throw std::runtime_error(fmt::format("the poses became non-finite at frame {}", k));
    write_trajectory_rows(trajectory, world, t);
    const double potential = world.potential_energy();
    metrics.print("{},{},{},{},{},{},{},{},{},{},{},{}\n", t, 0.0, potential, potential, f.overlaps,
                  f.passes, f.pivots, f.response_seconds, 0.0, f.overlap_after, 0,
                  lcp::to_string(f.status));
    report.print("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", k, t, f.overlaps, f.overlap_before,
                 f.overlap_after, f.passes, f.pivots, f.rays, f.immovable, lcp::to_string(f.status),
                 f.detect_seconds, f.convert_seconds, f.response_seconds);
    const bool collided = f.overlaps > 0;
    detect.add(f.detect_seconds, true);
    convert.add(f.convert_seconds, collided);
    response.add(f.response_seconds, collided);
    overlap_frames += collided ? 1 : 0;
    passes += f.passes;
    pivots += f.pivots;
    rays += f.rays;
    immovable_frames += f.immovable > 0 ? 1 : 0;
    worst_before = std::max(worst_before, f.overlap_before);
    worst_after = std::max(worst_after, f.overlap_after);
    if (f.overlap_after > settings.overlap_tolerance) {
      ++above;
      if (warnings.size() < 20)
        warnings.push_back(fmt::format(
            "frame {} (t = {:.6g} s): {:.3g} m of overlap remains ({})", k, t, f.overlap_after,
            f.immovable > 0 ? "between bodies that may not move"
            : f.rays > 0    ? "the projection has no feasible answer: only forbidden motions "
                              "(translate or rotate 0) could remove it"
                            : "not removed within the passes"));
    }
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  ojson j;
  j["pivot_version"] = kVersion;
  j["mode"] = "animator";
  j["scene"] = scene.name;
  j["scene_file"] = scene.source;
  j["steps"] = frames;
  j["dt"] = h;
  j["simulated_time_s"] = step_time(frames, h);
  j["wall_time_s"] = wall;
  j["final_state_hash"] = hash_to_hex(state_hash(world));
  j["final_state"] = final_state_json(world);
  const double potential = world.potential_energy();
  j["energy"] = {{"final", {{"kinetic", 0.0}, {"potential", potential}, {"total", potential}}}};
  j["max_joint_error"] = 0.0;
  j["max_penetration"] = worst_after;
  j["lcp"] = {{"solves", passes}, {"pivots", pivots}, {"failures", rays}, {"fallbacks", 0}};
  j["animator"] = {{"frames", frames + 1},
                   {"frames_with_overlaps", overlap_frames},
                   {"max_overlap_before", worst_before},
                   {"max_overlap_after", worst_after},
                   {"overlap_tolerance", settings.overlap_tolerance},
                   {"frames_above_tolerance", above},
                   {"passes", passes},
                   {"rays", rays},
                   {"frames_with_immovable_overlaps", immovable_frames},
                   {"stages",
                    {{"detection", detect.json()},
                     {"conversion", convert.json()},
                     {"response", response.json()}}}};
  j["warnings"] = warnings;
  if (world.joint_count() > 0) j["warnings"].push_back("joints are not applied in animator mode");
  j["outputs"] = outputs;
  write_json(dir.file("summary.json"), j);
  trajectory.close();
  metrics.close();
  report.close();
  // a replay that fails is left out of the committed folder and reported against it
  RunReplay replay;
  if (options.html) {
    replay = write_run_replay(dir, outputs);
    if (!replay.error.empty()) {
      j["outputs"] = outputs;
      write_json(dir.file("summary.json"), j);
    }
  }
  dir.commit(outputs, stale_outputs(outputs));
  if (!options.quiet) {
    fmt::print("pivot animate: {} ({})\n", scene.name, scene.source);
    fmt::print("  frames       {} of {:g} s; {} with overlaps\n", frames + 1, h, overlap_frames);
    fmt::print(
        "  overlap      deepest {:.3g} m before, {:.3g} m after the projection; {} frames "
        "above {:g} m\n",
        worst_before, worst_after, above, settings.overlap_tolerance);
    fmt::print("  projection   {} LCPs, {} pivots, {} without a feasible answer\n", passes, pivots,
               rays);
    fmt::print(
        "  stages       detection {:.3f} ms ({} frames), conversion {:.3f} ms ({}), "
        "response {:.3f} ms ({})\n",
        detect.json()["mean_ms"].get<double>(), detect.frames,
        convert.json()["mean_ms"].get<double>(), convert.frames,
        response.json()["mean_ms"].get<double>(), response.frames);
    for (const auto& w : j["warnings"])
      fmt::print(stderr, "pivot: warning: {}\n", w.get<std::string>());
    fmt::print("  output       {}\n", dir.target().string());
    if (replay.written) print_replay_written(*replay.written);
  }
  if (!replay.error.empty()) throw std::runtime_error(replay_failed_message(dir, replay.error));
  return 0;
}

namespace {

struct AnimateArgs {
  std::string scene, out;
  double duration = 0.0, dt = 0.0;
  std::vector<std::string> sets;
  bool quiet = false, html = false;
  CLI::Option* duration_option = nullptr;
  CLI::Option* dt_option = nullptr;
};

}  // namespace

void register_animate(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<AnimateArgs>();
  auto* sub = app.add_subcommand(
      "animate",
      "key-framed animation with automatic overlap removal (Struben's animator mode, "
      "docs/animator.md)");
  sub->add_option("scene", args->scene, "scene file or shipped scene name")->required();
  sub->add_option("--out", args->out, "output folder (default ./pivot-out/<scene name>)");
  args->duration_option =
      sub->add_option("--duration", args->duration, "animated time in s (overrides the scene)")
          ->check(positive_seconds());
  args->dt_option = sub->add_option("--dt", args->dt, "frame interval in s (overrides the scene)")
                        ->check(positive_seconds());
  sub->add_option("--set", args->sets,
                  "edit the scene first: /json/pointer=value, the value as JSON (repeatable)");
  sub->add_flag("--quiet,-q", args->quiet, "no summary on stdout");
  sub->add_flag("--html", args->html, "also write replay.html (docs/viewer.md)");
  registry.actions.emplace_back(sub, [args] {
    std::vector<SceneEdit> edits;
    for (const std::string& s : args->sets) edits.push_back(parse_scene_edit(s));
    Scene scene = load_scene_with_edits(resolve_scene_path(args->scene), edits);
    if (args->duration_option->count() > 0) scene.settings.duration = args->duration;
    if (args->dt_option->count() > 0) scene.settings.world.time_step = args->dt;
    const fs::path target =
        args->out.empty() ? fs::path("pivot-out") / slugify(scene.name) : fs::path(args->out);
    return animate_scene(scene, target, {.quiet = args->quiet, .html = args->html});
  });
}

}  // namespace pivot::cli
