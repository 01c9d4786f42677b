#pragma once
// The hybrid accuracy/cost study (docs/hybrid.md "Accuracy and cost against the LCP"):
// an ellipsoid rolling without slip on a plane for a few seconds, integrated
//   - in reduced contact coordinates (Kry & Pai 2002; engine/hybrid/reduced_contact_integrator.hpp)
//     with 10 ms frames, directly and through World's hybrid switch,
//   - by the full-coordinate LCP (World::step) at steps from 10 ms down to 0.05 ms,
// with the trajectory error of each against two references: the reduced mode at a tight
// tolerance, and the LCP's Richardson extrapolation from its two smallest steps (independent of
// the reduced code). Prints the tables of docs/hybrid.md.

#include <iosfwd>
#include <vector>

namespace pivot::bench {

struct HybridBenchOptions {
  double duration = 3.0;  ///< simulated time of every run, s
  /// LCP steps, s (the two smallest give the Richardson reference)
  std::vector<double> lcp_steps{1e-2, 5e-3, 2e-3, 1e-3, 4e-4, 2e-4, 1e-4, 5e-5};
  /// timing: each run is repeated until this wall time has passed (at least min_repeats,
  /// at most max_repeats); the median is reported
  double budget_seconds = 2.0;
  int min_repeats = 3;
  int max_repeats = 11;
};

void run_hybrid_benchmark(const HybridBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
