#pragma once
// Trajectory files: the recorded target poses of a manipulandum (docs/scene-format.md
// "Manipulanda"; Barbič 2007 §4.9 replays recorded device trajectories offline). A text file,
// one pose per line, eight comma-separated numbers:
//
//   # t, x, y, z, qw, qx, qy, qz
//   0.0,  0.00, 0, 0.05,  1, 0, 0, 0
//   0.5,  0.02, 0, 0.05,  0.9238795, 0, 0, 0.3826834
//
// t in s, strictly increasing; the position in m (|x| ≤ 1e9); the orientation (target → world)
// as a unit quaternion w, x, y, z (within 1e-3 of unit length; normalized). Blank lines and
// lines starting with '#' are skipped; spaces and tabs around the numbers are allowed. Between
// rows the pose is linear in position and slerp in orientation (a linear KinematicTrack).

#include <filesystem>
#include <string_view>

#include "pivot/engine/kinematic_track.hpp"

namespace pivot {

/// the largest trajectory file read, bytes (64 MiB, as scene files)
inline constexpr std::size_t kMaxTrajectoryBytes = std::size_t{64} << 20;

/// parses a trajectory's text (see above) into a checked linear track; `source` names it in
/// messages. Throws pivot::Error naming the line: `FILE: line 3: expected 8 numbers ...`
[[nodiscard]] KinematicTrack parse_trajectory(std::string_view text, std::string_view source);

/// reads a trajectory file; an unreadable file, a folder or a file larger than
/// kMaxTrajectoryBytes is a pivot::Error as well
[[nodiscard]] KinematicTrack load_trajectory(const std::filesystem::path& file);

}  // namespace pivot
