// Siconos numerics' lcp_lexicolemke: Lemke on the full n × (2n + 2) tableau with the
// lexicographic ratio test (Cottle, Pang & Stone 1992), as shipped in libsiconos-numerics-dev.
#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NumericsMatrix.h>
#include <NumericsVerbose.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include <algorithm>
#include <memory>

#include "lcp_solvers.hpp"

namespace pivot::bench {
namespace {

// the problem in Siconos' storage: a dense NumericsMatrix (column-major, like Eigen's default)
struct SiconosProblem {
  explicit SiconosProblem(const lcp::LcpProblem& p) : q(p.q.data(), p.q.data() + p.q.size()) {
    n = static_cast<int>(p.q.size());
    M = NM_create(NM_DENSE, n, n);
    std::copy(p.M.data(), p.M.data() + p.M.size(), M->matrix0);
    problem.size = n;
    problem.M = M;
    problem.q = q.data();
    options = solver_options_create(SICONOS_LCP_LEMKE);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = pivot_budget(n);
  }
  ~SiconosProblem() {
    solver_options_delete(options);
    NM_free(M);
  }
  SiconosProblem(const SiconosProblem&) = delete;
  SiconosProblem& operator=(const SiconosProblem&) = delete;

  int n = 0;
  NumericsMatrix* M = nullptr;
  std::vector<double> q;
  LinearComplementarityProblem problem{};
  SolverOptions* options = nullptr;
};

}  // namespace

LcpSolver siconos_lexicolemke() {
  numerics_set_verbose(0);
  LcpSolver s;
  s.name = "siconos";
  s.api = "lcp_lexicolemke (Siconos numerics, libsiconos-numerics-dev)";
  s.prepare = [](const lcp::LcpProblem& problem) -> SolveFn {
    auto p = std::make_shared<SiconosProblem>(problem);
    return [p] {
      SolveOutcome out;
      out.z = lcp::Vector::Zero(p->n);
      lcp::Vector w = lcp::Vector::Zero(p->n);
      int info = -1;
      lcp_lexicolemke(&p->problem, out.z.data(), w.data(), &info, p->options);
      out.claimed = info == 0;
      out.pivots = p->options->iparam[SICONOS_IPARAM_ITER_DONE];
      return out;
    };
  };
  return s;
}

}  // namespace pivot::bench
