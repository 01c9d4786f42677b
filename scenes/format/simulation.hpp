#pragma once
// A run of a scene: the one loop that `pivot run`, `pivot serve`, `pivot sweep`, the Python
// module's pivot.run and pivot-soak step a World with. It owns the World, steps it for the
// scene's duration, checks every step (a finite state and finite metrics), tallies the run's
// summary, hands the frames to a sink (files for the CLI, rows for a sweep, nothing for Python)
// and polls for a stop. It never prints and never exits: progress goes through a callback and a
// failed run is a status in its summary.
//
//   pivot::Simulation sim(pivot::load_scene("scenes/pendulum.json"));
//   const pivot::RunSummary& s = sim.run(nullptr);
//   std::string json = pivot::summary_json(s);  // summary.json's keys (docs/cli.md)

#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pivot/engine/controller.hpp"
#include "pivot/engine/sensors.hpp"
#include "pivot/engine/step_report.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot {

/// the kinetic and potential energy of a state, J
struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
  [[nodiscard]] double total() const { return kinetic + potential; }
};

/// World::kinetic_energy and World::potential_energy
[[nodiscard]] Energy energy(const World& world);

/// the simulated time of a run's outputs after the World's steps: step_time (run_length.hpp) of
/// each stretch of one time step (World::time_step_history, after a set_dt), summed
[[nodiscard]] double run_time(const World& world);

/// how a run ended
enum class RunStatus {
  running,     ///< not ended yet (a run in progress, or a live session)
  finished,    ///< every step of its length taken
  stopped,     ///< a stop request ended it early (RunHooks::stop)
  not_finite,  ///< the state or a metric became non-finite (RunSummary::failure says where)
};

/// the most distinct step warnings a summary keeps; later ones are only counted
inline constexpr int kMaxSummaryWarnings = 20;

/// what a run did: summary.json's contents (docs/cli.md "summary.json"), filled by Simulation
struct RunSummary {
  RunStatus status = RunStatus::running;
  std::string failure;     ///< why, when status is not_finite
  std::string scene;       ///< the scene's name
  std::string scene_file;  ///< the scene's source (a file, "<dict>", "<built-in default scene>")
  long steps = 0;          ///< steps taken by this run
  double dt = 0.0;         ///< the time step at the end, s
  double simulated_time_s = 0.0;  ///< run_time at the end, s
  double wall_time_s = 0.0;       ///< wall time of the stepping loop, s
  std::uint64_t final_state_hash = 0;
  /// every body's name and its 13 numbers (x y z qw qx qy qz vx vy vz wx wy wz)
  std::vector<std::pair<std::string, std::array<double, 13>>> final_state;
  Energy initial_energy, final_energy;
  double max_joint_error = 0.0;  ///< largest StepReport::joint_error_after, m or rad
  double max_penetration = 0.0;  ///< largest StepReport::penetration_after, m
  long contacts = 0;             ///< StepReport::contacts summed
  long failed_steps = 0;         ///< steps whose report had failures
  long failures = 0;             ///< island failures summed over the steps
  RunTotals totals;              ///< World::totals() at the end
  // hybrid: steps that ended with a pair in reduced mode, the most pairs at once, at the end
  long reduced_steps = 0;
  int max_reduced_pairs = 0;
  int final_reduced_pairs = 0;
  // hybrid entries: the largest changes their projections made (SwitchEvent)
  double entry_position_change = 0.0, entry_rotation_change = 0.0, entry_twist_change = 0.0,
         entry_energy_change = 0.0;
  /// hybrid exits by the kind of their reason (SwitchEvent::reason up to its first ':', "new
  /// contact" for every new contact), in order of first occurrence
  std::vector<std::pair<std::string, long>> exit_reasons;
  /// the first kMaxSummaryWarnings distinct step warnings (one per kind and subject)
  std::vector<std::string> warnings;
  long more_warnings = 0;  ///< distinct warnings beyond those kept

  [[nodiscard]] bool interrupted() const { return status == RunStatus::stopped; }
};

/// summary.json as text (docs/cli.md "summary.json"): every field of `summary`, with
/// `outputs`, the files a run wrote beside it (none for a run without files)
[[nodiscard]] std::string summary_json(const RunSummary& summary,
                                       const std::vector<std::string>& outputs = {});

