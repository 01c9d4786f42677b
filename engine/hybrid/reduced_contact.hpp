#pragma once
// Reduced-coordinate dynamics of one persistent smooth contact (Kry & Pai 2002 §3.3-3.4;
// Kry 2000 §4.3-4.4): the model (two bodies with smooth surfaces, friction
// settings), the state (contact coordinates and their rates), and one evaluation of the
// equations of motion, which gives the accelerations and the contact wrench.
//
// Body 1 is free; body 2 is fixed or free. With body 2 fixed (the paper's case) the unknowns
// are the reduced rates ν̇ of the friction mode; with body 2 free they are (^2φ̇_2, ν̇), the
// 11-DOF form of docs/hybrid.md "Sign conventions" [DERIVED]. Everything is solved in body frames
// (principal or not), at the centres of mass, with Kry's body-frame twists (ω; v)
// (contact_kinematics.hpp).
//
// Equations (body 1 in its frame, M_1 = diag(I_1, m_1 1), f_1 the external wrench):
//   M_1 φ̇_1 − [φ_1]ᵀ M_1 φ_1 = f_1 + f_c                                        (P15)
//   φ_1 = ^1_2Ad ^2φ_2 + H_r ν,   φ̇_1 = ^1_2Ad ^2φ̇_2 + H_r ν̇ + b_1                 (P16-17)
// with q̇ = G ν (G = I for the 5-DOF modes, eqs. 30, 37 for the rolling modes), H_r = ^1H G,
// b_1 = −[^1H q̇] ^1_2Ad ^2φ_2 + ^1Ḣ q̇ + ^1H Ġ ν. A projector P with P f_c = 0 removes the
// unknown contact wrench:
//   frictionless P = H_rᵀ  (T 4.22, P19-20: Hᵀ M H q̈ = Hᵀ(f_ext + [φ]ᵀ M φ − M Ḣ q̇))
//   sliding      P = F = (I_5 | μ) ^1_{1c}Adᵀ  (P24-28; μ = (0,0,0, −μ ŝ_x, −μ ŝ_y), the sign for
//                outward normals of docs/hybrid.md "Sign conventions")
//   no slip      P = H'ᵀ  (P29-34),   no slip no spin  P = H''ᵀ  (P36-39)
// then P M H_r ν̇ = P(f_1 + [φ_1]ᵀ M_1 φ_1 − M_1 b_1) by LU (after row and column
// equilibration), and f_c by back-substitution
// through P15. With body 2 free the projector is [[^1_2Adᵀ, I_6], [P, 0]] over both bodies
// (body 2 receives −^1_2Adᵀ f_c).
//
// Separation: f_n = −z_1c·f_c (z_1c is body 1's outward normal) is the compressive normal force;
// the contact separates when f_n < 0. SIGN FIX: the paper's "z component of ^{1c}f_c negative"
// (P§3.3) is the opposite sign for outward normals (docs/hybrid.md "Sign conventions"; at rest
// f_z = −mg).

#include <string>

#include <optional>

#include "pivot/engine/hybrid/contact_kinematics.hpp"
#include "pivot/engine/hybrid/contact_search.hpp"
#include "pivot/engine/hybrid/hybrid_settings.hpp"

