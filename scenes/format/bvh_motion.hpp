#pragma once
// A BVH clip as smooth motion (Cline 2002 §5.1: "fit a smooth curve to the position data and
// differentiate twice"): every channel is a natural cubic spline through its frames (C², the
// second derivative linear between frames and 0 at both ends), and the joints' frames follow by
// forward kinematics with their velocities and accelerations in closed form.
//
// For a joint whose rotation channels are c_1 … c_m with angles a_k(t) (BVH order,
// R = Rot(e_1, a_1) ⋯ Rot(e_m, a_m)), with A_1 = I, A_k+1 = A_k Rot(e_k, a_k):
//
//   ω_rel = Σ_k A_k e_k ȧ_k,
//   α_rel = Σ_k (A_k e_k ä_k + ω_<k × (A_k e_k) ȧ_k),   ω_<k = Σ_{j<k} A_j e_j ȧ_j,
//
// in the parent's frame; then, with r = R_WP s (offset + position channels),
//   ω = ω_P + R_WP ω_rel,  α = α_P + R_WP α_rel + ω_P × (R_WP ω_rel),
//   p = p_P + r,  v = v_P + ω_P × r,  a = a_P + α_P × r + ω_P × (ω_P × r)
// (a root's parent is the still world, rotated by R_up). Outside [0, T] the spline holds its
// end values with zero rates.

#include <vector>

#include "pivot/scenes/bvh.hpp"

namespace pivot {

/// how the BVH frame maps to Pivot's world (Z up, metres): p_W = scale R_up p_BVH
struct BvhMapping {
  double scale = 0.01;  ///< metres per file unit (capture files are usually in cm)
  bool y_up = true;     ///< the file is Y-up (R_up turns +y to +z, +z to −y), else Z-up already
  Vec3 origin = Vec3::Zero();  ///< added to every world position, m
};

/// R_up of the mapping
[[nodiscard]] Mat3 up_rotation(const BvhMapping& mapping);

/// one joint's frame at one time, in world
struct JointState {
  Mat3 R_WJ = Mat3::Identity();  ///< joint frame → world
  Vec3 p_WJ = Vec3::Zero();      ///< its origin, m
  Vec3 w_W = Vec3::Zero();       ///< angular velocity, rad/s
  Vec3 dw_W = Vec3::Zero();      ///< angular acceleration, rad/s²
  Vec3 v_WJ = Vec3::Zero();      ///< velocity of the origin, m/s
  Vec3 a_WJ = Vec3::Zero();      ///< acceleration of the origin, m/s²
  Mat3 R_PJ = Mat3::Identity();  ///< rotation in the parent's frame
  Vec3 w_rel_P = Vec3::Zero();   ///< ω − ω_parent, in the parent's frame, rad/s
};

class BvhMotion {
 public:
  /// fits the splines (a clip of one frame is constant); throws pivot::Error for a bad mapping
  BvhMotion(BvhClip clip, BvhMapping mapping);
  /// (frames − 1) × frame time, s
  [[nodiscard]] double duration() const;
  [[nodiscard]] const BvhClip& clip() const { return clip_; }
  [[nodiscard]] const BvhMapping& mapping() const { return mapping_; }
  /// every joint's state at time t, in clip order
  [[nodiscard]] std::vector<JointState> evaluate(double t) const;
  /// a channel's value and its first and second time derivatives at t (file units; degrees
  /// for rotations)
  void channel(int c, double t, double& value, double& rate, double& acceleration) const;

 private:
  BvhClip clip_;
  BvhMapping mapping_;
  Eigen::MatrixXd second_;  ///< the splines' second derivatives at the frames, [frame][channel]
};

}  // namespace pivot
