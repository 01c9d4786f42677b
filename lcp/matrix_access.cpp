#include "pivot/lcp/matrix_access.hpp"

#include <cmath>

namespace pivot::lcp::access {

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

}  // namespace pivot::lcp::access
