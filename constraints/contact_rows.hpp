#pragma once
// The rows of one contact (Cline 2002 §2.6–2.7, §4.4; notes on Anitescu–Potra in docs/step.md).
//
// A contact between bodies A and B: points p_A on A and p_B on B (world), the unit normal n
// from B to A, the gap g = n·(p_A − p_B) (> 0 separated). With each body's centre of mass x
// and twist (ω; v) (angular first, world-aligned at the COM), r_A = p_A − x_A, r_B = p_B − x_B:
//
//   ġ = n·(v_A + ω_A × r_A) − n·(v_B + ω_B × r_B)
//     = (r_A × n)ᵀ ω_A + nᵀ v_A − (r_B × n)ᵀ ω_B − nᵀ v_B            (Cline eq. 4.14, 4.17)
//
// so the normal row is J_A = ((r_A × n)ᵀ, nᵀ), J_B = −((r_B × n)ᵀ, nᵀ), and a friction row is
// the same with a tangent direction d in place of n.
//
// The right-hand side ("bias") of the normal row J v⁺ + b ≥ 0 ⊥ λ_n ≥ 0:
//   dynamics (Cline eq. 2.49, 4.16):
//     b = e v_n               when e > 0, the contact approaches faster than the restitution
//                             threshold (v_n < −v_th) and would close within the step
//                             (−v_n h ≥ g): Newton's law, v_n⁺ ≥ −e v_n;
//     b = α g                 with Baumgarte stabilization and a penetration (g < 0, Cline §3.2);
//     b = max(g, 0) / h       otherwise: a separated contact may close its gap in one step,
//                             never more (speculative contacts); a penetration is left to the
//                             post-step;
//   post-stabilization (Cline eq. 3.7): b = g, with gaps within rounding of 0 taken as touching
//   (contact_gap_roundoff below).

#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot {

/// a contact's row for one direction d, both bodies
struct ContactRow {
  Row6 J_A = Row6::Zero();  ///< ((r_A × d)ᵀ, dᵀ)
  Row6 J_B = Row6::Zero();  ///< −((r_B × d)ᵀ, dᵀ)
};

/// ((r × d)ᵀ, dᵀ) scaled by sign (+1 for A, −1 for B); r from the COM to the contact point
[[nodiscard]] Row6 contact_jacobian_row(const Vec3& r, const Vec3& d, double sign);

/// the row of direction d for a contact at p_A (on A, COM x_A) and p_B (on B, COM x_B), world
[[nodiscard]] ContactRow contact_row(const Vec3& p_A, const Vec3& x_A, const Vec3& p_B,
                                     const Vec3& x_B, const Vec3& d);

/// the k friction directions in the tangent plane of the unit normal n: evenly spaced, 2π/k
/// apart, from t₁ (the projection of world x on the plane, or of `fallback` when n is within
/// 1e-6 of ±x), turned by `offset` (rad) about n. For even k each has its negative. A planar
/// world (normals in the x–z plane, k = 2, offset 0) passes world z as the fallback, so that
/// ±t₁ lie in the plane for every normal (docs/planar.md)
[[nodiscard]] std::vector<Vec3> friction_directions(const Vec3& n, int k, double offset,
                                                    const Vec3& fallback = Vec3::UnitY());

/// the same written over `dirs` (in its memory)
void friction_directions(const Vec3& n, int k, double offset, const Vec3& fallback,
                         std::vector<Vec3>& dirs);

/// what the dynamics bias of a normal row needs
struct ContactBiasSettings {
  double time_step = 1e-3;             ///< h, s
  double restitution = 0.0;            ///< e of the pair
  double restitution_threshold = 0.1;  ///< v_th, m/s
  bool baumgarte = false;              ///< Baumgarte stabilization
  double baumgarte_alpha = 200.0;      ///< α, 1/s
};

/// b of the dynamics row J v⁺ + b ≥ 0 for gap g and normal velocity v_n = J v (see above)
[[nodiscard]] double contact_velocity_bias(double gap, double normal_velocity,
                                           const ContactBiasSettings& s);

/// gaps above −kContactGapUlps · ε · max(1 m, |p|∞) are rounding of "touching", where p is the
/// contact point in world coordinates (docs/step.md): 1.4e-14 m within a metre of the origin
inline constexpr double kContactGapUlps = 64.0;

/// the rounding level of a gap computed at world position scale |p|∞ = `scale` (m)
[[nodiscard]] double contact_gap_roundoff(double scale);

/// b of the post-stabilization row J dp + b ≥ 0: the gap, 0 when within rounding of touching
/// (contact_gap_roundoff of the contact points' largest world coordinate)
[[nodiscard]] double contact_position_bias(double gap, const Vec3& p_WCa, const Vec3& p_WCb);

}  // namespace pivot
