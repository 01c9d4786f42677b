// World::save_state and World::restore_state (docs/checkpoints.md). The layout:
//
//   "PIVOTCKP" | u64 format version | u64 build fingerprint | u64 structure fingerprint |
//   u64 payload bytes | payload | u64 checksum (FNV-1a 64 of every byte before it)
//
// payload: time, steps, h, hybrid on, the time-step history, 13 doubles per body (p, q, ω, v as
// stored), the warm starts by island, the hybrid switch's state (its reduced pairs included:
// hybrid/hybrid_checkpoint.cpp), per actuator its target keys and last effort, the run totals.
// Integers are 64-bit little-endian, doubles their IEEE-754 bits: a restored value is the saved one
// bit for bit. restore_state parses everything before it changes the World (all or nothing).

#include <fmt/format.h>

#include "pivot/engine/checkpoint_bytes.hpp"
#include "pivot/engine/hybrid/hybrid_checkpoint.hpp"
#include "pivot/engine/step_workspace.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/version.hpp"

namespace pivot {

namespace {

constexpr std::string_view kMagic = "PIVOTCKP";
constexpr std::uint64_t kFormatVersion = 2;

/// the build's fingerprint: the library version, the compiler and the format's platform
/// assumptions; a checkpoint of another build is refused (its steps may round differently)
std::uint64_t build_fingerprint() {
  detail::ByteWriter w;
  w.text(kVersion);
#ifdef __VERSION__
  w.text(__VERSION__);
#endif
  w.u64(sizeof(long));
  w.u64(kFormatVersion);
  return detail::fnv1a(w.str());
}

void write_ints(detail::ByteWriter& w, const std::vector<int>& v) {
  w.u64(v.size());
  for (const int x : v) w.i64(x);
}

std::vector<int> read_ints(detail::ByteReader& r, const char* what) {
  std::vector<int> v(r.count(what, 8));
  for (int& x : v) x = static_cast<int>(r.i64(what));
  return v;
}

void write_totals(detail::ByteWriter& w, const RunTotals& t) {
  for (const long x : {t.steps, t.lcp_solves, t.pivots, t.failures, t.fallbacks, t.rays,
                       t.reduced_entries, t.reduced_exits})
    w.i64(x);
  w.f64(t.solve_seconds);
  w.f64(t.step_seconds);
  for (const long x : t.reduced_steps) w.i64(x);
  for (const long x : t.warnings) w.i64(x);
  for (const long x : t.stage_steps) w.i64(x);
  for (const double x : t.stage_seconds) w.f64(x);
}

RunTotals read_totals(detail::ByteReader& r) {
  RunTotals t;
  for (long* x : {&t.steps, &t.lcp_solves, &t.pivots, &t.failures, &t.fallbacks, &t.rays,
                  &t.reduced_entries, &t.reduced_exits})
    *x = r.i64("run totals");
  t.solve_seconds = r.f64("run totals");
  t.step_seconds = r.f64("run totals");
  for (long& x : t.reduced_steps) x = r.i64("run totals");
  for (long& x : t.warnings) x = r.i64("run totals");
  for (long& x : t.stage_steps) x = r.i64("run totals");
  for (double& x : t.stage_seconds) x = r.f64("run totals");
  return t;
}

}  // namespace

std::uint64_t World::structure_fingerprint() const {
  // what the model is made of; the time step and the hybrid switch are state (they change
  // between steps) and the thread count does not change results (docs/step.md §3)
  detail::ByteWriter w;
  const WorldSettings& s = settings_;
  w.i64(s.dimension);
  for (int k = 0; k < 3; ++k) w.f64(s.gravity[k]);
  w.i64(static_cast<int>(s.stabilization));
  for (const double x : {s.baumgarte_alpha, s.post_step_cap, s.limit_margin, s.contact_margin,
                         s.restitution_threshold, s.friction_direction_offset,
                         s.hybrid_point_tolerance, s.hybrid_max_normal_speed})
    w.f64(x);
  for (const int x : {s.max_post_steps, s.friction_directions, s.hybrid_entry_steps,
                      static_cast<int>(s.implicit_forces), static_cast<int>(s.small_islands)})
    w.i64(x);
  w.u64(static_cast<std::uint64_t>(set_.size()));
  for (int i = 0; i < set_.size(); ++i) {
    const RigidBody& b = set_.body(i);
    w.text(b.name);
    w.i64(b.fixed ? 1 : 0);
    w.f64(b.mass);
    for (int k = 0; k < 9; ++k) w.f64(b.inertia_B(k));
    w.f64(b.friction);
    w.f64(b.restitution);
    for (int k = 0; k < 3; ++k) w.f64(b.shape_offset[k]);
    w.u64(b.collision_group);
    w.u64(b.collision_mask);
    w.i64((b.shape ? 1 : 0) | (b.smooth_surface ? 2 : 0) | (b.kinematic ? 4 : 0));
  }
  w.u64(joints_.size());
  for (const auto& j : joints_) {
    w.i64(static_cast<int>(j->type()));
    w.text(j->name());
    w.i64(j->body_a());
    w.i64(j->body_b());
  }
  w.u64(forces_.size());
  w.u64(actuators_.size());
  for (const Actuator& a : actuators_) {
    w.text(a.name());
    w.i64(a.joint());
    w.i64(static_cast<int>(a.type()));
    for (const double x : {a.settings().kp, a.settings().kd, a.settings().effort_limit}) w.f64(x);
  }
  return detail::fnv1a(w.str());
}

std::string World::save_state() const {
  detail::ByteWriter p;
  p.f64(time_);
  p.i64(steps_);
  p.f64(settings_.time_step);
  p.i64(settings_.hybrid ? 1 : 0);
  p.u64(time_step_history_.size());
  for (const auto& [step, h] : time_step_history_) {
    p.i64(step);
    p.f64(h);
  }
  const Eigen::VectorXd& pos = set_.positions();
  const Eigen::VectorXd& vel = set_.velocities();
  p.u64(static_cast<std::uint64_t>(set_.size()));
  for (Eigen::Index k = 0; k < pos.size(); ++k) p.f64(pos[k]);
  for (Eigen::Index k = 0; k < vel.size(); ++k) p.f64(vel[k]);
  if (work_) {
    p.u64(work_->warm_start.size());
    for (const auto& [bodies, ws] : work_->warm_start) {
      write_ints(p, bodies);
      p.i64(ws.m);
      write_ints(p, ws.active_set);
      p.i64(ws.step);
    }
  } else {
    p.u64(0);
  }
  detail::write_hybrid_state(p, hybrid_->state());
  for (const Actuator& a : actuators_) {
    p.u64(a.settings().keys.size());
    for (const auto& [t, value] : a.settings().keys) {
      p.f64(t);
      p.f64(value);
    }
    p.f64(a.effort());
  }
  write_totals(p, totals_);

  detail::ByteWriter out;
  out.bytes(kMagic);
  out.u64(kFormatVersion);
  out.u64(build_fingerprint());
  out.u64(structure_fingerprint());
  out.u64(p.str().size());
  out.bytes(p.str());
  out.u64(detail::fnv1a(out.str()));
  return std::move(out.str());
}

void World::restore_state(std::string_view bytes) {
  detail::ByteReader r(bytes);
  if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic)
    throw Error("checkpoint: not a Pivot checkpoint (no PIVOTCKP magic at the start)");
  (void)r.bytes(kMagic.size(), "the magic");
  const std::uint64_t version = r.u64("the format version");
  if (version != kFormatVersion)
    throw Error(fmt::format("checkpoint: format version {} (this build reads version {})", version,
                            kFormatVersion));
  if (bytes.size() < 8 + 8 * 5) throw Error("checkpoint: truncated (no room for its header)");
  const std::uint64_t stored_sum = [&] {
    detail::ByteReader tail(bytes.substr(bytes.size() - 8));
    return tail.u64("the checksum");
  }();
  if (detail::fnv1a(bytes.substr(0, bytes.size() - 8)) != stored_sum)
    throw Error("checkpoint: truncated or corrupt (checksum mismatch)");
  if (r.u64("the build fingerprint") != build_fingerprint())
    throw Error(fmt::format(
        "checkpoint: written by another build of Pivot (this is {}); its steps may round "
        "differently, so it is not restored",
        kVersion));
  if (r.u64("the structure fingerprint") != structure_fingerprint())
    throw Error(fmt::format(
        "checkpoint: of a world of another structure (bodies, shapes, joints, forces or "
        "settings differ from this world's {} bodies and {} joints)",
        set_.size(), joints_.size()));
  const std::uint64_t payload_size = r.u64("the payload size");
  if (payload_size != r.remaining() - 8)
    throw Error("checkpoint: truncated or corrupt (payload size mismatch)");

