#pragma once
// Free flight of a rigid body under a constant wrench (internal; docs/hybrid.md "The World
// switch", exit at the separation instant): a pair that separates inside a World step leaves
// reduced coordinates at the separation instant t_s, and its bodies fly free from t_s to the
// end of the step.

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// a free body's state: pose, and twist (ω; v at the centre of mass, world axes) as Pivot's
struct FreeBodyState {
  Pose X_WB{};
  Vec6 V_W = Vec6::Zero();
};

/// Advances a body of mass `mass` and body-frame inertia `inertia_B` (about the COM) by `tau`
/// seconds under the constant world wrench `wrench_W` (torque; force, gravity included) and
/// Euler's equations (Newton-Euler in body axes, Kry & Pai 2002 eq. 15 without contact):
///   ṗ = v,  v̇ = f/m,  q̇ = ½ q ⊗ (0, ω_B),  I_B ω̇_B = R_WBᵀ τ − ω_B × I_B ω_B
/// by classical RK4 in equal substeps of at most 1 ms and 0.01/|ω| s: exact for the COM
/// (constant acceleration), fourth order for the rotation. tau ≥ 0; throws std::invalid_argument
/// for a non-finite or negative tau, mass ≤ 0, a singular inertia, or more than 10⁴ substeps
/// (|ω| τ > 100 rad: a pair that separates spinning that fast is handed to the LCP instead).
[[nodiscard]] FreeBodyState free_flight(const FreeBodyState& start, double mass,
                                        const Mat3& inertia_B, const Vec6& wrench_W, double tau);

}  // namespace pivot::detail
