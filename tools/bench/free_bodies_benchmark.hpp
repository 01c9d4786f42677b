#pragma once
// pivot-bench speed, "Free bodies": N shapeless free bodies falling under gravity, the step
// time against N, which every per-step cost keeps linear. Measured and printed, never asserted.
#include <iosfwd>
#include <vector>

namespace pivot::bench {

struct FreeBodiesOptions {
  std::vector<int> counts{1000, 10000, 100000};  ///< bodies per run
  int steps = 5;                                 ///< timed steps per run (after one untimed)
};

/// prints a table of ms per step for each count, and the fitted exponent of time against N
void run_free_bodies_benchmark(const FreeBodiesOptions& options, std::ostream& out);

}  // namespace pivot::bench