  const double time = r.f64("the time");
  const long steps = r.i64("the step count");
  const double h = r.f64("the time step");
  const bool hybrid = r.i64("the hybrid switch") != 0;
  std::vector<std::pair<long, double>> history(r.count("the time-step history", 16));
  for (auto& [step, dt] : history) {
    step = r.i64("the time-step history");
    dt = r.f64("the time-step history");
  }
  if (r.u64("the body count") != static_cast<std::uint64_t>(set_.size()))
    throw Error("checkpoint: of a world with another body count");
  Eigen::VectorXd pos(set_.positions().size()), vel(set_.velocities().size());
  for (Eigen::Index k = 0; k < pos.size(); ++k) pos[k] = r.f64("the body poses");
  for (Eigen::Index k = 0; k < vel.size(); ++k) vel[k] = r.f64("the body twists");
  if (!pos.allFinite() || !vel.allFinite() || !(h > 0.0) || !std::isfinite(h) ||
      !std::isfinite(time))
    throw Error("checkpoint: corrupt (a non-finite time, time step, pose or twist)");
  std::map<std::vector<int>, detail::WarmStart> warm;
  const std::size_t n_warm = r.count("the warm starts", 32);
  for (std::size_t i = 0; i < n_warm; ++i) {
    std::vector<int> bodies = read_ints(r, "a warm start's bodies");
    detail::WarmStart ws;
    ws.m = static_cast<int>(r.i64("a warm start"));
    ws.active_set = read_ints(r, "a warm start's active set");
    ws.step = r.i64("a warm start");
    warm.emplace(std::move(bodies), std::move(ws));
  }
  detail::HybridSwitch::State hybrid_state = detail::read_hybrid_state(r, set_);
  // the actuators' targets (set_target, set_keys) and last efforts, checked as add_actuator
  // checks them, on copies
  std::vector<Actuator> actuators = actuators_;
  for (Actuator& a : actuators) {
    std::vector<std::pair<double, double>> keys(r.count("an actuator's keys", 16));
    for (auto& [t, value] : keys) {
      t = r.f64("an actuator's keys");
      value = r.f64("an actuator's keys");
    }
    try {
      a.set_keys(std::move(keys));
    } catch (const Error& e) {
      throw Error(fmt::format("checkpoint: corrupt ({})", e.what()));
    }
    const double effort = r.f64("an actuator's effort");
    if (!std::isfinite(effort)) throw Error("checkpoint: corrupt (a non-finite actuator effort)");
    a.set_effort(effort);
  }
  const RunTotals totals = read_totals(r);
  if (r.remaining() != 8) throw Error("checkpoint: corrupt (bytes left after the payload)");

