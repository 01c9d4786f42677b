// World::step: one Anitescu–Potra time step (Cline 2002 §2.7.3, §4.1; ARCHITECTURE.md).
#include <fmt/core.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <type_traits>

#include "pivot/engine/gyroscopic.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/islands.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {
namespace {

using Clock = std::chrono::steady_clock;

// a joint's row block as equality or unilateral rows of the constraint set, bias = scale · g
template <typename Row>
void append_rows(const ConstraintRows& rows, int a, int b, int owner, double bias_scale,
                 std::vector<Row>& out) {
  for (int r = 0; r < rows.rows(); ++r) {
    Row row;
    row.body_a = a;
    row.body_b = b;
    row.J_A = rows.J_A.row(r);
    row.J_B = rows.J_B.row(r);
    row.bias = bias_scale * rows.g(r);
    row.owner = owner;
    if constexpr (std::is_same_v<Row, EqualityRow>) row.owner_row = r;
    out.push_back(row);
  }
}

// the body index as seen by islands: −1 for the world and for fixed bodies
int dynamic_index(const RigidBodySet& set, int b) {
  return b >= 0 && !set.body(b).fixed ? b : -1;
}

// which rows of the set belong to which island, and the island's bodies
std::vector<IslandInput> split_islands(const RigidBodySet& set, const ConstraintSet& rows,
                                       const std::vector<std::pair<int, int>>& couplings) {
  const int n = set.size();
  IslandBuilder builder(n);
  auto link = [&](const RowRef& r) {
    builder.connect(dynamic_index(set, r.body_a), dynamic_index(set, r.body_b));
  };
  for (const auto& r : rows.equalities) link(r);
  for (const auto& r : rows.unilaterals) link(r);
  for (const auto& r : rows.motors) link(r);
  for (const auto& [a, b] : couplings)
    builder.connect(dynamic_index(set, a), dynamic_index(set, b));
  std::vector<bool> excluded(n);
  for (int i = 0; i < n; ++i) excluded[i] = set.body(i).fixed;
  const auto groups = builder.islands(excluded);
  std::vector<int> slot(n, -1);
  std::vector<IslandInput> islands(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    islands[g].bodies = groups[g];
    for (int b : groups[g]) slot[b] = static_cast<int>(g);
  }
  auto island_of = [&](const RowRef& r) {
    const int a = dynamic_index(set, r.body_a);
    return a >= 0 ? slot[a] : slot[dynamic_index(set, r.body_b)];
  };
  for (std::size_t i = 0; i < rows.equalities.size(); ++i)
    islands[island_of(rows.equalities[i])].equalities.push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < rows.unilaterals.size(); ++i)
    islands[island_of(rows.unilaterals[i])].unilaterals.push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < rows.cones.size(); ++i)
    islands[island_of(rows.unilaterals[rows.cones[i].normal_row])].cones.push_back(
        static_cast<int>(i));
  for (std::size_t i = 0; i < rows.motors.size(); ++i)
    islands[island_of(rows.motors[i])].motors.push_back(static_cast<int>(i));
  return islands;
}

// M̃ of an island: the bodies' mass blocks minus h²∇ₚf + h∇ᵥf restricted to the island
Eigen::SparseMatrix<double> island_mass(const RigidBodySet& set, const std::vector<int>& bodies,
                                        const Eigen::SparseMatrix<double>* gradient) {
  const auto nb = static_cast<int>(bodies.size());
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(36 * nb);
  std::vector<int> local(set.size(), -1);
  for (int i = 0; i < nb; ++i) local[bodies[i]] = i;
  for (int i = 0; i < nb; ++i) {
    const Mat6 M = set.mass_matrix(bodies[i]);
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c)
        if (M(r, c) != 0.0) t.emplace_back(6 * i + r, 6 * i + c, M(r, c));
  }
  if (gradient) {
    for (int k = 0; k < gradient->outerSize(); ++k)
      for (Eigen::SparseMatrix<double>::InnerIterator it(*gradient, k); it; ++it) {
        const int bi = local[it.row() / 6], bj = local[it.col() / 6];
        if (bi < 0 || bj < 0) continue;
        t.emplace_back(6 * bi + it.row() % 6, 6 * bj + it.col() % 6, it.value());
      }
  }
  Eigen::SparseMatrix<double> M(6 * nb, 6 * nb);
  M.setFromTriplets(t.begin(), t.end());
  return M;
}

