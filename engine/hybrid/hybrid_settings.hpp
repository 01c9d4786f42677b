#pragma once
// The settings of the hybrid mode that WorldSettings carries (Kry & Pai 2002 §3.4, §3.7; Kry 2000
// eqs. 4.27-4.30): the friction law of a reduced contact, its rolling and spinning friction
// torques, and the reduced integrator's steps and tolerances. Light on purpose: world.hpp
// includes this, not the reduced-coordinate machinery.

#include <functional>

namespace pivot {

/// friction law and the paper's mode-switching thresholds (Kry & Pai 2002 §3.4.2-3.4.3)
struct ContactFriction {
  double mu = 0.0;          ///< dynamic Coulomb coefficient μ ≥ 0; 0: always frictionless
  double mu_static = -1.0;  ///< no slip holds while |f_t| ≤ μ_static f_n (P35); < 0: μ_static = μ
  /// no spin holds while |τ_n| ≤ μ_spin_static f_n (P40), m (a torque per force)
  double mu_spin_static = 0.0;
  /// sliding → no slip when the slip speed falls below it, m/s (P§3.4.2: 2.5-5 mm/s, "2 to 4
  /// percent of the largest dimension of the object" per second); default 5 mm/s
  double slip_threshold = 0.005;
  /// no slip → no slip no spin when the relative spin |ω_z| falls below it, rad/s; 0 (default):
  /// never (the paper did not implement no-spin) [DERIVED by analogy with the slip threshold]
  double spin_threshold = 0.0;
  /// hysteresis (Kry 2000 §4.4.4: "give the objects a chance to start sliding"): after
  /// no slip → sliding, rolling resumes only once the slip has exceeded slip_threshold, or
  /// after this time, s (default 10 ms); without it stick and slip alternate at every step
  double min_slide_time = 0.01;
  /// allow the rolling modes at all (false: sliding only, as in Kry 2000's implementation)
  bool rolling = true;
  /// sliding friction ramps up linearly from 0 at zero slip to μ f_n at this slip speed, m/s
  /// (default 0: plain Coulomb). For sliding-only simulations (rolling = false), where plain
  /// Coulomb friction chatters when the slip passes through zero. [DERIVED: Kry 2000 §4.4
  /// instead drops friction entirely below a threshold, which chatters at the threshold.]
  double slip_regularization = 0.0;

  [[nodiscard]] double static_coefficient() const { return mu_static < 0.0 ? mu : mu_static; }
};

/// rolling and spinning friction torques of a reduced contact (Kry 2000 eqs. 4.27-4.30, thesis
/// only; Moore 1972 for the physics). In the contact frame 1c the contact wrench carries the
/// torques
///   τ_x,y = −μ_r ρ̂ f_n,  τ_z = −μ_s sgn(ω_z) f_n
/// with ρ = (ω_x, ω_y) and ω_z body 1's angular velocity relative to body 2 (rolling, spin) and
/// f_n the compressive normal force, in every friction mode where the motion is free (rolling
/// in the rolling modes and the others, spin unless no_slip_no_spin). Unit vectors are
/// regularized [DERIVED, as slip_regularization]: ρ̂ → ρ / max(|ρ|, w_reg), sgn(ω_z) →
/// clamp(ω_z / w_reg, −1, 1), so the torques fade out below w_reg instead of chattering at zero
/// rotation.
///
/// Static rolling friction (`stick`, on by default): a pair rolling without slip whose relative
/// angular velocity |ω| falls below w_reg switches to the mode `stuck` (no relative motion at
/// all) when the contact can hold it there: the wrench that keeps the pair together satisfies
///   f_n ≥ 0,  |f_t| ≤ μ_static f_n,  |τ_x,y| ≤ μ_r f_n,  |τ_z| ≤ max(μ_s, μ_spin_static) f_n.
/// It leaves `stuck` at the located instant one of these fails (to no slip, or to sliding for
/// the force). Like Coulomb's static friction with μ_static = μ, the static limits equal the
/// dynamic torques [DERIVED: Kry 2000 has no no-roll mode; its bodies creep to rest]. Needs
/// μ_r > 0 and a spin limit > 0; without `stick`, or without them, a body creeps to rest under
/// the regularized torques instead of stopping, at the cost of a stiff reduced ODE (steps of
/// about 1 ms at rest, docs/loop-surfaces.md). Reduced coordinates only: the LCP has no
/// rolling or spinning friction. Off by default (coefficients 0).
struct FrictionTorques {
  double mu_rolling = 0.0;       ///< μ_r, m (a torque per normal force), ≥ 0
  double mu_spinning = 0.0;      ///< μ_s, m, ≥ 0
  double regularization = 1e-3;  ///< w_reg, rad/s, > 0
  bool stick = true;             ///< static rolling friction: the mode `stuck` (above)

  /// the static limit of the spin torque per normal force, m
  [[nodiscard]] double spin_limit(double mu_spin_static) const {
    return mu_spinning > mu_spin_static ? mu_spinning : mu_spin_static;
  }
  /// whether the mode `stuck` can be entered at all
  [[nodiscard]] bool can_stick(double mu_spin_static) const {
    return stick && mu_rolling > 0.0 && spin_limit(mu_spin_static) > 0.0;
  }
};

/// the smallest reduced-integrator tolerance a scene may ask for: the step-doubling error
/// estimate |y₂ − y₁|/15 of components of size 1 cannot fall much below the rounding of a
/// double (2.2e-16 relative), so a tolerance under ~50 ulp is never met and every step would
/// shrink to dt_min and be forced (a step of hybrid_tolerance 1e-300 would take about a minute)
inline constexpr double kMinReducedTolerance = 1e-14;

/// integrator settings; defaults suit bodies of decimetre size
struct ReducedStepSettings {
  double dt_max = 0.01;  ///< s; Kry & Pai used 1-64 ms, 10 ms for the rattleback
  double dt_min = 1e-7;  ///< s; the smallest step tried
  /// local error per step, relative to 1 + |component|; at least kMinReducedTolerance
  double tolerance = 1e-9;
  /// separated when f_n < −separation_tolerance, N (0: at the first tensile force)
  double separation_tolerance = 0.0;
  /// bad_geometry when a contact frame's regularity (contact_frame.hpp) drops below it
  double min_regularity = 1e-3;
  /// bad_geometry when the reciprocal condition of the reduced system drops below it
  double min_rcond = 1e-12;
  int max_transitions_per_instant = 8;  ///< patch changes at one instant (corners)
  /// a step of dt_min that fails the error test (a jump in the forces, e.g. Coulomb friction
  /// reversing) is accepted and counted (true, default) or ends the call with step_failed
  bool accept_at_min_step = true;
  /// accepted + rejected steps per advance() call; more end the call with step_failed (the
  /// pair then leaves reduced mode and the LCP takes the step). 60–80 µs each, so one call is
  /// bounded to about 0.1 s whatever the step h, dt_max or tolerance (docs/limits.md). A pair
  /// that needs 10³ steps in one World step is stiff for its tolerance and gains nothing from
  /// reduced coordinates (every test, golden and regression case is the same at 10³). The step
  /// fuzz target found worlds of millimetre bodies spinning on the ground at h = 50 ms that
  /// needed 6 000–70 000 steps per World step: one step took 5.5 s at a bound of 10⁵, and 50
  /// steps took 23 s at 10⁴ (0.9 s at 10³).
  int max_steps = 1000;
  /// polled every 64 steps; when it returns true the call ends with step_failed, message
  /// "interrupted" (`pivot run` sets it from SIGINT/SIGTERM). Empty: never
  std::function<bool()> interrupted{};
};

}  // namespace pivot
