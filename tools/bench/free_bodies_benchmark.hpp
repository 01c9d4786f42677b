#pragma once
// pivot-bench speed, "Free bodies": N shapeless free bodies falling under gravity, the step
// time against N (issue #24: island_mass walked the whole body set for every island, so 10⁴
// bodies took 0.7 s a step and 10⁵ never finished one). Measured and printed, never asserted.
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
