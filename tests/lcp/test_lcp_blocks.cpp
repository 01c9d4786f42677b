// Decoupled blocks (lcp_blocks.hpp): the blocks of M's pattern, and problems that split into
// blocks in very different units, each block's answer against its closed form.
#include <catch2/catch.hpp>

#include <vector>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lcp_blocks.hpp"
#include "pivot/lcp/lemke.hpp"

using namespace pivot::lcp;
using namespace pivot::test;
using pivot::lcp::detail::decoupled_blocks;

namespace {

/// the 2 × 2 P-matrix block [[2, 1], [1, 3]] with q = (−1, −2): w = 0 at z = M⁻¹(−q) =
/// (3·1 − 1·2, −1·1 + 2·2) / 5 = (0.2, 0.6) > 0, the only solution (a P-matrix)
constexpr double kA[2][2] = {{2.0, 1.0}, {1.0, 3.0}};
constexpr double kQ[2] = {-1.0, -2.0};
constexpr double kZ[2] = {0.2, 0.6};

}  // namespace

TEST_CASE("lcp blocks: the connected components of M's pattern, ordered by smallest index",
          "[lcp][blocks]") {
  // 0 — 3 through M(0, 3) alone (one direction is enough), 1 — 4 — 2 through M(4, 1) and
  // M(2, 4), 5 alone (a zero row and column)
  MatrixXd M = MatrixXd::Zero(6, 6);
  M(0, 0) = M(1, 1) = M(2, 2) = M(3, 3) = M(4, 4) = 1.0;
  M(0, 3) = 0.5;
  M(4, 1) = -2.0;
  M(2, 4) = 3.0;
  const std::vector<std::vector<int>> expected{{0, 3}, {1, 2, 4}, {5}};
  CHECK(decoupled_blocks(M) == expected);
  const SparseMatrix S = M.sparseView();
  CHECK(decoupled_blocks(S) == expected);
  M(5, 0) = 1e-300;  // any stored nonzero links
  CHECK(decoupled_blocks(M) == std::vector<std::vector<int>>{{0, 3, 5}, {1, 2, 4}});
  CHECK(decoupled_blocks(MatrixXd::Zero(0, 0)).empty());
}

TEST_CASE("lcp blocks: blocks in units 1e12 apart each get their own answer to full precision",
          "[lcp][blocks][scale]") {
  // three copies of the block above, the second with its columns in units 1e-12 (its z is 1e12
  // larger), the third with its rows in units 1e12 (the same z): z entries 1e12 apart, which
  // the solver takes to the equilibrated path (spread beyond 2^40), where each block, in balance
  // by itself, is solved as given
  const double c[3] = {1.0, 1e-12, 1.0}, r[3] = {1.0, 1.0, 1e12};
  MatrixXd M = MatrixXd::Zero(6, 6);
  VectorXd q(6), expected(6);
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < 2; ++i) {
      q(2 * b + i) = r[b] * kQ[i];
      expected(2 * b + i) = kZ[i] / c[b];
      for (int j = 0; j < 2; ++j) M(2 * b + i, 2 * b + j) = r[b] * kA[i][j] * c[b];
    }
  for (const bool sparse : {false, true}) {
    INFO((sparse ? "sparse" : "dense"));
    const LcpResult res = sparse ? solve_lemke(SparseLcpProblem{M.sparseView(), q, "blocks"})
                                 : solve_lemke(LcpProblem{M, q, "blocks"});
    REQUIRE(res.ok());
    CHECK(!res.equilibrated);
    CHECK(res.active_set == std::vector<int>{0, 1, 2, 3, 4, 5});
    // each entry to 1e-12 of itself, the small block's as well as the large one's
    for (int i = 0; i < 6; ++i) CHECK(res.z(i) == Approx(expected(i)).epsilon(1e-12));
  }
}

TEST_CASE("lcp blocks: a block with no solution fails the whole, and says which block",
          "[lcp][blocks]") {
  // block 0 as above; block 1 is w = 0·z − 1, which no z ≥ 0 makes ≥ 0 (Lemke ends on a ray);
  // column 0 in units 1e-13 makes the solver take the equilibrated path from the start
  MatrixXd M = MatrixXd::Zero(3, 3);
  M(0, 0) = kA[0][0] * 1e-13;
  M(0, 1) = kA[0][1];
  M(1, 0) = kA[1][0] * 1e-13;
  M(1, 1) = kA[1][1];
  const VectorXd q = (VectorXd(3) << kQ[0], kQ[1], -1.0).finished();
  const LcpResult res = solve_lemke(LcpProblem{M, q, "blocks"});
  CHECK(res.status == LcpStatus::ray_termination);
  CHECK_THAT(res.message, Catch::Contains("block 1 (1 rows"));
  CHECK(res.active_set.empty());
}
