// The hybrid accuracy/cost study (hybrid_benchmark.hpp; docs/hybrid.md "Accuracy and cost
// against the LCP").
//
// Scene: a solid ellipsoid, semi-axes (0.2, 0.12, 0.08) m, 1 kg, on a plane, μ = 1 (no slip
// anywhere on the run: the largest |f_t|/f_n is printed), tilted 0.5 rad about world x and
// started rolling without slip with ω = (1.5, 0, 3) rad/s: v = −ω × r_c at the contact point
// r_c, so the contact starts with zero slip and zero normal velocity. It rocks and rolls along
// a wobbly curve; rolling without slip is workless, so the exact energy is constant.
//
// Errors are sampled every 10 ms: the largest COM distance and rotation angle |log(q_refᵀ q)|
// over the run, and at the end. Energy drift: max |E(t) − E(0)|.
#include "hybrid_benchmark.hpp"

#include <fmt/core.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <ostream>
#include <string>

#include "pivot/collision/ellipsoid_surface.hpp"
#include "pivot/collision/plane_surface.hpp"
#include "pivot/engine/hybrid/reduced_contact_integrator.hpp"
#include "pivot/engine/world.hpp"
#include "report.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

namespace pivot::bench {

namespace {

constexpr double kFrame = 0.01;  // s, the sampling interval and the hybrid step
constexpr double kMass = 1.0;
constexpr double kMu = 1.0;
constexpr double kTilt = 0.5;  // rad, about world x
const Vec3 kRadii(0.2, 0.12, 0.08);
const Vec3 kOmega0(1.5, 0.0, 3.0);  // rad/s, world

struct Frame {
  Vec3 x = Vec3::Zero();
  Quat q = Quat::Identity();
  double energy = 0.0;
};
using Trajectory = std::vector<Frame>;  // at t = 0, kFrame, 2 kFrame, ...

// the start: resting on z = 0, rolling without slip
struct Start {
  Pose X;
  Vec6 V = Vec6::Zero();
  Vec3 contact = Vec3::Zero();  // the contact point, world
};

Start rolling_start() {
  Start s;
  s.X.q_WB = Quat(Eigen::AngleAxisd(kTilt, Vec3::UnitX()));
  // lowest point of the ellipsoid: the support point in the body direction of world −z,
  // p_B = −A² n / |A n| with n the body direction of world +z
  const Vec3 n = s.X.q_WB.conjugate() * Vec3::UnitZ();
  const Vec3 an = kRadii.cwiseProduct(n);
  const Vec3 r_c = s.X.q_WB * (-kRadii.cwiseProduct(an) / an.norm());
  s.X.p_WB = Vec3(0.0, 0.0, -r_c.z());
  s.contact = s.X.p_WB + r_c;
  s.V.head<3>() = kOmega0;
  s.V.tail<3>() = -kOmega0.cross(r_c);  // contact point at rest
  return s;
}

BodySettings ellipsoid_settings(const Start& s) {
  return {.name = "ellipsoid",
          .mass = kMass,
          .shape = make_ellipsoid(kRadii),
          .p_WS = s.X.p_WB,
          .q_WB = s.X.q_WB,
          .v_WB = s.V.tail<3>(),
          .w_WB = s.V.head<3>(),
          .friction = kMu};
}

World make_world(double h, bool hybrid, int entry_steps) {
  WorldSettings ws{.time_step = h};
  ws.hybrid = hybrid;
  ws.hybrid_entry_steps = entry_steps;
  World w(ws);
  w.add_body(
      {.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = kMu});
  w.add_body(ellipsoid_settings(rolling_start()));
  return w;
}

// kinetic + gravitational energy from a pose and a world twist (not from the code under study)
double energy(const RigidBody& b, const Pose& X, const Vec6& V) {
  const Vec3 w = V.head<3>(), v = V.tail<3>();
  return 0.5 * b.mass * v.squaredNorm() + 0.5 * w.dot(b.inertia_W(X.q_WB) * w) +
         b.mass * 9.81 * X.p_WB.z();
}

Frame frame_of(const RigidBody& b, const Pose& X, const Vec6& V) {
  return {X.p_WB, X.q_WB, energy(b, X, V)};
}

// what one method did besides its trajectory
struct RunInfo {
  long steps = 0;              // World steps, or the integrator's accepted RK4 steps
  long evaluations = 0;        // reduced: evaluations of the equations of motion
  int entries = 0, exits = 0;  // hybrid World: switches
  double entry_time = -1.0;    // hybrid World: the first entry, s
  double max_friction_ratio = 0.0, min_normal_force = 1e300;  // reduced: |f_t|/f_n, f_n
  bool ok = true;
  std::string message;
};

// the LCP (hybrid off) or the hybrid World at step h; frames every kFrame
Trajectory run_world(double h, bool hybrid, int entry_steps, double duration, RunInfo& info) {
  World w = make_world(h, hybrid, entry_steps);
  const RigidBody& b = w.bodies().body(1);
  const long per_frame = std::lround(kFrame / h);
  const long frames = std::lround(duration / kFrame);
  Trajectory out;
  out.reserve(static_cast<std::size_t>(frames) + 1);
  out.push_back(frame_of(b, w.pose(1), w.twist(1)));
  for (long f = 0; f < frames; ++f) {
    for (long k = 0; k < per_frame; ++k) {
      const StepReport& r = w.step();
      for (const SwitchEvent& e : r.switches) {
        if (e.entered && info.entry_time < 0.0) info.entry_time = e.time;
        (e.entered ? info.entries : info.exits) += 1;
        if (!e.entered && info.message.empty()) info.message = e.reason;
      }
    }
    out.push_back(frame_of(b, w.pose(1), w.twist(1)));
  }
  info.steps = w.step_count();
  return out;
}

// the reduced mode alone: enter at t = 0 from the exact start, advance frame by frame;
// `monitor`: also record the contact forces at the frames (not timed)
Trajectory run_reduced(const ReducedStepSettings& settings, double duration, bool monitor,
                       RunInfo& info) {
  const World w = make_world(kFrame, false, 1);  // for the body's mass properties
  const RigidBody& b = w.bodies().body(1);
  ReducedContactModel model;
  model.body1.surface = {make_ellipsoid_surface(kRadii), Pose{}};
  model.body1.mass = b.mass;
  model.body1.inertia_B = b.inertia_B;
  model.body2.surface = {make_plane_surface(Vec3::UnitZ(), 0.0), Pose{}};
  model.body2.fixed = true;
  model.friction.mu = kMu;
  const Start s = rolling_start();
  ReducedEntry e = enter_reduced_mode(model, s.X, s.V, Pose{}, Vec6::Zero(), 0.0, s.contact);
  const long frames = std::lround(duration / kFrame);
  Trajectory out;
  out.reserve(static_cast<std::size_t>(frames) + 1);
  out.push_back(frame_of(b, body1_pose(model, e.state), body1_world_twist(model, e.state)));
  for (long f = 0; f < frames; ++f) {
    const ReducedAdvanceResult r = advance(model, e.state, kFrame, settings);
    info.steps += r.steps;
    info.evaluations += r.evaluations;
    if (r.status != ReducedStatus::ok) {
      info.ok = false;
      info.message =
          fmt::format("{} at t = {:.2f} s: {}", to_string(r.status), e.state.time, r.message);
      break;
    }
    if (monitor) {
      const ReducedDynamics d = reduced_dynamics(model, e.state);
      info.max_friction_ratio =
          std::max(info.max_friction_ratio, d.tangential_force.norm() / d.normal_force);
      info.min_normal_force = std::min(info.min_normal_force, d.normal_force);
    }
    out.push_back(frame_of(b, body1_pose(model, e.state), body1_world_twist(model, e.state)));
  }
  return out;
}

// errors of a trajectory against a reference, sampled at the common frames
struct Errors {
  double max_position = 0.0, max_angle = 0.0;      // m, rad
  double final_position = 0.0, final_angle = 0.0;  // m, rad
  double max_energy_drift = 0.0;                   // J, against its own E(0)
};

double rotation_angle(const Quat& a, const Quat& b) {
  const Quat d = a.conjugate() * b;
  return 2.0 * std::atan2(d.vec().norm(), std::abs(d.w()));
}

Errors compare(const Trajectory& run, const Trajectory& ref) {
  Errors e;
  const std::size_t n = std::min(run.size(), ref.size());
  for (std::size_t k = 0; k < n; ++k) {
    e.final_position = (run[k].x - ref[k].x).norm();
    e.final_angle = rotation_angle(ref[k].q, run[k].q);
    e.max_position = std::max(e.max_position, e.final_position);
    e.max_angle = std::max(e.max_angle, e.final_angle);
  }
  for (const Frame& f : run)
    e.max_energy_drift = std::max(e.max_energy_drift, std::abs(f.energy - run.front().energy));
  return e;
}

// x* = 2 x(h/2) − x(h) for a first-order method, per component (quaternions renormalized)
Trajectory richardson(const Trajectory& fine, const Trajectory& coarse) {
  Trajectory out(std::min(fine.size(), coarse.size()));
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k].x = 2.0 * fine[k].x - coarse[k].x;
    const Eigen::Vector4d f = fine[k].q.coeffs();
    Eigen::Vector4d c = coarse[k].q.coeffs();
    if (c.dot(f) < 0.0) c = -c;  // the same sign before combining
    out[k].q = Quat(Eigen::Vector4d(2.0 * f - c).normalized());
    out[k].energy = 2.0 * fine[k].energy - coarse[k].energy;
  }
  return out;
}

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Cost {
  double wall = 0.0, cpu = 0.0;  // median seconds of one whole run
  int repeats = 0;
};

