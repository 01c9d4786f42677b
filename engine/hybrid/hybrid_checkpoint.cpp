// The hybrid switch's state as checkpoint bytes (hybrid_checkpoint.hpp). Per reduced pair, in
// order: body, partner, partner_free; the model (per body its surface placement X_BS, fixed,
// mass, inertia, the external wrench of its last step; gravity; the friction law; the friction
// torques); the state (patches, q, q̇, mode, X_W2, V2_B, time, mode_since, slip_hint,
// rolling_armed, dt_next); the next poses and twists. Then the exit impulses, the per-body
// counters and the pending switch events. Every double is its IEEE-754 bits, so the reduced
// integrator continues from the same state, step size included, bit for bit.

#include "pivot/engine/hybrid/hybrid_checkpoint.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace pivot::detail {

namespace {

template <class V>
void write_vec(ByteWriter& w, const V& v) {
  for (Eigen::Index k = 0; k < v.size(); ++k) w.f64(v.data()[k]);
}

void write_pose(ByteWriter& w, const Pose& X) {
  write_vec(w, X.p_WB);
  write_vec(w, X.q_WB.coeffs());
}

// reads a double that must be finite (nothing in the hybrid state is infinite or NaN)
double finite(ByteReader& r, const char* what) {
  const double x = r.f64(what);
  if (!std::isfinite(x))
    throw Error(fmt::format("checkpoint: corrupt (a non-finite number in {})", what));
  return x;
}

template <class V>
void read_vec(ByteReader& r, V& v, const char* what) {
  for (Eigen::Index k = 0; k < v.size(); ++k) v.data()[k] = finite(r, what);
}

Pose read_pose(ByteReader& r, const char* what) {
  Pose X;
  read_vec(r, X.p_WB, what);
  read_vec(r, X.q_WB.coeffs(), what);
  return X;
}

void write_body(ByteWriter& w, const ReducedBody& b) {
  write_pose(w, b.surface.X_BS);
  w.i64(b.fixed ? 1 : 0);
  w.f64(b.mass);
  write_vec(w, b.inertia_B);
  write_vec(w, b.wrench_W);
}

// body `index` of the World: its smooth surface is the pair's
ReducedBody read_body(ByteReader& r, const RigidBodySet& bodies, int index) {
  ReducedBody b;
  b.surface.surface = bodies.body(index).smooth_surface;
  if (!b.surface.surface)
    throw Error(
        fmt::format("checkpoint: corrupt (a reduced pair's body {} has no smooth surface)", index));
  b.surface.X_BS = read_pose(r, "a reduced pair's surface placement");
  b.fixed = r.i64("a reduced pair's body") != 0;
  b.mass = finite(r, "a reduced pair's mass");
  read_vec(r, b.inertia_B, "a reduced pair's inertia");
  read_vec(r, b.wrench_W, "a reduced pair's wrench");
  return b;
}

void write_pair(ByteWriter& w, const ReducedPair& p) {
  w.i64(p.body);
  w.i64(p.partner);
  w.i64(p.partner_free ? 1 : 0);
  const ReducedContactModel& m = p.model;
  write_body(w, m.body1);
  write_body(w, m.body2);
  write_vec(w, m.gravity);
  const ContactFriction& f = m.friction;
  for (const double x : {f.mu, f.mu_static, f.mu_spin_static, f.slip_threshold, f.spin_threshold,
                         f.min_slide_time, f.slip_regularization})
    w.f64(x);
  w.i64(f.rolling ? 1 : 0);
  const FrictionTorques& t = m.torques;
  for (const double x : {t.mu_rolling, t.mu_spinning, t.regularization}) w.f64(x);
  w.i64(t.stick ? 1 : 0);
  const ReducedContactState& s = p.state;
  w.i64(s.coords.patch_1);
  w.i64(s.coords.patch_2);
  write_vec(w, s.coords.q);
  write_vec(w, s.qdot);
  w.i64(static_cast<int>(s.mode));
  write_pose(w, s.X_W2);
  write_vec(w, s.V2_B);
  for (const double x : {s.time, s.mode_since}) w.f64(x);
  write_vec(w, s.slip_hint);
  w.i64(s.rolling_armed ? 1 : 0);
  w.f64(s.dt_next);
  write_pose(w, p.next_pose);
  write_vec(w, p.next_twist);
  write_pose(w, p.next_pose2);
  write_vec(w, p.next_twist2);
}

int read_body_index(ByteReader& r, const RigidBodySet& bodies) {
  const std::int64_t i = r.i64("a reduced pair's body");
  if (i < 0 || i >= bodies.size())
    throw Error(
        fmt::format("checkpoint: corrupt (a reduced pair's body {} is not one of the "
                    "world's {} bodies)",
                    i, bodies.size()));
  return static_cast<int>(i);
}

int read_patch(ByteReader& r, const ContactSurface& surface) {
  const std::int64_t k = r.i64("a reduced pair's patch");
  const int n = surface.surface->patch_count() + surface.surface->chart_count();
  if (k < 0 || k >= n)
    throw Error(
        fmt::format("checkpoint: corrupt (patch {} of a surface of {} patches and charts)", k, n));
  return static_cast<int>(k);
}

ReducedPair read_pair(ByteReader& r, const RigidBodySet& bodies) {
  ReducedPair p;
  p.body = read_body_index(r, bodies);
  p.partner = read_body_index(r, bodies);
  p.partner_free = r.i64("a reduced pair") != 0;
  ReducedContactModel& m = p.model;
  m.body1 = read_body(r, bodies, p.body);
  m.body2 = read_body(r, bodies, p.partner);
  read_vec(r, m.gravity, "a reduced pair's gravity");
  ContactFriction& f = m.friction;
  for (double* x : {&f.mu, &f.mu_static, &f.mu_spin_static, &f.slip_threshold, &f.spin_threshold,
                    &f.min_slide_time, &f.slip_regularization})
    *x = finite(r, "a reduced pair's friction");
  f.rolling = r.i64("a reduced pair's friction") != 0;
  FrictionTorques& t = m.torques;
  for (double* x : {&t.mu_rolling, &t.mu_spinning, &t.regularization})
    *x = finite(r, "a reduced pair's friction torques");
  t.stick = r.i64("a reduced pair's friction torques") != 0;
  ReducedContactState& s = p.state;
  s.coords.patch_1 = read_patch(r, m.body1.surface);
  s.coords.patch_2 = read_patch(r, m.body2.surface);
  read_vec(r, s.coords.q, "a reduced pair's contact coordinates");
  read_vec(r, s.qdot, "a reduced pair's rates");
  const std::int64_t mode = r.i64("a reduced pair's friction mode");
  if (mode < 0 || mode > static_cast<int>(FrictionMode::stuck))
    throw Error(fmt::format("checkpoint: corrupt (friction mode {})", mode));
  s.mode = static_cast<FrictionMode>(mode);
  s.X_W2 = read_pose(r, "a reduced pair's partner pose");
  read_vec(r, s.V2_B, "a reduced pair's partner twist");
  s.time = finite(r, "a reduced pair's time");
  s.mode_since = finite(r, "a reduced pair's time");
  read_vec(r, s.slip_hint, "a reduced pair's slip hint");
  s.rolling_armed = r.i64("a reduced pair's state") != 0;
  s.dt_next = finite(r, "a reduced pair's next step size");
  p.next_pose = read_pose(r, "a reduced pair's next pose");
  read_vec(r, p.next_twist, "a reduced pair's next twist");
  p.next_pose2 = read_pose(r, "a reduced pair's next pose");
  read_vec(r, p.next_twist2, "a reduced pair's next twist");
  return p;
}

void write_ints(ByteWriter& w, const std::vector<int>& v) {
  w.u64(v.size());
  for (const int x : v) w.i64(x);
}

std::vector<int> read_ints(ByteReader& r, const char* what) {
  std::vector<int> v(r.count(what, 8));
  for (int& x : v) x = static_cast<int>(r.i64(what));
  return v;
}

}  // namespace

