#include "pivot/scenes/bvh_motion.hpp"

#include <cmath>

#include <fmt/core.h>

#include "pivot/core/error.hpp"
#include "pivot/scenes/json_reader.hpp"

namespace pivot {
namespace {

constexpr double kRadPerDegree = 3.14159265358979323846 / 180.0;

// the natural cubic spline's second derivatives M_i at equally spaced knots (spacing h):
//   M_{i−1} + 4 M_i + M_{i+1} = 6 (y_{i+1} − 2 y_i + y_{i−1}) / h²,  M_0 = M_n = 0
// solved by the Thomas algorithm for all channels at once
Eigen::MatrixXd natural_spline_second(const Eigen::MatrixXd& y, double h) {
  const Eigen::Index n = y.rows();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, y.cols());
  if (n < 3) return M;
  const Eigen::Index m = n - 2;  // interior knots
  std::vector<double> c(m);
  Eigen::MatrixXd d(m, y.cols());
  for (Eigen::Index i = 0; i < m; ++i)
    d.row(i) = 6.0 * (y.row(i + 2) - 2.0 * y.row(i + 1) + y.row(i)) / (h * h);
  // forward sweep: diagonal 4, off-diagonals 1
  c[0] = 1.0 / 4.0;
  d.row(0) /= 4.0;
  for (Eigen::Index i = 1; i < m; ++i) {
    const double denom = 4.0 - c[i - 1];
    c[i] = 1.0 / denom;
    d.row(i) = (d.row(i) - d.row(i - 1)) / denom;
  }
  M.row(m) = d.row(m - 1);
  for (Eigen::Index i = m - 2; i >= 0; --i) M.row(i + 1) = d.row(i) - c[i] * M.row(i + 2);
  return M;
}

// Euler angles are periodic: a capture that turns past ±180° writes 179 then −179, one degree of
// motion that a spline through the raw values would take as 358° in one frame (a spurious spin
// of 358°/h and an inverse-dynamics torque to match). Each rotation channel is unwrapped: a
// frame's value is moved by a multiple of 360° to within 180° of the previous frame's, which
// leaves every pose the same (Rot(e, a + 360°) = Rot(e, a)) and makes the motion continuous.
void unwrap_rotations(BvhClip& clip) {
  for (const BvhJoint& joint : clip.joints)
    for (std::size_t k = 0; k < joint.channels.size(); ++k) {
      if (!is_rotation(joint.channels[k])) continue;
      const Eigen::Index c = joint.first_channel + static_cast<Eigen::Index>(k);
      for (Eigen::Index i = 1; i < clip.frames.rows(); ++i) {
        const double jump = clip.frames(i, c) - clip.frames(i - 1, c);
        if (std::isfinite(jump)) clip.frames(i, c) -= 360.0 * std::round(jump / 360.0);
      }
    }
}

}  // namespace

Mat3 up_rotation(const BvhMapping& mapping) {
  if (!mapping.y_up) return Mat3::Identity();
  // +x → +x, +y → +z, +z → −y (a rotation of +90° about x)
  return Eigen::AngleAxisd(0.5 * 3.14159265358979323846, Vec3::UnitX()).toRotationMatrix();
}

BvhMotion::BvhMotion(BvhClip clip, BvhMapping mapping)
    : clip_(std::move(clip)), mapping_(mapping) {
  if (!(mapping_.scale > 0.0) || !std::isfinite(mapping_.scale))
    throw Error("motion: the scale must be positive and finite");
  if (!mapping_.origin.allFinite()) throw Error("motion: the origin must be finite");
  if (clip_.joints.empty() || clip_.frames.rows() < 1) throw Error("motion: the clip is empty");
  // lengths in the world (scale × file units, plus the origin) within the scene format's limit
  // (docs/limits.md "Magnitudes"): beyond it the first step's products overflow
  if (mapping_.origin.cwiseAbs().maxCoeff() > detail::kMaxLength)
    throw Error(fmt::format("motion: the origin is more than {:g} m from 0", detail::kMaxLength));
  double longest = 0.0;
  for (const BvhJoint& joint : clip_.joints) {
    longest = std::max(longest, joint.offset.cwiseAbs().maxCoeff());
    if (joint.end_site) longest = std::max(longest, joint.end_site->cwiseAbs().maxCoeff());
    for (std::size_t k = 0; k < joint.channels.size(); ++k)
      if (!is_rotation(joint.channels[k]))
        longest = std::max(longest, clip_.frames.col(joint.first_channel + static_cast<Eigen::Index>(k))
                                        .cwiseAbs().maxCoeff());
  }
  if (longest * mapping_.scale > detail::kMaxLength)
    throw Error(fmt::format("motion: an offset, End Site or position channel of {:g} file units is {:g} m "
                            "at scale {:g}, more than the limit of {:g} m",
                            longest, longest * mapping_.scale, mapping_.scale, detail::kMaxLength));
  unwrap_rotations(clip_);
  second_ = natural_spline_second(clip_.frames, clip_.frame_time);
  // the splines' second derivatives divide by h²: values that jump by 1e300 between frames
  // overflow even when every value is finite
  if (!second_.allFinite())
    throw Error("motion: the channels' accelerations overflow (values that change by too much "
                "between frames for the frame time)");
}

