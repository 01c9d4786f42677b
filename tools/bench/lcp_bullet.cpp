// Bullet's two pivoting LCP solvers (libBulletDynamics-float64):
//  - btLemkeAlgorithm: Lemke on the full tableau [I | −M | −1 | q] with Gauss–Jordan steps and a
//    lexicographic ratio test (MBSim's code, Lloyd 2005). solve() returns (w; z).
//  - btSolveDantzigLCP: ODE's Dantzig-Cottle principal pivoting for the box LCP
//    A x = b + w, lo ≤ x ≤ hi, as Bullet's btDantzigSolver calls it. The LCP w = M z + q is the box
//    LCP with A = M (row-major), b = −q, lo = 0, hi = +∞. btDantzigSolver itself is not used
//    because it rejects any answer with an entry ≥ 1000 (a game-engine heuristic), which would
//    reject correct answers here; the algorithm is the same. It assumes a symmetric positive
//    semidefinite A (it factors A_CC = L D Lᵀ) and counts no pivots.
#include <BulletDynamics/MLCPSolvers/btDantzigLCP.h>
#include <BulletDynamics/MLCPSolvers/btLemkeAlgorithm.h>

#include <limits>
#include <memory>
#include <vector>

#include "lcp_solvers.hpp"

namespace pivot::bench {
namespace {

struct BulletLemkeProblem {
  explicit BulletLemkeProblem(const lcp::LcpProblem& p)
      : n(static_cast<int>(p.q.size())), M(n, n), q(n) {
    for (int i = 0; i < n; ++i) {
      q[i] = p.q(i);
      for (int j = 0; j < n; ++j) M.setElem(i, j, p.M(i, j));
    }
  }
  int n;
  btMatrixXu M;
  btVectorXu q;
};

struct DantzigProblem {
  explicit DantzigProblem(const lcp::LcpProblem& p) : n(static_cast<int>(p.q.size())) {
    A.resize(static_cast<std::size_t>(n) * n);
    b.resize(n);
    for (int i = 0; i < n; ++i) {
      b[i] = -p.q(i);
      for (int j = 0; j < n; ++j) A[static_cast<std::size_t>(i) * n + j] = p.M(i, j);
    }
  }
  int n;
  std::vector<double> A, b;  // A row-major
  btDantzigScratchMemory scratch;
};

}  // namespace

LcpSolver bullet_lemke() {
  LcpSolver s;
  s.name = "bullet-lemke";
  s.api = "btLemkeAlgorithm::solve (Bullet 3, BulletDynamics-float64)";
  s.prepare = [](const lcp::LcpProblem& problem) -> SolveFn {
    auto p = std::make_shared<BulletLemkeProblem>(problem);
    return [p] {
      btLemkeAlgorithm lemke(p->M, p->q);
      const btVectorXu solution = lemke.solve(static_cast<unsigned>(pivot_budget(p->n)));
      SolveOutcome out;
      out.claimed = lemke.getInfo() == 0;
      out.pivots = lemke.getSteps();
      out.z.resize(p->n);
      for (int i = 0; i < p->n; ++i) out.z(i) = solution[p->n + i];
      return out;
    };
  };
  return s;
}

LcpSolver bullet_dantzig() {
  LcpSolver s;
  s.name = "bullet-dantzig";
  s.api = "btSolveDantzigLCP (ODE's Dantzig in Bullet 3, BulletDynamics-float64)";
  s.prepare = [](const lcp::LcpProblem& problem) -> SolveFn {
    auto p = std::make_shared<DantzigProblem>(problem);
    return [p] {
      // the solver overwrites A and b: work on copies
      std::vector<double> A = p->A, b = p->b, x(p->n, 0.0), w(p->n, 0.0), lo(p->n, 0.0);
      std::vector<double> hi(p->n, std::numeric_limits<double>::infinity());
      std::vector<int> findex(p->n, -1);
      SolveOutcome out;
      out.claimed = btSolveDantzigLCP(p->n, A.data(), x.data(), b.data(), w.data(), 0, lo.data(),
                                      hi.data(), findex.data(), p->scratch);
      out.z = Eigen::Map<const lcp::Vector>(x.data(), p->n);
      return out;
    };
  };
  return s;
}

}  // namespace pivot::bench
