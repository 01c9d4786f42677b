#pragma once
// Struben's animator mode (Struben 1998, Ch. 4; docs/animator.md): every body follows its key
// frames, and each frame the overlaps are removed by the position-level projection LCP alone
// (projection_lcp.hpp) — no velocities, no forces, no dynamics. Each body's animator controls
// set its metric block
//
//   W_i = (1/R_i) · diag( r_i · m_i I_W,i⁻¹ ,  t_i · I₃ )      (angular first)
//
// R_i the rigidity (Struben's [1, 100]: a relative weight, as masses weight post-stabilization),
// t_i and r_i the translate and rotate fractions (Struben §4.2.3: t = 0 forbids translation,
// r = 0 rotation, both 0: the body never moves). m I_W⁻¹ is the inverse of the body's
// mass-normalized inertia (m²): the body's own shape sets how translation and rotation share a
// correction, independent of its mass and of the units of mass. Fixed bodies never move.
//
// A body's corrected pose at frame k is its key-framed pose plus a correction c_k = (δθ; δx)
// (rotation vector and translation of the centre of mass, world axes). Before frame k's
// projection the previous correction relaxes, c ← e^(−ρ Δt) c (ρ the relax rate, 1/s; Struben
// §5.4 "rest shape" future work), unless the body persists it (Struben's behaviour); the
// projection then makes it whatever the overlap needs. A correction that no contact maintains
// therefore returns to the key frames with time constant 1/ρ.

#include <optional>
#include <vector>

#include "pivot/engine/kinematic_track.hpp"
#include "pivot/engine/projection_lcp.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

/// a change of a body's controls during [from, to) (s): the fields given replace the body's
struct AnimatorOverride {
  double from = 0.0;  ///< s
  double to = 0.0;    ///< s, > from
  std::optional<double> rigidity{}, translate{}, rotate{};
};

/// one body's animator controls (scene key "animator")
struct AnimatorBodySettings {
  double rigidity = 1.0;     ///< R ∈ [1, 100]
  double translate = 1.0;    ///< t ∈ [0, 1]
  double rotate = 1.0;       ///< r ∈ [0, 1]
  bool persist = false;      ///< keep corrections (Struben); false: relax them at relax_rate
  double relax_rate = 10.0;  ///< ρ, 1/s, ≥ 0 (0 keeps corrections, as persist)
  std::vector<AnimatorOverride> overrides;  ///< time windows, in any order; the last match wins
};

/// the controls at time t: the body's, with the overrides that hold at t applied
[[nodiscard]] AnimatorBodySettings controls_at(const AnimatorBodySettings& s, double t);

/// checks ranges (R ∈ [1, 100], t, r ∈ [0, 1], ρ ≥ 0 finite, overrides from < to); throws
/// pivot::Error naming the field
void check_animator_settings(const AnimatorBodySettings& s);

struct AnimatorSettings {
  double overlap_tolerance = 1e-9;  ///< a frame is done when no overlap is deeper, m
  int max_passes = 20;              ///< projections per frame at most (re-detected in between)
  lcp::LemkeOptions lemke{};
};

/// one frame's report (docs/animator.md "Report"); stage times as in Struben's Fig. 5.2
struct AnimatorFrame {
  long frame = 0;
  double time = 0.0;                ///< s
  int overlaps = 0;                 ///< contacts with gap < 0 at the key-framed poses
  double overlap_before = 0.0;      ///< deepest overlap at the key-framed (+ relaxed) poses, m
  double overlap_after = 0.0;       ///< deepest overlap after the projection, m
  int passes = 0;                   ///< projection LCPs solved
  int pivots = 0;                   ///< Lemke pivots over the passes
  int rays = 0;                     ///< passes whose LCP had no feasible answer
  int immovable = 0;                ///< overlaps between two immovable bodies (last pass)
  lcp::LcpStatus status = lcp::LcpStatus::solved;  ///< the first failed pass's, else solved
  double detect_seconds = 0.0;      ///< collision detection (every pass)
  double convert_seconds = 0.0;     ///< contacts → rows, metrics and key-frame poses
  double response_seconds = 0.0;    ///< the projection LCPs and applying them
};

/// the animator over a World built from the scene with every body dynamic or fixed (the scene's
/// kinematic bodies' tracks given here instead, see scenes/format/scene.hpp build_animator_world)
class Animator {
 public:
  /// `tracks[i]`: body i's key frames (none: it stays at its pose in the World); `controls[i]`
  /// its controls. Both have one entry per body. Throws pivot::Error for bad controls.
  Animator(World& world, std::vector<std::optional<KinematicTrack>> tracks,
           std::vector<AnimatorBodySettings> controls, AnimatorSettings settings = {});

  /// frame k at time t_k = k Δt (Δt the World's time step): poses the bodies and removes the
  /// overlaps; the World's state then holds the corrected poses (zero twists)
  const AnimatorFrame& frame(long k);

  /// body i's current correction (δθ; δx)
  [[nodiscard]] const Vec6& correction(int i) const { return corrections_[static_cast<std::size_t>(i)]; }
  /// body i's key-framed centre-of-mass pose at time t
  [[nodiscard]] Pose key_pose(int i, double t) const;
  /// the metric block W_i of body i at orientation q and time t
  [[nodiscard]] Mat6 metric(int i, const Quat& q_WB, double t) const;

 private:
  World& world_;
  std::vector<std::optional<KinematicTrack>> tracks_;
  std::vector<AnimatorBodySettings> controls_;
  AnimatorSettings settings_;
  std::vector<Pose> rest_;  ///< the World's initial poses (bodies without a track)
  std::vector<Vec6> corrections_;
  double last_time_ = 0.0;
  AnimatorFrame report_;
};

}  // namespace pivot
