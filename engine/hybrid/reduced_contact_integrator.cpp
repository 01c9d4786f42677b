#include "pivot/engine/hybrid/reduced_contact_integrator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/core.h>

namespace pivot::detail {

const char* to_string(ReducedStatus status) {
  switch (status) {
    case ReducedStatus::ok:
      return "ok";
    case ReducedStatus::separated:
      return "separated";
    case ReducedStatus::left_surface:
      return "left_surface";
    case ReducedStatus::bad_geometry:
      return "bad_geometry";
    case ReducedStatus::step_failed:
      return "step_failed";
  }
  return "unknown";
}

namespace {

// the ODE's state: q (5), ν (≤ 5) and a free body 2's pose and twist (13), in place
using OdeVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 23, 1>;

// an edge counts as crossed when the contact is this far outside it (parameter units)
constexpr double edge_tolerance = 1e-10;

// stick: no slip fails (|f_t| > μ_static f_n); spin: no spin fails; roll: no roll fails (stuck)
enum class EventKind { edge_1, edge_2, separation, stick, spin, roll };

struct EventValue {
  EventKind kind;
  int edge;  // for edges
  double g;  // ≥ 0: nothing happens
};

// The ODE of one step, in a fixed friction mode and fixed patches:
// y = (q (5), ν (n), [x_W2 (3), q_W2 coefficients x y z w (4), ^2φ_2 (6)] when body 2 is free)
class StepOde {
 public:
  StepOde(const ReducedContactModel& model, const ReducedStepSettings& settings,
          const ReducedContactState& like, ReducedAdvanceResult& result)
      : model_(model), settings_(settings), like_(like), result_(result) {
    free2_ = !model.body2.fixed;
    n_ = rate_count(like.mode);
  }

  [[nodiscard]] OdeVec pack(const ReducedContactState& s) const {
    OdeVec y(5 + n_ + (free2_ ? 13 : 0));
    y.head<5>() = s.coords.q;
    y.segment(5, n_) = independent_rates(s.mode, s.qdot);
    if (free2_) {
      y.segment<3>(5 + n_) = s.X_W2.p_WB;
      y.segment<4>(8 + n_) = s.X_W2.q_WB.coeffs();
      y.segment<6>(12 + n_) = s.V2_B;
    }
    return y;
  }

  // the state of y; for the rolling modes (ṡ, ṫ) in qdot are stale until evaluated
  [[nodiscard]] ReducedContactState unpack(const OdeVec& y) const {
    ReducedContactState s = like_;
    s.coords.q = y.head<5>();
    const OdeVec nu = y.segment(5, n_);
    if (n_ == 5)
      s.qdot = nu;
    else if (n_ == 0)
      s.qdot.setZero();  // stuck
    else
      s.qdot.segment(2, n_) = nu;  // (u̇, v̇, ψ̇) or (u̇, v̇)
    if (free2_) {
      s.X_W2.p_WB = y.segment<3>(5 + n_);
      s.X_W2.q_WB.coeffs() = y.segment<4>(8 + n_);
      s.X_W2.q_WB.normalize();
      s.V2_B = y.segment<6>(12 + n_);
    }
    return s;
  }

  // the equations of motion at a state, with the integrator's geometry checks
  ReducedDynamics evaluate(const ReducedContactState& s) {
    ReducedDynamics d = reduced_dynamics(model_, s);
    ++result_.evaluations;
    if (d.ok && d.regularity < settings_.min_regularity) {
      d.ok = false;
      d.message = fmt::format("contact frame nearly singular (regularity {:.3g} < {:.3g})",
                              d.regularity, settings_.min_regularity);
    }
    if (d.ok && d.rcond < settings_.min_rcond) {
      d.ok = false;
      d.message = fmt::format("reduced system ill-conditioned (rcond {:.3g} < {:.3g})", d.rcond,
                              settings_.min_rcond);
    }
    if (!d.ok) last_failure_ = d.message;
    return d;
  }

