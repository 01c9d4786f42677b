// Key-frame tracks (engine/kinematic_track.hpp): interpolation against values computed by hand,
// the key frames reproduced exactly, and strict validation.
#include <catch2/catch.hpp>
#include <cmath>

#include "pivot/core/error.hpp"
#include "pivot/engine/kinematic_track.hpp"

using namespace pivot;

namespace {
Quat about_z(double angle) {
  return Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
}
// x = 0, 1, 3, 3 and rotations 0, 0.5, 1.5, 1.5 rad about z at t = 0, 1, 2, 3
KinematicTrack sample(TrackInterpolation mode) {
  KinematicTrack track;
  track.interpolation = mode;
  const double x[] = {0.0, 1.0, 3.0, 3.0}, a[] = {0.0, 0.5, 1.5, 1.5};
  for (int i = 0; i < 4; ++i) track.keyframes.push_back({double(i), Vec3(x[i], 0, 0), about_z(a[i])});
  check_track(track);
  return track;
}
double angle_about_z(const Quat& q) {
  return 2.0 * std::atan2(q.z(), q.w());
}
}  // namespace

TEST_CASE("linear track: lerp and slerp between key frames, held outside") {
  const KinematicTrack k = sample(TrackInterpolation::linear);
  CHECK(track_position(k, 1.25).x() == Approx(1.5).margin(1e-15));
  CHECK(angle_about_z(track_orientation(k, 1.25)) == Approx(0.75).margin(1e-14));
  CHECK(track_position(k, -5.0).x() == 0.0);
  CHECK(track_position(k, 10.0).x() == 3.0);
}

TEST_CASE("Catmull-Rom position against the Hermite form by hand") {
  const KinematicTrack k = sample(TrackInterpolation::cubic);
  // segment [1, 2] at s = 1/2: m_1 = (3 − 0)/2 = 1.5, m_2 = (3 − 1)/2 = 1, Δ = 1,
  // h00 = h01 = 1/2, h10 = 1/8, h11 = −1/8: p = 0.5 + 0.1875 + 1.5 − 0.125 = 2.0625
  CHECK(track_position(k, 1.5).x() == Approx(2.0625).margin(1e-14));
  // segment [0, 1] at s = 1/2: m_0 = 1 (one-sided), m_1 = 1.5: 0 + 0.125 + 0.5 − 0.1875 = 0.4375
  CHECK(track_position(k, 0.5).x() == Approx(0.4375).margin(1e-14));
}

TEST_CASE("squad about one axis against Shoemake's formula by hand") {
  const KinematicTrack k = sample(TrackInterpolation::cubic);
  // about one axis every slerp interpolates angles linearly: the inner controls are
  // σ_i = θ_i − (θ_i+1 − 2θ_i + θ_i−1)/4: σ_1 = 0.5 − 0.5/4 = 0.375, σ_2 = 1.5 + 1/4 = 1.75.
  // At s = 1/2: slerp(q1, q2) = 1.0, slerp(a1, a2) = 1.0625, blend 2s(1 − s) = 1/2: 1.03125
  CHECK(angle_about_z(track_orientation(k, 1.5)) == Approx(1.03125).margin(1e-13));
  // first segment, s = 1/4: σ_0 = θ_0 = 0, σ_1 = 0.375; A = 0.125, B = 0.09375, blend 3/8:
  // 0.125 + 0.375 (0.09375 − 0.125) = 0.11328125
  CHECK(angle_about_z(track_orientation(k, 0.25)) == Approx(0.11328125).margin(1e-13));
}

TEST_CASE("a track is its key frames at their times, bit for bit") {
  for (const auto mode : {TrackInterpolation::linear, TrackInterpolation::cubic}) {
    const KinematicTrack k = sample(mode);
    for (const KeyFrame& f : k.keyframes) {
      CHECK(track_position(k, f.t) == f.p_WS);
      CHECK(track_orientation(k, f.t).coeffs() == f.q_WB.coeffs());
    }
  }
}

TEST_CASE("track validation names the key frame") {
  KinematicTrack empty;
  CHECK_THROWS_WITH(check_track(empty), Catch::Contains("at least one key frame"));
  KinematicTrack order;
  order.keyframes = {{0.0, Vec3::Zero(), Quat::Identity()}, {0.0, Vec3::Zero(), Quat::Identity()}};
  CHECK_THROWS_WITH(check_track(order), Catch::Contains("key frame 1") &&
                                            Catch::Contains("strictly increasing"));
  KinematicTrack quat;
  quat.keyframes = {{0.0, Vec3::Zero(), Quat(1.1, 0, 0, 0)}};
  CHECK_THROWS_WITH(check_track(quat), Catch::Contains("key frame 0") &&
                                           Catch::Contains("quaternion has length"));
  KinematicTrack nan;
  nan.keyframes = {{0.0, Vec3(NAN, 0, 0), Quat::Identity()}};
  CHECK_THROWS_WITH(check_track(nan), Catch::Contains("position must be finite"));
  // within the tolerance: normalized
  KinematicTrack ok;
  ok.keyframes = {{0.0, Vec3::Zero(), Quat(1.0005, 0, 0, 0)}};
  check_track(ok);
  CHECK(ok.keyframes[0].q_WB.norm() == Approx(1.0).margin(1e-15));
}
