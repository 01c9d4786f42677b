// World's hybrid mode (docs/hybrid.md "The World switch"): the entry rule,
// advancing reduced pairs inside World::step, and the exits. A pair is a free body on a fixed
// body, or two free bodies (the 11-DOF form of docs/hybrid.md "Sign conventions" [DERIVED]).
#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "pivot/engine/hybrid/free_flight.hpp"
#include "pivot/engine/hybrid/hybrid_switch.hpp"
#include "pivot/engine/world.hpp"

namespace pivot::detail {

namespace {

const Contact& contact_of(const Contact& c) {
  return c;
}
const Contact& contact_of(const ContactInfo& c) {
  return c.contact;
}

// the first body other than `partner` that touches `body` in `contacts`, or −2 (none)
template <class C>
int other_contact(const std::vector<C>& contacts, int body, int partner) {
  for (const C& x : contacts) {
    const Contact& c = contact_of(x);
    const int o = c.body_a == body ? c.body_b : c.body_b == body ? c.body_a : -2;
    if (o != -2 && o != partner) return o;
  }
  return -2;
}

// Two free bodies entering reduced mode: the inelastic impulse j n at the contact point p that
// stops their relative normal velocity, applied to copies of their twists (n points towards
// body i). Equal and opposite, so it keeps the total linear and angular momentum, which the
// projection of enter_reduced_mode (body 2 keeps its twist) would not
// (docs/hybrid.md "The World switch", "split by mass"). Returns v_n and the kinetic energy change
// −½ v_n² / K.
//   v_n = n·(v_i + ω_i × r_i − v_o − ω_o × r_o),  K = Σ 1/m + (r × n)ᵀ I_W⁻¹ (r × n)
struct NormalStop {
  double v_n = 0.0;     // m/s, > 0 separating
  double energy = 0.0;  // J, ≤ 0
};
NormalStop stop_normal_velocity(const RigidBodySet& set, int i, int o, const Vec3& p, const Vec3& n,
                                Vec6& V_i, Vec6& V_o) {
  const Vec3 r_i = p - set.pose(i).p_WB, r_o = p - set.pose(o).p_WB;
  const Mat3 Iinv_i = set.body(i).inverse_inertia_W(set.pose(i).q_WB);
  const Mat3 Iinv_o = set.body(o).inverse_inertia_W(set.pose(o).q_WB);
  const double v_n =
      n.dot(V_i.tail<3>() + V_i.head<3>().cross(r_i) - V_o.tail<3>() - V_o.head<3>().cross(r_o));
  const Vec3 a_i = r_i.cross(n), a_o = r_o.cross(n);
  const double K = set.body(i).inverse_mass + set.body(o).inverse_mass + a_i.dot(Iinv_i * a_i) +
                   a_o.dot(Iinv_o * a_o);
  const double j = -v_n / K;
  V_i.head<3>() += Iinv_i * (j * a_i);
  V_i.tail<3>() += set.body(i).inverse_mass * j * n;
  V_o.head<3>() -= Iinv_o * (j * a_o);
  V_o.tail<3>() -= set.body(o).inverse_mass * j * n;
  return {v_n, -0.5 * v_n * v_n / K};
}

}  // namespace

bool HybridSwitch::is_reduced(int body) const {
  const auto has = [body](const ReducedPair& p) {
    return p.body == body || (p.partner_free && p.partner == body);
  };
  return std::any_of(pairs_.begin(), pairs_.end(), has) ||
         std::any_of(departures_.begin(), departures_.end(), has);
}

void HybridSwitch::exit(HybridHost& w, std::size_t k, std::string reason, double time) {
  SwitchEvent e;
  e.time = time < 0.0 ? w.time() : time;
  e.body = pairs_[k].body;
  e.partner = pairs_[k].partner;
  e.entered = false;
  e.reason = std::move(reason);
  // a failed integration is a warning; ordinary exits are events only (StepWarning). The
  // bodies then wait 2^failures steps before they may enter again (backoff_)
  if (e.reason.starts_with("step_failed") || e.reason.starts_with("bad_geometry")) {
    w.report().warn(StepWarning::hybrid_exit_failed, e.body,
                    fmt::format("hybrid: body {} left reduced mode: {}",
                                pivot::quoted(w.bodies().body(e.body).name), e.reason));
    resize_backoff(w.bodies().size());
    for (const int b : {pairs_[k].body, pairs_[k].partner_free ? pairs_[k].partner : -1}) {
      if (b < 0) continue;
      failures_[b] = std::min(failures_[b] + 1, 30);
      backoff_[b] = std::min(1 << failures_[b], kMaxEntryBackoff) + 1;  // after_step counts down
    }
  }
  pending_.push_back(std::move(e));
  ++w.totals().reduced_exits;
  for (const int b : {pairs_[k].body, pairs_[k].partner})
    if (b >= 0 && static_cast<int>(streak_.size()) > b) streak_[b] = 0;
  pairs_.erase(pairs_.begin() + static_cast<std::ptrdiff_t>(k));
}

bool HybridSwitch::apply_impulse(HybridHost& w, int body, const Vec6& wrench_W) {
  for (std::size_t k = 0; k < pairs_.size(); ++k) {
    ReducedPair& pair = pairs_[k];
    if (pair.body != body && !(pair.partner_free && pair.partner == body)) continue;
    ReducedImpulse r;
    try {
      r = detail::apply_impulse(pair.model, pair.state, pair.body == body ? 1 : 2, wrench_W);
    } catch (const std::exception& e) {
      r.kept = false;
      r.message = e.what();
    }
    if (!r.kept) {
      exit(w, k, "impulse: " + r.message);
      return false;
    }
    pair.state = r.state;
    w.bodies().twist(pair.body) = body1_world_twist(pair.model, pair.state);
    if (pair.partner_free) w.bodies().twist(pair.partner) = body2_world_twist(pair.state);
    return true;
  }
  return false;
}

bool HybridSwitch::is_reduced_pair(int a, int b) const {
  const auto of = [a, b](const ReducedPair& p) {
    return (a == p.body && b == p.partner) || (b == p.body && a == p.partner);
  };
  return std::any_of(pairs_.begin(), pairs_.end(), of) ||
         std::any_of(departures_.begin(), departures_.end(), of);
}

void HybridSwitch::drop_reduced_contacts(std::vector<Contact>& contacts) const {
  if (pairs_.empty() && departures_.empty()) return;
  std::erase_if(contacts, [this](const Contact& c) { return is_reduced_pair(c.body_a, c.body_b); });
}

// The contact impulse over the step, f_c h, of a pair the LCP takes back at the start of the
// step, for the LCP's warm start (exit_warm_start.hpp); f_c from the reduced dynamics at the
// exit state (Kry & Pai 2002 §3.3), with the external wrench of the pair's last step
void HybridSwitch::hand_to_lcp(HybridHost& w, std::size_t k, std::string reason) {
  const ReducedPair& pair = pairs_[k];
  try {
    const ReducedDynamics d = reduced_dynamics(pair.model, pair.state);
    const Vec3 iota = d.wrench_c_W1.tail<3>() * w.time_step();
    if (d.ok && d.normal_force > 0.0 && iota.allFinite()) {
      ExitImpulse e;
      e.body = pair.body;
      e.partner = pair.partner;
      e.impulse_W = iota;
      e.p_W = d.X_W1.to_world(d.kin.frame_1.c);
      e.sliding = pair.state.mode == FrictionMode::sliding;
      exit_impulses_.push_back(e);
    }
  } catch (const std::exception&) {
    // no warm start: the LCP starts cold
  }
  exit(w, k, std::move(reason));
}

// Exit at the separation instant [DERIVED: the hybrid switch is this project's design]: advance()
// locates the root of the normal force f_n(t) (the event "separation", Kry & Pai 2002 §3.3: the
// contact ends when the constraint force would turn tensile) inside the step and returns the
// state there. The pair leaves reduced mode at that instant t_s; from t_s to the end of the step
// its bodies carry no contact force, so they fly free under gravity and the step's external
// wrench (held constant over the step, as for the reduced pair and the LCP):
//   (X, V)(t_end) = free_flight((X, V)(t_s), t_end − t_s)
// Nothing jumps at t_s (f_n = 0 there), and the LCP sees the bodies from the next step on.
bool HybridSwitch::depart(HybridHost& w, std::size_t k, const ReducedContactState& s, double t_end,
                          const Eigen::VectorXd& f_ext, const std::string& reason) {
  ReducedPair pair = pairs_[k];
  const double tau = std::max(0.0, t_end - s.time);
  const auto fly = [&](int body, const Pose& X, const Vec6& V) {
    const RigidBody& b = w.bodies().body(body);
    Vec6 wrench = f_ext.segment<6>(6 * body);
    wrench.tail<3>() += b.mass * w.settings().gravity;
    return free_flight({X, V}, b.mass, b.inertia_B, wrench, tau);
  };
  FreeBodyState one, two;
  try {
    one = fly(pair.body, body1_pose(pair.model, s), body1_world_twist(pair.model, s));
    if (pair.partner_free) two = fly(pair.partner, s.X_W2, body2_world_twist(s));
  } catch (const std::exception&) {
    return false;
  }
  const auto finite = [](const FreeBodyState& x) {
    return x.X_WB.all_finite() && x.V_W.allFinite();
  };
  if (!finite(one) || (pair.partner_free && !finite(two))) return false;
  pair.state = s;
  pair.next_pose = one.X_WB;
  pair.next_twist = one.V_W;
  pair.next_pose2 = two.X_WB;
  pair.next_twist2 = two.V_W;
  exit(w, k, reason, s.time);
  departures_.push_back(std::move(pair));
  return true;
}

void HybridSwitch::before_lcp(HybridHost& w, std::vector<Contact>& contacts,
                              const Eigen::VectorXd& f_ext) {
  exit_impulses_.clear();
  if (!w.settings().hybrid) {
    while (!pairs_.empty()) {
      const ReducedPair& p = pairs_.back();
      w.restore_skipped_contacts(p.body, p.partner, contacts);
      hand_to_lcp(w, pairs_.size() - 1, "hybrid turned off");
    }
    return;
  }
  // the pairs reduced when `contacts` were detected: detection skipped them (World::
  // detect_contacts), so those that leave to the LCP below get their contacts back at the end
  std::vector<std::pair<int, int>> skipped;
  for (const ReducedPair& p : pairs_) skipped.emplace_back(p.body, p.partner);
  if (w.settings().hybrid_entry_steps == 0) enter_at_start(w, contacts, f_ext);
  const double h = w.time_step();
  for (std::size_t k = pairs_.size(); k-- > 0;) {
    ReducedPair& pair = pairs_[k];
    // a joint on the body or on a free partner (added while reduced)
    if (w.has_joint(pair.body) || (pair.partner_free && w.has_joint(pair.partner))) {
      hand_to_lcp(w, k, "a joint acts on the body");
      continue;
    }
    // a contact of the body, or of a free partner, with any other body (speculative ones within
    // the margin included)
    int other = other_contact(contacts, pair.body, pair.partner);
    if (other == -2 && pair.partner_free) other = other_contact(contacts, pair.partner, pair.body);
    if (other != -2) {
      hand_to_lcp(w, k,
                  other >= 0 ? fmt::format("new contact with body {} (\"{}\")", other,
                                           w.bodies().body(other).name)
                             : std::string("new contact"));
      continue;
    }
    // advance a copy; separated: the pair leaves at that instant (depart); on anything else but
    // ok it leaves at the start of the step, and the LCP takes this step from the exact state
    ReducedContactState state = pair.state;
    pair.model.body1.wrench_W = f_ext.segment<6>(6 * pair.body);
    if (pair.partner_free) pair.model.body2.wrench_W = f_ext.segment<6>(6 * pair.partner);
    ReducedAdvanceResult r;
    try {
      ReducedStepSettings integrator = w.settings().hybrid_integrator;
      if (w.settings().interrupted) integrator.interrupted = w.settings().interrupted;
      r = advance(pair.model, state, h, integrator);
    } catch (const std::exception& e) {
      hand_to_lcp(w, k, std::string("bad_geometry: ") + e.what());
      continue;
    }
    // the accepted steps the World keeps (an exit to the LCP discards them), by size
    const auto count_steps = [&w, &r]() {
      for (const double dt : r.step_sizes) ++w.report().reduced_steps[reduced_step_bin(dt)];
    };
    const std::string message = r.message.empty()
                                    ? std::string(to_string(r.status))
                                    : fmt::format("{}: {}", to_string(r.status), r.message);
    // separated inside the step: the pair leaves at that instant (depart)
    if (r.status == ReducedStatus::separated &&
        depart(w, k, state, pair.state.time + h, f_ext, message)) {
      count_steps();
      continue;
    }
    if (r.status != ReducedStatus::ok) {
      hand_to_lcp(w, k, message);
      continue;
    }
    const Pose X = body1_pose(pair.model, state);
    const Vec6 V = body1_world_twist(pair.model, state);
    const Vec6 V2 = body2_world_twist(state);
    if (!X.all_finite() || !V.allFinite() || !state.X_W2.all_finite() || !V2.allFinite()) {
      hand_to_lcp(w, k, "bad_geometry: non-finite state");
      continue;
    }
    count_steps();
    // a step completed in reduced mode: the back-off starts again from one step
    resize_backoff(w.bodies().size());
    failures_[pair.body] = 0;
    if (pair.partner_free) failures_[pair.partner] = 0;
    pair.state = state;
    pair.next_pose = X;
    pair.next_twist = V;
    pair.next_pose2 = state.X_W2;
    pair.next_twist2 = V2;
  }
  for (const auto& [a, b] : skipped)
    if (!is_reduced_pair(a, b)) w.restore_skipped_contacts(a, b, contacts);
  drop_reduced_contacts(contacts);
}

namespace {

/// the contacts of one body in a step: its single partner (or none), the spread of its points
/// on the body, and the point of the deepest contact
struct BodyContacts {
  int count = 0;
  int partner = -1;
  bool one_partner = true;
  Vec3 first_point = Vec3::Zero();
  double spread = 0.0;  // largest distance of a point from the first, m
  Vec3 deepest_point = Vec3::Zero();
  double min_gap = 0.0;
  std::vector<std::pair<Vec3, double>> points;  // every contact point on the body, with its gap

