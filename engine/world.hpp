#pragma once
// World: the one object of the common case. Create it, add bodies, joints and forces from
// settings structs, call step(), read the state and the impulses.
//
//   pivot::World world({.time_step = 1e-3});
//   int ball = world.add_body({.name = "ball", .mass = 1.0, .p_WS = {0, 0, 1}});
//   world.add_joint(pivot::BallJointSettings{.anchor_W = {0, 0, 2}}, ball, pivot::kWorldBody);
//   for (int i = 0; i < 1000; ++i) world.step();
//   pivot::Vec3 x = world.pose(ball).p_WB;
//
// One step (docs/step.md; Cline 2002 §2.7 and §4.1):
//   1. forces f(p, v, t); the gyroscopic term as the impulse of a midpoint step (gyroscopic.hpp);
//   2. per island, the mixed LCP of Cline eq. 2.49 (eq. 2.55 with M̃ = M − h²∇ₚf − h∇ᵥf when
//      the linearly implicit step is on), solved by Lemke after a sparse Schur reduction;
//   3. p(t+h) from v⁺: x += h v⁺, q ← normalize(exp(h ω⁺) q);
//   4. stabilization: post-step LCP (Cline eq. 3.7), Baumgarte, or none.
// Errors in settings throw pivot::Error naming the offending body/joint; step() never throws
// for solver trouble: it reports it in the StepReport and never writes a NaN into the state.

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pivot/collision/collision_world.hpp"
#include "pivot/collision/contact.hpp"
#include "pivot/constraints/ball_joint.hpp"
#include "pivot/constraints/fixed_joint.hpp"
#include "pivot/constraints/hinge_joint.hpp"
#include "pivot/constraints/joint.hpp"
#include "pivot/constraints/planar_joint.hpp"
#include "pivot/constraints/slider_joint.hpp"
#include "pivot/constraints/universal_joint.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/actuator.hpp"
#include "pivot/engine/failed_lcp.hpp"
#include "pivot/engine/forces.hpp"
#include "pivot/engine/hybrid/hybrid_settings.hpp"
#include "pivot/engine/rigid_body_set.hpp"
#include "pivot/engine/step_report.hpp"
#include "pivot/lcp/lemke.hpp"

