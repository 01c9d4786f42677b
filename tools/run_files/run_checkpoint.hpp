#pragma once
// Checkpoints of `pivot run` (docs/cli.md "Checkpoints", docs/checkpoints.md "Runs"):
// `--checkpoint-every T` writes DIR/checkpoint.pivot every T s of simulated time, and
// `--resume DIR` continues the run from it. A checkpointed run writes its files in place in DIR
// (OutputDir::InPlace); a checkpoint holds the run's recipe (the scene file and the options
// that shaped it), the committed size of every output file, and the Simulation's checkpoint
// (its World's state, the loop's position, the summary's tallies). It is written to a hidden
// temporary file, flushed to the disk and renamed over the last one, after the output files
// were flushed to the disk: a run killed at any instant leaves the last whole checkpoint and
// at least the bytes it counts. A resumed run cuts every file back to its checkpoint's size and
// appends.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pivot/scenes/simulation.hpp"

namespace pivot::cli {

/// how a checkpointed run was asked for: what a resumed run needs to build the same scene
struct RunRecipe {
  std::string scene;              ///< the scene file, absolute; empty: the built-in default scene
  std::uint64_t scene_hash = 0;   ///< FNV-1a 64 of the scene file's bytes (0 without a file)
  std::vector<std::string> sets;  ///< --set edits, in order
  std::optional<double> duration, dt;
  bool no_ground = false;
  bool forces = true;
  bool html = false;
  bool profile = false;
  std::string dump_failed_lcp;
  double checkpoint_every = 0.0;  ///< s of simulated time
};

/// an output file's committed size at a checkpoint and the bytes of its header
struct CheckpointedFile {
  std::string name;
  std::uintmax_t bytes = 0;
  std::uintmax_t header = 0;
  /// FNV-1a 64 of its last kTailBytes bytes before `bytes`: a file of another run is refused
  std::uint64_t tail = 0;
};

/// the bytes of a file's end that a checkpoint hashes
inline constexpr std::uintmax_t kTailBytes = 4096;

/// a checkpoint file read back and checked
struct RunCheckpoint {
  RunRecipe recipe;
  double next_time = 0.0;  ///< the simulated time of the next checkpoint, s
  std::vector<CheckpointedFile> files;
  std::string simulation;  ///< Simulation::save_checkpoint's bytes
};

/// DIR/checkpoint.pivot
[[nodiscard]] std::filesystem::path checkpoint_path(const std::filesystem::path& dir);

/// reads DIR/checkpoint.pivot; pivot::Error naming the file for a missing, truncated, corrupt
/// or foreign one, or one whose scene file changed since
[[nodiscard]] RunCheckpoint read_run_checkpoint(const std::filesystem::path& dir);

/// FNV-1a 64 of a file's bytes; pivot::Error naming the file when it cannot be read
[[nodiscard]] std::uint64_t file_hash(const std::filesystem::path& file);

/// restores the checkpoint's run into `sim` (built from the scene the recipe gives), to the
/// scene's duration; pivot::Error naming DIR's checkpoint when it is refused
/// (Simulation::restore_checkpoint) or the duration ends before it
void resume_simulation(Simulation& sim, const Scene& scene, const RunCheckpoint& resumed,
                       const std::filesystem::path& dir);

/// the outputs and checkpoint.pivot: the files of a checkpointed run that are not stale
[[nodiscard]] std::vector<std::string> with_checkpoint(std::vector<std::string> outputs);

/// writes a run's checkpoints while it runs (the run's RunHooks::progress calls after_step)
class RunCheckpointer {
 public:
  /// `resumed`: the checkpoint the run continues (its files' headers and schedule), else null
  RunCheckpointer(RunRecipe recipe, std::filesystem::path dir, const RunCheckpoint* resumed);

  /// before a resumed run opens its files: checks every file of the checkpoint (a regular file
  /// at least as long as its size: else pivot::Error naming it, nothing changed), then has the
  /// OutputFiles opened next continue them; removes summary.json (the run is not finished)
  void continue_files(const RunCheckpoint& resumed);
  /// once the files are open, before the first step: their headers' sizes (a fresh run)
  void start();
  /// after a step (RunHooks::progress) at simulated time t: a checkpoint when t has reached
  /// the next checkpoint time. Skipped while `stopping` (a step cut short by a stop request
  /// is not the uninterrupted run's step)
  void after_step(const Simulation& sim, double t, bool stopping);

 private:
  void write(const Simulation& sim);

  RunRecipe recipe_;
  std::filesystem::path dir_;
  double next_time_ = 0.0;
  std::vector<std::pair<std::string, std::uintmax_t>> headers_;
};

}  // namespace pivot::cli
