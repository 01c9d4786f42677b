#pragma once
// Subcommands of the pivot CLI (docs/cli.md). Each register_* adds its subcommand to the app
// and records the action to run when it is parsed. Actions return the process exit code:
// 0 success, 1 a run that failed, 2 bad input (the message is one line
// "pivot: error: ..." on stderr). Actions may throw: main() turns pivot::Error into
// exit 2 and any other exception into exit 1.

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <utility>
#include <vector>

namespace pivot {
struct Scene;
}

namespace pivot::cli {

/// what `pivot run` writes besides trajectory.csv, metrics.csv, summary.json and shapes.json
struct RunOptions {
  bool quiet = false;  ///< no progress line and no summary on stdout
  /// non-empty: every island LCP that fails is written there as failed-lcp-<pid>-<n>.dat (the
  /// reduced LCP, docs/lcp.md), best effort
  std::filesystem::path dump_failed_dir{};
  bool forces = true;  ///< contacts.csv and joints.csv (run_forces.hpp)
  bool html = false;   ///< replay.html (replay_html.hpp)
  /// --checkpoint-every: checkpoints into the target, written in place (run_checkpoint.hpp)
  const struct RunRecipe* checkpoint = nullptr;
  /// --resume: the checkpoint the run continues (with `checkpoint` set too)
  const struct RunCheckpoint* resume = nullptr;
};

/// the exit code of a run ended by SIGINT or SIGTERM (128 + SIGINT, as shells report Ctrl-C)
inline constexpr int kInterruptedExitCode = 130;

/// `pivot run` on a loaded scene: simulates scene.settings.duration and writes the run's files
/// into `target` (all or nothing; docs/cli.md). Returns 0, or kInterruptedExitCode when
/// SIGINT/SIGTERM ended it early (its outputs then cover the time simulated, summary.json has
/// "interrupted": true); throws on a failed run.
int run_scene(const Scene& scene, const std::filesystem::path& target,
              const RunOptions& options = {});

/// `pivot animate` on a loaded scene (cmd_animate.cpp, docs/animator.md): every body follows its
/// key frames and each frame's overlaps are removed by the projection LCP; writes a run folder
/// (trajectory.csv, metrics.csv, animator.csv, summary.json, shapes.json, replay.html with
/// options.html) into `target`. Returns 0; throws on a failed run.
int animate_scene(const Scene& scene, const std::filesystem::path& target,
                  const RunOptions& options = {});

struct ReplayWritten;
/// the summary line of a written replay.html
void print_replay_written(const ReplayWritten& written);

struct Registry {
  std::vector<std::pair<CLI::App*, std::function<int()>>> actions;
  /// what `pivot` does without a subcommand (`pivot run` on the built-in default scene)
  std::function<int()> default_action;
};

/// pivot run [SCENE.json | NAME] [--out DIR] [--duration T] [--dt H] [--set P=V]... [--quiet]
void register_run(CLI::App& app, Registry& registry);
/// pivot check SCENE.json|NAME [--set P=V]...
void register_check(CLI::App& app, Registry& registry);
/// pivot scenes
void register_scenes(CLI::App& app, Registry& registry);
/// pivot regress [--filter NAME] [--report FILE] [--record-goldens] ...
void register_regress(CLI::App& app, Registry& registry);
/// pivot replay RUN_DIR [--out FILE]
void register_replay(CLI::App& app, Registry& registry);
/// pivot lcp FILE [--json] [--z] [--mixed] [--max-pivots N]
void register_lcp(CLI::App& app, Registry& registry);
/// pivot animate SCENE [--out DIR] [--duration T] [--dt H] [--set P=V]... [--quiet] [--html]
void register_animate(CLI::App& app, Registry& registry);
/// pivot plot RUN_DIR [--metrics a,b] [--bodies a,b] [--fields x,y,z] [--out DIR]
void register_plot(CLI::App& app, Registry& registry);
/// pivot sweep SWEEP.json [--local N] [--out DIR] [--keep-runs] [--list] [--quiet]
void register_sweep(CLI::App& app, Registry& registry);

/// pivot render RUN_DIR [--out FILE] [--png T] [--size WxH] [--fps N] (cmd_render.cpp)
void register_render(CLI::App& app, Registry& registry);

/// pivot serve [SCENE.json | NAME] [--port P] [--host H] [--record DIR] (live_server.hpp)
void register_serve(CLI::App& app, Registry& registry);

}  // namespace pivot::cli
