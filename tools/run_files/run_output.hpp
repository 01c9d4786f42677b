#pragma once
// The output folder of `pivot run`: files are written into a hidden temporary sibling of the
// target folder and moved into place only by commit(), so a failed or interrupted run never
// leaves a folder that looks complete.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pivot {
class World;
}

namespace pivot::cli {

/// removes `.<name>.partial-<pid>` entries of `parent` whose process no longer exists (a run
/// or a checkpoint write that was killed); those of live processes are left alone
void remove_stale_partials(const std::filesystem::path& parent, const std::string& name);

/// the fixed headers of a run folder's trajectory.csv and metrics.csv (docs/cli.md)
inline constexpr const char* kTrajectoryHeader = "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
inline constexpr const char* kMetricsHeader =
    "t,kinetic_energy,potential_energy,total_energy,contacts,lcp_size,pivots,solve_time_s,"
    "max_joint_error,max_penetration,reduced_pairs,status";

/// the 13 numbers of a body's state in the column order of trajectory.csv after "body"
[[nodiscard]] std::array<double, 13> body_state(const World& world, int i);

/// one frame of trajectory.csv at time t: a row per body that moves (dynamic or kinematic)
class OutputFile;
void write_trajectory_rows(OutputFile& out, const World& world, double t);

/// the outputs of `pivot run`/`pivot animate` not in `written`: files a rerun into the same
/// folder removes, so that no output of an earlier run stays beside the new ones (docs/cli.md)
[[nodiscard]] std::vector<std::string> stale_outputs(const std::vector<std::string>& written);

/// summary.json's "final_state": every body's name and its 13 numbers (x … wz)
[[nodiscard]] nlohmann::ordered_json final_state_json(const World& world);

class OutputDir {
 public:
  /// creates `<parent>/.<name>.partial-<pid>` (and the parent folders), after removing the
  /// partial folders of the same name left by killed runs whose process is gone. A target
  /// folder that exists must hold only a run's files (an earlier run, plots): anything else
  /// (`--out /`, `--out ~`) is a pivot::Error naming it, before anything is written; throws
  /// std::runtime_error naming the folder when that fails
  explicit OutputDir(std::filesystem::path target);
  /// in place (a checkpointed run, run_checkpoint.hpp): the files are written into the target
  /// folder itself (created if needed, checked as above), so that a run killed at any point
  /// leaves its files up to its last checkpoint there; nothing is removed on failure
  struct InPlace {};
  OutputDir(std::filesystem::path target, InPlace);
  /// removes the temporary folder unless committed
  ~OutputDir();
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  /// a path inside the temporary folder
  [[nodiscard]] std::filesystem::path file(std::string_view name) const { return temp_ / name; }
  /// the final folder
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }

  /// moves the files into place: renames the temporary folder to the target when the target
  /// does not exist, else replaces the target's files of the same names and removes its files
  /// named in `stale` (an earlier run's files this run did not write) as one transaction: on
  /// any failure the target is left as it was (replace_files). Throws std::runtime_error
  /// naming the file.
  void commit(const std::vector<std::string>& files, const std::vector<std::string>& stale = {});

 private:
  void replace_files(const std::vector<std::string>& files, const std::vector<std::string>& stale);

  std::filesystem::path target_;
  std::filesystem::path temp_;
  bool committed_ = false;
  bool in_place_ = false;
};

/// a FILE* opened for writing with a large buffer; close() reports write errors
class OutputFile {
 public:
  /// throws std::runtime_error naming the file when it cannot be opened
  explicit OutputFile(const std::filesystem::path& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  [[nodiscard]] std::FILE* get() const { return file_; }
  /// formats and writes; a failed write (a full disk) throws std::runtime_error naming the
  /// file and the system's reason
  template <typename... T>
  void print(fmt::format_string<T...> format, T&&... args) {
    write(fmt::vformat(format, fmt::make_format_args(args...)));
  }
  /// writes the text; throws std::runtime_error naming the file when it cannot
  void write(std::string_view text);
  /// flushes and closes; throws std::runtime_error naming the file and the reason on any
  /// write error
  void close();

  // checkpointed runs (run_checkpoint.hpp): every OutputFile open in this process is listed
  /// a file continued by a resumed run: its first `bytes` are kept (the rest is cut off), and
  /// the first `header` bytes written to it (its header, written again by its writer) are
  /// checked against the file's and dropped
  struct Continued {
    std::uintmax_t bytes = 0;
    std::uintmax_t header = 0;
  };
  /// the next OutputFile opened on `path` continues the file (a std::runtime_error naming it
  /// when it is shorter than `c.bytes`)
  static void continue_next(const std::filesystem::path& path, Continued c);
  /// flushes every open OutputFile in `folder` to the disk (fflush, fsync) and returns their
  /// names and sizes in bytes; std::runtime_error naming a file that cannot be written
  [[nodiscard]] static std::vector<std::pair<std::string, std::uintmax_t>> sync_open_files(
      const std::filesystem::path& folder);

 private:
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  std::string header_;  // a continued file's header, still to be written again and dropped
};

/// a CSV field: quoted (with doubled quotes) when it holds a comma, quote or line break
[[nodiscard]] std::string csv_field(std::string_view text);

/// text for XML or HTML: '<', '>' and '&' as entities
[[nodiscard]] std::string xml_text(std::string_view text);

/// lower-case letters and digits, other runs of characters as one '-'; "scene" if empty
[[nodiscard]] std::string slugify(std::string_view name);

}  // namespace pivot::cli
