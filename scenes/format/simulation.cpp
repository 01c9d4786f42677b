// Simulation: the run loop, its checks and its tallies (simulation.hpp); summary_json is in
// run_summary.cpp.

#include "pivot/scenes/simulation.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "pivot/scenes/run_length.hpp"

namespace pivot {
namespace {

// distinct warnings remembered: past this many (kind, subject) pairs every warning is counted
constexpr std::size_t kMaxTrackedWarnings = 1000;

bool state_is_finite(const World& world) {
  return world.bodies().positions().allFinite() && world.bodies().velocities().allFinite();
}

/// a hybrid exit's reason up to its first ':', "new contact" for any new contact
std::string exit_kind(const std::string& reason) {
  std::string kind = reason.substr(0, reason.find(':'));
  if (kind.starts_with("new contact")) kind = "new contact";
  return kind;
}

}  // namespace

Energy energy(const World& world) {
  return {world.kinetic_energy(), world.potential_energy()};
}

double run_time(const World& world) {
  const auto& stretches = world.time_step_history();
  if (stretches.empty()) return step_time(world.step_count(), world.settings().time_step);
  double t = 0.0;
  for (std::size_t i = 0; i < stretches.size(); ++i) {
    const long end = i + 1 < stretches.size() ? stretches[i + 1].first : world.step_count();
    t += step_time(end - stretches[i].first, stretches[i].second);
  }
  return t;
}

Simulation::Simulation(const Scene& scene)
    : world_(build_world(scene)),
      total_steps_(steps_for_duration(scene.settings.duration, scene.settings.world.time_step)),
      output_rate_hz_(scene.settings.output_rate_hz),
      sensors_(build_sensors(scene)) {
  summary_.scene = scene.name;
  summary_.scene_file = scene.source;
  summary_.initial_energy = energy(world_);
}

void Simulation::set_total_steps(long steps) {
  if (steps < 1) throw Error(fmt::format("a run needs at least one step (got {})", steps));
  total_steps_ = steps;
}

bool Simulation::check(const StepReport& r, const Energy& e, double t) {
  // no output holds a NaN or an infinity (docs/cli.md)
  bool finite = state_is_finite(world_);
  for (const double v : {t, e.kinetic, e.potential, e.total(), r.solve_seconds, r.joint_error_after,
                         r.penetration_after})
    finite = finite && std::isfinite(v);
  if (finite) return true;
  summary_.status = RunStatus::not_finite;
  summary_.failure =
      fmt::format("the state or its metrics became non-finite at step {} (t = {:.6g} s)",
                  world_.step_count(), t);
  return false;
}

void Simulation::tally(const StepReport& r) {
  RunSummary& s = summary_;
  ++s.steps;
  s.contacts += r.contacts;
  if (r.failures > 0) {
    ++s.failed_steps;
    s.failures += r.failures;
  }
  s.max_joint_error = std::max(s.max_joint_error, r.joint_error_after);
  s.max_penetration = std::max(s.max_penetration, r.penetration_after);
  if (r.reduced_pairs > 0) ++s.reduced_steps;
  s.max_reduced_pairs = std::max(s.max_reduced_pairs, r.reduced_pairs);
  for (const SwitchEvent& e : r.switches) {
    if (e.entered) {
      s.entry_position_change = std::max(s.entry_position_change, e.position_change);
      s.entry_rotation_change = std::max(s.entry_rotation_change, e.rotation_change);
      s.entry_twist_change = std::max(s.entry_twist_change, e.twist_change);
      s.entry_energy_change = std::max(s.entry_energy_change, std::abs(e.energy_change));
      continue;
    }
    const std::string kind = exit_kind(e.reason);
    auto it = std::find_if(s.exit_reasons.begin(), s.exit_reasons.end(),
                           [&](const auto& entry) { return entry.first == kind; });
    if (it == s.exit_reasons.end())
      s.exit_reasons.emplace_back(kind, 1);
    else
      ++it->second;
  }
  for (const StepWarningRecord& w : r.warnings) {
    // one per kind and subject, while the set stays small; beyond that every one is counted
    if (seen_warnings_.size() < kMaxTrackedWarnings &&
        !seen_warnings_.insert({w.kind, w.subject}).second)
      continue;
    if (static_cast<int>(s.warnings.size()) < kMaxSummaryWarnings)
      s.warnings.push_back(w.message);
    else
      ++s.more_warnings;
  }
}

bool Simulation::observe_sensors() {
  sensors_observed_ = true;
  sensors_sampled_ = !sensors_.empty() && sensors_.observe(world_);
  return sensors_sampled_;
}

const StepReport& Simulation::step() {
  if (!sensors_observed_) observe_sensors();
  if (controller_) {
    ControlContext context(world_, sensors_);
    controller_(context);
  }
  const StepReport& r = world_.step();
  sensors_sampled_ = false;
  if (check(r, energy(world_), run_time(world_))) {
    tally(r);
    observe_sensors();
  }
  return r;
}

const RunSummary& Simulation::run(RunSink* sink, const RunHooks& hooks) {
  using Clock = std::chrono::steady_clock;
  if (summary_.status != RunStatus::running || (summary_.steps > 0 && !resumed_))
    throw Error("Simulation::run: a Simulation runs once, from its start or its checkpoint");
  if (!resumed_) {
    if (!state_is_finite(world_)) {
      summary_.status = RunStatus::not_finite;
      summary_.failure = "the initial state is not finite";
      return finish();
    }
    summary_.initial_energy = energy(world_);
    if (sink) sink->frame(world_, run_time(world_));
    if (observe_sensors() && sink) sink->sensors(sensors_, run_time(world_));
    position_ = RunPosition{};
  }
  resumed_ = false;
  const double h = world_.settings().time_step;
  RunPosition& at = position_;  // the next output time, the steps taken
  if (hooks.stop) world_.set_interrupt_check(hooks.stop);
  const auto start = Clock::now();
  try {
    while (at.steps < total_steps_) {
      if (hooks.before_step) hooks.before_step(at.steps);
      const long k = ++at.steps;
      const std::size_t kept = summary_.warnings.size();
      const StepReport& r = step();
      if (summary_.status == RunStatus::not_finite) break;
      const double t = run_time(world_);
      if (sink) {
        sink->step(world_, r, energy(world_), t);
        for (std::size_t i = kept; i < summary_.warnings.size(); ++i)
          sink->warning(summary_.warnings[i], t);
        if (sensors_sampled_) sink->sensors(sensors_, t);
      }
      // frames at the first step at or after each output time j / rate (decided on k h, not on
      // the accumulated time, so a frame never slips by one step through rounding)
      at.last_written = false;
      const double steps_time = static_cast<double>(k) * h;
      if (output_rate_hz_ > 0.0 &&
          steps_time * output_rate_hz_ >= static_cast<double>(at.next_frame) - 1e-9) {
        if (sink) sink->frame(world_, t);
        at.last_written = true;
        at.next_frame = static_cast<long>(std::floor(steps_time * output_rate_hz_ + 1e-9)) + 1;
      }
      if (hooks.progress) hooks.progress(k, total_steps_, t);
      if (hooks.stop && hooks.stop()) {
        summary_.status = RunStatus::stopped;
        break;
      }
    }
  } catch (...) {
    world_.set_interrupt_check({});
    throw;
  }
  summary_.wall_time_s = std::chrono::duration<double>(Clock::now() - start).count();
  world_.set_interrupt_check({});
  if (summary_.status == RunStatus::not_finite) return finish();
  if (summary_.status == RunStatus::running) summary_.status = RunStatus::finished;
  if (hooks.before_step) hooks.before_step(at.steps);
  if (!at.last_written && sink) sink->frame(world_, run_time(world_));
  return finish();
}

const RunSummary& Simulation::finish() {
  RunSummary& s = summary_;
  s.dt = world_.settings().time_step;
  s.simulated_time_s = run_time(world_);
  s.final_state_hash = state_hash(world_);
  s.final_energy = energy(world_);
  s.totals = world_.totals();
  s.final_reduced_pairs = world_.last_report().reduced_pairs;
  s.final_state.clear();
  for (int i = 0; i < world_.body_count(); ++i) {
    const Pose p = world_.pose(i);
    const Twist V = world_.twist(i);
    s.final_state.emplace_back(
        world_.bodies().body(i).name,
        std::array<double, 13>{p.p_WB.x(), p.p_WB.y(), p.p_WB.z(), p.q_WB.w(), p.q_WB.x(),
                               p.q_WB.y(), p.q_WB.z(), V.v().x(), V.v().y(), V.v().z(), V.w().x(),
                               V.w().y(), V.w().z()});
  }
  return s;
}

}  // namespace pivot
