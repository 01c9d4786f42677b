// World's hybrid mode (docs/hybrid.md "The World switch"; notes/kry.md §10): the entry rule,
// advancing reduced pairs inside World::step, and the exits. A pair is a free body on a fixed
// body, or two free bodies (the 11-DOF form of notes/kry.md §2, "Two free bodies" [DERIVED]).
#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "engine/world.hpp"

namespace pivot {

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

bool has_joint(const std::vector<std::unique_ptr<Joint>>& joints, int body) {
  return std::any_of(joints.begin(), joints.end(),
                     [body](const auto& j) { return j->body_a() == body || j->body_b() == body; });
}

// Two free bodies entering reduced mode: the inelastic impulse j n at the contact point p that
// stops their relative normal velocity, applied to copies of their twists (n points towards
// body i). Equal and opposite, so it keeps the total linear and angular momentum, which the
// projection of enter_reduced_mode (body 2 keeps its twist) would not (notes/kry.md §10.2,
// entry step 5: "split by mass"). Returns v_n and the kinetic energy change −½ v_n² / K.
//   v_n = n·(v_i + ω_i × r_i − v_o − ω_o × r_o),  K = Σ 1/m + (r × n)ᵀ I_W⁻¹ (r × n)
struct NormalStop {
  double v_n = 0.0;     // m/s, > 0 separating
  double energy = 0.0;  // J, ≤ 0
};
NormalStop stop_normal_velocity(const RigidBodySet& set, int i, int o, const Vec3& p, const Vec3& n,
                                Vec6& V_i, Vec6& V_o) {
  const Vec3 r_i = p - set.pose(i).x_WB, r_o = p - set.pose(o).x_WB;
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

bool World::is_reduced(int body) const {
  return std::any_of(reduced_.begin(), reduced_.end(), [body](const ReducedPair& p) {
    return p.body == body || (p.partner_free && p.partner == body);
  });
}

void World::exit_reduced(std::size_t k, std::string reason) {
  SwitchEvent e;
  e.time = time_;
  e.body = reduced_[k].body;
  e.partner = reduced_[k].partner;
  e.entered = false;
  e.reason = std::move(reason);
  pending_switches_.push_back(std::move(e));
  ++totals_.reduced_exits;
  for (const int b : {reduced_[k].body, reduced_[k].partner})
    if (b >= 0 && static_cast<int>(hybrid_streak_.size()) > b) hybrid_streak_[b] = 0;
  reduced_.erase(reduced_.begin() + static_cast<std::ptrdiff_t>(k));
}

void World::drop_reduced_contacts(std::vector<Contact>& contacts) const {
  if (reduced_.empty()) return;
  std::erase_if(contacts, [this](const Contact& c) {
    return std::any_of(reduced_.begin(), reduced_.end(), [&c](const ReducedPair& p) {
      return (c.body_a == p.body && c.body_b == p.partner) ||
             (c.body_b == p.body && c.body_a == p.partner);
    });
  });
}

void World::hybrid_before_lcp(std::vector<Contact>& contacts, const Eigen::VectorXd& f_ext) {
  if (!settings_.hybrid) {
    while (!reduced_.empty()) exit_reduced(reduced_.size() - 1, "hybrid turned off");
    return;
  }
  const double h = settings_.time_step;
  for (std::size_t k = reduced_.size(); k-- > 0;) {
    ReducedPair& pair = reduced_[k];
    // a joint on the body or on a free partner (added while reduced)
    if (has_joint(joints_, pair.body) || (pair.partner_free && has_joint(joints_, pair.partner))) {
      exit_reduced(k, "a joint acts on the body");
      continue;
    }
    // a contact of the body, or of a free partner, with any other body (speculative ones within
    // the margin included)
    int other = other_contact(contacts, pair.body, pair.partner);
    if (other == -2 && pair.partner_free) other = other_contact(contacts, pair.partner, pair.body);
    if (other != -2) {
      exit_reduced(k, other >= 0 ? fmt::format("new contact with body {} (\"{}\")", other,
                                               set_.body(other).name)
                                 : std::string("new contact"));
      continue;
    }
    // advance a copy; on anything but ok the pair leaves at the start of the step, and the
    // LCP takes this step from the exact state
    ReducedContactState state = pair.state;
    pair.model.body1.wrench_W = f_ext.segment<6>(6 * pair.body);
    if (pair.partner_free) pair.model.body2.wrench_W = f_ext.segment<6>(6 * pair.partner);
    ReducedAdvanceResult r;
    try {
      r = advance(pair.model, state, h, settings_.hybrid_integrator);
    } catch (const std::exception& e) {
      exit_reduced(k, std::string("bad_geometry: ") + e.what());
      continue;
    }
    if (r.status != ReducedStatus::ok) {
      exit_reduced(k, r.message.empty() ? std::string(to_string(r.status))
                                        : fmt::format("{}: {}", to_string(r.status), r.message));
      continue;
    }
    const Pose X = body1_pose(pair.model, state);
    const Vec6 V = body1_world_twist(pair.model, state);
    const Vec6 V2 = body2_world_twist(state);
    if (!X.x_WB.allFinite() || !X.q_WB.coeffs().allFinite() || !V.allFinite() ||
        !state.X_W2.x_WB.allFinite() || !state.X_W2.q_WB.coeffs().allFinite() || !V2.allFinite()) {
      exit_reduced(k, "bad_geometry: non-finite state");
      continue;
    }
    pair.state = state;
    pair.next_pose = X;
    pair.next_twist = V;
    pair.next_pose2 = state.X_W2;
    pair.next_twist2 = V2;
  }
  drop_reduced_contacts(contacts);
}

void World::hybrid_after_step() {
  const int n = set_.size();
  hybrid_streak_.resize(n, 0);
  if (!settings_.hybrid) {
    std::fill(hybrid_streak_.begin(), hybrid_streak_.end(), 0);
    return;
  }
  const double tol = settings_.hybrid_point_tolerance;
  for (int i = 0; i < n; ++i) {
    const RigidBody& b = set_.body(i);
    if (b.fixed || !b.smooth_surface || is_reduced(i)) {
      hybrid_streak_[i] = 0;
      continue;
    }
    // the entry rule on this step's contacts: all with one smooth partner, at one point,
    // compressive; no joints on the body. A free partner must touch nothing else, carry no
    // joint and not be reduced; the pair is entered from its body of the lower index (body 1)
    int partner = -2;
    bool ok = true;
    double lambda = 0.0;
    Vec3 p0 = Vec3::Zero();
    int count = 0;
    for (const ContactInfo& ci : contacts_) {
      const Contact& c = ci.contact;
      if (c.body_a != i && c.body_b != i) continue;
      const int o = c.body_a == i ? c.body_b : c.body_a;
      const Vec3 p = c.body_a == i ? c.point_a : c.point_b;
      if (count == 0) {
        partner = o;
        p0 = p;
      } else if (o != partner || (p - p0).norm() > tol) {
        ok = false;
      }
      lambda += ci.normal_impulse;
      ++count;
    }
    ok = ok && count > 0 && lambda > 0.0 && partner >= 0 && set_.body(partner).smooth_surface &&
         !has_joint(joints_, i);
    const bool partner_free = ok && !set_.body(partner).fixed;
    if (partner_free)
      ok = partner > i && !is_reduced(partner) && !has_joint(joints_, partner) &&
           other_contact(contacts_, partner, i) == -2;
    hybrid_streak_[i] = ok ? hybrid_streak_[i] + 1 : 0;
    if (!ok || hybrid_streak_[i] < settings_.hybrid_entry_steps) continue;

    // enter: project onto the manifold and map the twist to q̇ (reduced_contact.hpp)
    hybrid_streak_[i] = 0;
    const RigidBody& p = set_.body(partner);
    ReducedPair pair;
    pair.body = i;
    pair.partner = partner;
    pair.model.body1.surface = {b.smooth_surface, Pose{b.shape_offset, Quat::Identity()}};
    pair.model.body1.mass = b.mass;
    pair.model.body1.inertia_B = b.inertia_B;
    pair.model.body2.surface = {p.smooth_surface, Pose{p.shape_offset, Quat::Identity()}};
    pair.model.body2.fixed = !partner_free;
    pair.partner_free = partner_free;
    if (partner_free) {
      pair.model.body2.mass = p.mass;
      pair.model.body2.inertia_B = p.inertia_B;
    }
    pair.model.gravity = settings_.gravity;
    pair.model.friction.mu = std::sqrt(b.friction * p.friction);
    Vec6 V1_W = set_.twist(i), V2_W = Vec6::Zero();
    NormalStop stop;
    if (partner_free) {
      // at the contact of the smooth surfaces now (the detector's is from the step's start)
      const ContactSearchResult c = find_contact(pair.model.body1.surface, set_.pose(i),
                                                 pair.model.body2.surface, set_.pose(partner), p0);
      if (!c.converged) continue;
      V2_W = set_.twist(partner);
      stop = stop_normal_velocity(set_, i, partner, c.p_W2, c.n_W, V1_W, V2_W);
    }
    ReducedEntry e;
    try {
      validate(pair.model);
      e = enter_reduced_mode(pair.model, set_.pose(i), V1_W, set_.pose(partner), V2_W, time_, p0);
    } catch (const std::exception& ex) {
      report_.warnings.push_back(
          fmt::format("hybrid: body \"{}\" cannot enter reduced mode: {}", b.name, ex.what()));
      continue;
    }
    if (!e.search.converged || std::abs(e.search.gap) > tol ||
        std::abs(e.separation_rate) > settings_.hybrid_max_normal_speed ||
        std::abs(stop.v_n) > settings_.hybrid_max_normal_speed)
      continue;  // not a clean single contact now; the streak starts again
    const Pose X = body1_pose(pair.model, e.state);
    const Vec6 V = body1_world_twist(pair.model, e.state);
    const Vec6 V2 = body2_world_twist(e.state);
    if (!X.x_WB.allFinite() || !V.allFinite() || !V2.allFinite()) continue;
    set_.set_pose(i, X);
    set_.twist(i) = V;
    if (partner_free) set_.twist(partner) = V2;  // body 2 keeps its pose (enter_reduced_mode)
    pair.state = e.state;
    pair.next_pose = X;
    pair.next_twist = V;
    pair.next_pose2 = e.state.X_W2;
    pair.next_twist2 = V2;
    SwitchEvent ev;
    ev.time = time_;
    ev.body = i;
    ev.partner = partner;
    ev.entered = true;
    ev.energy_change = e.energy_change + stop.energy;
    pending_switches_.push_back(std::move(ev));
    ++totals_.reduced_entries;
    reduced_.push_back(std::move(pair));
  }
}

}  // namespace pivot
