#pragma once
// Kinematics of one smooth contact in contact coordinates (Kry & Pai 2002 §3.1-3.2 and
// Appendix; Kry 2000 §4.2 and App. A).
//
// Body 1 carries the surface c(s, t), body 2 the surface d(u, v), each in its body frame (origin
// at the centre of mass). The contact coordinates q = (s, t, u, v, ψ) (P8) fix the relative
// pose
//   ^2_1E(q) = ^2_{2c}E(u, v) · ^{2c}_{1c}E(ψ) · ^{1c}_1E(s, t)                         (P9)
// with the two contact frames opposed: ^{1c}_{2c}E = diag(R_ψ, 1),
//   R_ψ = [[cos ψ, −sin ψ, 0], [−sin ψ, −cos ψ, 0], [0, 0, −1]]                        (P7)
// (R_ψ = R_ψ⁻¹). The relative twist of body 1 with respect to body 2, in 1c coordinates, is
//   ^{1c}φ(2,1) = ^{1c}H q̇,  ^{1c}H = ( −H_1,  diag(R_ψ, R_ψ) H_2,  (0,0,1,0,0,0)ᵀ )
// where H_k are the one-surface blocks of contact_frame.hpp. SIGN FIX: the paper's Appendix
// (P55-56, T A.10) assembles (H_1, −R H_2, −e_3), which maps q̇ to the motion of body 2 relative
// to body 1; the dynamics (P15-20) need body 1 relative to body 2, the negative
// (docs/hybrid.md "Sign conventions", checked by finite differences). With this H, H(3,5) = +1 as
// P§3.4.3 states, row 6 (normal velocity) is zero, and rows 4-5 are the slip of body 1.
// In body 1's frame: ^1H = ^1_{1c}Ad ^{1c}H.
//
// Its time derivative (P57, T A.11, with the notes' TYPO fix ^1_{1c}Ad → ^{1c}_{2c}Ad):
//   ^{1c}Ḣ = ( −(H_{1,s} ṡ + H_{1,t} ṫ),  dA_ψ/dψ ψ̇ H_2 + A_ψ (H_{2,u} u̇ + H_{2,v} v̇),  0 )
//   ^1Ḣ    = ^1_{1c}Ȧd ^{1c}H + ^1_{1c}Ad ^{1c}Ḣ,
//   ^1_{1c}Ȧd = [[Θ̇, 0], [[ċ]Θ + [c]Θ̇, Θ̇]]                                       (T 4.18)
//
// Twists here are Kry's body-frame twists (ω; v) of a body frame (angular first, v the velocity
// of the frame origin = the centre of mass), written in that body's axes. Pivot's world twists
// are the same two vectors rotated to world axes (see to_world_twist / to_body_twist).

#include "pivot/collision/smooth_surface.hpp"
#include "pivot/core/spatial.hpp"
#include "pivot/engine/hybrid/contact_frame.hpp"

namespace pivot::detail {

using Vec5 = Eigen::Matrix<double, 5, 1>;
using Mat5 = Eigen::Matrix<double, 5, 5>;
using Mat65 = Eigen::Matrix<double, 6, 5>;

/// one body's smooth surface and where it sits on the body
struct ContactSurface {
  SmoothSurfacePtr surface;  ///< shared, immutable
  /// the surface frame S in the body frame B: p_B = X_BS.p_WB + X_BS.q_WB p_S (the Pose fields
  /// read "S in B" here)
  Pose X_BS{};

  /// the surface's jet at a patch point, in body coordinates
  [[nodiscard]] SurfaceJet evaluate(int patch, const Vec2& uv) const;
};

/// contact coordinates q = (s, t, u, v, ψ) (Kry & Pai 2002 eq. 8) with the patches (s, t) and
/// (u, v) refer to
struct ContactCoordinates {
  int patch_1 = 0;        ///< patch of body 1's surface holding (s, t)
  int patch_2 = 0;        ///< patch of body 2's surface holding (u, v)
  Vec5 q = Vec5::Zero();  ///< (s, t, u, v, ψ); ψ in radians, not wrapped

