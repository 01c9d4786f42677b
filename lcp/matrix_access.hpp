#pragma once
// What the LCP solvers read of M, for dense and for sparse (column-major) storage alike.
//
// Lemke's method, the active-set solves and the residual check touch M only through these
// operations, so one templated implementation serves both storages: a sparse M of a contact
// problem (𝓜 = S + G M⁻¹ Gᵀ couples only rows that share a body) costs O(nnz) per column
// operation instead of O(n), and is never expanded to n × n.

#include <vector>

#include "pivot/lcp/lcp_problem.hpp"

namespace pivot::lcp::detail::access {

inline double entry(const DenseMatrix& M, Eigen::Index i, Eigen::Index j) {
  return M(i, j);
}
/// binary search in column j
inline double entry(const SparseMatrix& M, Eigen::Index i, Eigen::Index j) {
  return M.coeff(i, j);
}

/// calls f(i, j, M_ij) for every nonzero (stored) entry of M, column by column, rows ascending
/// within a column (stored zeros are skipped)
template <typename F>
void for_each_nonzero(const DenseMatrix& M, F&& f) {
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < M.rows(); ++i)
      if (M(i, j) != 0.0) f(i, j, M(i, j));
}
template <typename F>
void for_each_nonzero(const SparseMatrix& M, F&& f) {
  for (Eigen::Index j = 0; j < M.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(M, j); it; ++it)
      if (it.value() != 0.0) f(it.row(), j, it.value());
}

/// calls f(i, M_ij) for every nonzero (stored) entry of column j, rows ascending (stored zeros
/// are skipped)
template <typename F>
void for_each_in_column(const DenseMatrix& M, Eigen::Index j, F&& f) {
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    if (M(i, j) != 0.0) f(i, M(i, j));
}
template <typename F>
void for_each_in_column(const SparseMatrix& M, Eigen::Index j, F&& f) {
  for (SparseMatrix::InnerIterator it(M, j); it; ++it)
    if (it.value() != 0.0) f(it.row(), it.value());
}

/// out += s · M(·, j)
inline void add_column(const DenseMatrix& M, Eigen::Index j, double s, Vector& out) {
  out.noalias() += s * M.col(j);
}
inline void add_column(const SparseMatrix& M, Eigen::Index j, double s, Vector& out) {
  for (SparseMatrix::InnerIterator it(M, j); it; ++it) out(it.row()) += s * it.value();
}

/// out(a) = M(rows[a], j) for every a, where position[i] is the a with rows[a] = i, or −1
template <typename Out>
void gather_column(const DenseMatrix& M, Eigen::Index j, const std::vector<int>& rows,
                   const std::vector<int>& /*position*/, Out&& out) {
  for (std::size_t a = 0; a < rows.size(); ++a) out(static_cast<Eigen::Index>(a)) = M(rows[a], j);
}
template <typename Out>
void gather_column(const SparseMatrix& M, Eigen::Index j, const std::vector<int>& /*rows*/,
                   const std::vector<int>& position, Out&& out) {
  out.setZero();
  for (SparseMatrix::InnerIterator it(M, j); it; ++it)
    if (const int a = position[static_cast<std::size_t>(it.row())]; a >= 0) out(a) = it.value();
}

/// the block M(rows, cols) (k × k); `position` is scratch of size n, all −1 on entry and on exit
DenseMatrix gather_block(const DenseMatrix& M, const std::vector<int>& rows,
                         const std::vector<int>& cols, std::vector<int>& position);
DenseMatrix gather_block(const SparseMatrix& M, const std::vector<int>& rows,
                         const std::vector<int>& cols, std::vector<int>& position);

/// the principal block M(rows, rows) in M's own storage (rows strictly increasing)
DenseMatrix principal_block(const DenseMatrix& M, const std::vector<int>& rows);
SparseMatrix principal_block(const SparseMatrix& M, const std::vector<int>& rows);

/// ‖M‖∞ = max_i Σ_j |M_ij|
double max_row_abs_sum(const DenseMatrix& M);
double max_row_abs_sum(const SparseMatrix& M);

/// M + δ I
DenseMatrix plus_diagonal(const DenseMatrix& M, double delta);
SparseMatrix plus_diagonal(const SparseMatrix& M, double delta);

}  // namespace pivot::lcp::detail::access
