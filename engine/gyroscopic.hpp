#pragma once
// The gyroscopic term of a rigid body's rotation, integrated so that a torque-free body keeps
// its kinetic energy and the magnitude of its angular momentum exactly.
//
// Euler's equations in the body frame, Π = I ω (Cline 2002 eq. 2.27 written with momentum):
//   Π̇ = Π × ω.
// The implicit midpoint rule (Hairer, Lubich & Wanner, Geometric Numerical Integration, §IV.2:
// it preserves every quadratic invariant, here E = ½ Πᵀ I⁻¹ Π and |Π|²):
//   Π⁺ = Π + h Π̄ × ω̄,   Π̄ = (Π + Π⁺)/2,   ω̄ = I⁻¹ Π̄,
// solved by Newton's method on F(Π⁺) = Π⁺ − Π − h Π̄ × ω̄ with
//   ∂F/∂Π⁺ = 1 − (h/2) ([Π̄] I⁻¹ − [ω̄]).
// The step hands ω⁺ to the LCP as a gyroscopic impulse I_W (ω⁺ − ω); with no constraint
// acting the body ends the step with exactly this ω⁺ (docs/step.md, "Forces").

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// ω⁺ in the body frame after one step h of torque-free rotation from ω (body frame) with the
/// body-frame inertia I_B; false (ω⁺ untouched) when Newton's method does not converge in 30
/// iterations, which needs h|ω| of order one or more
[[nodiscard]] bool gyroscopic_midpoint(const Mat3& I_B, const Vec3& omega_B, double h,
                                       Vec3& omega_plus_B);

/// the same with I_B⁻¹ given (a rigid body's inverse_inertia_B, computed once as I_B.inverse():
/// the same answer, without a 3 × 3 inverse each step)
[[nodiscard]] bool gyroscopic_midpoint(const Mat3& I_B, const Mat3& I_inv, const Vec3& omega_B,
                                       double h, Vec3& omega_plus_B);

}  // namespace pivot::detail