void write_hybrid_state(ByteWriter& w, const HybridSwitch::State& s) {
  for (const auto* list : {&s.pairs, &s.departures}) {
    w.u64(list->size());
    for (const ReducedPair& p : *list) write_pair(w, p);
  }
  w.u64(s.exit_impulses.size());
  for (const ExitImpulse& e : s.exit_impulses) {
    w.i64(e.body);
    w.i64(e.partner);
    write_vec(w, e.impulse_W);
    write_vec(w, e.p_W);
    w.i64(e.sliding ? 1 : 0);
  }
  write_ints(w, s.streak);
  write_ints(w, s.failures);
  write_ints(w, s.backoff);
  w.u64(s.pending.size());
  for (const SwitchEvent& e : s.pending) {
    w.f64(e.time);
    w.i64(e.body);
    w.i64(e.partner);
    w.i64(e.entered ? 1 : 0);
    w.text(e.reason);
    for (const double x : {e.energy_change, e.position_change, e.rotation_change, e.twist_change})
      w.f64(x);
  }
}

HybridSwitch::State read_hybrid_state(ByteReader& r, const RigidBodySet& bodies) {
  HybridSwitch::State s;
  for (auto* list : {&s.pairs, &s.departures}) {
    list->resize(r.count("the reduced pairs", 8 * 100));
    for (ReducedPair& p : *list) p = read_pair(r, bodies);
  }
  s.exit_impulses.resize(r.count("the exit impulses", 8 * 9));
  for (ExitImpulse& e : s.exit_impulses) {
    e.body = static_cast<int>(r.i64("an exit impulse"));
    e.partner = static_cast<int>(r.i64("an exit impulse"));
    read_vec(r, e.impulse_W, "an exit impulse");
    read_vec(r, e.p_W, "an exit impulse");
    e.sliding = r.i64("an exit impulse") != 0;
  }
  s.streak = read_ints(r, "the hybrid entry streaks");
  s.failures = read_ints(r, "the hybrid failure counts");
  s.backoff = read_ints(r, "the hybrid back-off counters");
  for (auto* v : {&s.streak, &s.failures, &s.backoff})
    if (v->size() > static_cast<std::size_t>(bodies.size()))
      throw Error("checkpoint: corrupt (more hybrid counters than bodies)");
  s.pending.resize(r.count("the pending switch events", 8 * 9));
  for (SwitchEvent& e : s.pending) {
    e.time = finite(r, "a switch event");
    e.body = static_cast<int>(r.i64("a switch event"));
    e.partner = static_cast<int>(r.i64("a switch event"));
    e.entered = r.i64("a switch event") != 0;
    e.reason = r.text("a switch event's reason");
    for (double* x : {&e.energy_change, &e.position_change, &e.rotation_change, &e.twist_change})
      *x = finite(r, "a switch event");
  }
  return s;
}

}  // namespace pivot::detail