  [[nodiscard]] Vec2 st() const { return q.head<2>(); }
  [[nodiscard]] Vec2 uv() const { return q.segment<2>(2); }
  [[nodiscard]] double psi() const { return q[4]; }
};

/// R_ψ of eq. P7: the rotation block of ^{1c}_{2c}E (an involution: R_ψ R_ψ = I)
[[nodiscard]] Mat3 contact_alignment(double psi);

/// the pose of body 1 in body 2's frame, ^2_1E(q) (P9). Pose fields read "1 in 2":
/// p_2 = p_WB + q_WB p_1.
[[nodiscard]] Pose contact_pose(const ContactSurface& body1, const ContactSurface& body2,
                                const ContactCoordinates& q);

/// Ad(X) = [[R, 0], [[p]R, R]] for X = (p, R): maps twists in X's child frame to its parent
/// frame, ^j φ = ^j_i Ad ^i φ (Kry & Pai 2002 §2)
[[nodiscard]] Mat6 adjoint(const Pose& X);
/// the inverse transform
[[nodiscard]] Pose inverse(const Pose& X);
/// X·Y
[[nodiscard]] Pose compose(const Pose& X, const Pose& Y);
/// the spatial (motion) cross product matrix [φ] = [[[ω], 0], [[v], [ω]]] (Kry 2000 §4.1)
[[nodiscard]] Mat6 motion_cross(const Vec6& phi);

/// a body-frame twist (axes of the body) as a Pivot world twist (world axes), and back
[[nodiscard]] Vec6 to_world_twist(const Quat& q_WB, const Vec6& twist_B);
[[nodiscard]] Vec6 to_body_twist(const Quat& q_WB, const Vec6& twist_W);

/// everything about a contact configuration (q, q̇) that the dynamics uses
struct ContactKinematics {
  ContactFrame frame_1;           ///< contact frame 1c on body 1 (body-1 coordinates)
  ContactFrame frame_2;           ///< contact frame 2c on body 2 (body-2 coordinates)
  Pose X_21;                      ///< body 1 in body 2's frame, ^2_1E(q)
  Mat65 H_1c = Mat65::Zero();     ///< ^{1c}φ(2,1) = H_1c q̇ (contact frame 1c)
  Mat65 Hdot_1c = Mat65::Zero();  ///< d/dt H_1c along q̇
  Mat6 Ad_1_1c = Mat6::Zero();    ///< ^1_{1c}Ad: 1c twists to body-1 twists
  Mat6 Addot_1_1c = Mat6::Zero();
  Mat65 H_1 = Mat65::Zero();     ///< ^1φ(2,1) = H_1 q̇ (body frame 1)
  Mat65 Hdot_1 = Mat65::Zero();  ///< d/dt H_1 along q̇
  double psi = 0.0;              ///< the ψ of q
};

/// contact frames, pose, H and Ḣ at (q, q̇)
[[nodiscard]] ContactKinematics contact_kinematics(const ContactSurface& body1,
                                                   const ContactSurface& body2,
                                                   const ContactCoordinates& q, const Vec5& qdot);
/// the same without the rates: Ḣ, Ȧd are zero until set_contact_rates is called
[[nodiscard]] ContactKinematics contact_kinematics(const ContactSurface& body1,
                                                   const ContactSurface& body2,
                                                   const ContactCoordinates& q);
/// fills Hdot_1c, Addot_1_1c, Hdot_1 for the rates q̇ (Ḣ is linear in q̇)
void set_contact_rates(ContactKinematics& k, const Vec5& qdot);

// ---- two free bodies [DERIVED, docs/hybrid.md "Sign conventions"] ----
// Generalized velocity ν = (^2φ_2, q̇) (11 numbers). Body 1's twist and its bias acceleration:
//   ^1φ_1 = ^1_2Ad ^2φ_2 + ^1H q̇,   J̇_1 ν = −[^1H q̇] ^1_2Ad ^2φ_2 + ^1Ḣ q̇

/// ^1φ_1 from body 2's body-frame twist and q̇ (with V2_2 = 0: body 2 fixed)
[[nodiscard]] Vec6 body1_twist(const ContactKinematics& k, const Vec6& V2_2, const Vec5& qdot);
/// J̇_1 ν, the part of body 1's acceleration not due to ν̇ (body frame 1); `qdot` must be the
/// q̇ that k was computed with
[[nodiscard]] Vec6 body1_bias_acceleration(const ContactKinematics& k, const Vec6& V2_2,
                                           const Vec5& qdot);

/// contact-coordinate rates from the bodies' twists (the map (b) of the hybrid switch):
/// solves ^{1c}Ĥ q̇ = rows 1..5 of ^{1c}φ(2,1) (Kry & Pai 2002 §3.5 eq. 43, 5 × 5) and reports
/// what H cannot represent, the relative normal velocity
struct ContactRates {
  Vec5 qdot = Vec5::Zero();
  /// d(gap)/dt = −(z_1c · v of body 1 relative to 2): positive when the surfaces separate, m/s
  double separation_rate = 0.0;
};
/// V1_1, V2_2: body-frame twists of body 1 and body 2; k from contact_kinematics at q
[[nodiscard]] ContactRates contact_rates(const ContactKinematics& k, const Vec6& V1_1,
                                         const Vec6& V2_2);

}  // namespace pivot::detail