/// where a run's frames go: implemented by the CLI's file writers, a sweep's row, the soak's
/// measurements. Every call comes from the thread that runs.
class RunSink {
 public:
  virtual ~RunSink() = default;
  /// a frame of the trajectory at time t: the initial state, the first step at or after each
  /// output time j / output_rate_hz, and the last step
  virtual void frame(const World& world, double t) = 0;
  /// after every step that passed its checks: its report, the energies it left, the time
  virtual void step(const World& world, const StepReport& report, const Energy& energy, double t) {
    (void)world, (void)report, (void)energy, (void)t;
  }
  /// a step warning the summary keeps (a new kind and subject, while fewer than
  /// kMaxSummaryWarnings are kept), at the time of its step
  virtual void warning(const std::string& message, double t) { (void)message, (void)t; }
  /// after the sensors sampled (before the first step and after a step; only when the scene has
  /// sensors and at least one sampled): SensorSet::sampled tells which, latest their values
  virtual void sensors(const SensorSet& sensors, double t) { (void)sensors, (void)t; }
};

/// the caller's part in a run; every one may be empty
struct RunHooks {
  /// polled after every step and inside long steps (World::set_interrupt_check): true ends the
  /// run after the current step, with status stopped
  std::function<bool()> stop;
  /// after every step: the steps taken, the run's length, the simulated time
  std::function<void(long steps, long total, double t)> progress;
  /// before every step and once after the last, with the steps taken so far (a recording's
  /// interactions due after step n are applied before step n + 1)
  std::function<void(long steps)> before_step;
};

/// where a run loop stands between two steps (Simulation::position)
struct RunPosition {
  long steps = 0;            ///< steps taken by the run
  long next_frame = 1;       ///< index j of the next output time j / output_rate_hz
  bool last_written = true;  ///< the last step's frame was written
};

class Simulation {
 public:
  /// builds the scene's World (build_world: pivot::Error for a bad scene); the run lasts the
  /// scene's duration (steps_for_duration) and writes frames at its output_rate_hz
  explicit Simulation(const Scene& scene);

  [[nodiscard]] World& world() { return world_; }
  [[nodiscard]] const World& world() const { return world_; }
  /// the scene's sensors (Scene::sensors), observed before the first step and after each
  [[nodiscard]] const SensorSet& sensors() const { return sensors_; }
  /// a controller called before each step (run() and step()); empty: none
  void set_controller(Controller controller) { controller_ = std::move(controller); }

  /// the steps run() takes
  [[nodiscard]] long total_steps() const { return total_steps_; }
  /// a run length other than the scene's (e.g. a recording's "end" step); at least 1
  void set_total_steps(long steps);

  /// checks the initial state, steps to total_steps() or a stop, and returns the summary
  /// (status finished, stopped or not_finite); once per Simulation, before any step() (else
  /// pivot::Error). `sink` may be null. pivot::Error and other
  /// exceptions from the World and the hooks pass through.
  const RunSummary& run(RunSink* sink, const RunHooks& hooks = {});

  /// one step with the run's checks and tallies (for a caller that paces the steps itself, as
  /// the live server does); a non-finite state or metric sets status not_finite and the failure
  /// (the caller must not step on then). Exceptions from World::step pass through.
  const StepReport& step();

  /// the summary: its tallies (steps, counts, largest errors, warnings, status) after every
  /// step; the fields of the end (time, final state and hash, final energy, totals) as of the
  /// last run() or finish()
  [[nodiscard]] const RunSummary& summary() const { return summary_; }
  /// fills the summary's fields of the end from the World as it is now, and returns it
  const RunSummary& finish();

  // checkpoints of a run (simulation_checkpoint.cpp, docs/checkpoints.md)
  /// where the run loop stands (up to date when RunHooks::progress is called)
  [[nodiscard]] const RunPosition& position() const { return position_; }
  /// the run as bytes between two steps: World::save_state, the run's length, the loop's
  /// position and the summary's tallies. pivot::Error for a run that is not finite
  [[nodiscard]] std::string save_checkpoint() const;
  /// puts back a run of save_checkpoint into this Simulation (built from the same scene), before
  /// run(): run() then continues it (no initial frame) to total_steps(). Throws pivot::Error
  /// ("checkpoint: ...") for bytes that are not such a checkpoint, truncated or corrupt ones,
  /// and all of World::restore_state's refusals; this Simulation is unchanged then
  void restore_checkpoint(std::string_view bytes);

 private:
  void tally(const StepReport& report);
  bool check(const StepReport& report, const Energy& e, double t);
  bool observe_sensors();

  World world_;
  long total_steps_ = 0;
  double output_rate_hz_ = 0.0;
  RunSummary summary_;
  SensorSet sensors_;
  Controller controller_;
  bool sensors_observed_ = false;                        // observed once (the samples at the start)
  bool sensors_sampled_ = false;                         // the last observe sampled a sensor
  std::set<std::pair<StepWarning, int>> seen_warnings_;  // (kind, subject) already seen
  RunPosition position_;
  bool resumed_ = false;  // restore_checkpoint: run() continues from position_
};

}  // namespace pivot
