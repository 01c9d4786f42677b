// Simulation::save_checkpoint and Simulation::restore_checkpoint (simulation.hpp,
// docs/checkpoints.md "Runs"): a run between two steps is its World's checkpoint
// (World::save_state) plus what the run loop carries, so that a run continued from it writes
// the frames, metrics and summary tallies of a run never interrupted. The layout, in the bytes
// of the World's checkpoint (checkpoint_bytes.hpp):
//
//   "PIVOTSIM" | u64 format version | the World's checkpoint (u64 length, bytes) |
//   the sensors' state (SensorSet::save_state: u64 length, bytes) |
//   u64 total steps | the position (steps, next frame, last frame written) |
//   the summary's tallies | the warnings already seen | u64 checksum (FNV-1a 64 of the rest)

#include <fmt/format.h>

#include <cmath>

#include "pivot/engine/checkpoint_bytes.hpp"
#include "pivot/scenes/simulation.hpp"

namespace pivot {

namespace {

constexpr std::string_view kMagic = "PIVOTSIM";
constexpr std::uint64_t kFormatVersion = 2;

}  // namespace

std::string Simulation::save_checkpoint() const {
  if (summary_.status == RunStatus::not_finite)
    throw Error("checkpoint: a run whose state is not finite is not saved");
  detail::ByteWriter w;
  w.bytes(kMagic);
  w.u64(kFormatVersion);
  w.text(world_.save_state());
  w.text(sensors_.save_state());
  w.i64(total_steps_);
  w.i64(position_.steps);
  w.i64(position_.next_frame);
  w.i64(position_.last_written ? 1 : 0);
  const RunSummary& s = summary_;
  for (const long x : {s.steps, s.contacts, s.failed_steps, s.failures, s.reduced_steps,
                       static_cast<long>(s.max_reduced_pairs), s.more_warnings})
    w.i64(x);
  for (const double x : {s.initial_energy.kinetic, s.initial_energy.potential, s.max_joint_error,
                         s.max_penetration, s.entry_position_change, s.entry_rotation_change,
                         s.entry_twist_change, s.entry_energy_change})
    w.f64(x);
  w.u64(s.exit_reasons.size());
  for (const auto& [kind, count] : s.exit_reasons) {
    w.text(kind);
    w.i64(count);
  }
  w.u64(s.warnings.size());
  for (const std::string& message : s.warnings) w.text(message);
  w.u64(seen_warnings_.size());
  for (const auto& [kind, subject] : seen_warnings_) {
    w.i64(static_cast<int>(kind));
    w.i64(subject);
  }
  w.u64(detail::fnv1a(w.str()));
  return std::move(w.str());
}

void Simulation::restore_checkpoint(std::string_view bytes) {
  if (summary_.steps > 0 || summary_.status != RunStatus::running)
    throw Error("Simulation::restore_checkpoint: the Simulation has already run");
  if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic)
    throw Error("checkpoint: not a Pivot run checkpoint (no PIVOTSIM magic at the start)");
  detail::ByteReader r(bytes);
  (void)r.bytes(kMagic.size(), "the magic");
  const std::uint64_t version = r.u64("the format version");
  if (version != kFormatVersion)
    throw Error(fmt::format("checkpoint: run format version {} (this build reads version {})",
                            version, kFormatVersion));
  if (bytes.size() < 8 + 8 + 8 + 8 ||
      detail::fnv1a(bytes.substr(0, bytes.size() - 8)) !=
          detail::ByteReader(bytes.substr(bytes.size() - 8)).u64("the checksum"))
    throw Error("checkpoint: truncated or corrupt (checksum mismatch)");
  const std::string world_bytes = r.text("the world's checkpoint");
  const std::string sensor_bytes = r.text("the sensors' state");
  const long total = r.i64("the run's length");
  RunPosition at;
  at.steps = r.i64("the run's position");
  at.next_frame = r.i64("the run's position");
  at.last_written = r.i64("the run's position") != 0;
  if (total < 1 || at.steps < 0 || at.next_frame < 0)
    throw Error("checkpoint: corrupt (a negative run length or position)");
  RunSummary s = summary_;
  for (long* x : {&s.steps, &s.contacts, &s.failed_steps, &s.failures, &s.reduced_steps})
    *x = r.i64("the summary");
  s.max_reduced_pairs = static_cast<int>(r.i64("the summary"));
  s.more_warnings = r.i64("the summary");
  for (double* x : {&s.initial_energy.kinetic, &s.initial_energy.potential, &s.max_joint_error,
                    &s.max_penetration, &s.entry_position_change, &s.entry_rotation_change,
                    &s.entry_twist_change, &s.entry_energy_change})
    *x = r.f64("the summary");
  s.exit_reasons.resize(r.count("the exit reasons", 16));
  for (auto& [kind, count] : s.exit_reasons) {
    kind = r.text("an exit reason");
    count = r.i64("an exit reason");
  }
  s.warnings.resize(r.count("the warnings", 8));
  for (std::string& message : s.warnings) message = r.text("a warning");
  std::set<std::pair<StepWarning, int>> seen;
  const std::size_t n_seen = r.count("the warnings seen", 16);
  for (std::size_t i = 0; i < n_seen; ++i) {
    const std::int64_t kind = r.i64("a warning seen");
    const std::int64_t subject = r.i64("a warning seen");
    if (kind < 0 || kind >= static_cast<std::int64_t>(kStepWarningKinds))
      throw Error(fmt::format("checkpoint: corrupt (warning kind {})", kind));
    seen.emplace(static_cast<StepWarning>(kind), static_cast<int>(subject));
  }
  if (r.remaining() != 8) throw Error("checkpoint: corrupt (bytes left after the run's state)");
  if (s.steps != at.steps)
    throw Error("checkpoint: corrupt (the summary's steps differ from the run's position)");
  // the sensors, then the World last: each checks its own bytes, and nothing here changes when
  // either refuses them
  SensorSet sensors = sensors_;
  sensors.restore_state(sensor_bytes);
  world_.restore_state(world_bytes);
  sensors_ = std::move(sensors);
  total_steps_ = total;
  position_ = at;
  summary_ = std::move(s);
  seen_warnings_ = std::move(seen);
  resumed_ = true;
}

}  // namespace pivot