namespace pivot {

namespace detail {
struct StepContext;
struct StepWorkspace;
struct IslandJob;
class HybridSwitch;
class ThreadPool;
struct ConstraintSet;
struct IslandInput;
struct IslandTimes;
struct IslandOutput;
}  // namespace detail
class CollisionWorld;

enum class Stabilization {
  post,       ///< post-stabilization LCP after every step (Cline eq. 3.7), the default
  baumgarte,  ///< velocity-level J v⁺ = −α g (Cline §3.2)
  none,       ///< no position correction
};

/// "post", "baumgarte", "none"
[[nodiscard]] const char* to_string(Stabilization s);

/// the most post-stabilization passes a step may take (WorldSettings::max_post_steps): each is
/// a collision pass and an LCP, so the bound keeps one step's work bounded (docs/limits.md)
inline constexpr int kMaxPostSteps = 100;

struct WorldSettings;
/// the Baumgarte rate a step uses: min(baumgarte_alpha, 1/time_step) (see baumgarte_alpha)
[[nodiscard]] double baumgarte_rate(const WorldSettings& s);

/// the most threads a World runs (WorldSettings::threads, pivot run --threads): each reserves
/// its stack (8 MiB by default), so 256 of them take 2 GiB of address space
inline constexpr int kMaxThreads = 256;

struct WorldSettings {
  /// 3, or 2 for a planar world (docs/planar.md): every body moves in the world x–z plane with
  /// 3 degrees of freedom (θ about y, x, z), its shape a planar one (collision/planar_shape.hpp),
  /// gravity in the plane, joints hinges about y, sliders along the plane and fixed joints, and 2
  /// friction directions per contact (±t in the plane). The step is the 3-D step: for such a world
  /// its out-of-plane rows and velocities stay exactly zero, and each step ends by projecting the
  /// state on the plane (a guard against rounding; docs/planar.md "How it is built")
  int dimension = 3;
  double time_step = 1e-3;               ///< h, s, > 0
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  ///< m/s²
  Stabilization stabilization = Stabilization::post;
  /// α, 1/s, for Stabilization::baumgarte: J v⁺ = −α g. The rate used is min(α, 1/h)
  /// (baumgarte_rate): one step of J v⁺ = −α g leaves g⁺ ≈ (1 − hα) g, which overshoots for
  /// hα > 1 and grows for hα > 2, so α = 200 at h = 50 ms would multiply every joint error
  /// by −9 per step
  double baumgarte_alpha = 200.0;
  /// post-stabilization: the largest correction per post-step (m, and rad at unit lever);
  /// larger errors are corrected by repeated post-steps (Cline §5.2.3). 0 = no cap
  double post_step_cap = 0.0;
  int max_post_steps = 4;  ///< post-steps per step at most (with a cap), 1 … kMaxPostSteps
  /// linearly implicit step for forces with gradients (springs), Cline §2.7.4, and the
  /// energy-conserving midpoint gyroscopic term; false: both explicit
  bool implicit_forces = true;
  /// joint limits enter the LCP when within this margin of their bound (rad or m)
  double limit_margin = 0.05;
  /// friction directions per contact (k, even: 4, 8 or 16), each with its negative
  int friction_directions = 4;
  /// contacts are reported with gap ≤ this (speculative contacts), m
  double contact_margin = 0.01;
  /// Newton restitution applies to contacts approaching faster than this, m/s
  double restitution_threshold = 0.1;
  /// the friction directions are turned by this angle about the normal from their default
  /// (the projection of world x, else world y, on the tangent plane), rad
  double friction_direction_offset = 0.0;
  lcp::LemkeOptions lemke{};  ///< solver options
  /// keep a copy of every island's dynamics mixed LCP of the last step (World::recorded_lcps),
  /// e.g. to write it to a problem file; off by default (a copy per island and step)
  bool record_lcps = false;
  /// time the stages of every step (StepReport::stages, RunTotals::stage_seconds); off by
  /// default: a few dozen clock reads per step
  bool profile = false;
  /// threads that solve independent islands (and post-step islands) at once, and share the
  /// collision narrow phase of large pair lists, in [0, kMaxThreads]; 0: every core the
  /// system reports (at most kMaxThreads). The results are the same for any count
  /// (docs/step.md §3)
  int threads = 1;
  /// islands of a few bodies and rows go through the small dense path (docs/step.md §3);
  /// false: every island through the general sparse one (the reference, for comparisons)
  bool small_islands = true;
  /// called with each island LCP that fails, before the fallback (failed_lcp.hpp); none by
  /// default. `pivot run --dump-failed-lcp DIR` writes the problems from here
  FailedLcpCallback on_failed_lcp{};
  /// polled inside the step's long loops (the reduced integrator's substeps, between
  /// post-stabilization passes, Lemke's paths); when it returns true those loops stop early and
  /// the step still completes: a reduced pair leaves with step_failed (the LCP takes its step),
  /// an island LCP in progress ends unsolved ("interrupted after N pivots": the island keeps its
  /// velocities, a reported failure of the step), the remaining post-steps are skipped.
  /// `pivot run` sets it from SIGINT/SIGTERM (docs/limits.md "Interruption"). Empty by
  /// default: never
  std::function<bool()> interrupted{};
  /// hybrid mode (docs/hybrid.md "The World switch"): a free body with a smooth surface resting
  /// on one fixed body with a smooth surface, or two free bodies with smooth surfaces touching
  /// only each other, are advanced in reduced contact coordinates (Kry & Pai 2002) instead of
  /// by the LCP, until they separate, touch something else, or the geometry fails
  bool hybrid = false;
  /// hybrid entry: consecutive steps the pair must have met the entry rule, ≥ 0. 0: the pair
  /// enters at the start of the first step whose contacts qualify, before the LCP, from the
  /// state as it is (e.g. a scene's initial state on the contact manifold); the smooth surfaces
  /// decide then (docs/hybrid.md "The World switch", entry)
  int hybrid_entry_steps = 10;
  /// hybrid entry: all contact points of the pair within this distance of one point, or else
  /// one contact of the smooth surfaces from every point within this distance (docs/hybrid.md
  /// "The World switch", entry), m; the contact's gap after projection and at entry must also
  /// be below it
  double hybrid_point_tolerance = 1e-3;
  /// hybrid entry: the largest relative normal speed the projection may drop, m/s
  double hybrid_max_normal_speed = 0.05;
  /// the reduced integrator's settings (dt_max, tolerance, ...)
  ReducedStepSettings hybrid_integrator{};
  /// the friction law and mode-switching thresholds of reduced pairs; `mu` is ignored: a pair
  /// uses √(μ_A μ_B) of its bodies, as the LCP does
  ContactFriction hybrid_friction{};
  /// rolling and spinning friction torques of reduced pairs, τ = −μ_r ρ̂ f_n and
  /// −μ_s sgn(ω_z) f_n (Kry 2000 eqs. 4.27-4.30; docs/hybrid.md "Friction modes and
  /// switching"). One setting for every pair. They act in reduced coordinates only: a pair the
  /// LCP steps (before entry, after exit, hybrid off) has no rolling or spinning friction
  FrictionTorques hybrid_torques{};
};

/// a contact of the last step with its impulses
struct ContactInfo {
  Contact contact;                      ///< geometry at the start of the step
  double normal_impulse = 0.0;          ///< λ_n, N·s (on A along the normal; −λ_n on B)
  Vec3 tangent_impulse = Vec3::Zero();  ///< friction impulse on A, world, N·s
};

class World {
 public:
  explicit World(WorldSettings settings = {});
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  /// adds a body; returns its index. Names must be unique (empty names are allowed).
  int add_body(const BodySettings& settings);

