#pragma once
// pivot-bench speed: the speed targets ("speed at both ends"), measured and printed, never
// asserted: small scenes against ODE's dWorldStep, a 20-box stack against ODE (dWorldStep and
// QuickStep) and Bullet, every step of large pyramids, the growth of the step time with the
// pyramid's size, 8 separate pyramids on 1 and 2 threads, and up to 10⁵ free bodies.
#include <iosfwd>
#include <vector>

#include "free_bodies_benchmark.hpp"

namespace pivot::bench {

struct SpeedBenchOptions {
  double budget_seconds = 15.0;                 ///< wall-time budget of one run
  std::vector<int> large_pyramids{13, 15, 20};  ///< every step timed
  int large_pyramid_steps = 20;
  std::vector<int> scaling_levels{3, 5, 7, 10, 13, 15, 20};  ///< for the fitted exponent
  int scaling_steps = 10;
  int separate_pyramids = 8;  ///< of 10 levels each, side by side
  int separate_steps = 40;
  int separate_rounds = 3;          ///< alternating 1- and 2-thread runs
  double stack_duration = 10.0;     ///< the 20-box stack, s simulated
  FreeBodiesOptions free_bodies{};  ///< N shapeless free bodies, up to 10⁵
};

void run_speed_benchmark(const SpeedBenchOptions& options, std::ostream& out);

/// only the small scenes against ODE and the 20-cube stack (`pivot-bench small`)
void run_small_speed_benchmark(const SpeedBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
