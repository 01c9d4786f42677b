#pragma once
// LCPs with a symmetric positive semidefinite M, by an active-set method.
//
// w = M z + q, z ≥ 0, w ≥ 0, zᵀw = 0 with M = Mᵀ ⪰ 0 is the optimality system of the convex QP
// min ½ zᵀM z + qᵀz over z ≥ 0. When M = AᵀA and q = −Aᵀb this is nonnegative least squares,
// and Lawson and Hanson's active-set method (Lawson & Hanson 1974, "Solving Least Squares
// Problems", ch. 23, algorithm NNLS) solves it touching A only through AᵀA and Aᵀb (the Gram form
// of Bro & de Jong 1997, "A fast non-negativity-constrained least squares algorithm"). The same
// iteration works on (M, q) for any symmetric PSD M:
//
//   P = ∅, z = 0
//   while some j ∉ P has w_j = (M z + q)_j < 0:
//     add the j with the most negative w_j to P
//     loop: s_P = −M_PP⁻¹ q_P, s = 0 off P
//           if s_P > 0: z = s, break
//           else step z ← z + α (s − z) with the largest α keeping z ≥ 0, and drop from P the
//                indices whose z_i reached 0
//
// In exact arithmetic the columns of P stay linearly independent (a column with w_j < 0 at the
// minimum over P is not in their span: Lawson & Hanson, ch. 23), so M_PP is positive definite
// even when M is singular (redundant contacts), and the iteration ends after finitely many steps
// on a basis of at most rank(M) indices. That is what makes it useful where Lemke's method is
// slow: on a frictionless resting-contact problem, whose rows are massively degenerate (equal q_i)
// and redundant (four corners per face), it takes one step per basic index, where Lemke's path
// wanders through thousands of degenerate pivots (docs/lcp.md, "Crash start").
//
// M_PP is kept as a Cholesky factor L Lᵀ, grown by one row per added index (O(k²); its forward
// solve starts at the first row of P that the new column touches) and shrunk by Givens rotations
// when an index is dropped (O(k²)); only L, k × k for k = |P|, is dense. A
// column whose Cholesky pivot vanishes (dependent on P to rounding) is set aside until P loses an
// index. The answer is judged by measure_residuals() like every other solver's.

#include "pivot/lcp/lcp_problem.hpp"
#include "pivot/lcp/lcp_result.hpp"
#include "pivot/lcp/residual.hpp"

namespace pivot::lcp::detail {

struct PsdLcpOptions {
  /// outer iterations (indices added); 0 means automatic: 3 n + 10
  int max_iterations = 0;
  /// the residual check of the answer (LcpResiduals::worst())
  double residual_tolerance = kDefaultResidualTolerance;
};

/// Solve w = M z + q for a symmetric positive semidefinite M by Lawson–Hanson's active-set
/// method (above). M must be symmetric to 1e-12 of its largest entry (else `invalid_input`);
/// positive semidefiniteness is not checked (an indefinite M ends in a failed check or
/// `pivot_limit`, never a false `solved`). `pivots` counts the indices added and dropped.
/// `active_set` is P completed to a basis of the tight rows: the indices with w_i = 0 (within
/// 1e-11 of the row's scale |q_i| + Σ_j |M_ij| z_j) whose columns are independent of P's join it as
/// degenerate basic indices (z_i = 0), which makes it a sturdier warm start; it is returned also
/// when the check fails (a guess for another solver).
[[nodiscard]] LcpResult solve_psd_lcp(const LcpProblem& problem, const PsdLcpOptions& options = {});
[[nodiscard]] LcpResult solve_psd_lcp(const SparseLcpProblem& problem,
                                      const PsdLcpOptions& options = {});

}  // namespace pivot::lcp::detail
