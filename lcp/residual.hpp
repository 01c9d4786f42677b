#pragma once
// Residual checks, shared by the solvers, the CLI and the tests.

#include "pivot/lcp/lcp_problem.hpp"
#include "pivot/lcp/lcp_result.hpp"

namespace pivot::lcp {

/// residuals of z for w = M z + q (see LcpResiduals for the definitions); w is returned too
[[nodiscard]] LcpResiduals measure_residuals(const DenseMatrix& M, const Vector& q, const Vector& z,
                                             Vector* w_out = nullptr);
/// the same for a sparse M (same definitions; sums over the stored entries)
[[nodiscard]] LcpResiduals measure_residuals(const SparseMatrix& M, const Vector& q,
                                             const Vector& z, Vector* w_out = nullptr);

/// the default tolerance of every `solved`: worst() ≤ this
inline constexpr double kDefaultResidualTolerance = 1e-9;

/// an empty string when M, q are square, matching and finite; else what is wrong
[[nodiscard]] std::string validate(const DenseMatrix& M, const Vector& q);
[[nodiscard]] std::string validate(const SparseMatrix& M, const Vector& q);

}  // namespace pivot::lcp