  [[nodiscard]] OdeVec derivative_of(const ReducedDynamics& d, const ReducedContactState& s) const {
    OdeVec dy(5 + n_ + (free2_ ? 13 : 0));
    dy.head<5>() = d.qdot;
    dy.segment(5, n_) = d.nu_dot;
    if (free2_) {
      const Vec3 w = s.V2_B.head<3>(), v = s.V2_B.tail<3>();
      const Quat& q = s.X_W2.q_WB;
      dy.segment<3>(5 + n_) = q * v;  // ẋ = R v
      // q̇ = ½ q ⊗ (0, ω): (½(w ω + q_v × ω), −½ q_v·ω) in x y z w order
      const Vec3 qv = q.vec();
      dy.segment<3>(8 + n_) = 0.5 * (q.w() * w + qv.cross(w));
      dy[11 + n_] = -0.5 * qv.dot(w);
      dy.segment<6>(12 + n_) = d.V2dot_B;
    }
    return dy;
  }

  bool f(const OdeVec& y, OdeVec& dy) {
    const ReducedContactState s = unpack(y);
    const ReducedDynamics d = evaluate(s);
    if (!d.ok) return false;
    dy = derivative_of(d, s);
    return dy.allFinite();
  }

  // one classical RK4 step
  bool rk4(const OdeVec& y, const OdeVec& f0, double h, OdeVec& out) {
    OdeVec k2, k3, k4;
    if (!f(y + 0.5 * h * f0, k2)) return false;
    if (!f(y + 0.5 * h * k2, k3)) return false;
    if (!f(y + h * k3, k4)) return false;
    out = y + (h / 6.0) * (f0 + 2.0 * k2 + 2.0 * k3 + k4);
    return true;
  }

  // step doubling: two half steps (kept) and the error estimate |y_2 − y_1|/15 scaled
  bool doubled(const OdeVec& y0, const OdeVec& f0, double h, OdeVec& y_half, double& err) {
    OdeVec y_full, y_mid, f_mid;
    if (!rk4(y0, f0, h, y_full)) return false;
    if (!rk4(y0, f0, 0.5 * h, y_mid)) return false;
    if (!f(y_mid, f_mid)) return false;
    if (!rk4(y_mid, f_mid, 0.5 * h, y_half)) return false;
    err = 0.0;
    for (int i = 0; i < y0.size(); ++i) {
      const double scale =
          settings_.tolerance * (1.0 + std::max(std::abs(y0[i]), std::abs(y_half[i])));
      err = std::max(err, std::abs(y_half[i] - y_full[i]) / 15.0 / scale);
    }
    return std::isfinite(err);
  }

  [[nodiscard]] const std::string& last_failure() const { return last_failure_; }