namespace pivot::detail {

/// which contact constraint is active (Kry & Pai 2002 §3.4)
enum class FrictionMode {
  frictionless,     ///< 5 DOF, workless normal force (P§3.3)
  sliding,          ///< 5 DOF, dynamic Coulomb friction against the slip (P§3.4.1)
  no_slip,          ///< 3 DOF (u̇, v̇, ψ̇): rolling without slip (P§3.4.2)
  no_slip_no_spin,  ///< 2 DOF (u̇, v̇): rolling without slip or spin (P§3.4.3)
  /// 0 DOF: no slip, no roll, no spin; the pair moves as one body, held by static rolling and
  /// spinning friction (FrictionTorques::stick) [DERIVED]
  stuck,
};

[[nodiscard]] const char* to_string(FrictionMode mode);
/// true for the modes in which the contact point does not slip (no slip, no slip no spin, stuck)
[[nodiscard]] bool holds_no_slip(FrictionMode mode);
/// number of independent contact rates ν of a mode: 5, 5, 3, 2, 0
[[nodiscard]] int rate_count(FrictionMode mode);

/// one body of the pair
struct ReducedBody {
  ContactSurface surface;             ///< its smooth surface, placed in the body frame
  bool fixed = false;                 ///< body 2 may be fixed (infinite mass); body 1 may not
  double mass = 1.0;                  ///< kg, > 0 unless fixed
  Mat3 inertia_B = Mat3::Identity();  ///< about the centre of mass, body axes, kg·m²
  /// external wrench (τ; f) at the centre of mass, world axes (N·m; N), held constant over an
  /// advance() call, on top of gravity
  Vec6 wrench_W = Vec6::Zero();
};

/// the pair: what the scene says
struct ReducedContactModel {
  ReducedBody body1;
  ReducedBody body2;
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  ///< m/s²
  ContactFriction friction;
  /// rolling and spinning friction (hybrid_settings.hpp; the World sets it from
  /// WorldSettings::hybrid_torques)
  FrictionTorques torques;
};

/// the state of a pair in reduced mode
struct ReducedContactState {
  ContactCoordinates coords;  ///< patches and q = (s, t, u, v, ψ)
  Vec5 qdot = Vec5::Zero();   ///< full rates q̇ (satisfying the mode's constraints)
  FrictionMode mode = FrictionMode::frictionless;
  Pose X_W2{};               ///< body 2's pose (world)
  Vec6 V2_B = Vec6::Zero();  ///< body 2's body-frame twist (zero when fixed)
  double time = 0.0;         ///< s
  double mode_since = 0.0;   ///< time of the last friction-mode change, s
  /// the direction (1c x, y) slip starts in when sliding begins at zero slip: against the
  /// friction force that no slip needed (set on no slip → sliding)
  Vec2 slip_hint = Vec2::Zero();
  /// sliding may switch to no slip (false after no slip → sliding until the slip exceeded the
  /// threshold or min_slide_time passed)
  bool rolling_armed = true;
  double dt_next = 0.0;  ///< the integrator's next step size, s (0: start at dt_max)
};

/// throws pivot::Error naming the problem: no surface, body 1 fixed, mass or inertia not
/// positive, negative friction coefficients or thresholds
void validate(const ReducedContactModel& model);
/// the friction law's part of that check (μ itself may be 0: the World sets it per pair)
void validate(const ContactFriction& friction);
/// the friction torques' part: μ_r, μ_s finite and ≥ 0, w_reg finite and > 0; the message
/// names the field
void validate(const FrictionTorques& torques);

/// a mode's independent rates ν (at most 5), stored in place (no heap allocation: the reduced
/// equations are evaluated some 10⁴ times a simulated second)
using RateVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 5, 1>;

/// the mode's independent rates ν from the full q̇: q̇ for 5-DOF modes, (u̇, v̇, ψ̇), (u̇, v̇),
/// none for stuck
[[nodiscard]] RateVector independent_rates(FrictionMode mode, const Vec5& qdot);

/// one evaluation of the reduced equations of motion at a state
struct ReducedDynamics {
  bool ok = false;                       ///< false: singular geometry or system (see message)
  std::string message;                   ///< why not ok
  ContactKinematics kin;                 ///< frames, H, Ḣ at the state
  Vec5 qdot = Vec5::Zero();              ///< full q̇ = G ν
  RateVector nu;                         ///< independent rates ν of the mode
  RateVector nu_dot;                     ///< their accelerations
  Vec5 qddot = Vec5::Zero();             ///< full q̈ = G ν̇ + Ġ ν
  Vec6 V2dot_B = Vec6::Zero();           ///< body 2's body-frame acceleration (zero when fixed)
  Vec6 V1_B = Vec6::Zero();              ///< body 1's body-frame twist ^1φ_1
  Vec6 wrench_c_1c = Vec6::Zero();       ///< contact wrench on body 1 in frame 1c: (τ; f)
  Vec6 wrench_c_B1 = Vec6::Zero();       ///< the same in body frame 1 at its centre of mass
  Vec6 wrench_c_W1 = Vec6::Zero();       ///< the same in world axes at body 1's centre of mass
  Pose X_W1{};                           ///< body 1's pose
  double normal_force = 0.0;             ///< f_n = −f_z(1c), compressive positive, N
  Vec2 tangential_force = Vec2::Zero();  ///< (f_x, f_y) in 1c on body 1, N
  double normal_torque = 0.0;            ///< τ_z in 1c on body 1, N·m
  Vec2 slip = Vec2::Zero();     ///< velocity of body 1's contact point relative to body 2, 1c, m/s
  double spin = 0.0;            ///< relative angular velocity about the normal, rad/s
  Vec2 rolling = Vec2::Zero();  ///< relative angular velocity (ω_x, ω_y) in 1c, rad/s
  Vec2 rolling_torque = Vec2::Zero();  ///< (τ_x, τ_y) in 1c on body 1, N·m
  double regularity = 0.0;             ///< the smaller regularity of the two contact frames
  double rcond = 0.0;                  ///< reciprocal condition estimate of P M H_r (equilibrated)
};

/// evaluates the equations of motion of the state's mode (Kry & Pai 2002 §3.7 steps 1-5)
[[nodiscard]] ReducedDynamics reduced_dynamics(const ReducedContactModel& model,
                                               const ReducedContactState& state);

/// body 1's pose in the world, X_W2 · ^2_1E(q)
[[nodiscard]] Pose body1_pose(const ReducedContactModel& model, const ReducedContactState& state);
/// Pivot world twists (ω; v at the centre of mass, world axes)
[[nodiscard]] Vec6 body1_world_twist(const ReducedContactModel& model,
                                     const ReducedContactState& state);
[[nodiscard]] Vec6 body2_world_twist(const ReducedContactState& state);
/// kinetic plus gravitational energy of the free bodies, J (zero height at the world origin)
[[nodiscard]] double reduced_energy(const ReducedContactModel& model,
                                    const ReducedContactState& state);

/// the rates of a new mode: for a rolling mode, the nearest admissible motion in the kinetic
/// energy metric, i.e. after a perfectly inelastic impulse at the contact that stops the slip
/// (and the spin), which keeps the momenta a contact impulse cannot change [DERIVED; the paper
/// instead keeps (u̇, v̇, ψ̇) and recomputes (ṡ, ṫ) from eq. 30]. For the 5-DOF modes q̇ is kept.
/// Returns the new full q̇ and body 2's twist.
struct ModeChange {
  Vec5 qdot = Vec5::Zero();
  Vec6 V2_B = Vec6::Zero();
  double energy_change = 0.0;  ///< J, ≤ 0
};
[[nodiscard]] ModeChange change_mode(const ReducedContactModel& model,
                                     const ReducedContactState& state, FrictionMode new_mode);

/// An impulse on a body of a reduced pair, kept in reduced coordinates [DERIVED]: the twists just
/// after it, φ⁻ = φ + M⁻¹ ι, are projected onto the friction mode's admissible motions in the
/// kinetic-energy metric (a perfectly inelastic contact impulse), Δν = (H_rᵀ M H_r)⁻¹ H_rᵀ ι for
/// a fixed body 2. The contact's impulsive reaction ι_c = M (φ⁺ − φ⁻) must be one it can give:
///  - compressive (ι_n ≥ 0), else the impulse lifts the body off: not kept;
///  - within static rolling and spinning friction in the mode stuck, else the mode steps down to
///    no slip; within μ_spin_static ι_n in no slip no spin, else no slip;
///  - within μ_static ι_n for the tangential part in the no-slip modes, else the mode becomes
///    sliding (frictionless without μ) and the impulse is projected again;
///  - in sliding with μ > 0, no normal reaction (ι_n = 0, e.g. a push along the surface), since
///    the friction of an impact (Routh's problem) is not modelled here: not kept otherwise.
/// Not kept: the state is unchanged and the caller applies the impulse in full coordinates.
struct ReducedImpulse {
  bool kept = false;
  std::string message;        ///< why not kept
  ReducedContactState state;  ///< after the impulse (mode, rates, body 2's twist)
  /// the contact's impulsive reaction on body 1 in 1c (τ; f), N·m·s; N·s
  Vec6 contact_impulse_1c = Vec6::Zero();
  double energy_change = 0.0;  ///< J: after the projection minus just after the impulse, ≤ 0
};
/// body: 1 or 2 (a free body 2); impulse_W: (τ; f) at that body's centre of mass, world axes,
/// N·m·s; N·s. Throws pivot::Error for a bad body or a non-finite impulse.
[[nodiscard]] ReducedImpulse apply_impulse(const ReducedContactModel& model,
                                           const ReducedContactState& state, int body,
                                           const Vec6& impulse_W);

/// A pair entering the reduced mode from full coordinates (the hybrid switch's entry,
/// docs/hybrid.md "The World switch"): find_contact, then body 1 is snapped onto the
/// constraint manifold (body 2 keeps its pose), q̇ solves ^{1c}Ĥ q̇ = ^{1c}φ(2,1) (the relative
/// normal velocity, which H cannot represent, is dropped and reported), and the mode is
/// frictionless for μ = 0, no slip when rolling is allowed and the slip is below the threshold
/// (with the projection of change_mode), sliding otherwise.
struct ReducedEntry {
  ReducedContactState state;
  ContactSearchResult search;    ///< the contact found: check converged, gap, normal_angle
  Pose X_W1{};                   ///< body 1's pose on the manifold (moved by about |gap|)
  double separation_rate = 0.0;  ///< the dropped relative normal velocity, m/s (> 0 separating)
  double energy_change = 0.0;    ///< J: after minus before (snap, dropped velocity, projection)
};
/// poses and Pivot world twists (ω; v at the centre of mass, world axes) of both bodies;
/// p_W_guess: a point near the contact (e.g. the collision detector's); search_tolerance: the
/// contact search's residual tolerance (find_contact)
[[nodiscard]] ReducedEntry enter_reduced_mode(const ReducedContactModel& model, const Pose& X_W1,
                                              const Vec6& V1_W, const Pose& X_W2, const Vec6& V2_W,
                                              double time = 0.0,
                                              const std::optional<Vec3>& p_W_guess = {},
                                              double search_tolerance = 1e-12);

}  // namespace pivot::detail