// the contact point's row for body `b` with direction d (Cline eq. 4.14, 4.17):
// ( (r × d)ᵀ  dᵀ ) for A and its negative for B, r from the COM to the contact point
Row6 contact_row(const Vec3& r, const Vec3& d, double sign) {
  Row6 J;
  J.head<3>() = sign * r.cross(d).transpose();
  J.tail<3>() = sign * d.transpose();
  return J;
}

// the k friction directions in the tangent plane of n: evenly spaced from t₁, the projection
// of world x (else world y) on the plane, turned by `offset` about n; each has its negative
std::vector<Vec3> friction_directions(const Vec3& n, int k, double offset) {
  Vec3 t1 = Vec3::UnitX() - n.x() * n;
  if (t1.norm() < 1e-6) t1 = Vec3::UnitY() - n.y() * n;
  t1.normalize();
  const Vec3 t2 = n.cross(t1);
  std::vector<Vec3> dirs(k);
  for (int j = 0; j < k; ++j) {
    const double angle = offset + 2.0 * EIGEN_PI * j / k;
    dirs[j] = std::cos(angle) * t1 + std::sin(angle) * t2;
  }
  return dirs;
}

// the number of complementarity variables of an island's LCP (see island_solver.cpp)
int island_lcp_size(const ConstraintSet& rows, const IslandInput& in) {
  int m = static_cast<int>(in.unilaterals.size()) + 3 * static_cast<int>(in.motors.size());
  for (int c : in.cones) m += static_cast<int>(rows.cones[c].directions.size()) + 1;
  return m;
}

}  // namespace

void World::detect_contacts(std::vector<Contact>& out) {
  out = collision_->detect([this](int body) { return set_.pose(body); }, settings_.contact_margin);
}

// Contact rows of the dynamics LCP (Cline eq. 2.49, 4.16) or of the post-step (eq. 3.7).
// Dynamics: normal  J_n v⁺ + b ≥ 0 ⊥ λ_n ≥ 0  with
//   b = e J_n v      when the contact approaches faster than the restitution threshold and
//                    would close within the step (Newton's law, Cline eq. 4.16),
//   b = max(g, 0)/h  otherwise: a separated contact may close its gap, never more (speculative
//                    contacts); a penetration is left to the post-step (or to Baumgarte's α g);
// and a polyhedral cone of k directions with μ = √(μ_A μ_B) (Cline eq. 2.48).
// Post-step: normal rows only, b = g.
namespace {
/// contact gaps above −1 pm are rounding of "touching" (docs/step.md)
constexpr double kGapRoundoff = 1e-12;
}  // namespace