 private:
  const ReducedContactModel& model_;
  const ReducedStepSettings& settings_;
  const ReducedContactState& like_;
  ReducedAdvanceResult& result_;
  bool free2_ = false;
  int n_ = 5;
  std::string last_failure_;
};

// Whether the pair's energy (kinetic plus gravitational, reduced_energy) is a first integral in
// this mode: no slip is dissipated (frictionless, or one of the rolling modes), no rolling or
// spinning friction torque and no external wrench does work. Then E(t) is constant along the
// exact motion.
bool conserves_energy(const ReducedContactModel& model, FrictionMode mode) {
  if (mode == FrictionMode::sliding) return false;
  if (model.torques.mu_rolling != 0.0 || model.torques.mu_spinning != 0.0) return false;
  return model.body1.wrench_W.isZero(0.0) && model.body2.wrench_W.isZero(0.0);
}

// The state's velocities (its full rates q̇, which must satisfy the mode's constraints, and body
// 2's twist) scaled by a = √((E₀ − V) / T), so that its energy is E₀: the smallest change of the
// velocities in the kinetic-energy metric that reaches E₀ (the projection method of Hairer,
// Lubich & Wanner, Geometric Numerical Integration, §IV.4, for the invariant E, positions
// kept; the rate constraints are linear and homogeneous, so the scaled rates satisfy them).
// Nothing changes when the potential alone exceeds E₀ or the pair is at rest.
void restore_energy(const ReducedContactModel& model, double e0, ReducedContactState& s) {
  ReducedContactState rest = s;
  rest.qdot.setZero();
  rest.V2_B.setZero();
  const double potential = reduced_energy(model, rest);
  const double kinetic = reduced_energy(model, s) - potential;
  if (!(kinetic > 0.0) || !(e0 - potential > 0.0)) return;
  const double a = std::sqrt((e0 - potential) / kinetic);
  s.qdot *= a;
  s.V2_B *= a;
}

std::vector<EventValue> event_values(const ReducedContactModel& model,
                                     const ReducedStepSettings& settings,
                                     const ReducedContactState& s, const ReducedDynamics& d) {
  std::vector<EventValue> ev;
  const PatchDomain& dom1 = model.body1.surface.surface->contact_domain(s.coords.patch_1);
  for (int e = 0; e < dom1.edge_count(); ++e)
    ev.push_back({EventKind::edge_1, e, dom1.edge_distance(e, s.coords.st()) + edge_tolerance});
  const PatchDomain& dom2 = model.body2.surface.surface->contact_domain(s.coords.patch_2);
  for (int e = 0; e < dom2.edge_count(); ++e)
    ev.push_back({EventKind::edge_2, e, dom2.edge_distance(e, s.coords.uv()) + edge_tolerance});
  ev.push_back({EventKind::separation, 0, d.normal_force + settings.separation_tolerance});
  if (holds_no_slip(s.mode))
    ev.push_back(
        {EventKind::stick, 0,
         model.friction.static_coefficient() * d.normal_force - d.tangential_force.norm()});
  if (s.mode == FrictionMode::no_slip_no_spin)
    ev.push_back({EventKind::spin, 0,
                  model.friction.mu_spin_static * d.normal_force - std::abs(d.normal_torque)});
  if (s.mode == FrictionMode::stuck) {
    // static rolling and spinning friction (hybrid_settings.hpp, FrictionTorques::stick)
    const FrictionTorques& ft = model.torques;
    ev.push_back({EventKind::spin, 0,
                  ft.spin_limit(model.friction.mu_spin_static) * d.normal_force -
                      std::abs(d.normal_torque)});
    ev.push_back({EventKind::roll, 0, ft.mu_rolling * d.normal_force - d.rolling_torque.norm()});
  }
  return ev;
}

void record(ReducedAdvanceResult& r, ReducedEvent::Kind kind, double t, int from, int to) {
  r.events.push_back({kind, t, from, to});
}

// Moves body `body`'s contact point to `to`, the same surface point in another patch or chart,
// keeping the relative twist (Kry & Pai 2002 §3.5, eqs. 41-43): ψ^B = ψ^A + the signed angle
// from x^A to x^B about the shared normal (P42), q̇^B from ^{1c}Ĥ^B q̇^B = ^{1c}φ (P43).
// `qdot_full` is the full q̇ at the state.
void change_chart(const ReducedContactModel& model, ReducedContactState& s, int body,
                  const SurfacePoint& to, const Vec5& qdot_full) {
  const ContactSurface& surf = body == 1 ? model.body1.surface : model.body2.surface;
  int& patch = body == 1 ? s.coords.patch_1 : s.coords.patch_2;
  const int offset = body == 1 ? 0 : 2;
  const ContactKinematics kA =
      contact_kinematics(model.body1.surface, model.body2.surface, s.coords);
  const Vec6 phi_rel = kA.H_1 * qdot_full;
  const ContactFrame& fA = body == 1 ? kA.frame_1 : kA.frame_2;
  const ContactFrame fB = contact_frame(surf.evaluate(to.patch, to.uv));
  const Vec3 xA = fA.Theta.col(0), xB = fB.Theta.col(0), z = fA.Theta.col(2);
  const double theta = std::atan2(xA.cross(xB).dot(z), xA.dot(xB));
  patch = to.patch;
  s.coords.q.segment<2>(offset) = to.uv;
  s.coords.q[4] += theta;
  const ContactKinematics kB =
      contact_kinematics(model.body1.surface, model.body2.surface, s.coords);
  s.qdot = contact_rates(kB, phi_rel, Vec6::Zero()).qdot;
}

// Moves the contact across edge `edge` of body `body`'s contact domain: to the neighbouring
// patch, or into or out of the chart around an extraordinary vertex. Returns false for an open
// edge.
bool traverse(const ReducedContactModel& model, ReducedContactState& s, int body, int edge,
              const Vec5& qdot_full, ReducedAdvanceResult& result) {
  const ContactSurface& surf = body == 1 ? model.body1.surface : model.body2.surface;
  const int from = body == 1 ? s.coords.patch_1 : s.coords.patch_2;
  const int offset = body == 1 ? 0 : 2;
  const PatchDomain& dom = surf.surface->contact_domain(from);
  const Vec2 uv = s.coords.q.segment<2>(offset);
  const double alpha = std::clamp(dom.edge_parameter(edge, uv), 0.0, 1.0);
  const std::optional<SurfacePoint> other = surf.surface->across_contact_edge(from, edge, alpha);
  if (!other) return false;
  // on the edge exactly, then the relative twist (independent of the parameterization)
  s.coords.q.segment<2>(offset) = dom.edge_point(edge, alpha);
  change_chart(model, s, body, *other, qdot_full);
  record(result,
         body == 1 ? ReducedEvent::Kind::patch_change_1 : ReducedEvent::Kind::patch_change_2,
         s.time, from, other->patch);
  return true;
}

// A state whose contact point lies outside its contact domain (placed on a Loop EV patch
// within the part its EV's chart covers) moves to the chart or patch that tracks it there
// (SmoothSurface::contact_chart), at the same surface point.
void enter_contact_domains(const ReducedContactModel& model, ReducedContactState& s,
                           ReducedAdvanceResult& result) {
  for (const int body : {1, 2}) {
    const SmoothSurface& surf =
        *(body == 1 ? model.body1.surface.surface : model.body2.surface.surface);
    const SurfacePoint at = body == 1 ? SurfacePoint{s.coords.patch_1, s.coords.st()}
                                      : SurfacePoint{s.coords.patch_2, s.coords.uv()};
    if (surf.contact_domain(at.patch).contains(at.uv, edge_tolerance)) continue;
    const SurfacePoint to = surf.contact_chart(at);
    if (to.patch == at.patch) continue;
    const ReducedDynamics d = reduced_dynamics(model, s);
    ++result.evaluations;
    if (!d.ok) continue;  // reported by the first step's evaluation
    change_chart(model, s, body, to, d.qdot);
    record(result,
           body == 1 ? ReducedEvent::Kind::patch_change_1 : ReducedEvent::Kind::patch_change_2,
           s.time, at.patch, to.patch);
  }
}

void set_mode(const ReducedContactModel& model, ReducedContactState& s, FrictionMode mode,
              ReducedAdvanceResult& result) {
  const ModeChange mc = change_mode(model, s, mode);
  record(result, ReducedEvent::Kind::mode_change, s.time, static_cast<int>(s.mode),
         static_cast<int>(mode));
  s.qdot = mc.qdot;
  if (!model.body2.fixed) s.V2_B = mc.V2_B;
  if (holds_no_slip(s.mode) && !holds_no_slip(mode)) s.rolling_armed = false;
  s.mode = mode;
  s.mode_since = s.time;
}

// The mode stuck at the end of an accepted step (FrictionTorques::stick): from a rolling mode,
// once the relative rotation |ω| has fallen below w_reg, if the contact can hold the pair at
// rest relative to each other (every event function of the mode stuck non-negative after the
// projection). Checking the limits before the switch, not only after it, keeps a pair that
// the contact cannot hold from entering and leaving at every step.
bool try_stick(const ReducedContactModel& model, const ReducedStepSettings& settings,
               ReducedContactState& s, const ReducedDynamics& d, ReducedAdvanceResult& result) {
  const FrictionTorques& ft = model.torques;
  if (s.mode != FrictionMode::no_slip && s.mode != FrictionMode::no_slip_no_spin) return false;
  if (!ft.can_stick(model.friction.mu_spin_static)) return false;
  if (!(std::hypot(d.rolling.norm(), d.spin) < ft.regularization)) return false;
  ReducedContactState trial = s;
  const ModeChange mc = change_mode(model, trial, FrictionMode::stuck);
  trial.qdot = mc.qdot;
  if (!model.body2.fixed) trial.V2_B = mc.V2_B;
  trial.mode = FrictionMode::stuck;
  const ReducedDynamics dt = reduced_dynamics(model, trial);
  ++result.evaluations;
  if (!dt.ok) return false;
  for (const EventValue& e : event_values(model, settings, trial, dt))
    if (!(e.g >= 0.0)) return false;
  set_mode(model, s, FrictionMode::stuck, result);
  return true;
}

void wrap_periodic(const ReducedContactModel& model, ReducedContactState& s) {
  const PatchDomain& d1 = model.body1.surface.surface->contact_domain(s.coords.patch_1);
  const PatchDomain& d2 = model.body2.surface.surface->contact_domain(s.coords.patch_2);
  if (!d1.bounded()) s.coords.q.head<2>() = d1.wrapped(s.coords.st());
  if (!d2.bounded()) s.coords.q.segment<2>(2) = d2.wrapped(s.coords.uv());
}

}  // namespace

ReducedAdvanceResult advance(const ReducedContactModel& model, ReducedContactState& state, double h,
                             const ReducedStepSettings& settings) {
  validate(model);
  ReducedAdvanceResult res;
  const double t_end = state.time + h;
  const double t_eps = 1e-13 * std::max(1.0, std::abs(t_end));
  double dt = state.dt_next > 0.0 ? std::min(state.dt_next, settings.dt_max) : settings.dt_max;
  double transition_time = -std::numeric_limits<double>::infinity();
  int transitions_here = 0;
  if (model.friction.mu == 0.0 && state.mode != FrictionMode::frictionless)
    state.mode = FrictionMode::frictionless;
  enter_contact_domains(model, state, res);

  auto finish = [&](ReducedStatus st, std::string msg) {
    res.status = st;
    res.message = std::move(msg);
    state.dt_next = dt;
    return res;
  };
  auto count_transition = [&]() {
    if (state.time == transition_time) {
      ++transitions_here;
    } else {
      transition_time = state.time;
      transitions_here = 1;
    }
    return transitions_here <= settings.max_transitions_per_instant;
  };

  for (int iter = 0; iter < settings.max_steps; ++iter) {
    if (settings.interrupted && iter % 64 == 63 && settings.interrupted())
      return finish(ReducedStatus::step_failed,
                    fmt::format("t = {:.9g} s: interrupted after {} steps", state.time, iter));
    StepOde ode(model, settings, state, res);
    const ReducedDynamics d0 = ode.evaluate(state);
    if (!d0.ok)
      return finish(ReducedStatus::bad_geometry,
                    fmt::format("t = {:.9g} s: {}", state.time, d0.message));
    state.qdot = d0.qdot;

    // events already present at the start of a step
    if (d0.normal_force < -settings.separation_tolerance) {
      record(res, ReducedEvent::Kind::separation, state.time, 0, 0);
      return finish(ReducedStatus::separated,
                    fmt::format("t = {:.9g} s: normal force {:.6g} N is tensile", state.time,
                                d0.normal_force));
    }
    const std::vector<EventValue> ev0 = event_values(model, settings, state, d0);
    bool restarted = false;
    for (const EventValue& e : ev0) {
      if (e.g >= 0.0) continue;
      if (e.kind == EventKind::stick) {
        const double ft = d0.tangential_force.norm();
        state.slip_hint = ft > 0.0 ? Vec2(-d0.tangential_force / ft) : Vec2::Zero();
        set_mode(model, state,
                 model.friction.mu > 0.0 ? FrictionMode::sliding : FrictionMode::frictionless, res);
      } else if (e.kind == EventKind::spin || e.kind == EventKind::roll) {
        set_mode(model, state, FrictionMode::no_slip, res);
      } else if (e.kind == EventKind::edge_1 || e.kind == EventKind::edge_2) {
        const int body = e.kind == EventKind::edge_1 ? 1 : 2;
        if (!count_transition())
          return finish(ReducedStatus::bad_geometry,
                        fmt::format("t = {:.9g} s: more than {} patch changes at one instant",
                                    state.time, settings.max_transitions_per_instant));
        if (!traverse(model, state, body, e.edge, d0.qdot, res)) {
          record(res, ReducedEvent::Kind::left_surface, state.time, body, e.edge);
          return finish(ReducedStatus::left_surface,
                        fmt::format("t = {:.9g} s: the contact reached open edge {} of body {}'s "
                                    "patch {}",
                                    state.time, e.edge, body,
                                    body == 1 ? state.coords.patch_1 : state.coords.patch_2));
        }
      } else {
        continue;
      }
      restarted = true;
      break;
    }
    if (restarted) continue;
    if (state.time >= t_end - t_eps) return finish(ReducedStatus::ok, "");
    if (state.mode == FrictionMode::stuck && model.body2.fixed) {
      // at rest on a fixed body: q̇ = 0 identically, and the forces (gravity and the call's
      // constant external wrench), hence the event functions checked above, stay as they are;
      // the state at t_end is this one, exactly, with no integration
      res.step_sizes.push_back(t_end - state.time);
      ++res.steps;
      state.time = t_end;
      return finish(ReducedStatus::ok, "");
    }

    // one adaptive step
    const double step = std::min(dt, t_end - state.time);
    const OdeVec y0 = ode.pack(state);
    const OdeVec f0 = ode.derivative_of(d0, state);
    OdeVec y1;
    double err = 0.0;
    bool forced = false;
    if (!ode.doubled(y0, f0, step, y1, err)) {
      ++res.rejected;
      if (step <= settings.dt_min * (1.0 + 1e-12))
        return finish(ReducedStatus::bad_geometry,
                      fmt::format("t = {:.9g} s: {}", state.time, ode.last_failure()));
      dt = std::max(settings.dt_min, 0.25 * step);
      continue;
    }
    if (err > 1.0) {
      if (step > settings.dt_min * (1.0 + 1e-12)) {
        ++res.rejected;
        dt = std::max(settings.dt_min, step * std::max(0.2, 0.9 * std::pow(err, -0.2)));
        continue;
      }
      if (!settings.accept_at_min_step)
        return finish(ReducedStatus::step_failed,
                      fmt::format("t = {:.9g} s: error {:.3g} × tolerance at the minimum step "
                                  "{:.3g} s",
                                  state.time, err, step));
      ++res.forced_steps;  // a discontinuity in the forces: go on at the minimum step
      forced = true;
    }

    // the candidate end state and its events
    ReducedContactState s1 = ode.unpack(y1);
    s1.time = state.time + step;
    ReducedDynamics d1 = ode.evaluate(s1);
    if (!d1.ok) {
      ++res.rejected;
      if (step <= settings.dt_min * (1.0 + 1e-12))
        return finish(ReducedStatus::bad_geometry,
                      fmt::format("t = {:.9g} s: {}", s1.time, d1.message));
      dt = std::max(settings.dt_min, 0.25 * step);
      continue;
    }
    std::vector<EventValue> ev1 = event_values(model, settings, s1, d1);

    // the earliest event in the step: Illinois root finding on τ for each triggered g
    int which = -1;
    double tau_best = step;
    for (std::size_t i = 0; i < ev1.size(); ++i) {
      if (!(ev1[i].g < 0.0)) continue;
      double a = 0.0, b = tau_best, ga = ev0[i].g, gb = ev1[i].g;
      ReducedContactState sb = s1;
      ReducedDynamics db = d1;
      int side = 0;
      bool failed = false;
      for (int it = 0; it < 100 && b - a > 1e-14 * std::max(1.0, std::abs(state.time)); ++it) {
        double c = (a * gb - b * ga) / (gb - ga);
        if (!(c > a && c < b)) c = 0.5 * (a + b);
        OdeVec yc;
        double e_c = 0.0;
        if (!ode.doubled(y0, f0, c, yc, e_c)) {
          failed = true;
          break;
        }
        ReducedContactState sc = ode.unpack(yc);
        sc.time = state.time + c;
        const ReducedDynamics dc = ode.evaluate(sc);
        if (!dc.ok) {
          failed = true;
          break;
        }
        const double gc = event_values(model, settings, sc, dc)[i].g;
        if (gc < 0.0) {
          b = c;
          gb = gc;
          sb = sc;
          db = dc;
          if (side == -1) ga *= 0.5;
          side = -1;
        } else {
          a = c;
          ga = gc;
          if (side == +1) gb *= 0.5;
          side = +1;
        }
      }
      if (failed) continue;  // keep the earlier candidate; the next step will see it again
      which = static_cast<int>(i);
      tau_best = b;
      s1 = sb;
      d1 = db;
      ev1 = event_values(model, settings, s1, d1);
    }

    // a forced step (or its part up to the event) back onto the energy of its start (kept as
    // it is when the projected state cannot be evaluated)
    if (forced && conserves_energy(model, state.mode)) {
      ReducedContactState restored = s1;
      restored.qdot = d1.qdot;
      restore_energy(model, reduced_energy(model, state), restored);
      const ReducedDynamics d_restored = ode.evaluate(restored);
      if (d_restored.ok) {
        s1 = restored;
        d1 = d_restored;
      }
    }
    // accept the step (up to the event)
    res.step_sizes.push_back(s1.time - state.time);
    state = s1;
    state.qdot = d1.qdot;
    ++res.steps;
    if (which < 0) {
      wrap_periodic(model, state);
      const double grow = err > 0.0 ? std::min(2.0, 0.9 * std::pow(err, -0.2)) : 2.0;
      dt = std::min(settings.dt_max, step < dt ? std::max(dt, step * grow) : step * grow);

      // friction mode switches at the end of accepted steps (P§3.4.2-3.4.3)
      const ContactFriction& fr = model.friction;
      const bool long_enough = state.time - state.mode_since >= fr.min_slide_time;
      if (state.mode == FrictionMode::sliding &&
          (d1.slip.norm() >= fr.slip_threshold || long_enough))
        state.rolling_armed = true;
      if (state.mode == FrictionMode::sliding && fr.rolling && fr.mu > 0.0 && state.rolling_armed &&
          d1.slip.norm() < fr.slip_threshold) {
        set_mode(model, state, FrictionMode::no_slip, res);
      } else if (state.mode == FrictionMode::no_slip && fr.spin_threshold > 0.0 && long_enough &&
                 std::abs(d1.spin) < fr.spin_threshold) {
        set_mode(model, state, FrictionMode::no_slip_no_spin, res);
      } else {
        try_stick(model, settings, state, d1, res);
      }
      continue;
    }
    // an event at τ: handled at the top of the loop (it is now present at the start)
  }
  return finish(ReducedStatus::step_failed,
                fmt::format("t = {:.9g} s: more than {} steps in one advance() call", state.time,
                            settings.max_steps));
}

}  // namespace pivot::detail
