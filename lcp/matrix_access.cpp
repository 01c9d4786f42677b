#include "pivot/lcp/matrix_access.hpp"

#include <cmath>

namespace pivot::lcp::detail::access {

DenseMatrix gather_block(const DenseMatrix& M, const std::vector<int>& rows,
                         const std::vector<int>& cols, std::vector<int>& /*position*/) {
  const auto r = static_cast<Eigen::Index>(rows.size());
  const auto c = static_cast<Eigen::Index>(cols.size());
  DenseMatrix A(r, c);
  for (Eigen::Index b = 0; b < c; ++b)
    for (Eigen::Index a = 0; a < r; ++a) A(a, b) = M(rows[a], cols[b]);
  return A;
}

DenseMatrix gather_block(const SparseMatrix& M, const std::vector<int>& rows,
                         const std::vector<int>& cols, std::vector<int>& position) {
  const auto r = static_cast<Eigen::Index>(rows.size());
  const auto c = static_cast<Eigen::Index>(cols.size());
  DenseMatrix A = DenseMatrix::Zero(r, c);
  for (Eigen::Index a = 0; a < r; ++a) position[rows[a]] = static_cast<int>(a);
  for (Eigen::Index b = 0; b < c; ++b)
    for (SparseMatrix::InnerIterator it(M, cols[b]); it; ++it)
      if (const int a = position[static_cast<std::size_t>(it.row())]; a >= 0) A(a, b) = it.value();
  for (int row : rows) position[row] = -1;
  return A;
}

DenseMatrix principal_block(const DenseMatrix& M, const std::vector<int>& rows) {
  return M(rows, rows);
}

SparseMatrix principal_block(const SparseMatrix& M, const std::vector<int>& rows) {
  std::vector<int> position(static_cast<std::size_t>(M.rows()), -1);
  for (std::size_t a = 0; a < rows.size(); ++a) position[rows[a]] = static_cast<int>(a);
  const auto k = static_cast<Eigen::Index>(rows.size());
  SparseMatrix out(k, k);
  std::vector<Eigen::Index> count(static_cast<std::size_t>(k), 0);
  for (Eigen::Index b = 0; b < k; ++b)
    for (SparseMatrix::InnerIterator it(M, rows[b]); it; ++it)
      count[b] += position[static_cast<std::size_t>(it.row())] >= 0 ? 1 : 0;
  out.reserve(count);
  for (Eigen::Index b = 0; b < k; ++b)
    for (SparseMatrix::InnerIterator it(M, rows[b]); it; ++it)
      if (const int a = position[static_cast<std::size_t>(it.row())]; a >= 0)
        out.insert(a, b) = it.value();
  out.makeCompressed();
  return out;
}

double max_row_abs_sum(const DenseMatrix& M) {
  return M.size() == 0 ? 0.0 : M.cwiseAbs().rowwise().sum().maxCoeff();
}

double max_row_abs_sum(const SparseMatrix& M) {
  Vector sums = Vector::Zero(M.rows());
  for (Eigen::Index j = 0; j < M.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(M, j); it; ++it) sums(it.row()) += std::abs(it.value());
  return sums.size() == 0 ? 0.0 : sums.maxCoeff();
}

DenseMatrix plus_diagonal(const DenseMatrix& M, double delta) {
  DenseMatrix out = M;
  out.diagonal().array() += delta;
  return out;
}

SparseMatrix plus_diagonal(const SparseMatrix& M, double delta) {
  SparseMatrix identity(M.rows(), M.cols());
  identity.setIdentity();
  SparseMatrix out = M + delta * identity;
  out.makeCompressed();
  return out;
}

}  // namespace pivot::lcp::detail::access
