#pragma once
// The motion-capture-driven character (docs/character.md; Cline 2002 §5.1):
//   - speed: steps per second of the 54-DOF walking character at h = 1 ms, undisturbed and in
//     the shipped scene with two balls thrown at it, against the target of 1000
//     steps/s (30× the thesis' ">30 fps" at 30 fps of real time);
//   - tracking: the undisturbed tracking error at h = 1, 0.5, 0.25 ms (first order in h);
//   - stability: explicit against linearly implicit feedback (Cline §2.7.4) over the gains;
//   - disturbances: the shipped scenes' tracking error over time (peak, return).
// Prints Markdown tables.

#include <iosfwd>
#include <string>

namespace pivot::bench {

struct CharacterBenchOptions {
  std::string scenes_dir;         ///< the shipped scenes (scenes/)
  double budget_seconds = 3.0;    ///< wall time per speed measurement (at least 3 repeats)
};

void run_character_benchmark(const CharacterBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