  /// adds a joint between body_a and body_b (kWorldBody for the world) at the current poses;
  /// returns its index. Throws pivot::Error for bad settings or bodies.
  int add_joint(const BallJointSettings& s, int body_a, int body_b);
  int add_joint(const HingeJointSettings& s, int body_a, int body_b);
  int add_joint(const UniversalJointSettings& s, int body_a, int body_b);
  int add_joint(const SliderJointSettings& s, int body_a, int body_b);
  int add_joint(const FixedJointSettings& s, int body_a, int body_b);
  int add_joint(const PlanarJointSettings& s, int body_a, int body_b);

  /// external forces (gravity is in the settings)
  void add_force(const ConstantForceSettings& s);
  void add_spring(const SpringSettings& s);
  void add_force_callback(ForceCallback callback);
  /// adds a force object the caller may change between steps (e.g. a PullForce, pull_force.hpp);
  /// the World owns it and returns it. Not null, else pivot::Error
  ExternalForce& add_force(std::unique_ptr<ExternalForce> force);
  /// changes the time step h between steps (e.g. a live run's user); positive and finite, else
  /// pivot::Error. The World's clock keeps running from its current time
  void set_time_step(double h);
  /// the time step's history once set_time_step was called: (first step, h) per stretch of
  /// steps, the first from step 0 with the initial h; empty while h never changed
  [[nodiscard]] const std::vector<std::pair<long, double>>& time_step_history() const {
    return time_step_history_;
  }

  /// the time at the end of step k (k ≥ 0) on the step grid: k h while h never changed, else the
  /// sum over set_time_step's stretches (key-framed tracks are sampled at these times, so they
  /// do not jump when h changes)
  [[nodiscard]] double time_at_step(long k) const;

  /// advances by one time step h; the report says what the solvers did
  const StepReport& step();

  // state
  [[nodiscard]] double time() const { return time_; }
  [[nodiscard]] long step_count() const { return steps_; }
  [[nodiscard]] const WorldSettings& settings() const { return settings_; }
  [[nodiscard]] const RigidBodySet& bodies() const { return set_; }
  [[nodiscard]] int body_count() const { return set_.size(); }
  [[nodiscard]] int find_body(const std::string& name) const { return set_.find(name); }
  [[nodiscard]] Pose pose(int body) const { return set_.pose(body); }
  /// twist (ω; v), world-aligned at the COM
  [[nodiscard]] Twist twist(int body) const { return set_.twist(body); }
  /// sets a body's pose and twist (e.g. for a user's reset); validated, throws pivot::Error
  void set_state(int body, const Pose& pose, const Vec6& twist);
  /// an impulse J (N·s, world axes) at the world point p on a dynamic body, between steps: its
  /// twist changes by Δv = J / m, Δω = I_W⁻¹ (p − x) × J. A body in hybrid reduced mode keeps
  /// it when its contact can absorb the impulse (reduced_contact.hpp, apply_impulse: the
  /// twists projected onto the friction mode's motions, the mode stepping down where friction
  /// cannot hold); otherwise its pair leaves reduced mode (reported as an exit "impulse: …")
  /// and the impulse is applied in full coordinates. Throws pivot::Error for a fixed or
  /// kinematic body, a non-finite J or p, or an impulse out of a planar world's plane.
  void apply_impulse(int body, const Vec3& impulse_W, const Vec3& point_W);

