#pragma once
// A key-frame track: the prescribed motion of a kinematic body (docs/scene-format.md "Kinematic
// bodies", docs/step.md "Kinematic bodies"; Struben 1998 §1.2: the animator's key frames are
// never altered).
//
// Positions (of the shape frame's origin, like a body's "position") are piecewise linear, or a
// Catmull–Rom spline: on [t_i, t_i+1] with s = (t − t_i)/Δ, Δ = t_i+1 − t_i, the cubic Hermite
//   p(s) = h00(s) p_i + h10(s) Δ m_i + h01(s) p_i+1 + h11(s) Δ m_i+1,
//   h00 = 2s³ − 3s² + 1, h10 = s³ − 2s² + s, h01 = −2s³ + 3s², h11 = s³ − s²,
// with the finite-difference tangents m_i = (p_i+1 − p_i−1)/(t_i+1 − t_i−1) inside and the
// one-sided ones m_0 = (p_1 − p_0)/(t_1 − t_0), m_n = (p_n − p_n−1)/(t_n − t_n−1) at the ends.
// Orientations are slerp (linear) or Shoemake's squad (cubic):
//   squad(q_i, q_i+1, a_i, a_i+1; s) = slerp(slerp(q_i, q_i+1; s), slerp(a_i, a_i+1; s); 2s(1−s)),
//   a_i = q_i exp(−(log(q_i⁻¹ q_i+1) + log(q_i⁻¹ q_i−1))/4),  a_0 = q_0, a_n = q_n
// (quaternions first put in one hemisphere, each with the sign nearer its predecessor; squad
// uses the key frames' order, not their times, as Shoemake's does). Before the first key frame
// the track holds the first pose, after the last the last one. At a key frame's time the track
// is the key frame itself, bit for bit.

#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot {

/// one key frame: a time and the pose of the body's shape frame
struct KeyFrame {
  double t = 0.0;                ///< s
  Vec3 p_WS = Vec3::Zero();      ///< shape frame origin in world, m (a body's "position")
  Quat q_WB = Quat::Identity();  ///< body → world (normalized by check_track)
};

enum class TrackInterpolation {
  linear,  ///< positions piecewise linear, orientations slerp
  cubic,   ///< positions Catmull–Rom, orientations squad
};

/// the key frames of a kinematic body, in time order
struct KinematicTrack {
  std::vector<KeyFrame> keyframes;
  TrackInterpolation interpolation = TrackInterpolation::linear;
};

/// quaternions of key frames may be off unit length by this much (relative) and are normalized;
/// further off is an error (a typo rather than rounding)
inline constexpr double kKeyFrameQuatTolerance = 1e-3;

/// validates (at least one key frame; finite times, positions and quaternions; times strictly
/// increasing; | |q| − 1 | ≤ kKeyFrameQuatTolerance) and normalizes the quaternions and puts
/// them in one hemisphere. Throws pivot::Error naming the key frame ("key frame 2: ...").
void check_track(KinematicTrack& track);

/// the pose of the shape frame at time t: (p_WS, q_WB)
struct TrackPose {
  Vec3 p_WS = Vec3::Zero();
  Quat q_WB = Quat::Identity();
};

/// the track at time t (a checked track)
[[nodiscard]] TrackPose sample_track(const KinematicTrack& track, double t);

/// Catmull–Rom position on a checked track at t (see above)
[[nodiscard]] Vec3 track_position(const KinematicTrack& track, double t);

/// orientation on a checked track at t (slerp or squad)
[[nodiscard]] Quat track_orientation(const KinematicTrack& track, double t);

}  // namespace pivot
