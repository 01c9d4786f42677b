#pragma once
// A run folder read back for the replay viewer (docs/viewer.md): trajectory.csv, metrics.csv,
// summary.json and shapes.json, and contacts.csv and joints.csv when the run wrote them. The
// reader is strict: a missing, corrupted or truncated file is a pivot::Error naming the file and
// the line (or JSON pointer), never a crash.

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pivot::cli {

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
};

/// reads the run folder `dir`; throws pivot::Error
[[nodiscard]] ReplayRun read_replay_run(const std::filesystem::path& dir);

}  // namespace pivot::cli