  [[nodiscard]] int joint_count() const { return static_cast<int>(joints_.size()); }
  [[nodiscard]] const Joint& joint(int j) const;
  /// the joint's equality-row impulses of the last step (N·s or N·m·s), one per row
  [[nodiscard]] const Eigen::VectorXd& joint_impulse(int j) const;
  /// the joint's net limit impulse of the last step (0 when no limit was active)
  [[nodiscard]] double joint_limit_impulse(int j) const;
  /// the joint's motor impulse of the last step (0 without a motor)
  [[nodiscard]] double joint_motor_impulse(int j) const;
  /// bodies joined by a joint do not collide; this lets the joint's bodies collide
  void set_joint_collision(int joint, bool collide);

  /// adds an actuator on a hinge or slider joint (engine/actuator.hpp); returns its index.
  /// Throws pivot::Error naming the actuator for a bad joint index, a joint without a single
  /// free coordinate (ball, universal, fixed), a taken name or bad settings.
  int add_actuator(const ActuatorSettings& s);
  [[nodiscard]] int actuator_count() const { return static_cast<int>(actuators_.size()); }
  /// the actuator by index or by name; pivot::Error for an unknown one
  [[nodiscard]] Actuator& actuator(int a);
  [[nodiscard]] Actuator& actuator(const std::string& name);
  [[nodiscard]] const Actuator& actuator(int a) const;
  /// replaces the actuator's target by a constant from the next step on (rad, m, rad/s, m/s,
  /// N·m or N by its type and joint)
  void set_actuator_target(int a, double value) { actuator(a).set_target(value); }
  void set_actuator_target(const std::string& name, double value) {
    actuator(name).set_target(value);
  }
  /// the contacts of the last step, with their impulses
  [[nodiscard]] const std::vector<ContactInfo>& contacts() const { return contacts_; }
  /// the largest |g| over all joint equality rows at the current state (m or rad)
  [[nodiscard]] double max_joint_error() const;
  /// the largest penetration depth (−gap) over all contacts at the current state, ≥ 0, m
  [[nodiscard]] double max_penetration();
  /// collision detection at the current state: the contacts with gap ≤ the contact margin
  /// (what the step's stages detect; e.g. for the animator mode, engine/animator.hpp)
  [[nodiscard]] std::vector<Contact> current_contacts();
  /// the first body surface a ray from origin_W along direction_W meets within max_range (m)
  /// at the current poses, `ignore_body`'s shape left out (CollisionWorld::ray_cast; a ray
  /// starting inside a convex shape does not hit it). Throws pivot::Error for non-finite input
  [[nodiscard]] RayHit ray_cast(const Vec3& origin_W, const Vec3& direction_W, double max_range,
                                int ignore_body = kWorldBody) const;

  /// kinetic energy Σ ½ vᵀ M v, J
  [[nodiscard]] double kinetic_energy() const;
  /// gravitational potential energy −Σ m g·x plus spring energies, J
  [[nodiscard]] double potential_energy() const;
  /// the last step's report
  [[nodiscard]] const StepReport& last_report() const { return report_; }
  /// with settings().record_lcps: the last step's dynamics mixed LCP of each island that had
  /// one, as assembled and handed to the solver; empty otherwise. lcp::reduce_mixed_lcp gives
  /// the pure LCP that Lemke solves.
  [[nodiscard]] const std::vector<lcp::SparseMixedLcpProblem>& recorded_lcps() const {
    return recorded_lcps_;
  }
  /// turns the hybrid mode on or off between steps; off: every reduced pair leaves at the
  /// next step, with its exact pose and twist
  void set_hybrid(bool on) { settings_.hybrid = on; }
  /// replaces WorldSettings::on_failed_lcp between steps (e.g. after a scene built the World)
  void set_failed_lcp_callback(FailedLcpCallback callback) {
    settings_.on_failed_lcp = std::move(callback);
  }
  /// replaces WorldSettings::interrupted between steps (empty: never interrupted)
  void set_interrupt_check(std::function<bool()> check) {
    settings_.lemke.interrupted = check;
    settings_.interrupted = std::move(check);
  }
  /// hybrid: true while the body is advanced in reduced contact coordinates (either body of a
  /// free pair; never a fixed partner)
  [[nodiscard]] bool in_reduced_mode(int body) const { return is_reduced(body); }
  /// totals over all steps so far
  [[nodiscard]] const RunTotals& totals() const { return totals_; }

