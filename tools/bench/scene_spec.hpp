#pragma once
// The benchmark scenes, described once, engine-neutrally, and built by every engine's adapter
// (sim_pivot.cpp, sim_ode.cpp, sim_bullet.cpp) with the same masses, inertias, poses, time step,
// gravity and pair friction. Each scene has an analytic answer, and the error against it is
// measured by the same code for every engine (scene_benchmark.cpp).
//
// Units SI, Z up. Ground: the plane z = 0. Friction: every contact pair has Coulomb coefficient
// `friction` (each adapter sets its engine's per-body coefficients so that its combination rule
// gives exactly that). Restitution 0.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pivot::bench {

using Vec3 = Eigen::Vector3d;
using Quat = Eigen::Quaterniond;

enum class ShapeKind { box, sphere, none };

struct BodySpec {
  ShapeKind shape = ShapeKind::box;
  Vec3 half_extents = Vec3::Zero();  ///< box (and the inertia of a shape-less link), m
  double radius = 0.0;               ///< sphere, m
  double mass = 1.0;                 ///< kg
  Vec3 inertia_diag = Vec3::Ones();  ///< principal moments about the COM, body axes, kg·m²
  Vec3 position = Vec3::Zero();      ///< COM, world, m
  Vec3 velocity = Vec3::Zero();      ///< COM velocity, world, m/s
};

/// a ball joint at anchor_W (world, at the start) between body_a and body_b (−1: the world)
struct BallJointSpec {
  int body_a = 0;
  int body_b = -1;
  Vec3 anchor_W = Vec3::Zero();
};

struct SceneSpec {
  std::string name;
  double time_step = 1e-3;  ///< h, s
  double duration = 1.0;    ///< simulated time, s
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
  double friction = 0.5;  ///< μ of every contact pair
  bool ground = true;     ///< the plane z = 0
  std::vector<BodySpec> bodies;
  std::vector<BallJointSpec> joints;
};

/// a box of half extents e and mass m: I = m/3 (e_y² + e_z², ...)
[[nodiscard]] BodySpec box_body(const Vec3& half_extents, double mass, const Vec3& position);
/// a solid sphere: I = 2/5 m r²
[[nodiscard]] BodySpec sphere_body(double radius, double mass, const Vec3& position);

/// the state an engine exposes to the measurements
class Simulation {
 public:
  virtual ~Simulation() = default;
  /// one time step of the scene's h
  virtual void step() = 0;
  [[nodiscard]] virtual Vec3 position(int body) const = 0;  ///< COM, world
  [[nodiscard]] virtual Quat orientation(int body) const = 0;
  [[nodiscard]] virtual Vec3 velocity(int body) const = 0;  ///< COM velocity, world
  /// contact points in the last step (as the engine counts them)
  [[nodiscard]] virtual int contacts() const = 0;
  /// anything the reader of the table should know (solver failures, fallbacks), or empty
  [[nodiscard]] virtual std::string note() const { return {}; }
};

/// an engine: a name for the tables, and how to build a scene in it
struct Engine {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Simulation>(const SceneSpec&)> build;
};

/// Pivot, then the peers compiled in (ODE, Bullet with btMLCPSolver + btLemkeSolver, Bullet with
/// its default sequential-impulse solver)
[[nodiscard]] std::vector<Engine> engines();
/// the peer engines this build lacks
[[nodiscard]] std::vector<std::string> missing_engines();

/// Pivot with `threads` island threads (WorldSettings::threads)
[[nodiscard]] Engine pivot_engine(int threads = 1);
#ifdef PIVOT_BENCH_HAVE_ODE
[[nodiscard]] Engine ode_engine();
/// ODE's iterative dWorldQuickStep (not in engines(): used by the speed part)
[[nodiscard]] Engine ode_quickstep_engine();
#endif
#ifdef PIVOT_BENCH_HAVE_BULLET
[[nodiscard]] Engine bullet_mlcp_engine();
[[nodiscard]] Engine bullet_si_engine();
#endif

// ─── the scenes and their analytic answers ──────────────────────────────────────────────────

/// A scene with its measurement. `error` is called after every step with the simulated time;
/// the benchmark keeps the worst value (max_over_run) or the last one.
struct SceneCase {
  SceneSpec spec;
  std::string measure;  ///< what the error is, for the table ("slide distance error (m)")
  std::string exact;    ///< the analytic answer in words
  bool max_over_run = false;
  std::function<double(const Simulation&, const SceneSpec&, double time)> error;
};

/// a block on a plane tilted by θ = atan(μ) ∓ 2° (gravity turned, downhill along +x): it sticks
/// (slides 0) below the threshold and slides d = ½ g (sin θ − μ cos θ) t² above it
[[nodiscard]] SceneCase incline_case(bool above_threshold);
/// the largest displacement of a body from its start, m
[[nodiscard]] double max_drift(const Simulation& sim, const SceneSpec& spec);
/// 10 boxes 0.2 × 0.2 × 0.1 m, 1 kg, stacked exactly at rest: any motion is drift
/// (other sizes, masses and time steps: the 20-cube stack of pivot-bench speed)
[[nodiscard]] SceneCase stack_case(int boxes = 10, double duration = 2.0, double time_step = 5e-3,
                                   const Vec3& half_extents = Vec3(0.1, 0.1, 0.05),
                                   double mass = 1.0);
/// a 2-D pyramid of `levels` rows of boxes (levels (levels + 1) / 2 boxes), exactly at rest
[[nodiscard]] SceneCase pyramid_case(int levels, double duration = 1.0);
/// Cline's 6-link chain (2002, §5.2.1): 0.1 m links of 0.1 kg joined by ball joints, pinned at
/// one end, released horizontal; the joints should stay closed (error 0)
[[nodiscard]] SceneCase chain_case();
/// a solid sphere launched sliding at v0 on a plane with friction: v → 5/7 v0 and it rolls
[[nodiscard]] SceneCase rolling_sphere_case();

/// the distance between the two ends of a ball joint, from the bodies' poses
[[nodiscard]] double ball_joint_error(const Simulation& sim, const SceneSpec& spec, int joint);

}  // namespace pivot::bench
