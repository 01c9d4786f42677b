#pragma once
// The step-size study of Kry & Pai 2002 §4.2, Table II: CPU time of the 3 s bowl-on-table run
// (scenes/bowl_on_table.json, Loop surfaces) at maximum steps of 1 to 64 ms, here the World's
// step h and the reduced integrator's dt_max together. Prints the table with the paper's
// numbers beside it, and the bowl's COM at 0.5 s intervals per run (the data of Fig. 7).

#include <filesystem>
#include <iosfwd>
#include <vector>

namespace pivot::bench {

struct BowlBenchOptions {
  std::filesystem::path scene;  ///< scenes/bowl_on_table.json
  std::vector<double> max_steps{1e-3, 2e-3, 4e-3, 8e-3, 16e-3, 32e-3, 64e-3};  ///< s
  double budget_seconds = 2.0;  ///< repeat each run until this wall time has passed
  int min_repeats = 3;
  int max_repeats = 11;
};

void run_bowl_benchmark(const BowlBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