  // checkpoints (world_checkpoint.cpp, docs/checkpoints.md)
  /// everything a step reads that is not the model, as bytes: every body's pose and twist, the
  /// time, the step count and the time-step history, the LCP warm starts, the hybrid switch's
  /// state (the reduced pairs with their contact coordinates, rates, friction mode and the
  /// reduced integrator's next step size; the exit impulses, entry streaks and back-off
  /// counters), the actuators' targets and last efforts, and the run totals; stamped with a
  /// format version, a build fingerprint and the fingerprint of this World's structure, with a
  /// checksum. A World built from the same scene that restores these bytes steps on bit for bit
  /// as this one would. Works between any two steps
  [[nodiscard]] std::string save_state() const;
  /// puts back a state of save_state. Throws pivot::Error, leaving this World unchanged, for
  /// bytes that are truncated, corrupt (checksum), of another format version or another build,
  /// or of a World of another structure (bodies, shapes, joints, forces, settings). The last
  /// step's results (contacts, impulses, report) are cleared
  void restore_state(std::string_view bytes);
  /// the fingerprint of this World's structure that checkpoints carry (docs/checkpoints.md)
  [[nodiscard]] std::uint64_t structure_fingerprint() const;

 private:
  // the stages of step() (world_step.cpp), in order, over the step's context
  void compute_forces(detail::StepContext& ctx);
  /// the settings of add_joint_rows: the dynamics step's and the post-step's differ
  struct JointRowSettings {
    double equality_bias = 0.0;  ///< the equality rows' bias is this × g
    double limit_margin = 0.0;   ///< limits enter within this of their bound
    double limit_bias = 0.0;     ///< the limit rows' bias is this × g
    bool motors = false;         ///< motor rows too
  };
  void add_joint_rows(const JointRowSettings& s);
  void add_servo_rows();
  void add_joint_dynamics_rows();
  void add_actuator_efforts(Eigen::VectorXd& wrenches);
  void add_step_contacts(detail::StepContext& ctx);
  /// World::step's stages; step() turns running out of memory in them into a pivot::Error
  void run_step();
  void solve_islands(detail::StepContext& ctx);
  /// leaves out of the island the dependent rows of body pairs with more joint rows than
  /// coordinates (island_bounds.hpp); with `report`, a redundant_joint warning for each such pair.
  /// False when the island has joint rows repeated on one pair of bodies (dropped or not), which
  /// only its rows' bodies decide.
  bool drop_repeated_joint_rows(detail::IslandInput& island, bool report);
  void store_island_impulses(detail::StepContext& ctx, const detail::IslandInput& island,
                             const detail::IslandOutput& out);
  void integrate_positions(detail::StepContext& ctx);
  void stabilize();
  /// bodies whose pose or twist is not finite after the step get back their start-of-step
  /// state (step_start_), leave hybrid reduced mode, and count as a failure of the step
  void restore_nonfinite_bodies(const detail::StepContext& ctx);
  // the planar world (planar_world.cpp, docs/planar.md)
  /// throws pivot::Error unless the settings suit a planar world (dimension 2)
  static void check_planar_settings(const WorldSettings& s);
  /// throws pivot::Error unless a body added to a planar world lies and moves in its plane
  void check_planar_body(const RigidBody& model, const Pose& pose, const Vec6& twist) const;
  /// throws pivot::Error unless a joint suits a planar world: a hinge about ±y, a slider along
  /// the plane or a fixed joint (`axis`: the hinge's or slider's world axis, else null)
  void check_planar_joint(JointType type, const std::string& name, const Vec3* axis) const;
  /// every body's pose and twist projected on the x–z plane (rounding only; docs/planar.md)
  void project_on_plane();
  void finish_step(const detail::StepContext& ctx);
  void add_stage_totals();
  void add_island_times(const detail::IslandTimes& times);
  void time_stage(StepStage stage, double seconds);
  detail::ThreadPool* pool();
  detail::StepWorkspace& workspace();  // made at the first step
  /// the position correction at p(t+h); `contacts` are the ones detected there
  /// (post_stabilization.cpp). True when it changed some body's pose (bit for bit).
  bool post_stabilize(std::vector<Contact>& contacts);
  static double deepest_penetration(const std::vector<Contact>& contacts);
  /// the contacts at the current poses; with skip_reduced (the step's own detections), pairs in
  /// reduced mode get no narrow phase (their contact is not the LCP's)
  void detect_contacts(std::vector<Contact>& out, bool skip_reduced = true);
  /// puts back into `contacts` (in their canonical place) the contacts of the pair (a, b) that
  /// the last detection skipped (a reduced pair leaving to the LCP at the start of the step)
  void restore_skipped_contacts(int a, int b, std::vector<Contact>& contacts);
  /// `step`: the dynamics step's context (its h and Baumgarte rate); null: the post-step's
  /// position rows
  void add_contact_rows(const std::vector<Contact>& contacts, const detail::StepContext* step);
  void check_body(int body, const char* what) const;
  // kinematic bodies (kinematic_bodies.cpp, docs/step.md "Kinematic bodies")
  /// the body's centre-of-mass pose on its track at time t
  static Pose kinematic_pose(const RigidBody& body, double t);
  /// each kinematic body's twist := its track's average over the step [t, t+h]
  void prescribe_kinematic_twists(const detail::StepContext& ctx);
  /// the kinematic bodies' twists into the dynamics rows' right-hand sides
  void add_kinematic_bias();
  /// each kinematic body's pose := its track's at the end of the step
  void place_kinematic_bodies();
  /// the squeeze's dynamics fallback: an island whose LCP ended on a ray and touches kinematic
  /// bodies is solved again with their twists taken out of its rows (as if they stood still
  /// this step) instead of the compliant answer, which is of the order violation / ε
  void resolve_squeezed_islands(const std::vector<detail::IslandJob>& jobs,
                                std::vector<detail::IslandOutput>& outputs);
  /// an island LCP that ended on a ray (before the fallback): counted and warned
  void note_ray(const std::vector<int>& island_bodies, const char* which);
  /// an island LCP answered by the compliant fallback after another failure: warned
  void note_fallback(const std::vector<int>& island_bodies, const char* which,
                     const detail::IslandOutput& out);
  [[nodiscard]] bool is_reduced(int body) const;
  /// the operations the hybrid switch needs (detail::HybridHost; world_hybrid_access.hpp)
  class HybridAccess;
  /// checks the bodies and builds the joint at the current poses (the joint checks its
  /// settings and throws pivot::Error naming itself)
  template <typename JointT, typename SettingsT>
  int add_joint_of(const SettingsT& s, int body_a, int body_b);
  int add_joint_impl(std::unique_ptr<Joint> joint);

