#pragma once
// BVH motion capture files (Biovision hierarchy), the input of the motion-capture-driven
// character (Cline 2002 §5.1; docs/character.md).
//
//   HIERARCHY
//   ROOT Hips                      one root; JOINTs nest inside braces
//   {
//     OFFSET 0 0 0                 the joint's origin in its parent's frame (file units)
//     CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
//     JOINT Chest { OFFSET ... CHANNELS 3 Zrotation Xrotation Yrotation ... }
//     End Site { OFFSET ... }      a leaf's end point, no channels
//   }
//   MOTION
//   Frames: 2
//   Frame Time: 0.0083333
//   one line per frame: one number per channel, in the order the channels were declared
//
// A joint's rotation in its parent's frame is the product of its rotation channels in the order
// written, angles in degrees: "Zrotation Xrotation Yrotation" is R = Rz(a) Rx(b) Ry(c). Position
// channels translate the joint's origin (offset + (x, y, z)).
//
// The reader is strict: anything unexpected is a pivot::Error whose place() is "line N" (and
// whose message says what was expected), never a crash, never a non-finite number.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "pivot/core/spatial.hpp"

namespace pivot {

/// the largest BVH file load_bvh reads, bytes (64 MiB, as for scenes)
inline constexpr std::size_t kMaxBvhBytes = std::size_t{64} << 20;
/// the most joints and frames a clip may have (bounds the work of a malformed file)
inline constexpr int kMaxBvhJoints = 1000;
inline constexpr long kMaxBvhFrames = 10'000'000;
/// the frame time's range, s (1 MHz to 0.1 Hz): the motion's spline divides by its square
inline constexpr double kMinBvhFrameTime = 1e-6;
inline constexpr double kMaxBvhFrameTime = 10.0;

enum class BvhChannel { x_position, y_position, z_position, x_rotation, y_rotation, z_rotation };

/// "Xposition", ..., "Zrotation" as written in files
[[nodiscard]] const char* to_string(BvhChannel c);
/// true for the three rotation channels
[[nodiscard]] bool is_rotation(BvhChannel c);
/// the unit axis of a channel (x, y or z)
[[nodiscard]] Vec3 channel_axis(BvhChannel c);

/// one joint of the hierarchy, in file order (a parent comes before its children)
struct BvhJoint {
  std::string name;
  int parent = -1;                   ///< index into BvhClip::joints, −1 for the root
  Vec3 offset = Vec3::Zero();        ///< origin in the parent's frame, file units
  std::vector<BvhChannel> channels;  ///< in the file's order
  int first_channel = 0;             ///< its first value's column in a frame
  std::optional<Vec3> end_site;      ///< a leaf's End Site offset, file units
  int line = 0;                      ///< the line of its ROOT/JOINT keyword (for messages)
};

/// a parsed BVH file
struct BvhClip {
  std::vector<BvhJoint> joints;  ///< joints[0] is the root
  double frame_time = 0.0;       ///< s, > 0
  /// one row per frame, one column per channel (angles in degrees, positions in file units)
  Eigen::MatrixXd frames;
  std::string source;  ///< the file or text name, for messages

  [[nodiscard]] int channel_count() const { return static_cast<int>(frames.cols()); }
  [[nodiscard]] int frame_count() const { return static_cast<int>(frames.rows()); }
  /// index of the joint with this name, or −1
  [[nodiscard]] int find_joint(std::string_view name) const;
};

/// parses BVH text; `source` names it in messages. Throws pivot::Error with place "line N"
[[nodiscard]] BvhClip parse_bvh(std::string_view text, std::string_view source = "<bvh>");
/// reads and parses a file (at most kMaxBvhBytes). Throws pivot::Error
[[nodiscard]] BvhClip load_bvh(const std::filesystem::path& file);
/// the clip as BVH text (tabs for indentation, numbers with 17 significant digits, so
/// parse_bvh(write_bvh(c)) gives c back exactly)
[[nodiscard]] std::string write_bvh(const BvhClip& clip);

/// the rotation of joint j in its parent's frame for one frame's values (the product of its
/// rotation channels in the order written; identity without rotation channels)
[[nodiscard]] Mat3 bvh_local_rotation(const BvhJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& frame);
/// the joint's origin in its parent's frame: offset plus its position channels
[[nodiscard]] Vec3 bvh_local_position(const BvhJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& frame);

}  // namespace pivot