void World::add_contact_rows(const std::vector<Contact>& contacts, bool dynamics) {
  const double h = settings_.time_step;
  for (const Contact& c : contacts) {
    const Pose A = set_.pose(c.body_a), B = set_.pose(c.body_b);
    const Vec3 r_a = c.point_a - A.x_WB, r_b = c.point_b - B.x_WB;
    UnilateralRow row;
    row.body_a = c.body_a;
    row.body_b = c.body_b;
    row.J_A = contact_row(r_a, c.normal, 1.0);
    row.J_B = contact_row(r_b, c.normal, -1.0);
    row.owner = -1;
    if (!dynamics) {
      // a gap within rounding of zero (touching faces computed as −3e-17 m) is touching: left
      // negative it would ask the post-step LCP to resolve noise 14 orders below its other
      // entries, which no floating-point pivoting can do reliably
      row.bias = c.gap > -kGapRoundoff ? std::max(c.gap, 0.0) : c.gap;
      rows_.unilaterals.push_back(row);
      continue;
    }
    const RigidBody* ba = c.body_a >= 0 ? &set_.body(c.body_a) : nullptr;
    const RigidBody* bb = c.body_b >= 0 ? &set_.body(c.body_b) : nullptr;
    const double mu_a = ba ? ba->friction : 0.0, mu_b = bb ? bb->friction : 0.0;
    const double e = std::max(ba ? ba->restitution : 0.0, bb ? bb->restitution : 0.0);
    double vn = 0.0;
    if (c.body_a >= 0) vn += row.J_A.dot(set_.twist(c.body_a));
    if (c.body_b >= 0) vn += row.J_B.dot(set_.twist(c.body_b));
    if (e > 0.0 && vn < -settings_.restitution_threshold && -vn * h >= c.gap)
      row.bias = e * vn;
    else if (settings_.stabilization == Stabilization::baumgarte && c.gap < 0.0)
      row.bias = settings_.baumgarte_alpha * c.gap;
    else
      row.bias = std::max(c.gap, 0.0) / h;
    rows_.unilaterals.push_back(row);
    const double mu = std::sqrt(mu_a * mu_b);
    if (mu > 0.0) {
      FrictionCone cone;
      cone.normal_row = static_cast<int>(rows_.unilaterals.size()) - 1;
      cone.mu = mu;
      for (const Vec3& d : friction_directions(c.normal, settings_.friction_directions,
                                               settings_.friction_direction_offset)) {
        RowRef f;
        f.body_a = c.body_a;
        f.body_b = c.body_b;
        f.J_A = contact_row(r_a, d, 1.0);
        f.J_B = contact_row(r_b, d, -1.0);
        cone.directions.push_back(f);
      }
      rows_.cones.push_back(std::move(cone));
    }
  }
}

