#include "lcp_solvers.hpp"

#include <memory>
#include <utility>

#include "pivot/lcp/lemke.hpp"

namespace pivot::bench {
namespace {

LcpSolver pivot_lemke() {
  LcpSolver s;
  s.name = "pivot";
  s.api = "pivot::lcp::solve_lemke (default options, cold start)";
  s.prepare = [](const lcp::LcpProblem& problem) -> SolveFn {
    auto p = std::make_shared<const lcp::LcpProblem>(problem);
    return [p] {
      // the answer is moved out, as the peers write theirs into the outcome's own vector
      lcp::LcpResult r = lcp::solve_lemke(*p);
      const bool ok = r.ok();
      return SolveOutcome{std::move(r.z), r.pivots, ok, ok ? "" : lcp::to_string(r.status)};
    };
  };
  return s;
}

}  // namespace

std::vector<LcpSolver> lcp_solvers() {
  std::vector<LcpSolver> all{pivot_lemke()};
#ifdef PIVOT_BENCH_HAVE_SICONOS
  all.push_back(siconos_lexicolemke());
#endif
#ifdef PIVOT_BENCH_HAVE_DART
  all.push_back(dart_lemke());
#endif
#ifdef PIVOT_BENCH_HAVE_BULLET
  all.push_back(bullet_lemke());
  all.push_back(bullet_dantzig());
#endif
  return all;
}

std::vector<std::string> missing_lcp_peers() {
  std::vector<std::string> missing;
#ifndef PIVOT_BENCH_HAVE_SICONOS
  missing.emplace_back("siconos (libsiconos-numerics-dev)");
#endif
#ifndef PIVOT_BENCH_HAVE_DART
  missing.emplace_back("dart (libdart-dev)");
#endif
#ifndef PIVOT_BENCH_HAVE_BULLET
  missing.emplace_back("bullet-lemke, bullet-dantzig (libbullet-dev with BulletDynamics-float64)");
#endif
  return missing;
}

}  // namespace pivot::bench
