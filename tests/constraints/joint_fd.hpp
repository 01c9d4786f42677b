#pragma once
// Test helpers for the joint tests: seeded random poses, rigid motions, and central finite
// differences of a constraint function along the 12 twist directions (6 per body).
// Expected Jacobians come from finite differences of g, never from the code under test.

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>

#include "pivot/constraints/joint.hpp"
#include "pivot/core/error.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::test {

class Rng {
 public:
  explicit Rng(unsigned seed) : gen_(seed) {}
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(gen_);
  }
  Vec3 vec(double half_width) {
    return {uniform(-half_width, half_width), uniform(-half_width, half_width),
            uniform(-half_width, half_width)};
  }
  Vec3 unit() {
    std::normal_distribution<double> n;
    Vec3 v(n(gen_), n(gen_), n(gen_));
    return v.normalized();
  }
  /// uniformly random rotation (normalized 4D Gaussian), independent of quat_exp
  Quat rotation() {
    std::normal_distribution<double> n;
    Quat q(n(gen_), n(gen_), n(gen_), n(gen_));
    return q.normalized();
  }
  Pose pose(double half_width = 2.0) { return Pose{vec(half_width), rotation()}; }
  /// a twist (ω; v) with both parts' components uniform in ±size (ω drawn first)
  Vec6 twist(double size) {
    const Vec3 w = vec(size);
    const Vec3 v = vec(size);
    return (Vec6() << w, v).finished();
  }

 private:
  std::mt19937 gen_;
};

/// rotation by angle about a unit axis, in closed form (q = (u sin θ/2, cos θ/2), Cline 2.3)
inline Quat axis_angle(const Vec3& unit_axis, double angle) {
  const Vec3 v = std::sin(0.5 * angle) * unit_axis;
  return Quat(std::cos(0.5 * angle), v.x(), v.y(), v.z());
}

/// the pose moved by the rigid motion "rotate by R about point c, then translate by t"
inline Pose move(const Pose& p, const Quat& R, const Vec3& c, const Vec3& t = Vec3::Zero()) {
  return Pose{c + R * (p.p_WB - c) + t, (R * p.q_WB).normalized()};
}

/// the same pose with the quaternion negated (same rotation)
inline Pose negated(const Pose& p) {
  Pose out = p;
  out.q_WB.coeffs() = -out.q_WB.coeffs();
  return out;
}

using GFunction = std::function<Eigen::VectorXd(const Pose&, const Pose&)>;

struct FdJacobian {
  Eigen::MatrixXd J_A, J_B;  // rows × 6
};

/// central differences: column k of J_X = (g(X ⊕ ε e_k) − g(X ⊕ −ε e_k)) / 2ε
inline FdJacobian fd_jacobian(const GFunction& g, const Pose& A, const Pose& B, double eps = 1e-6) {
  const Eigen::Index rows = g(A, B).size();
  FdJacobian out{Eigen::MatrixXd(rows, 6), Eigen::MatrixXd(rows, 6)};
  for (int k = 0; k < 6; ++k) {
    const Vec6 e = Vec6::Unit(k) * eps;
    out.J_A.col(k) = (g(integrate(A, e), B) - g(integrate(A, -e), B)) / (2.0 * eps);
    out.J_B.col(k) = (g(A, integrate(B, e)) - g(A, integrate(B, -e))) / (2.0 * eps);
  }
  return out;
}

/// the equality g of a joint as a GFunction
inline GFunction equality_g(const Joint& joint) {
  return [&joint](const Pose& A, const Pose& B) {
    ConstraintRows rows;
    joint.equality(A, B, rows);
    return Eigen::VectorXd(rows.g);
  };
}

/// largest |FD − J| entry of one row, over both bodies' 6 columns
inline double row_error(const FdJacobian& fd, const ConstraintRows& rows, int r) {
  return std::max((fd.J_A.row(r) - rows.J_A.row(r)).cwiseAbs().maxCoeff(),
                  (fd.J_B.row(r) - rows.J_B.row(r)).cwiseAbs().maxCoeff());
}

/// |φ| of the rotation-lock error q_A q_rel0 q_B⁻¹, computed independently of the joint
inline double rotation_error_angle(const Pose& A, const Pose& B, const Quat& q_rel0) {
  const Quat q = A.q_WB * q_rel0 * B.q_WB.conjugate();
  return 2.0 * std::atan2(q.vec().norm(), std::abs(q.w()));
}

/// Tolerance of the rotation-lock rows (J_A = (I,0), J_B = (−I,0)) off the manifold.
/// Exact rate: φ̇ = J_l⁻¹(φ)(ω_A − R_err ω_B), and J_l⁻¹(φ) = I − ½[φ] + c[φ]²,
/// J_l⁻¹(φ) R_err = J_r⁻¹(φ) = I + ½[φ] + c[φ]² with c = 1/|φ|² − (1 + cos|φ|)/(2|φ| sin|φ|)
/// (1/12 at 0, 1/π² at π). Each Jacobian column is therefore off by exactly
/// |φ|/2·sqrt(1 + 4c²|φ|²) in the plane ⊥ φ (0 along φ): ≤ 0.51|φ| for |φ| ≤ 1 and ≤ 0.59|φ|
/// for |φ| < π. Bound used: 0.6|φ| + 1e-7 (1e-7 for the finite differences), |φ| ≤ 3.
inline double rotation_lock_tolerance(double phi) {
  return 0.6 * phi + 1e-7;
}

/// the message of the pivot::Error thrown by f, or "<no error>"
template <class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const pivot::Error& e) {
    return e.what();
  } catch (...) {
    return "<other exception>";
  }
  return "<no error>";
}

/// finite-difference tolerance of exact rows: ε = 1e-6 central differences give truncation
/// ≈ ε²|g'''|/6 ≈ 1e-12 and rounding ≈ 1e-16/ε ≈ 1e-10 at these scales (positions ≤ ~6 m)
inline constexpr double kExactTol = 1e-7;

}  // namespace pivot::test
