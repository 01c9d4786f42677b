// Lemke's basis inverse (lcp/lemke_path.hpp): each pivot updates A⁻¹ in O(k²) by one of four
// moves (grow, column swap, row swap, delete) instead of refactoring the basis block A. Checked
// against the independent answer: a fresh dense LU inverse of the same basis block, after every
// pivot count along the path of random problems, with refactorization switched off, in dense and
// in sparse storage. Every one of the four moves must have been exercised.
#include <catch2/catch.hpp>

#include <array>
#include <random>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lemke_path.hpp"

using namespace pivot::lcp;
using namespace pivot::test;

namespace {

constexpr int kNoRefactor = 1 << 30;

/// the largest drift of the updated A⁻¹ from a refactorization, over pivot counts 1 … the whole
/// path (each count on a fresh solver stopped there); adds the path's moves to `moves`
template <typename Matrix>
double worst_drift_along_path(const Matrix& M, const VectorXd& q, std::array<int, 4>& moves) {
  const VectorXd d = VectorXd::Ones(q.size());
  LemkeOptions options;
  detail::LemkeSolver<Matrix> whole(M, q, d, options);
  const LcpStatus status = whole.run(100 * static_cast<int>(q.size()), kNoRefactor);
  REQUIRE(status == LcpStatus::solved);
  const int path = whole.pivots();
  for (int m = 0; m < 4; ++m) moves[m] += whole.moves()[m];
  double worst = whole.inverse_update_error();
  for (int p = 1; p < path; ++p) {
    detail::LemkeSolver<Matrix> part(M, q, d, options);
    part.run(p, kNoRefactor);
    REQUIRE(part.pivots() == p);
    worst = std::max(worst, part.inverse_update_error());
  }
  return worst;
}

}  // namespace

TEST_CASE("lemke basis updates: the updated inverse matches a dense refactorization along the path",
          "[lcp][lemke]") {
  std::mt19937 rng(20261128);
  std::array<int, 4> moves{};
  double worst = 0.0;
  for (int n : {6, 12, 25, 40}) {
    for (int trial = 0; trial < 4; ++trial) {
      const VectorXd q = random_vector(rng, n, -1.0, 1.0);
      // nonsymmetric positive definite (a P-matrix: the path is finite and ends on the answer)
      const MatrixXd P = random_pd_nonsymmetric(rng, n);
      worst = std::max(worst, worst_drift_along_path<DenseMatrix>(P, q, moves));
      // symmetric positive definite, block sparse, in sparse storage
      const MatrixXd S = block_tridiagonal_spd(rng, n / 3 + 2, 3);
      const VectorXd qs = random_vector(rng, S.rows(), -1.0, 1.0);
      const SparseMatrix Ss = S.sparseView();
      worst = std::max(worst, worst_drift_along_path<SparseMatrix>(Ss, qs, moves));
    }
  }
  INFO("moves: grow " << moves[0] << ", column swap " << moves[1] << ", row swap " << moves[2]
                      << ", delete " << moves[3] << "; worst relative drift " << worst);
  CHECK(worst <= 1e-10);
  for (int m = 0; m < 4; ++m) CHECK(moves[m] > 0);
}
