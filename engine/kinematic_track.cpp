// Key-frame tracks: see kinematic_track.hpp.
#include "pivot/engine/kinematic_track.hpp"

#include <fmt/core.h>

#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {
namespace {

// the segment i with t_i ≤ t < t_i+1 and s ∈ [0, 1); −1 before the track, n−1 after it
struct Segment {
  int i = 0;
  double s = 0.0;
};

Segment find_segment(const std::vector<KeyFrame>& k, double t) {
  const int n = static_cast<int>(k.size());
  if (n == 1 || t <= k.front().t) return {0, 0.0};
  if (t >= k.back().t) return {n - 1, 0.0};
  int lo = 0, hi = n - 1;  // k[lo].t ≤ t < k[hi].t
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (k[mid].t <= t)
      lo = mid;
    else
      hi = mid;
  }
  return {lo, (t - k[lo].t) / (k[lo + 1].t - k[lo].t)};
}

// Catmull–Rom tangent at key frame i (finite differences over the neighbours' times)
Vec3 tangent(const std::vector<KeyFrame>& k, int i) {
  const int n = static_cast<int>(k.size());
  const int a = std::max(0, i - 1), b = std::min(n - 1, i + 1);
  return (k[b].p_WS - k[a].p_WS) / (k[b].t - k[a].t);
}

// Shoemake's inner control quaternion a_i = q_i exp(−(log(q_i⁻¹ q_i+1) + log(q_i⁻¹ q_i−1))/4)
// (quat_log gives the rotation vector φ = 2 log q, so the quaternion log is φ/2 and
// exp(x) of a pure quaternion x is quat_exp(2x))
Quat squad_control(const std::vector<KeyFrame>& k, int i) {
  const int n = static_cast<int>(k.size());
  if (i == 0 || i == n - 1) return k[i].q_WB;
  const Quat inv = k[i].q_WB.conjugate();
  const Vec3 sum_phi = quat_log(inv * k[i + 1].q_WB) + quat_log(inv * k[i - 1].q_WB);
  return (k[i].q_WB * quat_exp(-sum_phi / 4.0)).normalized();
}

}  // namespace

void check_track(KinematicTrack& track) {
  auto& k = track.keyframes;
  if (k.empty()) throw Error("kinematic track: expected at least one key frame");
  for (std::size_t i = 0; i < k.size(); ++i) {
    const std::string who = fmt::format("key frame {}", i);
    if (!std::isfinite(k[i].t)) throw Error(who + ": time must be finite");
    if (!k[i].p_WS.allFinite()) throw Error(who + ": position must be finite");
    if (!k[i].q_WB.coeffs().allFinite()) throw Error(who + ": quaternion must be finite");
    const double norm = k[i].q_WB.norm();
    if (std::abs(norm - 1.0) > kKeyFrameQuatTolerance)
      throw Error(fmt::format("{}: quaternion has length {} (expected 1 within {})", who, norm,
                              kKeyFrameQuatTolerance));
    k[i].q_WB.normalize();
    if (i > 0 && !(k[i].t > k[i - 1].t))
      throw Error(fmt::format("{}: times must be strictly increasing (t = {} after t = {})", who,
                              k[i].t, k[i - 1].t));
    // the shorter way round from the previous key frame
    if (i > 0 && k[i].q_WB.dot(k[i - 1].q_WB) < 0.0) k[i].q_WB.coeffs() *= -1.0;
  }
}

Vec3 track_position(const KinematicTrack& track, double t) {
  const auto& k = track.keyframes;
  const Segment g = find_segment(k, t);
  if (g.s == 0.0) return k[g.i].p_WS;
  const Vec3& p0 = k[g.i].p_WS;
  const Vec3& p1 = k[g.i + 1].p_WS;
  const double s = g.s;
  if (track.interpolation == TrackInterpolation::linear) return (1.0 - s) * p0 + s * p1;
  const double dt = k[g.i + 1].t - k[g.i].t;
  const double s2 = s * s, s3 = s2 * s;
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
               h11 = s3 - s2;
  return h00 * p0 + h10 * dt * tangent(k, g.i) + h01 * p1 + h11 * dt * tangent(k, g.i + 1);
}

Quat track_orientation(const KinematicTrack& track, double t) {
  const auto& k = track.keyframes;
  const Segment g = find_segment(k, t);
  if (g.s == 0.0) return k[g.i].q_WB;
  const Quat& q0 = k[g.i].q_WB;
  const Quat& q1 = k[g.i + 1].q_WB;
  const double s = g.s;
  if (track.interpolation == TrackInterpolation::linear) return q0.slerp(s, q1);
  const Quat a0 = squad_control(k, g.i), a1 = squad_control(k, g.i + 1);
  return q0.slerp(s, q1).slerp(2.0 * s * (1.0 - s), a0.slerp(s, a1)).normalized();
}

TrackPose sample_track(const KinematicTrack& track, double t) {
  return {track_position(track, t), track_orientation(track, t)};
}

}  // namespace pivot
