#pragma once
// The LCP benchmark: every solver of lcp_solvers() on every problem file, side by side.

#include <filesystem>
#include <iosfwd>
#include <vector>

namespace pivot::bench {

struct LcpBenchOptions {
  /// the shared data folder; its lcp/siconos, lcp/contact and lcp/fclib are read
  std::filesystem::path data_dir;
  /// more folders of problem files (e.g. the LCPs written from Pivot's scenes)
  std::vector<std::filesystem::path> extra_dirs;
  double budget_seconds = 0.3;  ///< timing budget per problem and solver
  int max_repeats = 21;         ///< at most this many timed solves (the median is reported)
  /// a (problem, solver) pair still running after this is stopped and reported as timed out;
  /// the solver is then not run on larger problems
  double timeout_seconds = 10.0;
};

/// runs the benchmark and prints its tables (Markdown) to `out`; returns the number of problems
int run_lcp_benchmark(const LcpBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
