#pragma once
// A run folder read back for the replay viewer (docs/viewer.md): trajectory.csv, metrics.csv,
// summary.json and shapes.json, and contacts.csv, joints.csv and sensors.csv when the run wrote
// them. The
// reader is strict: a missing, corrupted or truncated file is a pivot::Error naming the file and
// the line (or JSON pointer), never a crash.

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_files/run_sensors.hpp"

namespace pivot::cli {

/// a run file's number as the replay stores it (32 bits): a finite double beyond float's range
/// (a metric near 1.8e308) becomes the largest float of its sign instead of an undefined
/// conversion; subnormals below float's range become 0
[[nodiscard]] inline float to_float(double x) {
  constexpr double kMax = std::numeric_limits<float>::max();
  return static_cast<float>(std::clamp(x, -kMax, kMax));
}

/// one contact row of contacts.csv after t: body indices and the 11 numbers x … fz
struct ReplayContact {
  int body_a = -1, body_b = -1;
  std::array<float, 11> values{};  ///< x, y, z, nx, ny, nz, gap, normal_impulse, fx, fy, fz
};

struct ReplayJoint {
  std::string name, type, body_a, body_b;
};

/// numbers per joint and frame: ax … motor_impulse of joints.csv
inline constexpr int kJointValues = 20;

struct ReplayRun {
  nlohmann::ordered_json summary;  ///< summary.json as written
  nlohmann::ordered_json shapes;   ///< shapes.json, checked
  std::vector<int> dynamic;        ///< the bodies of trajectory.csv (indices into shapes)
  std::vector<double> times;       ///< frame times, increasing
  /// per frame and dynamic body: x, y, z, qw, qx, qy, qz
  std::vector<float> poses;
  std::vector<std::string> metric_columns;   ///< numeric columns of metrics.csv
  std::vector<std::vector<double>> metrics;  ///< per column, one value per step
  long failed_steps = 0;                     ///< metrics rows whose status is not "solved"
  bool has_contacts = false, has_joints = false;
  std::vector<std::vector<ReplayContact>> contacts;  ///< per frame
  std::vector<ReplayJoint> joints;
  std::vector<float> joint_values;  ///< per frame and joint, kJointValues numbers
  bool has_sensors = false;         ///< sensors.csv is there
  SensorTable sensors;              ///< sensors.csv (run_sensors.hpp)
};

/// reads the run folder `dir`; throws pivot::Error
[[nodiscard]] ReplayRun read_replay_run(const std::filesystem::path& dir);

}  // namespace pivot::cli
