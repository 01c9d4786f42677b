#pragma once
// The block solve of an active set (internal): the minimum-norm refinement that
// solve_active_set() (active_set.hpp) runs on the block A = M(S, S) of a guessed active set S,
// in storage that is reused from call to call.
//
//   zz ← zz + A⁺ (rhs − A zz), twice,
//
// with A⁺ b the minimum-norm least-squares solution of a complete orthogonal decomposition
// A P = Q [T 0; 0 0] Z (Golub & Van Loan 2013, §5.4.2; Eigen's CompleteOrthogonalDecomposition):
//
//   c = Qᵀ b,   y = [T⁻¹ c(0:r); 0],   A⁺ b = P Zᵀ y        (r = rank A)
//
// A block of k ≤ kSmallLuMax rows whose reciprocal condition number 1 / (‖A‖₁ ‖A⁻¹‖₁) is above
// 1e-8, with A⁻¹ from a partial-pivot LU (SmallLu, small_lu.hpp), is nonsingular beyond doubt:
// its minimum-norm solution is its only one, and the two rounds apply that inverse,
// zz ← zz + A⁻¹ (rhs − A zz) (iterative refinement with an approximate inverse, which contracts
// when ‖1 − X A‖ < 1: Higham 2002 §12.1). Each thread keeps the last block of each size with its
// inverse and verdict, and a block of the same bits (a resting or rolling contact's, step after
// step) reuses them: one product and two refinement rounds. Other blocks
// of k ≤ kSmallLemkeMax rows are decomposed and solved by SmallCod (small_cod.hpp) on fixed
// storage, with no heap at all: Eigen's operations in Eigen's order, so the answer is the same
// bits as CompleteOrthogonalDecomposition<MatrixXd>'s. Larger ones are decomposed by Eigen in
// a thread's own dynamic matrices, kept while k stays, and solved by the same sequence of Eigen
// operations as its solve() (the same bits up to about 40 rows; beyond, Eigen's own solve applies
// Q blockwise: the same answer, other bits); Eigen's Householder updates of a dynamic matrix still
// make temporaries of their own (about two a column). A block of more than 128 rows whose
// partial-pivot LU has a reciprocal condition estimate above 1e-8 is nonsingular beyond doubt: its
// minimum-norm solution is its only one, and the two rounds use the LU instead (a blocked
// factorization: the decomposition's column-pivoted Householder updates, a rank-1 update per
// column, were most of a resting 20-level pyramid's step, k = 630: 40 of its 42 ms).

#include <vector>

#include "pivot/lcp/lcp_problem.hpp"

namespace pivot::lcp::detail {

/// The block of solve_active_set(): fill it through block(), then refine(). One per thread
/// (thread_workspace()); its storage stays valid until the next begin() on that thread.
class BlockSolve {
 public:
  /// starts a k × k block: A, the right side and the guess are then written through the maps
  void begin(Eigen::Index k);
  Eigen::Map<Eigen::MatrixXd> block() { return {a_.data(), k_, k_}; }
  Eigen::Map<Eigen::VectorXd> rhs() { return {rhs_.data(), k_}; }
  /// the guess on entry to refine(), the refined answer after it
  Eigen::Map<Eigen::VectorXd> answer() { return {zz_.data(), k_}; }
  /// the two rounds of refinement above; false when the answer is not finite
  bool refine();

 private:
  // the two rounds by the inverse from a partial-pivot LU when the block has k ≤ kSmallLuMax rows
  // and a reciprocal condition number above kWellConditioned; false (the answer untouched)
  // otherwise
  bool refine_well_conditioned(int k);

  Eigen::Index k_ = 0;
  // grown, never shrunk: the block (column-major, leading dimension k), rhs, zz, and the
  // solve's intermediates (r = rhs − A zz, A zz, c, y, A⁺ r, the Householder workspace)
  std::vector<double> a_, rhs_, zz_, work_;
};

/// this thread's BlockSolve
BlockSolve& thread_block_solve();

}  // namespace pivot::lcp::detail
