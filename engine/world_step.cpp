// World::step: one Anitescu–Potra time step (Cline 2002 §2.7.3, §4.1; docs/step.md), as a list
// of stages over a StepContext (step_context.hpp):
//   1. compute_forces       forces, the gyroscopic term and their gradients at (p_t, v_t, t)
//                           (world_forces.cpp)
//   2. add_joint_rows       the joints' equality, limit and motor rows at p_t
//   3. add_step_contacts    contacts at p_t (the hybrid hook takes its pairs out), their rows
//   4. solve_islands        per island the mixed LCP for v⁺ and the impulses
//   5. integrate_positions  p(t+h) from v⁺ (reduced pairs from their own state)
//   6. stabilize            post-stabilization (or none) at p(t+h)
//   7. finish_step          time, hybrid entries, the state guard, the report's totals
#include <fmt/core.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <new>

#include "pivot/collision/collision_world.hpp"
#include "pivot/constraints/contact_rows.hpp"
#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/hybrid/hybrid_switch.hpp"
#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/island_batch.hpp"
#include "pivot/engine/island_bounds.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/step_context.hpp"
#include "pivot/engine/step_workspace.hpp"
#include "pivot/engine/stopwatch.hpp"
#include "pivot/engine/thread_pool.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/engine/world_hybrid_access.hpp"