  void add(const Contact& c, int body) {
    const int other = c.body_a == body ? c.body_b : c.body_a;
    const Vec3 p = c.body_a == body ? c.p_WCa : c.p_WCb;
    points.emplace_back(p, c.gap);
    if (count == 0) {
      partner = other;
      first_point = deepest_point = p;
      min_gap = c.gap;
    } else {
      one_partner = one_partner && other == partner;
      spread = std::max(spread, (p - first_point).norm());
      if (c.gap < min_gap) {
        min_gap = c.gap;
        deepest_point = p;
      }
    }
    ++count;
  }
};

bool touches(const Contact& c, int body) {
  return c.body_a == body || c.body_b == body;
}

ContactSurface contact_surface(const RigidBody& b) {
  return {b.smooth_surface, Pose{b.shape_offset, Quat::Identity()}};
}

// Whether the smooth surfaces of `body` and `partner` have a single contact where the collision
// proxies meet at the spread points `points` (with their gaps; a facet of a sampled hull on a
// plane gives its corners, Bullet's manifold one touching corner at a time and the others
// speculative within the contact margin; a mesh several points). The contact search of the
// smooth surfaces is started from every point: from a touching one (gap ≤ `tolerance`) it must
// converge; every search that converges to a touching contact (|gap| ≤ `tolerance`) must find
// the same one (within `tolerance`). Searches from speculative points may end in a separated
// local contact or not converge: that is no contact. Two separate contact regions (a body on
// two bumps, a body in a bowl touching its rim too) give two touching contacts. Returns the
// contact point, or nothing.
std::optional<Vec3> single_smooth_contact(const RigidBodySet& set, int body, int partner,
                                          const std::vector<std::pair<Vec3, double>>& points,
                                          double tolerance) {
  const ContactSurface s1 = contact_surface(set.body(body));
  const ContactSurface s2 = contact_surface(set.body(partner));
  std::optional<Vec3> found;
  for (const auto& [p, gap] : points) {
    const bool touching = gap <= tolerance;
    ContactSearchResult c;
    try {
      c = find_contact(s1, set.pose(body), s2, set.pose(partner), p);
    } catch (const std::exception&) {
      if (touching) return std::nullopt;
      continue;
    }
    if (!c.converged || !(std::abs(c.gap) <= tolerance)) {
      if (touching) return std::nullopt;
      continue;
    }
    if (!found)
      found = c.p_W1;
    else if (!((c.p_W1 - *found).norm() <= tolerance))
      return std::nullopt;
  }
  return found;
}

}  // namespace

void HybridSwitch::resize_backoff(int bodies) {
  failures_.resize(static_cast<std::size_t>(bodies), 0);
  backoff_.resize(static_cast<std::size_t>(bodies), 0);
}

bool HybridSwitch::candidate(const HybridHost& w, int body) const {
  const RigidBody& b = w.bodies().body(body);
  if (b.fixed || !b.smooth_surface || is_reduced(body) || backing_off(body)) return false;
  return !w.has_joint(body);
}

// a smooth partner: fixed, or free with the conditions of a free pair (docs/hybrid.md): the pair
// is entered from its body of the lower index (body 1), and the partner touches nothing else,
// carries no joint and is not reduced
template <class C>
bool HybridSwitch::partner(const HybridHost& w, int body, int partner,
                           const std::vector<C>& contacts) const {
  if (partner < 0 || !w.bodies().body(partner).smooth_surface) return false;
  if (w.bodies().body(partner).kinematic)
    return false;  // a moving partner: the LCP's (docs/step.md)
  if (w.bodies().body(partner).fixed) return true;
  return partner > body && !is_reduced(partner) && !backing_off(partner) && !w.has_joint(partner) &&
         other_contact(contacts, partner, body) == -2;
}

bool HybridSwitch::try_enter(HybridHost& w, int i, int partner, const Vec3& p_guess,
                             bool need_normal_force, const Eigen::VectorXd* f_ext) {
  const RigidBody& b = w.bodies().body(i);
  const RigidBody& p = w.bodies().body(partner);
  const bool partner_free = !p.fixed;
  ReducedPair pair;
  pair.body = i;
  pair.partner = partner;
  pair.partner_free = partner_free;
  pair.model.body1.surface = contact_surface(b);
  pair.model.body1.mass = b.mass;
  pair.model.body1.inertia_B = b.inertia_B;
  pair.model.body2.surface = contact_surface(p);
  pair.model.body2.fixed = !partner_free;
  if (partner_free) {
    pair.model.body2.mass = p.mass;
    pair.model.body2.inertia_B = p.inertia_B;
  }
  pair.model.gravity = w.settings().gravity;
  pair.model.friction = w.settings().hybrid_friction;
  pair.model.friction.mu = std::sqrt(b.friction * p.friction);
  pair.model.torques = w.settings().hybrid_torques;  // one setting for every pair (hybrid.md)
  if (f_ext) {  // the forces that hold the contact closed, besides gravity
    pair.model.body1.wrench_W = f_ext->segment<6>(6 * i);
    if (partner_free) pair.model.body2.wrench_W = f_ext->segment<6>(6 * partner);
  }
  const Pose X0 = w.bodies().pose(i);
  const Vec6 V0 = w.bodies().twist(i);
  Vec6 V1_W = V0, V2_W = Vec6::Zero();
  NormalStop stop;
  ReducedEntry e;
  try {
    validate(pair.model);
    if (partner_free) {
      // at the contact of the smooth surfaces now (the detector's is from the step's start)
      const ContactSearchResult c =
          find_contact(pair.model.body1.surface, X0, pair.model.body2.surface,
                       w.bodies().pose(partner), p_guess);
      if (!c.converged) return false;
      V2_W = w.bodies().twist(partner);
      stop = stop_normal_velocity(w.bodies(), i, partner, c.p_W2, c.n_W, V1_W, V2_W);
    }
    // the contact to rounding (one more Newton step than find_contact's default needs), so a
    // state already on the manifold is kept as it is; the default where that does not converge
    e = enter_reduced_mode(pair.model, X0, V1_W, w.bodies().pose(partner), V2_W, w.time(), p_guess,
                           1e-14);
    if (!e.search.converged)
      e = enter_reduced_mode(pair.model, X0, V1_W, w.bodies().pose(partner), V2_W, w.time(),
                             p_guess);
    // without an LCP impulse to show it (a start-of-step entry), the contact must carry load
    if (need_normal_force) {
      const ReducedDynamics d = reduced_dynamics(pair.model, e.state);
      if (!d.ok || !(d.normal_force > 0.0)) return false;
    }
  } catch (const std::exception& ex) {
    w.report().warn(
        StepWarning::hybrid_entry_failed, i,
        fmt::format("hybrid: body \"{}\" cannot enter reduced mode: {}", b.name, ex.what()));
    return false;
  }
  if (!e.search.converged || std::abs(e.search.gap) > w.settings().hybrid_point_tolerance ||
      std::abs(e.separation_rate) > w.settings().hybrid_max_normal_speed ||
      std::abs(stop.v_n) > w.settings().hybrid_max_normal_speed)
    return false;  // not a clean single contact now
  const Pose X = body1_pose(pair.model, e.state);
  const Vec6 V = body1_world_twist(pair.model, e.state);
  const Vec6 V2 = body2_world_twist(e.state);
  if (!X.p_WB.allFinite() || !V.allFinite() || !V2.allFinite()) return false;
  w.bodies().set_pose(i, X);
  w.bodies().twist(i) = V;
  if (partner_free) w.bodies().twist(partner) = V2;  // body 2 keeps its pose (enter_reduced_mode)
  pair.state = e.state;
  pair.next_pose = X;
  pair.next_twist = V;
  pair.next_pose2 = e.state.X_W2;
  pair.next_twist2 = V2;
  SwitchEvent ev;
  ev.time = w.time();
  ev.body = i;
  ev.partner = partner;
  ev.entered = true;
  ev.energy_change = e.energy_change + stop.energy;
  ev.position_change = (X.p_WB - X0.p_WB).norm();
  ev.rotation_change = X.q_WB.angularDistance(X0.q_WB);
  ev.twist_change = (V - V0).cwiseAbs().maxCoeff();
  pending_.push_back(std::move(ev));
  ++w.totals().reduced_entries;
  pairs_.push_back(std::move(pair));
  return true;
}

void HybridSwitch::enter_at_start(HybridHost& w, const std::vector<Contact>& contacts,
                                  const Eigen::VectorXd& f_ext) {
  for (int i = 0; i < w.bodies().size(); ++i) {
    if (!candidate(w, i)) continue;
    BodyContacts bc;
    for (const Contact& c : contacts)
      if (touches(c, i)) bc.add(c, i);
    // the proxies' points may be spread (a sampled hull, a mesh): the smooth surfaces decide
    if (bc.count > 0 && bc.one_partner && partner(w, i, bc.partner, contacts))
      try_enter(w, i, bc.partner, bc.deepest_point, true, &f_ext);
  }
}

void HybridSwitch::after_step(HybridHost& w) {
  const int n = w.bodies().size();
  streak_.resize(n, 0);
  resize_backoff(n);
  for (int& steps : backoff_) steps = std::max(steps - 1, 0);
  if (!w.settings().hybrid || w.settings().hybrid_entry_steps == 0) {
    // off, or entries happen at the start of steps (hybrid_enter_at_start)
    std::fill(streak_.begin(), streak_.end(), 0);
    return;
  }
  for (int i = 0; i < n; ++i) {
    if (!candidate(w, i)) {
      streak_[i] = 0;
      continue;
    }
    // the entry rule on this step's contacts: all with one smooth partner (fixed, or free and
    // touching nothing else), compressive, and a single contact of the smooth surfaces: the
    // proxies' points within hybrid_point_tolerance of one point (Bullet's one point for a
    // sphere or an ellipsoid on a plane), or else, spread (a facet of a sampled hull, a mesh),
    // one contact of the smooth surfaces from every point (single_smooth_contact)
    BodyContacts bc;
    double lambda = 0.0;
    for (const ContactInfo& ci : w.last_contacts())
      if (touches(ci.contact, i)) {
        bc.add(ci.contact, i);
        lambda += ci.normal_impulse;
      }
    const double tolerance = w.settings().hybrid_point_tolerance;
    bool ok = bc.count > 0 && bc.one_partner && lambda > 0.0 &&
              partner(w, i, bc.partner, w.last_contacts());
    Vec3 guess = bc.first_point;
    if (ok && !(bc.spread <= tolerance)) {
      const std::optional<Vec3> p =
          single_smooth_contact(w.bodies(), i, bc.partner, bc.points, tolerance);
      ok = p.has_value();
      if (ok) guess = *p;
    }
    streak_[i] = ok ? streak_[i] + 1 : 0;
    if (!ok || streak_[i] < w.settings().hybrid_entry_steps) continue;
    // enter (the streak starts again whether it works or not)
    streak_[i] = 0;
    try_enter(w, i, bc.partner, guess, false);
  }
}

}  // namespace pivot::detail
