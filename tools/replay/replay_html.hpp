#pragma once
// replay.html: one self-contained file that replays a run in a browser (docs/viewer.md): the
// embedded viewer script and the run's data inlined, no network access. Frames are decimated
// when the file would otherwise pass kReplayMaxBytes, and the viewer says so.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pivot::cli {

/// the size replay.html is kept under by default, bytes
inline constexpr std::uintmax_t kReplayMaxBytes = 45'000'000;
/// the bounds of `pivot replay --max-mb`, MB (a kB … a TB)
inline constexpr double kMinReplayMb = 0.001;
inline constexpr double kMaxReplayMb = 1e6;
/// metrics rows kept at most (every k-th step beyond)
inline constexpr std::size_t kReplayMaxMetricRows = 20'000;

struct ReplayWritten {
  std::filesystem::path file;
  std::uintmax_t bytes = 0;
  std::size_t frames = 0;    ///< frames in the replay
  std::size_t recorded = 0;  ///< frames in trajectory.csv
  double seconds = 0.0;      ///< wall time to read the run and write the file
};

/// throws pivot::Error saying why when pivot was built without the viewer
void require_viewer();

/// reads the run folder `dir` and writes its replay to `out` (through a temporary file, renamed
/// into place), keeping it under `max_bytes` by decimating frames; throws pivot::Error for a
/// missing, corrupted or truncated run folder (naming the file and the line or JSON pointer),
/// a viewer that was not built, or a run whose shapes and metrics alone pass max_bytes
ReplayWritten write_replay(const std::filesystem::path& dir, const std::filesystem::path& out,
                           std::uintmax_t max_bytes = kReplayMaxBytes);

class OutputDir;

/// what the replay step of `pivot run --html` (and `pivot animate --html`) did
struct RunReplay {
  std::optional<ReplayWritten> written;  ///< the replay, named at its place in the target
  std::string error;                     ///< why it was not written (empty when it was)
};

/// the replay step of a run with --html, after the simulation: writes replay.html into the
/// run's temporary folder. Its failure never costs the simulated results: the replay's file is
/// removed, "replay.html" taken out of `outputs`, and the reason returned, naming the files at
/// their place in the target folder (not in the temporary one, which is gone by the time the
/// message is read). The caller then writes summary.json's outputs again, commits the folder
/// and reports the failure against it.
[[nodiscard]] RunReplay write_run_replay(const OutputDir& dir, std::vector<std::string>& outputs);

/// the error of a committed run whose replay failed: "the run is in DIR (without replay.html);
/// its replay failed: REASON"
[[nodiscard]] std::string replay_failed_message(const OutputDir& dir, const std::string& reason);

}  // namespace pivot::cli