const StepReport& World::step() {
  const double h = settings_.time_step;
  const int n = set_.size();
  report_ = StepReport{};
  recorded_lcps_.clear();

  // 1. forces at (p_t, v_t, t): gravity, the gyroscopic term −ω × (I ω) (Cline eq. 2.27), and
  // the external forces; their gradients for the linearly implicit step (Cline eq. 2.52–2.54)
  Eigen::VectorXd f = Eigen::VectorXd::Zero(6 * n);
  Triplets dfdp, dfdv;
  std::vector<std::pair<int, int>> couplings;
  for (int i = 0; i < n; ++i) {
    const RigidBody& b = set_.body(i);
    if (b.fixed) continue;
    const Vec3 w = set_.twist(i).head<3>();
    const Quat q(set_.orientation(i));
    const Mat3 I = b.inertia_W(q);
    f.segment<3>(6 * i + 3) += b.mass * settings_.gravity;
    Vec3 w_plus_B;
    if (!settings_.implicit_forces) {
      f.segment<3>(6 * i) -= w.cross(I * w);  // explicit
    } else if (gyroscopic_midpoint(b.inertia_B, q.conjugate() * w, h, w_plus_B)) {
      // energy- and |L|-conserving torque-free rotation (engine/gyroscopic.hpp), handed to the
      // LCP as the impulse I_W (ω⁺ − ω) = h τ
      f.segment<3>(6 * i) += I * (q * w_plus_B - w) / h;
    } else {
      // h|ω| too large for the midpoint's Newton iteration: linearly implicit (Cline §2.7.4),
      // ∂(−ω × Iω)/∂ω = −[ω] I + [I ω]
      f.segment<3>(6 * i) -= w.cross(I * w);
      const Mat3 G = -skew(w) * I + skew(I * w);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) dfdv.emplace_back(6 * i + r, 6 * i + c, G(r, c));
    }
  }
  // the external forces alone (without gravity and the gyroscopic term): the wrench of a pair
  // in hybrid reduced mode
  Eigen::VectorXd f_ext = Eigen::VectorXd::Zero(6 * n);
  for (const auto& force : forces_) {
    force->apply(set_, time_, f_ext);
    if (settings_.implicit_forces && force->add_gradients(set_, time_, dfdp, dfdv)) {
      const auto bodies = force->coupled_bodies();
      for (std::size_t k = 1; k < bodies.size(); ++k) couplings.emplace_back(bodies[0], bodies[k]);
    }
  }
  f += f_ext;
  if (!f.allFinite() || !f_ext.allFinite()) {
    f_ext.setZero();
    report_.warnings.push_back("external forces are not finite: they are ignored this step");
    f.setZero();
  }
  Eigen::SparseMatrix<double> gradient(6 * n, 6 * n);
  if (settings_.implicit_forces) {
    Eigen::SparseMatrix<double> dp(6 * n, 6 * n), dv(6 * n, 6 * n);
    dp.setFromTriplets(dfdp.begin(), dfdp.end());
    dv.setFromTriplets(dfdv.begin(), dfdv.end());
    gradient = -(h * h) * dp - h * dv;  // M̃ = M − h²∇ₚf − h∇ᵥf
    // f̃ = f − ∇ᵥf v  (Cline eq. 2.54)
    f -= dv * set_.velocities();
  }

  // 2. constraint rows at p_t
  rows_.clear();
  const bool baumgarte = settings_.stabilization == Stabilization::baumgarte;
  ConstraintRows jr;
  for (int j = 0; j < joint_count(); ++j) {
    const Joint& joint = *joints_[j];
    const Pose A = set_.pose(joint.body_a()), B = set_.pose(joint.body_b());
    joint.equality(A, B, jr);
    append_rows(jr, joint.body_a(), joint.body_b(), j, baumgarte ? settings_.baumgarte_alpha : 0.0,
                rows_.equalities);
    joint.limits(A, B, settings_.limit_margin, jr);
    // J v⁺ + g/h ≥ 0: the limit may be approached, never passed, in one step
    append_rows(jr, joint.body_a(), joint.body_b(), j, 1.0 / h, rows_.unilaterals);
    if (auto m = joint.motor(A, B)) {
      MotorConstraint mc;
      mc.body_a = joint.body_a();
      mc.body_b = joint.body_b();
      mc.J_A = m->J_A;
      mc.J_B = m->J_B;
      mc.target = m->target_velocity;
      mc.max_impulse = m->max_impulse;
      mc.owner = j;
      rows_.motors.push_back(mc);
    }
  }

  // contacts at p_t, and their rows
  std::vector<Contact> contacts;
  detect_contacts(contacts);
  // hybrid: pairs in reduced mode leave it (new contacts, events) or advance by h; their own
  // contact is not in the LCP
  if (settings_.hybrid || !reduced_.empty()) hybrid_before_lcp(contacts, f_ext);
  const int first_contact_row = static_cast<int>(rows_.unilaterals.size());
  const int first_cone = static_cast<int>(rows_.cones.size());
  add_contact_rows(contacts, true);
  report_.contacts = static_cast<int>(contacts.size());

  // 3. per island: the mixed LCP for v⁺
  std::fill(limit_impulse_.begin(), limit_impulse_.end(), 0.0);
  std::fill(motor_impulse_.begin(), motor_impulse_.end(), 0.0);
  for (auto& imp : joint_impulse_) imp.setZero();
  auto islands = split_islands(set_, rows_, couplings);
  Eigen::VectorXd v_new = set_.velocities();
  decltype(warm_start_) next_warm_start;  // only this step's islands are kept
  std::vector<double> contact_lambda(contacts.size(), 0.0);
  std::vector<Vec3> contact_tangent(contacts.size(), Vec3::Zero());
  for (IslandInput& island : islands) {
    island.M_tilde =
        island_mass(set_, island.bodies, settings_.implicit_forces ? &gradient : nullptr);
    const auto nb = static_cast<int>(island.bodies.size());
    // r = M v + h f̃   (the plain M multiplies v_t, Cline eq. 2.55)
    island.momentum.resize(6 * nb);
    for (int i = 0; i < nb; ++i) {
      const int b = island.bodies[i];
      island.momentum.segment<6>(6 * i) =
          set_.mass_matrix(b) * set_.twist(b) + h * f.segment<6>(6 * b);
    }
    // warm start from the previous step's active set when the island has the same bodies and
    // the same number of complementarity variables (a resting contact set)
    lcp::LemkeOptions lemke = settings_.lemke;
    const int m = island_lcp_size(rows_, island);
    if (auto it = warm_start_.find(island.bodies); it != warm_start_.end() && it->second.first == m)
      lemke.warm_start = it->second.second;
    lcp::SparseMixedLcpProblem* record = nullptr;
    if (settings_.record_lcps && (m > 0 || !island.equalities.empty()))
      record = &recorded_lcps_.emplace_back();
    const auto t0 = Clock::now();
    const IslandOutput out = solve_island(rows_, island, lemke, record, settings_.on_failed_lcp);
    report_.solve_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (out.status == lcp::LcpStatus::solved) next_warm_start[island.bodies] = {m, out.active_set};
    const bool has_lcp = out.lcp_size > 0 || !island.equalities.empty();
    report_.islands += has_lcp ? 1 : 0;
    report_.lcp_size += out.lcp_size;
    report_.pivots += out.pivots;
    totals_.lcp_solves += has_lcp ? 1 : 0;
    for (int e : out.singular_equalities) {
      const std::string name = joints_[rows_.equalities[island.equalities[e]].owner]->name();
      report_.warnings.push_back(fmt::format(
          "joint \"{}\": its rows are redundant or conflicting; joints made slightly compliant",
          name));
    }
    if (out.fallback) ++report_.fallbacks;
    if (out.velocity.size() == 0) {
      // even the fallback failed: this island keeps its velocities (documented in docs/step.md)
      ++report_.failures;
      if (report_.status == lcp::LcpStatus::solved) report_.status = out.status;
      report_.warnings.push_back("an island's LCP failed: " + out.message);
      continue;
    }
    for (int i = 0; i < nb; ++i)
      v_new.segment<6>(6 * island.bodies[i]) = out.velocity.segment<6>(6 * i);
    for (std::size_t e = 0; e < island.equalities.size(); ++e) {
      const EqualityRow& row = rows_.equalities[island.equalities[e]];
      joint_impulse_[row.owner](row.owner_row) = out.lambda_eq(static_cast<Eigen::Index>(e));
    }
    for (std::size_t u = 0; u < island.unilaterals.size(); ++u) {
      const int global = island.unilaterals[u];
      const double lambda = out.lambda_uni(static_cast<Eigen::Index>(u));
      if (global >= first_contact_row)
        contact_lambda[global - first_contact_row] = lambda;
      else
        limit_impulse_[rows_.unilaterals[global].owner] += lambda;
    }
    for (std::size_t c = 0; c < island.cones.size(); ++c) {
      const FrictionCone& cone = rows_.cones[island.cones[c]];
      if (island.cones[c] < first_cone) continue;
      Vec3 t = Vec3::Zero();
      for (std::size_t j = 0; j < cone.directions.size(); ++j)
        t += out.lambda_cone[c](static_cast<Eigen::Index>(j)) *
             cone.directions[j].J_A.tail<3>().transpose();
      contact_tangent[cone.normal_row - first_contact_row] = t;
    }
    for (std::size_t m = 0; m < island.motors.size(); ++m)
      motor_impulse_[rows_.motors[island.motors[m]].owner] =
          out.lambda_motor(static_cast<Eigen::Index>(m));
  }

  warm_start_ = std::move(next_warm_start);
  contacts_.resize(contacts.size());
  for (std::size_t c = 0; c < contacts.size(); ++c)
    contacts_[c] = ContactInfo{contacts[c], contact_lambda[c], contact_tangent[c]};

  // 4. positions from v⁺: x += h v⁺, q ← normalize(exp(h ω⁺) q)
  for (const ReducedPair& pair : reduced_) {
    v_new.segment<6>(6 * pair.body) = pair.next_twist;
    if (pair.partner_free) v_new.segment<6>(6 * pair.partner) = pair.next_twist2;
  }
  for (int i = 0; i < n; ++i) {
    if (set_.body(i).fixed) continue;
    if (is_reduced(i)) continue;  // set below from the reduced state
    set_.twist(i) = v_new.segment<6>(6 * i);
    set_.set_pose(i, integrate(set_.pose(i), h * v_new.segment<6>(6 * i)));
  }

  for (const ReducedPair& pair : reduced_) {
    set_.set_pose(pair.body, pair.next_pose);
    set_.twist(pair.body) = pair.next_twist;
    if (!pair.partner_free) continue;
    set_.set_pose(pair.partner, pair.next_pose2);
    set_.twist(pair.partner) = pair.next_twist2;
  }

  // 5. stabilization at p(t+h), with contacts detected anew so their gaps are current
  report_.joint_error_before = max_joint_error();
  std::vector<Contact> contacts_at_end;
  detect_contacts(contacts_at_end);
  report_.penetration_before = deepest_penetration(contacts_at_end);
  if (settings_.stabilization == Stabilization::post) post_stabilize(std::move(contacts_at_end));
  report_.joint_error_after = max_joint_error();
  report_.penetration_after = settings_.stabilization == Stabilization::post
                                  ? max_penetration()
                                  : report_.penetration_before;

  time_ += h;
  ++steps_;
  report_.time = time_;
  hybrid_after_step();
  report_.reduced_pairs = static_cast<int>(reduced_.size());
  report_.switches = std::move(pending_switches_);
  pending_switches_.clear();
  totals_.steps = steps_;
  totals_.pivots += report_.pivots;
  totals_.failures += report_.failures;
  totals_.fallbacks += report_.fallbacks;
  totals_.solve_seconds += report_.solve_seconds;
  return report_;
}

