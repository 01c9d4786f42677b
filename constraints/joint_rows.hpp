#pragma once
// Building blocks shared by the joint types (ball, hinge, universal, slider, fixed): input
// validation and the row groups that several joints reuse. Not needed by users of the joints.
//
// Every row group below satisfies d/dt g = J_A v_A + J_B v_B (twists angular first,
// world-aligned at each centre of mass), checked by finite differences in tests/constraints.

#include <initializer_list>
#include <optional>
#include <string>

#include "pivot/constraints/joint.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// one Jacobian row (1 × 6, angular first; core/spatial.hpp)
using Row6 = pivot::Row6;

/// throws pivot::Error("<kind> joint '<name>': <what>")
[[noreturn]] void fail(const char* kind, const std::string& name, const std::string& what);

/// checks the body indices: body_a ≥ 0, body_b ≥ 0 or kWorldBody, body_a ≠ body_b
void check_bodies(const char* kind, const std::string& name, int body_a, int body_b);

/// a finite point (field names the settings field in the message)
void check_point(const char* kind, const std::string& name, const char* field, const Vec3& p);

/// a finite, nonzero direction, returned normalized
[[nodiscard]] Vec3 unit_axis(const char* kind, const std::string& name, const char* field,
                             const Vec3& axis);

/// a pose with a finite position and a finite nonzero quaternion, returned with q normalized
[[nodiscard]] Pose checked_pose(const char* kind, const std::string& name, const char* field,
                                const Pose& pose);

/// limits (if any) with finite lower ≤ upper
void check_limits(const char* kind, const std::string& name,
                  const std::optional<JointLimits>& limits);

/// a motor (if any) with a finite target velocity and a finite max_impulse ≥ 0
void check_motor(const char* kind, const std::string& name, const std::optional<JointMotor>& motor);

/// damping and friction finite and ≥ 0
void check_dynamics(const char* kind, const std::string& name, const JointDynamics& dynamics);

/// a unit vector perpendicular to the unit vector `u` (deterministic)
[[nodiscard]] Vec3 any_perpendicular(const Vec3& u);

/// Ball rows (Cline 2002 eq. 4.1, 4.5–4.6; printed sign of J_B corrected):
///   g = p_A − p_B,  p_X = X.to_world(anchor_X) (anchors in each body's frame)
///   J_A = ([r_A], I),  J_B = (−[r_B], −I),  r_X = x_X − p_X (centre of mass − anchor)
/// written to rows [row, row+3) of out (exact everywhere).
void write_ball_rows(const Pose& A, const Pose& B, const Vec3& anchor_A, const Vec3& anchor_B,
                     int row, ConstraintRows& out);
/// the g of write_ball_rows alone, p_A − p_B (the same operations: the same bits)
[[nodiscard]] Vec3 ball_gap(const Pose& A, const Pose& B, const Vec3& anchor_A,
                            const Vec3& anchor_B);

/// Rotation-locking rows (Cline 2002 eq. 4.10 "method 2": error relative to the initial
/// relative rotation):
///   q_err = q_A · q_rel0 · q_B⁻¹,  q_rel0 = q_A0⁻¹ q_B0,   g = φ = quat_log(q_err)
///   J_A = (I, 0),  J_B = (−I, 0)
/// quat_log takes the positive hemisphere, so q and −q give the same g. The exact rate is
/// φ̇ = J_l⁻¹(φ) (ω_A − R_err ω_B) = (I − ½[φ]) ω_A − (I + ½[φ]) ω_B + O(|φ|²): the Jacobian is
/// exact at φ = 0 and its columns are off by at most ≈ |φ|/2 per unit twist near it.
/// Written to rows [row, row+3) of out.
void write_rotation_lock_rows(const Pose& A, const Pose& B, const Quat& q_rel0, int row,
                              ConstraintRows& out);
/// the g of write_rotation_lock_rows alone, quat_log(q_A q_rel0 q_B⁻¹)
[[nodiscard]] Vec3 rotation_lock_gap(const Pose& A, const Pose& B, const Quat& q_rel0);

/// max |x_i| of a joint's g entries in [first, last), NaN when one is NaN (an error that is not
/// a number is not hidden behind a finite one); 0 for none
[[nodiscard]] double max_abs(const double* first, const double* last);
[[nodiscard]] inline double max_abs(std::initializer_list<double> values) {
  return max_abs(values.begin(), values.end());
}

/// Limit rows on a free coordinate c with rate ċ = j_A v_A + j_B v_B:
///   g = c − lower ≥ 0 (J = j)  and  g = upper − c ≥ 0 (J = −j),
/// each present only when its g ≤ margin (lower row first). out is resized to 0, 1 or 2 rows.
void write_limit_rows(double c, const Row6& j_A, const Row6& j_B, const JointLimits& limits,
                      double margin, ConstraintRows& out);

}  // namespace pivot::detail
