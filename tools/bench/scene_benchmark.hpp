#pragma once
// The scene benchmark (the same scenes in every engine: time per step and the error against the
// analytic answer) and the scaling benchmark (time per step against the size of a pyramid, with
// a fitted power law).

#include <iosfwd>
#include <string>
#include <vector>

namespace pivot::bench {

struct SceneBenchOptions {
  /// wall-time budget of one (scene, engine) run; a run that needs more stops early and is
  /// reported with the steps it did (its error is then not comparable and not shown)
  double budget_seconds = 10.0;
  /// pyramid sizes of the scene table
  std::vector<int> pyramid_levels{5, 10, 15};
  /// pyramid sizes of the scaling table, and the steps timed at each size
  std::vector<int> scaling_levels{3, 5, 7, 9, 11, 13, 15};
  int scaling_steps = 30;
  /// an engine whose median step at some size exceeded this is not run on larger sizes
  double scaling_step_limit = 1.0;
};

struct SceneCase;
struct Engine;

/// one (scene, engine) run, in a child process
struct RunResult {
  bool ok = false;
  std::string failure;                        ///< when !ok
  int steps = 0;                              ///< steps done
  int planned = 0;                            ///< steps the scene asks for
  double median_step = 0.0, mean_step = 0.0;  ///< s
  double max_step = 0.0;                      ///< the longest step, s
  double error = 0.0;
  int contacts = 0;      ///< in the last step
  int max_contacts = 0;  ///< over the run
  std::string note;
  [[nodiscard]] bool finished() const { return ok && steps == planned; }
};

/// runs the scene in the engine for at most `max_steps` steps (−1: the scene's duration) and
/// `budget_seconds` of wall time, in a child process killed 20 s after the budget
[[nodiscard]] RunResult run_case(const Engine& engine, const SceneCase& c, double budget_seconds,
                                 int max_steps = -1);

void run_scene_benchmark(const SceneBenchOptions& options, std::ostream& out);
void run_scaling_benchmark(const SceneBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