// Post-stabilization (Cline 2002 §3.4, eq. 3.7): at p(t+h), find a twist displacement dp per body
//   M dp − J_eᵀλ_e − J_uᵀλ_u = 0,   J_e dp + g_e = 0,   J_u dp + g_u ≥ 0 ⊥ λ_u ≥ 0
// (mass-weighted least correction; unilateral rows: joint limits, contacts) and apply it through
// the exponential map. Positions only: velocities are not touched. `contacts` are those detected
// at p(t+h) by the caller; a capped correction's later passes detect them anew.
void World::post_stabilize(std::vector<Contact> contacts) {
  const int n = set_.size();
  for (int pass = 0; pass < settings_.max_post_steps; ++pass) {
    rows_.clear();
    ConstraintRows jr;
    for (int j = 0; j < joint_count(); ++j) {
      const Joint& joint = *joints_[j];
      const Pose A = set_.pose(joint.body_a()), B = set_.pose(joint.body_b());
      joint.equality(A, B, jr);
      append_rows(jr, joint.body_a(), joint.body_b(), j, 1.0, rows_.equalities);
      joint.limits(A, B, 0.0, jr);
      append_rows(jr, joint.body_a(), joint.body_b(), j, 1.0, rows_.unilaterals);
    }
    if (pass > 0) detect_contacts(contacts);  // re-linearized at the corrected positions
    drop_reduced_contacts(contacts);          // hybrid: a reduced pair stays on its manifold
    add_contact_rows(contacts, false);
    if (rows_.equalities.empty() && rows_.unilaterals.empty()) return;
    auto islands = split_islands(set_, rows_, {});
    Eigen::VectorXd dp = Eigen::VectorXd::Zero(6 * n);
    for (IslandInput& island : islands) {
      if (island.equalities.empty() && island.unilaterals.empty()) continue;
      island.M_tilde = island_mass(set_, island.bodies, nullptr);
      island.momentum = Eigen::VectorXd::Zero(6 * static_cast<Eigen::Index>(island.bodies.size()));
      const auto t0 = Clock::now();
      const IslandOutput out = solve_island(rows_, island, settings_.lemke, nullptr, settings_.on_failed_lcp);
      report_.solve_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
      report_.pivots += out.pivots;
      ++totals_.lcp_solves;
      if (out.velocity.size() == 0) {
        ++report_.failures;
        report_.warnings.push_back("a post-stabilization LCP failed: " + out.message);
        continue;
      }
      for (std::size_t i = 0; i < island.bodies.size(); ++i)
        dp.segment<6>(6 * island.bodies[i]) =
            out.velocity.segment<6>(6 * static_cast<Eigen::Index>(i));
    }
    ++report_.post_steps;
    // the cap: a large correction is applied in pieces, re-linearized in between (Cline §5.2.3)
    const double size = dp.lpNorm<Eigen::Infinity>();
    const double cap = settings_.post_step_cap;
    const bool capped = cap > 0.0 && size > cap;
    if (capped) dp *= cap / size;
    for (int i = 0; i < n; ++i)
      if (!set_.body(i).fixed) set_.set_pose(i, integrate(set_.pose(i), dp.segment<6>(6 * i)));
    if (!capped) return;
  }
}

}  // namespace pivot
