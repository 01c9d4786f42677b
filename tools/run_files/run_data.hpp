#pragma once
// The outputs of one `pivot run` read back (trajectory.csv, metrics.csv, summary.json; their
// columns are in docs/cli.md), for `pivot regress` to measure from.

#include <array>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_files/run_sensors.hpp"

namespace pivot::cli {

/// one trajectory row after "body": t, x, y, z, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz
using Frame = std::array<double, 14>;

struct RunData {
  std::map<std::string, std::vector<Frame>> frames;  ///< per dynamic body, in time order
  std::vector<std::string> metric_columns;           ///< numeric columns of metrics.csv
  std::vector<std::vector<double>> metrics;          ///< rows × metric_columns
  nlohmann::json summary;
  /// character.csv's rows (t, tracking error in rad) when the run has a character, else empty
  std::vector<std::array<double, 2>> character;
  /// sensors.csv when the run has sensors (run_sensors.hpp), else no columns
  SensorTable sensors;

  /// the column of metrics.csv named `name`; throws std::runtime_error when there is none
  [[nodiscard]] std::vector<double> metric(const std::string& name) const;
  /// the frames of `body`; throws std::runtime_error when it has none
  [[nodiscard]] const std::vector<Frame>& body(const std::string& name) const;
};

/// reads the three files of `dir` (and character.csv and sensors.csv when there); throws std::runtime_error naming the file on any problem
[[nodiscard]] RunData read_run(const std::filesystem::path& dir);

/// A trajectory field of a frame: the CSV columns t, x, …, wz, and the body-frame angular
/// velocity wx_body, wy_body, wz_body (Rᵀω from the frame's quaternion). Throws
/// std::runtime_error for an unknown name.
[[nodiscard]] double frame_field(const Frame& frame, const std::string& field);

}  // namespace pivot::cli