namespace pivot {

using namespace detail;

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

void World::detect_contacts(std::vector<Contact>& out, bool skip_reduced) {
  DetectTimes times;
  // the narrow phase on the World's threads too (the contacts do not depend on it)
  ThreadPool* threads = pool();
  const ParallelFor parallel = [threads](int tasks, const std::function<void(int)>& body) {
    threads->run(tasks, body);
  };
  // a pair in reduced coordinates: the narrow phase of its LCP shapes would only be dropped
  // (HybridSwitch::drop_reduced_contacts); it was 38 % of a step of bowl_on_table
  const PairFilter skip = [this](int a, int b) { return hybrid_->is_reduced_pair(a, b); };
  const bool skipping =
      skip_reduced && (!hybrid_->pairs().empty() || !hybrid_->departures().empty());
  collision_->detect_into(
      out, [this](int body) { return set_.pose(body); }, settings_.contact_margin,
      settings_.profile ? &times : nullptr, threads ? &parallel : nullptr,
      skipping ? &skip : nullptr);
  time_stage(StepStage::broad_phase, times.broad_phase);
  time_stage(StepStage::narrow_phase, times.narrow_phase);
}

void World::restore_skipped_contacts(int a, int b, std::vector<Contact>& contacts) {
  const std::vector<Contact> extra = collision_->skipped_contacts(a, b);
  if (extra.empty()) return;
  // detect()'s order: (body_a, body_b), then the pair's own order
  const auto key = [](const Contact& c) { return std::make_pair(c.body_a, c.body_b); };
  const auto at = std::lower_bound(
      contacts.begin(), contacts.end(), key(extra.front()),
      [&key](const Contact& c, const std::pair<int, int>& k) { return key(c) < k; });
  contacts.insert(at, extra.begin(), extra.end());
}

// Contact rows of the dynamics LCP (Cline eq. 2.49, 4.16) or of the post-step (eq. 3.7): the
// normal row and, for dynamics, a polyhedral cone of k directions with μ = √(μ_A μ_B) (Cline
// eq. 2.48). The rows and their biases are constraints/contact_rows.hpp's.
void World::add_contact_rows(const std::vector<Contact>& contacts, const StepContext* step) {
  for (const Contact& c : contacts) {
    const Pose A = set_.pose(c.body_a), B = set_.pose(c.body_b);
    const ContactRow normal = contact_row(c.p_WCa, A.p_WB, c.p_WCb, B.p_WB, c.n_BA_W);
    detail::UnilateralRow row;
    row.body_a = c.body_a;
    row.body_b = c.body_b;
    row.J_A = normal.J_A;
    row.J_B = normal.J_B;
    row.owner = -1;
    if (!step) {
      row.bias = contact_position_bias(c.gap, c.p_WCa, c.p_WCb);
      rows_->unilaterals.push_back(row);
      continue;
    }
    const RigidBody* ba = c.body_a >= 0 ? &set_.body(c.body_a) : nullptr;
    const RigidBody* bb = c.body_b >= 0 ? &set_.body(c.body_b) : nullptr;
    const double mu_a = ba ? ba->friction : 0.0, mu_b = bb ? bb->friction : 0.0;
    double vn = 0.0;
    if (c.body_a >= 0) vn += row.J_A.dot(set_.twist(c.body_a));
    if (c.body_b >= 0) vn += row.J_B.dot(set_.twist(c.body_b));
    const ContactBiasSettings bias{
        .time_step = step->h,
        .restitution = std::max(ba ? ba->restitution : 0.0, bb ? bb->restitution : 0.0),
        .restitution_threshold = settings_.restitution_threshold,
        .baumgarte = settings_.stabilization == Stabilization::baumgarte,
        .baumgarte_alpha = step->baumgarte_alpha};
    row.bias = contact_velocity_bias(c.gap, vn, bias);
    rows_->unilaterals.push_back(row);
    const double mu = std::sqrt(mu_a * mu_b);
    if (mu > 0.0) {
      StepWorkspace& work = workspace();
      detail::FrictionCone cone;
      cone.normal_row = static_cast<int>(rows_->unilaterals.size()) - 1;
      cone.mu = mu;
      if (!work.spare_directions.empty()) {  // a list of the last step's cones, and its memory
        cone.directions = std::move(work.spare_directions.back());
        work.spare_directions.pop_back();
      }
      const Vec3 fallback = settings_.dimension == 2 ? Vec3::UnitZ() : Vec3::UnitY();
      friction_directions(c.n_BA_W, settings_.friction_directions,
                          settings_.friction_direction_offset, fallback, work.friction_directions);
      for (const Vec3& d : work.friction_directions) {
        const ContactRow tangent = contact_row(c.p_WCa, A.p_WB, c.p_WCb, B.p_WB, d);
        detail::RowRef f;
        f.body_a = c.body_a;
        f.body_b = c.body_b;
        f.J_A = tangent.J_A;
        f.J_B = tangent.J_B;
        cone.directions.push_back(f);
      }
      rows_->cones.push_back(std::move(cone));
    }
  }
}

// The joints' rows at the current positions: equality rows with bias equality_bias · g, limit
// rows within limit_margin of their bound with bias limit_bias · g, and (dynamics only) motors.
void World::add_joint_rows(const JointRowSettings& s) {
  StepWorkspace& work = workspace();
  for (int j = 0; j < joint_count(); ++j) {
    const Joint& joint = *joints_[j];
    const Pose A = set_.pose(joint.body_a()), B = set_.pose(joint.body_b());
    ConstraintRows& equality = work.equality_rows(static_cast<std::size_t>(j));
    joint.equality(A, B, equality);
    append_rows(equality, joint.body_a(), joint.body_b(), j, s.equality_bias, rows_->equalities);
    ConstraintRows& limits = work.limit_rows(static_cast<std::size_t>(j));
    joint.limits(A, B, s.limit_margin, limits);
    append_rows(limits, joint.body_a(), joint.body_b(), j, s.limit_bias, rows_->unilaterals);
    if (!s.motors) continue;
    if (auto m = joint.motor(A, B)) {
      detail::MotorConstraint mc;
      mc.body_a = joint.body_a();
      mc.body_b = joint.body_b();
      mc.J_A = m->J_A;
      mc.J_B = m->J_B;
      mc.target = m->target_velocity;
      mc.max_impulse = m->max_impulse;
      mc.owner = j;
      rows_->motors.push_back(mc);
    }
  }
  if (s.motors) {
    add_servo_rows();
    add_joint_dynamics_rows();
  }
}

const StepReport& World::step() {
  try {
    run_step();
  } catch (const std::bad_alloc&) {
    // an island's own (island_batch.cpp) names the island; this one the stage's step
    throw Error(
        fmt::format("t = {:.9g} s: out of memory in a step of {} bodies, {} joints and "
                    "{} contacts",
                    time_, set_.size(), joint_count(), report_.contacts));
  }
  return report_;
}

void World::run_step() {
  StepContext& ctx = workspace().ctx;
  ctx.begin(settings_.time_step, set_.size());
  ctx.baumgarte_alpha = baumgarte_rate(settings_);
  report_ = StepReport{};
  recorded_lcps_.clear();
  step_start_.resize(static_cast<std::size_t>(ctx.n));
  for (int i = 0; i < ctx.n; ++i) step_start_[i] = {set_.pose(i), set_.twist(i)};
  Stopwatch whole(settings_.profile), clock(settings_.profile);

  prescribe_kinematic_twists(ctx);
  compute_forces(ctx);
  time_stage(StepStage::forces, clock.lap());
  clear_keeping_cones(*rows_, workspace().spare_directions);
  // J v⁺ + g/h ≥ 0 for limits: approached, never passed, in one step
  add_joint_rows({.equality_bias = settings_.stabilization == Stabilization::baumgarte
                                       ? ctx.baumgarte_alpha
                                       : 0.0,
                  .limit_margin = settings_.limit_margin,
                  .limit_bias = 1.0 / ctx.h,
                  .motors = true});
  time_stage(StepStage::assembly, clock.lap());
  add_step_contacts(ctx);
  add_kinematic_bias();
  solve_islands(ctx);
  clock.lap();
  integrate_positions(ctx);
  time_stage(StepStage::integration, clock.lap());
  stabilize();
  finish_step(ctx);
  report_.step_seconds = whole.lap();
  add_stage_totals();
}

// 3. contacts at p_t, and their rows; the hybrid pairs in reduced mode leave it (new contacts,
// events) or advance by h, and their own contact is not in the LCP
void World::add_step_contacts(StepContext& ctx) {
  detect_contacts(ctx.contacts);
  Stopwatch clock(settings_.profile);
  if (settings_.hybrid || !hybrid_->pairs().empty()) {
    HybridAccess host(*this, ctx.h);
    hybrid_->before_lcp(host, ctx.contacts, ctx.f_ext);
    time_stage(StepStage::hybrid, clock.lap());
  }
  ctx.first_contact_row = static_cast<int>(rows_->unilaterals.size());
  ctx.first_cone = static_cast<int>(rows_->cones.size());
  add_contact_rows(ctx.contacts, &ctx);
  report_.contacts = static_cast<int>(ctx.contacts.size());
  time_stage(StepStage::assembly, clock.lap());
}

// 4. per island: the mixed LCP for v⁺, and the impulses of joints and contacts. The islands are
// assembled here, solved independently (island_batch.hpp: the small-island path or the general
// one, on the World's threads), and their answers taken in island order.
void World::solve_islands(StepContext& ctx) {
  Stopwatch clock(settings_.profile);
  const double h = ctx.h;
  std::fill(limit_impulse_.begin(), limit_impulse_.end(), 0.0);
  std::fill(motor_impulse_.begin(), motor_impulse_.end(), 0.0);
  for (Actuator& act : actuators_)
    if (act.type() != ActuatorType::effort) act.set_effort(0.0);
  for (auto& imp : joint_impulse_) imp.setZero();
  StepWorkspace& work = workspace();
  std::vector<detail::IslandInput>& islands = work.dynamics.islands;
  // the same split as the last step's: its answer whether joint rows repeat holds again
  const bool same_islands =
      split_islands(set_, *rows_, ctx.couplings, work.dynamics.split, islands);
  const bool look_for_repeats = !same_islands || work.dynamics.repeated_joint_rows;
  work.dynamics.repeated_joint_rows = true;  // until every island has been looked at
  bool repeats = false;
  // the world inertias of compute_forces, for M̃ and the momenta: those of bodies turned since
  // (a hybrid entry places its body) computed again at their orientations now
  for (int i = 0; i < ctx.n; ++i)
    if (ctx.inertia_q[i] != set_.orientation(i).coeffs())
      ctx.inertia_W[i] =
          set_.body(i).fixed ? Mat3::Zero() : set_.body(i).inertia_W(Quat(set_.orientation(i)));
  ctx.v_new = set_.velocities();
  ctx.contact_lambda.assign(ctx.contacts.size(), 0.0);
  ctx.contact_tangent.assign(ctx.contacts.size(), Vec3::Zero());
  std::vector<IslandJob>& jobs = work.dynamics.jobs;
  jobs.resize(islands.size());
  std::vector<int>& sizes = work.sizes;
  sizes.resize(islands.size());
  if (settings_.record_lcps) recorded_lcps_.reserve(islands.size());
  for (std::size_t k = 0; k < islands.size(); ++k) {
    detail::IslandInput& island = islands[k];
    if (look_for_repeats && !drop_repeated_joint_rows(island, true)) repeats = true;
    island_mass(set_, island.bodies, settings_.implicit_forces ? &ctx.gradient.matrix() : nullptr,
                island.M_tilde, &ctx.inertia_W, &island.mass_blocks);
    const auto nb = static_cast<int>(island.bodies.size());
    // r = M v + h f̃   (the plain M multiplies v_t, Cline eq. 2.55)
    island.momentum.resize(6 * nb);
    for (int i = 0; i < nb; ++i) {
      const int b = island.bodies[i];
      island.momentum.segment<6>(6 * i) =
          rigid_mass_block(set_.body(b), ctx.inertia_W[b]) * set_.twist(b) +
          h * ctx.f.segment<6>(6 * b);
    }
    // warm start from the previous step's active set when the island has the same bodies and
    // the same number of complementarity variables (a resting contact set)
    IslandJob& job = jobs[k];
    job.island = &island;
    // the job's warm-start list keeps its memory from step to step
    std::vector<int> warm =
        job.lemke.warm_start ? std::move(*job.lemke.warm_start) : std::vector<int>{};
    job.lemke = settings_.lemke;
    job.lemke.timed = settings_.profile;  // the islands' part times: the profile's alone
    job.small_path = settings_.small_islands;
    job.record = nullptr;
    const int m = island_lcp_size(*rows_, island);
    sizes[k] = m;
    if (auto it = work.warm_start.find(island.bodies);
        it != work.warm_start.end() && it->second.m == m) {
      warm.assign(it->second.active_set.begin(), it->second.active_set.end());
      job.lemke.warm_start = std::move(warm);
    }
    // no warm start on a large island: the frictionless problem first (island_batch.hpp)
    job.lemke.crash_rows = crash_rows(m, static_cast<int>(island.unilaterals.size()),
                                      job.lemke.warm_start.has_value());
    // a pair that left reduced mode at the start of this step: its contact impulse f_c h as the
    // guess for its contact's rows (hybrid/exit_warm_start.hpp), with the stored guess if any
    if (!hybrid_->exit_impulses().empty()) {
      std::vector<int> guess = exit_warm_start(hybrid_->exit_impulses(), *rows_, island,
                                               ctx.contacts, ctx.first_contact_row);
      if (!guess.empty()) {
        if (job.lemke.warm_start)
          guess.insert(guess.end(), job.lemke.warm_start->begin(), job.lemke.warm_start->end());
        std::sort(guess.begin(), guess.end());
        guess.erase(std::unique(guess.begin(), guess.end()), guess.end());
        job.lemke.warm_start = std::move(guess);
      }
    }
    if (settings_.record_lcps && (m > 0 || !island.equalities.empty()))
      job.record = &recorded_lcps_.emplace_back();
  }
  work.dynamics.repeated_joint_rows = repeats;
  time_stage(StepStage::assembly, clock.lap());
  const auto t0 = Clock::now();
  std::vector<detail::IslandOutput>& outputs = work.dynamics.outputs;
  solve_islands_batch(*rows_, jobs, settings_.on_failed_lcp, pool(), outputs);
  resolve_squeezed_islands(jobs, outputs);
  report_.solve_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  clock.lap();
  for (std::size_t k = 0; k < islands.size(); ++k) {
    const detail::IslandInput& island = islands[k];
    const detail::IslandOutput& out = outputs[k];
    add_island_times(out.times);
    if (out.status == lcp::LcpStatus::solved) {
      // in place: an island that keeps its bodies keeps its entry and the entry's memory
      WarmStart& w = work.warm_start.try_emplace(island.bodies).first->second;
      w.m = sizes[k];
      w.active_set.assign(out.active_set.begin(), out.active_set.end());
      w.step = steps_;
    }
    const bool has_lcp = out.lcp_size > 0 || !island.equalities.empty();
    report_.islands += has_lcp ? 1 : 0;
    report_.lcp_size += out.lcp_size;
    report_.pivots += out.pivots;
    totals_.lcp_solves += has_lcp ? 1 : 0;
    for (int e : out.singular_equalities) {
      const int joint = rows_->equalities[island.equalities[e]].owner;
      report_.warn(StepWarning::redundant_joint, joint,
                   fmt::format("joint {}: its rows are redundant or conflicting; joints made "
                               "slightly compliant",
                               pivot::quoted(joints_[joint]->name())));
    }
    if (out.fallback) ++report_.fallbacks;
    if (out.failed_status == lcp::LcpStatus::ray_termination)
      note_ray(island.bodies, "");
    else if (out.fallback && out.velocity.size() > 0)
      note_fallback(island.bodies, "", out);
    if (out.velocity.size() == 0) {
      // even the fallback failed: this island keeps its velocities (documented in docs/step.md)
      ++report_.failures;
      if (report_.status == lcp::LcpStatus::solved) report_.status = out.status;
      report_.warn(StepWarning::island_lcp_failed, island.bodies.front(),
                   "an island's LCP failed: " + out.message);
      continue;
    }
    store_island_impulses(ctx, island, out);
  }
  // only this step's warm starts are read by the next: those of islands not solved now go
  std::erase_if(work.warm_start, [this](const auto& e) { return e.second.step != steps_; });
  contacts_.resize(ctx.contacts.size());
  for (std::size_t c = 0; c < ctx.contacts.size(); ++c)
    contacts_[c] = ContactInfo{ctx.contacts[c], ctx.contact_lambda[c], ctx.contact_tangent[c]};
  time_stage(StepStage::integration, clock.lap());
}

namespace {

// true when no body pair of the island carries more joint rows than its 6 or 12 coordinates, so
// that drop_dependent_equalities would drop nothing: the rows come in runs on one pair (a
// joint's rows are consecutive), each run has at most 6 rows and no two runs share a pair (a
// fixed body counted as the world, as there); false when that is not shown (more than 16 runs)
bool no_repeated_pairs(const RigidBodySet& set, const ConstraintSet& rows,
                       const IslandInput& island) {
  auto dynamic = [&set](int b) { return b >= 0 && !set.body(b).fixed ? b : -1; };
  std::array<std::pair<int, int>, 16> pairs;
  std::size_t runs = 0;
  int run_rows = 0;
  for (const int e : island.equalities) {
    const EqualityRow& r = rows.equalities[static_cast<std::size_t>(e)];
    const int a = dynamic(r.body_a), b = dynamic(r.body_b);
    const std::pair<int, int> pair{std::min(a, b), std::max(a, b)};
    if (runs > 0 && pairs[runs - 1] == pair) {
      if (++run_rows > 6) return false;
      continue;
    }
    for (std::size_t k = 0; k < runs; ++k)
      if (pairs[k] == pair) return false;
    if (runs == pairs.size()) return false;
    pairs[runs++] = pair;
    run_rows = 1;
  }
  return true;
}

}  // namespace

bool World::drop_repeated_joint_rows(detail::IslandInput& island, bool report) {
  if (island.equalities.size() <= 6) return true;  // no pair has fewer than 6 coordinates
  if (no_repeated_pairs(set_, *rows_, island)) return true;
  for (const DroppedEqualities& d : drop_dependent_equalities(set_, *rows_, island)) {
    if (!report) continue;
    const int joint = d.first_joint;
    report_.warn(
        StepWarning::redundant_joint, joint,
        fmt::format("joint {}: {} joint rows between the same bodies on their {} "
                    "coordinates: the {} dependent ones (this joint's first) are left out",
                    pivot::quoted(joints_[joint]->name()), d.rows, d.coordinates, d.rows - d.kept));
  }
  return false;
}

// an island's solve times into the step's stages (the dynamics islands)
void World::add_island_times(const detail::IslandTimes& t) {
  time_stage(StepStage::assembly, t.assembly);
  time_stage(StepStage::reduction, t.reduction);
  time_stage(StepStage::lemke, t.lemke);
  time_stage(StepStage::verification, t.verification);
}

void World::time_stage(StepStage stage, double seconds) {
  if (settings_.profile) report_.stages.add(stage, seconds);
}

StepWorkspace& World::workspace() {
  if (!work_) work_ = std::make_unique<StepWorkspace>();
  return *work_;
}

// the World's threads (WorldSettings::threads), started at the first step that has use for
// them; none when one thread is asked for
ThreadPool* World::pool() {
  const int threads = resolve_thread_count(settings_.threads);
  if (threads < 2) return nullptr;
  if (!pool_) pool_ = std::make_unique<ThreadPool>(threads);
  return pool_.get();
}

// an island's answer: its bodies' v⁺, and the impulses of its joints and contacts
void World::store_island_impulses(StepContext& ctx, const detail::IslandInput& island,
                                  const detail::IslandOutput& out) {
  const auto nb = static_cast<int>(island.bodies.size());
  for (int i = 0; i < nb; ++i)
    ctx.v_new.segment<6>(6 * island.bodies[i]) = out.velocity.segment<6>(6 * i);
  for (std::size_t e = 0; e < island.equalities.size(); ++e) {
    const detail::EqualityRow& row = rows_->equalities[island.equalities[e]];
    joint_impulse_[row.owner](row.owner_row) = out.lambda_eq(static_cast<Eigen::Index>(e));
  }
  for (std::size_t u = 0; u < island.unilaterals.size(); ++u) {
    const int global = island.unilaterals[u];
    const double lambda = out.lambda_uni(static_cast<Eigen::Index>(u));
    if (global >= ctx.first_contact_row)
      ctx.contact_lambda[global - ctx.first_contact_row] = lambda;
    else
      limit_impulse_[rows_->unilaterals[global].owner] += lambda;
  }
  for (std::size_t c = 0; c < island.cones.size(); ++c) {
    const detail::FrictionCone& cone = rows_->cones[island.cones[c]];
    if (island.cones[c] < ctx.first_cone) continue;
    Vec3 t = Vec3::Zero();
    for (std::size_t j = 0; j < cone.directions.size(); ++j)
      t += out.lambda_cone[c](static_cast<Eigen::Index>(j)) *
           cone.directions[j].J_A.tail<3>().transpose();
    ctx.contact_tangent[cone.normal_row - ctx.first_contact_row] = t;
  }
  for (std::size_t m = 0; m < island.motors.size(); ++m) {
    const detail::MotorConstraint& mc = rows_->motors[island.motors[m]];
    const double lambda = out.lambda_motor(static_cast<Eigen::Index>(m));
    if (mc.passive) continue;
    if (mc.actuator >= 0)
      actuators_[mc.actuator].set_effort(lambda / ctx.h);
    else
      motor_impulse_[mc.owner] = lambda;
  }
}

// 5. positions from v⁺: x += h v⁺, q ← normalize(exp(h ω⁺) q); reduced pairs take the pose
// and twist of their own advance
// (and the pairs that separated inside the step, flown free from the separation instant)
void World::integrate_positions(StepContext& ctx) {
  for (const auto* list : {&hybrid_->pairs(), &hybrid_->departures()})
    for (const ReducedPair& pair : *list) {
      ctx.v_new.segment<6>(6 * pair.body) = pair.next_twist;
      if (pair.partner_free) ctx.v_new.segment<6>(6 * pair.partner) = pair.next_twist2;
    }
  for (int i = 0; i < ctx.n; ++i) {
    if (set_.body(i).fixed) continue;
    if (is_reduced(i)) continue;  // set below from the reduced state
    set_.twist(i) = ctx.v_new.segment<6>(6 * i);
    set_.set_pose(i, integrate(set_.pose(i), ctx.h * ctx.v_new.segment<6>(6 * i)));
  }
  place_kinematic_bodies();
  for (const auto* list : {&hybrid_->pairs(), &hybrid_->departures()})
    for (const ReducedPair& pair : *list) {
      set_.set_pose(pair.body, pair.next_pose);
      set_.twist(pair.body) = pair.next_twist;
      if (!pair.partner_free) continue;
      set_.set_pose(pair.partner, pair.next_pose2);
      set_.twist(pair.partner) = pair.next_twist2;
    }
  hybrid_->end_departures();  // ordinary bodies from here on (post-stabilization included)
}

// 6. stabilization at p(t+h), with contacts detected anew so their gaps are current
void World::stabilize() {
  const bool post = settings_.stabilization == Stabilization::post;
  // (a post-step's first pass measures it on its own rows: post_stabilization.cpp)
  if (!post || settings_.max_post_steps <= 0) report_.joint_error_before = max_joint_error();
  std::vector<Contact>& contacts_at_end = workspace().contacts_at_end;
  detect_contacts(contacts_at_end);
  report_.penetration_before = deepest_penetration(contacts_at_end);
  bool moved = false;
  if (post) {
    // the post-step's own time, without the collision passes it makes (counted there)
    const double collision_before =
        report_.stages[StepStage::broad_phase] + report_.stages[StepStage::narrow_phase];
    Stopwatch clock(settings_.profile);
    moved = post_stabilize(contacts_at_end);
    const double collision = report_.stages[StepStage::broad_phase] +
                             report_.stages[StepStage::narrow_phase] - collision_before;
    time_stage(StepStage::post_stabilization, std::max(0.0, clock.lap() - collision));
  }
  report_.joint_error_after = max_joint_error();
  // a post-step that moved no body leaves the contacts detected before it: no third detection
  report_.penetration_after = moved ? max_penetration() : report_.penetration_before;
}

// 7, after the hybrid entries: no non-finite number stays in the state. A body whose pose or
// twist overflowed (a stiff system far beyond its stable step, forces that grew without bound)
// is put back where it started the step, with its start-of-step twist, and the step reports the
// failure: the user sees it (StepWarning::nonfinite_state), and the state stays usable for
// set_state or a smaller time step.
void World::restore_nonfinite_bodies(const StepContext& ctx) {
  for (int i = 0; i < set_.size(); ++i) {
    const Pose p = set_.pose(i);
    if (p.all_finite() && set_.twist(i).allFinite()) continue;
    const auto& pairs = hybrid_->pairs();
    for (std::size_t k = pairs.size(); k-- > 0;)
      if (pairs[k].body == i || pairs[k].partner == i) {
        HybridAccess host(*this, ctx.h);
        hybrid_->exit(host, k, "state_not_finite");
      }
    set_.set_pose(i, step_start_[i].first);
    set_.twist(i) = step_start_[i].second;
    ++report_.failures;
    report_.warn(StepWarning::nonfinite_state, i,
                 fmt::format("body {}: its state was not finite after the step; it keeps its "
                             "start-of-step pose and twist (time step {} s too large for "
                             "the forces or constraints on it?)",
                             pivot::quoted(set_.body(i).name), ctx.h));
  }
  if (report_.warning_count(StepWarning::nonfinite_state) > 0) {
    report_.joint_error_after = max_joint_error();
  }
}

// 7. the clock, hybrid entries at the end of the step, and the totals
void World::finish_step(const StepContext& ctx) {
  time_ += ctx.h;
  ++steps_;
  report_.time = time_;
  Stopwatch clock(settings_.profile);
  HybridAccess host(*this, ctx.h);
  hybrid_->after_step(host);
  if (settings_.hybrid || !hybrid_->pairs().empty()) time_stage(StepStage::hybrid, clock.lap());
  restore_nonfinite_bodies(ctx);  // last: after the hybrid entries' projections too
  if (settings_.dimension == 2) project_on_plane();
  report_.reduced_pairs = static_cast<int>(hybrid_->pairs().size());
  report_.switches = hybrid_->take_switches();
  totals_.steps = steps_;
  totals_.pivots += report_.pivots;
  totals_.failures += report_.failures;
  totals_.fallbacks += report_.fallbacks;
  totals_.rays += report_.rays;
  for (int k = 0; k < kReducedStepBins; ++k) totals_.reduced_steps[k] += report_.reduced_steps[k];
  totals_.solve_seconds += report_.solve_seconds;
  for (std::size_t k = 0; k < kStepWarningKinds; ++k)
    totals_.warnings[k] += report_.warning_counts[k];
}

// the step's stage times into the run's totals (WorldSettings::profile)
void World::add_stage_totals() {
  if (!settings_.profile) return;
  totals_.step_seconds += report_.step_seconds;
  for (std::size_t k = 0; k < kStepStages; ++k) {
    if (!report_.stages.ran[k]) continue;
    ++totals_.stage_steps[k];
    totals_.stage_seconds[k] += report_.stages.seconds[k];
  }
}

}  // namespace pivot