double BvhMotion::duration() const {
  return static_cast<double>(clip_.frames.rows() - 1) * clip_.frame_time;
}

// on [t_i, t_i+1], u = t − t_i, h the frame time:
//   y = M_i (h−u)³/6h + M_i+1 u³/6h + (y_i/h − M_i h/6)(h−u) + (y_i+1/h − M_i+1 h/6) u
void BvhMotion::channel(int c, double t, double& value, double& rate, double& acc) const {
  const auto n = clip_.frames.rows();
  const double h = clip_.frame_time;
  if (n == 1 || t < 0.0 || t > duration()) {
    value = clip_.frames(t < 0.0 || n == 1 ? 0 : n - 1, c);
    rate = 0.0;
    acc = 0.0;
    return;
  }
  auto i = static_cast<Eigen::Index>(std::floor(t / h));
  if (i >= n - 1) i = n - 2;
  const double u = t - static_cast<double>(i) * h;
  const double w = h - u;
  const double M0 = second_(i, c), M1 = second_(i + 1, c);
  const double y0 = clip_.frames(i, c), y1 = clip_.frames(i + 1, c);
  const double A = y0 / h - M0 * h / 6.0, B = y1 / h - M1 * h / 6.0;
  value = M0 * w * w * w / (6.0 * h) + M1 * u * u * u / (6.0 * h) + A * w + B * u;
  rate = -M0 * w * w / (2.0 * h) + M1 * u * u / (2.0 * h) - A + B;
  acc = M0 * w / h + M1 * u / h;
}

std::vector<JointState> BvhMotion::evaluate(double t) const {
  const Mat3 R_up = up_rotation(mapping_);
  const double s = mapping_.scale;
  std::vector<JointState> out(clip_.joints.size());
  for (std::size_t j = 0; j < clip_.joints.size(); ++j) {
    const BvhJoint& joint = clip_.joints[j];
    // the local motion: rotation, its rates, the origin and its derivatives in the parent frame
    Mat3 A = Mat3::Identity();
    Vec3 w_rel = Vec3::Zero(), dw_rel = Vec3::Zero();
    Vec3 p_rel = joint.offset, v_rel = Vec3::Zero(), a_rel = Vec3::Zero();
    for (std::size_t k = 0; k < joint.channels.size(); ++k) {
      double y = 0.0, yd = 0.0, ydd = 0.0;
      channel(joint.first_channel + static_cast<int>(k), t, y, yd, ydd);
      const Vec3 e = channel_axis(joint.channels[k]);
      if (is_rotation(joint.channels[k])) {
        const Vec3 ae = A * e;
        dw_rel += ae * (ydd * kRadPerDegree) + w_rel.cross(ae) * (yd * kRadPerDegree);
        w_rel += ae * (yd * kRadPerDegree);
        A = A * Eigen::AngleAxisd(y * kRadPerDegree, e).toRotationMatrix();
      } else {
        p_rel += y * e;
        v_rel += yd * e;
        a_rel += ydd * e;
      }
    }
    JointState& J = out[j];
    J.R_PJ = A;
    J.w_rel_P = w_rel;
    if (joint.parent < 0) {
      J.R_WJ = R_up * A;
      J.p_WJ = mapping_.origin + s * (R_up * p_rel);
      J.v_WJ = s * (R_up * v_rel);
      J.a_WJ = s * (R_up * a_rel);
      J.w_W = R_up * w_rel;
      J.dw_W = R_up * dw_rel;
      continue;
    }
    const JointState& P = out[joint.parent];
    const Vec3 r = P.R_WJ * (s * p_rel);
    const Vec3 w_rel_W = P.R_WJ * w_rel;
    J.R_WJ = P.R_WJ * A;
    J.w_W = P.w_W + w_rel_W;
    J.dw_W = P.dw_W + P.R_WJ * dw_rel + P.w_W.cross(w_rel_W);
    J.p_WJ = P.p_WJ + r;
    // position channels below the root move the origin in the parent frame as well
    const Vec3 v_r = P.R_WJ * (s * v_rel), a_r = P.R_WJ * (s * a_rel);
    J.v_WJ = P.v_WJ + P.w_W.cross(r) + v_r;
    J.a_WJ = P.a_WJ + P.dw_W.cross(r) + P.w_W.cross(P.w_W.cross(r)) + 2.0 * P.w_W.cross(v_r) + a_r;
  }
  return out;
}

}  // namespace pivot
