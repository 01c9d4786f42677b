#pragma once
// The LCP solvers that pivot-bench compares: Pivot's Lemke and, where their packages are
// installed, the peers. Each solver is used only through its installed public API.
//
//   solver            API                                         package
//   pivot             pivot::lcp::solve_lemke                     (this project)
//   siconos           lcp_lexicolemke (Siconos numerics)          libsiconos-numerics-dev
//   dart              dart::lcpsolver::Lemke                      libdart-dev
//   bullet-lemke      btLemkeAlgorithm::solve                     libbullet-dev (float64)
//   bullet-dantzig    btSolveDantzigLCP (ODE's Dantzig, as        libbullet-dev (float64)
//                     Bullet's btDantzigSolver calls it)
//
// Every answer is judged by Pivot's residual check (lcp/residual.hpp), never by the solver's word.

#include <functional>
#include <string>
#include <vector>

#include "pivot/lcp/lcp_problem.hpp"

namespace pivot::bench {

/// what one solve returned
struct SolveOutcome {
  lcp::Vector z;         ///< the solver's answer (empty: none)
  int pivots = -1;       ///< pivots as the solver counts them; −1 when it does not say
  bool claimed = false;  ///< the solver's own success flag
  std::string status;    ///< the solver's own word on a failure, when it gives one
};

/// a solve of one prepared problem; called repeatedly for the timing
using SolveFn = std::function<SolveOutcome()>;

struct LcpSolver {
  std::string name;  ///< column name: "pivot", "siconos", ...
  std::string api;   ///< what is called
  /// converts the problem to the solver's own storage (not timed) and returns the solve (timed)
  std::function<SolveFn(const lcp::LcpProblem&)> prepare;
};

/// Pivot's Lemke, then every peer compiled in, in the order of the table above
[[nodiscard]] std::vector<LcpSolver> lcp_solvers();
/// the peers that this build lacks, with the package that provides them
[[nodiscard]] std::vector<std::string> missing_lcp_peers();

// the peers, each defined in its own file, compiled only when its package was found
#ifdef PIVOT_BENCH_HAVE_SICONOS
[[nodiscard]] LcpSolver siconos_lexicolemke();
#endif
#ifdef PIVOT_BENCH_HAVE_DART
[[nodiscard]] LcpSolver dart_lemke();
#endif
#ifdef PIVOT_BENCH_HAVE_BULLET
[[nodiscard]] LcpSolver bullet_lemke();
[[nodiscard]] LcpSolver bullet_dantzig();
#endif

/// the pivot budget every Lemke gets, as Pivot's automatic one: 100 n + 1000
[[nodiscard]] inline int pivot_budget(long n) {
  return static_cast<int>(100 * n + 1000);
}

}  // namespace pivot::bench
