#pragma once
// Problem types of the lcp module.
//
// LCP (M, q):        find z, w with  w = M z + q,  z ≥ 0,  w ≥ 0,  zᵀw = 0      (Cline eq. 2.34)
// Mixed LCP:         [0; w] = [P Q; K S] [x; z] + [u; v],  x free,  z ≥ 0, w ≥ 0, zᵀw = 0
//                                                                                (Cline eq. 2.40)
// Dense and sparse storage are both accepted; the solvers take either.

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>
#include <variant>

namespace pivot::lcp {

using Vector = Eigen::VectorXd;
using DenseMatrix = Eigen::MatrixXd;
using SparseMatrix = Eigen::SparseMatrix<double>;  // column-major

/// w = M z + q, z ≥ 0, w ≥ 0, zᵀw = 0
struct LcpProblem {
  DenseMatrix M;     ///< n × n
  Vector q;          ///< n
  std::string name;  ///< optional, for reports
};

/// the same problem with M in sparse storage
struct SparseLcpProblem {
  SparseMatrix M;
  Vector q;
  std::string name;
};

/// [0; w] = [P Q; K S][x; z] + [u; v] with x ∈ ℝⁿ free and z, w ∈ ℝᵐ complementary
template <typename Matrix>
struct BasicMixedLcpProblem {
  Matrix P;  ///< n × n, must be nonsingular (or regularized, see MixedLcpOptions)
  Matrix Q;  ///< n × m
  Matrix K;  ///< m × n
  Matrix S;  ///< m × m
  Vector u;  ///< n
  Vector v;  ///< m
  std::string name;
};
using MixedLcpProblem = BasicMixedLcpProblem<DenseMatrix>;
using SparseMixedLcpProblem = BasicMixedLcpProblem<SparseMatrix>;

}  // namespace pivot::lcp