  // all parsed: commit
  if (settings_.time_step != h) {
    for (const auto& f : forces_) f->time_step_changed(settings_.time_step, h);
  }
  settings_.time_step = h;
  settings_.hybrid = hybrid;
  time_ = time;
  steps_ = steps;
  time_step_history_ = std::move(history);
  for (int i = 0; i < set_.size(); ++i) {
    for (int k = 0; k < 3; ++k) set_.position(i)[k] = pos[7 * i + k];
    set_.orientation(i).coeffs() = pos.segment<4>(7 * i + 3);
    set_.twist(i) = vel.segment<6>(6 * i);
  }
  workspace().warm_start = std::move(warm);
  hybrid_->set_state(std::move(hybrid_state));
  actuators_ = std::move(actuators);
  totals_ = totals;
  contacts_.clear();
  report_ = StepReport{};
  // the last step's count of reduced pairs, which a run's summary reads at its end
  report_.reduced_pairs = static_cast<int>(hybrid_->pairs().size());
  recorded_lcps_.clear();
  for (auto& imp : joint_impulse_) imp.setZero();
  std::fill(limit_impulse_.begin(), limit_impulse_.end(), 0.0);
  std::fill(motor_impulse_.begin(), motor_impulse_.end(), 0.0);
}

}  // namespace pivot