// times `run` (the whole simulation) repeatedly; medians of wall and CPU time
Cost measure(const std::function<void()>& run, const HybridBenchOptions& o) {
  std::vector<double> wall, cpu;
  const auto start = Clock::now();
  while (
      static_cast<int>(wall.size()) < o.max_repeats &&
      (static_cast<int>(wall.size()) < o.min_repeats || seconds_since(start) < o.budget_seconds)) {
    const double c0 = cpu_seconds();
    const auto t0 = Clock::now();
    run();
    wall.push_back(seconds_since(t0));
    cpu.push_back(cpu_seconds() - c0);
  }
  return {median(wall), median(cpu), static_cast<int>(wall.size())};
}

// one row of the table
struct Method {
  std::string name;
  double step = 0.0;  // s
  RunInfo info;
  Trajectory trajectory;
  Cost cost;
};

std::string sci(double v) {
  return fmt::format("{:.2e}", v);
}

}  // namespace

void run_hybrid_benchmark(const HybridBenchOptions& o, std::ostream& out) {
  const double T = o.duration;
  out << fmt::format("## Hybrid: rolling ellipsoid, reduced coordinates against the LCP, {} s\n\n",
                     T);
  const Start s = rolling_start();
  out << fmt::format(
      "Ellipsoid ({}, {}, {}) m, {} kg, μ = {}, tilted {} rad about x, ω0 = ({}, {}, {}) rad/s, "
      "v0 = ({:.4f}, {:.4f}, {:.4f}) m/s (no slip); frames every {} ms.\n\n",
      kRadii.x(), kRadii.y(), kRadii.z(), kMass, kMu, kTilt, kOmega0.x(), kOmega0.y(), kOmega0.z(),
      s.V(3), s.V(4), s.V(5), kFrame * 1e3);

  std::vector<Method> methods;
  auto add_reduced = [&](const std::string& name, double tolerance) {
    ReducedStepSettings st;
    st.dt_max = kFrame;
    st.tolerance = tolerance;
    Method m{name, kFrame, {}, {}, {}};
    m.trajectory = run_reduced(st, T, true, m.info);
    m.cost = measure(
        [&] {
          RunInfo i;
          (void)run_reduced(st, T, false, i);
        },
        o);
    methods.push_back(std::move(m));
  };
  auto add_world = [&](const std::string& name, double h, bool hybrid, int entry_steps) {
    Method m{name, h, {}, {}, {}};
    m.trajectory = run_world(h, hybrid, entry_steps, T, m.info);
    m.cost = measure(
        [&] {
          RunInfo i;
          (void)run_world(h, hybrid, entry_steps, T, i);
        },
        o);
    methods.push_back(std::move(m));
  };

  // references first: the reduced mode at a tight tolerance, and the LCP's extrapolation
  add_reduced("reduced, tol 1e-12 (reference R)", 1e-12);
  add_reduced("reduced, tol 1e-9 (default)", 1e-9);
  add_reduced("reduced, tol 1e-6", 1e-6);
  add_world("hybrid World, entry after 1 LCP step", kFrame, true, 1);
  add_world("hybrid World, entry after 10 LCP steps", kFrame, true, 10);
  const std::size_t first_lcp = methods.size();
  for (double h : o.lcp_steps) add_world("LCP", h, false, 1);

  const Trajectory& ref_R = methods.front().trajectory;
  const Trajectory ref_L =
      richardson(methods.back().trajectory, methods[methods.size() - 2].trajectory);
  const RunInfo& ri = methods.front().info;
  out << fmt::format(
      "Reference R: {} RK4 steps, {} evaluations; along it max |f_t|/f_n = {:.3f} (μ = {}), "
      "min f_n = {:.3f} N (m g = {:.3f} N){}.\n",
      ri.steps, ri.evaluations, ri.max_friction_ratio, kMu, ri.min_normal_force, kMass * 9.81,
      ri.ok ? "" : "; FAILED: " + ri.message);
  const Errors LvR = compare(ref_L, ref_R);
  out << fmt::format(
      "Reference L (LCP Richardson 2 x(h) − x(2h), h = {} ms) against R: max {:.2e} m, {:.2e} "
      "rad; final {:.2e} m, {:.2e} rad.\n\n",
      o.lcp_steps.back() * 1e3, LvR.max_position, LvR.max_angle, LvR.final_position,
      LvR.final_angle);

  Table t;
  t.header = {"method",     "step ms",    "steps",      "evals",        "wall ms",
              "CPU ms",     "max dx (R)", "max dθ (R)", "final dx (R)", "final dθ (R)",
              "max dx (L)", "max |ΔE| J", "switches"};
  t.right = {false, true, true, true, true, true, true, true, true, true, true, true, false};
  for (const Method& m : methods) {
    const Errors eR = compare(m.trajectory, ref_R), eL = compare(m.trajectory, ref_L);
    std::string sw = "—";
    if (m.info.entries + m.info.exits > 0)
      sw = fmt::format("in at {:.2f} s, {} in, {} out", m.info.entry_time, m.info.entries,
                       m.info.exits);
    if (!m.info.ok) sw = m.info.message;
    t.add({m.name, fmt::format("{:g}", m.step * 1e3), fmt::format("{}", m.info.steps),
           m.info.evaluations > 0 ? fmt::format("{}", m.info.evaluations) : "—",
           format_ms(m.cost.wall), format_ms(m.cost.cpu), sci(eR.max_position), sci(eR.max_angle),
           sci(eR.final_position), sci(eR.final_angle), sci(eL.max_position),
           sci(eR.max_energy_drift), sw});
  }
  t.print(out);

  // the LCP's convergence: e(h) = C h^p fitted over h ≤ 1 ms, against R
  std::vector<double> hs, es;
  for (std::size_t k = first_lcp; k < methods.size(); ++k) {
    if (methods[k].step > 1e-3 + 1e-12) continue;
    hs.push_back(methods[k].step);
    es.push_back(compare(methods[k].trajectory, ref_R).max_position);
  }
  const PowerFit fit = fit_power_law(hs, es);
  out << fmt::format(
      "\nLCP convergence against R over h ≤ 1 ms: max dx ≈ {:.3g} h^{:.2f} (h in s, {} "
      "points).\n",
      fit.factor, fit.exponent, fit.points);
  // per-step cost of the LCP at its smallest steps (the run is then all steps)
  const Method& finest = methods.back();
  const double per_step = finest.cost.cpu / static_cast<double>(finest.info.steps);

  Table eq;
  eq.header = {
      "method at 10 ms", "its max dx (R)", "LCP h for that error", "LCP steps", "LCP CPU (est.)",
      "its CPU",         "ratio"};
  eq.right = {false, true, true, true, true, true, true};
  for (std::size_t k = 1; k < first_lcp; ++k) {
    const Method& m = methods[k];
    const double e = compare(m.trajectory, ref_R).max_position;
    if (!fit.ok || fit.exponent <= 0.0) break;
    const double h = std::pow(e / fit.factor, 1.0 / fit.exponent);
    const double steps = T / h;
    const double cpu = steps * per_step;
    eq.add({m.name, sci(e), fmt::format("{:.2e} ms", h * 1e3), sci(steps),
            cpu > 3600.0 ? fmt::format("{:.1f} h", cpu / 3600.0) : fmt::format("{:.3g} s", cpu),
            format_ms(m.cost.cpu) + " ms", fmt::format("{:.2e}×", cpu / m.cost.cpu)});
  }
  out << fmt::format(
      "\nEqual accuracy (extrapolated from the fit; LCP CPU per step {:.3g} ms at h = {} ms):\n\n",
      per_step * 1e3, finest.step * 1e3);
  eq.print(out);
  out << "\n";
}

}  // namespace pivot::bench