  // ---- the model: what was added; fixed between add_* calls
  WorldSettings settings_;
  std::vector<std::unique_ptr<Joint>> joints_;
  std::vector<std::unique_ptr<ExternalForce>> forces_;
  std::unique_ptr<CollisionWorld> collision_;  // the bodies' shapes and excluded pairs
  // ---- the state. set_ holds each body's model (mass, shape) beside its p and v, as
  // RigidBodySet is the one store of bodies (Cline §4.3); the hybrid pairs and the warm starts
  // carry over from step to step as well, so (p, v) alone reproduce a run only from its start
  RigidBodySet set_;
  double time_ = 0.0;
  long steps_ = 0;
  std::vector<std::pair<long, double>> time_step_history_;  // set_time_step's stretches
  std::unique_ptr<detail::HybridSwitch> hybrid_;  // the reduced pairs (hybrid/hybrid_switch.hpp)
  // the step's buffers, kept from step to step, and the warm starts (step_workspace.hpp)
  std::unique_ptr<detail::StepWorkspace> work_;
  // ---- results: the last step's impulses, contacts and report, and totals over the run
  std::vector<Eigen::VectorXd> joint_impulse_;
  std::vector<double> limit_impulse_, motor_impulse_;
  std::vector<Actuator> actuators_;
  std::vector<ContactInfo> contacts_;
  StepReport report_;
  RunTotals totals_;
  /// every body's pose and twist at the start of the step (restore_nonfinite_bodies)
  std::vector<std::pair<Pose, Vec6>> step_start_;
  std::vector<lcp::SparseMixedLcpProblem> recorded_lcps_;
  // ---- scratch: rebuilt every step, kept to reuse its memory
  std::unique_ptr<detail::ConstraintSet> rows_;
  std::unique_ptr<detail::ThreadPool> pool_;  // the island threads, made when first needed
};

}  // namespace pivot
