#pragma once
// Mixed LCP → pure LCP by a Schur complement on the free block (Cline 2002 §2.7.2, eqs. 2.41–2.43,
// and §4.8.2, the generalization of Baraff's auxiliary constraints):
//
//   x = −P⁻¹(u + Q z)                                          (2.41)
//   w = (S − K P⁻¹ Q) z + (v − K P⁻¹ u)  =:  𝓜 z + q           (2.43)
//
// P is factorized once (sparse LU for sparse problems; full-pivot LU of the equilibrated P for
// dense ones, and for sparse ones whose LU fails) and P⁻¹Q is formed by solves, column by
// column; no inverse is formed. For a sparse problem P⁻¹Q keeps only its nonzero entries, so
// 𝓜 = S − K P⁻¹Q stays sparse when P is block diagonal (a contact island without joints: 𝓜
// couples only rows that share a body) and Lemke reads it in sparse storage (lemke.hpp). A singular
// P is detected and reported with the rows involved (column-pivoted QR); an optional regularization
// lets the caller go on.

#include <vector>

#include "pivot/lcp/lcp_problem.hpp"
#include "pivot/lcp/lcp_result.hpp"
#include "pivot/lcp/lemke.hpp"

namespace pivot::lcp {

struct MixedLcpOptions {
  LemkeOptions lemke;
  /// when P is singular and this is non-empty (size n), solve with P + diag(regularization)
  /// instead. For the saddle-point block [[M, −Jᵀ], [J, 0]] of a dynamics step, a small
  /// positive value on the constraint rows makes the joints slightly compliant:
  /// J v + δ λ = 0. Entries must be finite.
  Vector regularization;
  /// relative pivot threshold under which the equilibrated P is judged singular;
  /// 0 means Eigen's default, n·ε (the LAPACK convention)
  double singular_tolerance = 0.0;
};

struct MixedLcpResult {
  LcpResult lcp;  ///< the reduced LCP's result (z, w, pivots, residuals, status)
  Vector x;       ///< the free variables, when solved
  /// rows of P found linearly dependent on the others (empty when P is nonsingular)
  std::vector<int> singular_rows;
  bool regularized = false;  ///< P + diag(regularization) was used
  /// the residual of the free rows, ‖P x + Q z + u‖∞ / max(‖u‖∞, ‖Q z‖∞, tiny)
  double free_residual = 0.0;
  /// wall time of the reduction (factorization of P, 𝓜 and q, the recovery of x), s; the
  /// reduced LCP's own time is lcp.seconds
  double reduce_seconds = 0.0;
  [[nodiscard]] bool ok() const { return lcp.ok(); }
};

/// reduce, solve with Lemke, recover x
[[nodiscard]] MixedLcpResult solve_mixed_lcp(const MixedLcpProblem& problem,
                                             const MixedLcpOptions& options = {});
[[nodiscard]] MixedLcpResult solve_mixed_lcp(const SparseMixedLcpProblem& problem,
                                             const MixedLcpOptions& options = {});

/// the reduced LCP (𝓜, q) alone, for inspection and for writing problem files;
/// throws pivot::Error when P is singular
[[nodiscard]] LcpProblem reduce_mixed_lcp(const MixedLcpProblem& problem);

namespace detail {
/// out = S − K X in sparse storage (the reduction's product 𝓜 = S − K P⁻¹Q with X = P⁻¹Q), with
/// sorted rows in every column. Entry (r, j) is S(r, j) followed by the terms −K(r, c) X(c, j) in
/// the order of column j's stored entries of X, added one by one: the same bits as Gustavson's
/// column-by-column product. An entry is stored where S or some product has one. `out` keeps its
/// allocation from call to call. Internal (the sparse reduction's), declared for its tests.
void schur_complement(const SparseMatrix& S, const SparseMatrix& K, const SparseMatrix& X,
                      SparseMatrix& out);
}  // namespace detail

}  // namespace pivot::lcp
