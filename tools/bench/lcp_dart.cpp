// DART's dart::lcpsolver::Lemke (libdart-dev): Lemke with its own pivoting rules on dense Eigen
// matrices. It reports success (0) or an error code, not the number of pivots.
#include <dart/lcpsolver/Lemke.hpp>

#include <memory>

#include "lcp_solvers.hpp"

namespace pivot::bench {

LcpSolver dart_lemke() {
  LcpSolver s;
  s.name = "dart";
  s.api = "dart::lcpsolver::Lemke (DART 6, libdart-dev)";
  s.prepare = [](const lcp::LcpProblem& problem) -> SolveFn {
    auto p = std::make_shared<const lcp::LcpProblem>(problem);
    return [p] {
      SolveOutcome out;
      Eigen::VectorXd z = Eigen::VectorXd::Zero(p->q.size());
      out.claimed = dart::lcpsolver::Lemke(p->M, p->q, &z) == 0;
      out.z = z;
      return out;
    };
  };
  return s;
}

}  // namespace pivot::bench
