// The block solve of an active set (lcp/block_solve.hpp) gives the bits of the solve it replaces:
// two rounds of zz += A⁺ (rhs − A zz) with Eigen's CompleteOrthogonalDecomposition<MatrixXd>
// made anew and its own solve(), written out below as the reference; nonsingular blocks of up to
// kSmallLuMax rows, which it may solve through an inverse instead, give the block's only
// solution (a full-pivot LU's) up to rounding. Random blocks of k = 1…40
// (both SmallCod's fixed storage of k ≤ 32, small_cod.hpp, and the dynamic one beyond):
// nonsingular, symmetric rank-deficient (the blocks of redundant contacts), asymmetric
// rank-deficient, and with exactly repeated rows. And the warm start answered in a reused result
// (the reusing solve_lemke) is the general path's answer on a fresh one, field for field.
#include <catch2/catch.hpp>

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "pivot/lcp/block_solve.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/small_lemke.hpp"
#include "pivot/lcp/small_lu.hpp"

using namespace pivot::lcp;
using namespace pivot::lcp::detail;

namespace {

// the solve as solve_active_set() wrote it with a decomposition made for each call
Eigen::VectorXd reference_refine(const Eigen::MatrixXd& A, const Eigen::VectorXd& rhs,
                                 Eigen::VectorXd zz) {
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
  for (int round = 0; round < 2; ++round) zz += cod.solve(Eigen::VectorXd(rhs - A * zz));
  return zz;
}

bool same_bits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0;
}

Eigen::MatrixXd random_block(std::mt19937_64& rng, int k, int kind) {
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> rank_of(1, k);
  const auto gaussian = [&](int rows, int cols) {
    Eigen::MatrixXd G(rows, cols);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) G(i, j) = normal(rng);
    return G;
  };
  switch (kind) {
    case 0:  // nonsingular (almost surely), diagonally weighted like a Delassus block
      return gaussian(k, k) + 3.0 * Eigen::MatrixXd::Identity(k, k);
    case 1: {  // symmetric PSD of rank r
      const Eigen::MatrixXd B = gaussian(k, rank_of(rng));
      return B * B.transpose();
    }
    case 2: {  // asymmetric of rank r
      const int r = rank_of(rng);
      return gaussian(k, r) * gaussian(r, k);
    }
    default: {  // exactly repeated rows (two contacts at one point)
      Eigen::MatrixXd A = gaussian(k, k);
      for (int i = 1; i < k; i += 3) A.row(i) = A.row(i - 1);
      return A;
    }
  }
}

// A nonsingular block of k ≤ kSmallLuMax rows: when it is well conditioned (rcond > 1e-6 by a
// full-pivot LU made here) the block solve uses the inverse of a partial-pivot LU (block_solve.hpp)
// and its answer is the block's only solution up to rounding; when it is not, either that or the
// decomposition's minimum-norm answer, which for a nonsingular block is the same solution: the
// residual is then what is checked
bool matches_small_block(const Eigen::MatrixXd& A, const Eigen::VectorXd& rhs,
                         const Eigen::VectorXd& got) {
  const Eigen::FullPivLU<Eigen::MatrixXd> exact(A);
  const Eigen::VectorXd expected = exact.solve(rhs);
  if (exact.rcond() > 1e-6)
    return (got - expected).lpNorm<Eigen::Infinity>() <=
           1e-10 * std::max(1.0, expected.lpNorm<Eigen::Infinity>());
  const double scale =
      A.cwiseAbs().maxCoeff() * got.lpNorm<Eigen::Infinity>() + rhs.lpNorm<Eigen::Infinity>();
  return (A * got - rhs).lpNorm<Eigen::Infinity>() <= 1e-9 * scale;
}

}  // namespace

TEST_CASE("the reused block solve gives the bits of a decomposition made anew",
          "[lcp][block_solve]") {
  std::mt19937_64 rng(20260);
  std::normal_distribution<double> normal;
  int compared = 0, deficient = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int k = 1 + trial % 40, kind = (trial / 40) % 4;
    const Eigen::MatrixXd A = random_block(rng, k, kind);
    Eigen::VectorXd rhs(k), guess(k);
    for (int i = 0; i < k; ++i) {
      rhs(i) = normal(rng);
      guess(i) = trial % 2 == 0 ? 0.0 : normal(rng);
    }
    const Eigen::VectorXd expected = reference_refine(A, rhs, guess);
    BlockSolve& solve = thread_block_solve();
    solve.begin(k);
    solve.block() = A;
    solve.rhs() = rhs;
    solve.answer() = guess;
    const bool finite = solve.refine();
    const Eigen::VectorXd got = solve.answer();
    INFO("trial " << trial << ", k = " << k << ", kind " << kind);
    const bool deficient_block =
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(A).rank() < k;
    if (k <= kSmallLuMax && !deficient_block) {
      // solved with an inverse when well conditioned: not the decomposition's bits
      CHECK(matches_small_block(A, rhs, got));
      continue;
    }
    CHECK(finite == expected.allFinite());
    CHECK(same_bits(got, expected));
    ++compared;
    if (deficient_block) ++deficient;
  }
  CHECK(compared > 2000);
  CHECK(deficient > 1000);  // the minimum-norm branch (Zᵀ) is exercised, not only T⁻¹
}

// ties in the column norms (the first column of largest norm is the pivot), zero columns and
// columns of wide magnitude, and exact zeros in the right-hand side (the triangular solve skips
// them): SmallCod's decisions and sums follow Eigen's there too
TEST_CASE("the block solve's bits with ties, zero columns and zeros on the right",
          "[lcp][block_solve]") {
  std::mt19937_64 rng(7301);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> small_int(-2, 2);
  for (int trial = 0; trial < 3200; ++trial) {
    const int k = 1 + trial % 32, kind = (trial / 32) % 2;
    Eigen::MatrixXd A(k, k);
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i)
        A(i, j) = kind == 0 ? small_int(rng) : normal(rng) * std::exp2(10 * small_int(rng));
    if (kind == 1 && k > 1)
      A.col(static_cast<Eigen::Index>(rng() % static_cast<unsigned>(k))).setZero();
    Eigen::VectorXd rhs(k);
    for (int i = 0; i < k; ++i) rhs(i) = i % 3 == 0 ? 0.0 : normal(rng);
    const Eigen::VectorXd expected = reference_refine(A, rhs, Eigen::VectorXd::Zero(k));
    BlockSolve& solve = thread_block_solve();
    solve.begin(k);
    solve.block() = A;
    solve.rhs() = rhs;
    solve.answer().setZero();
    const bool finite = solve.refine();
    INFO("trial " << trial << ", k = " << k << ", kind " << kind);
    if (k <= kSmallLuMax && Eigen::FullPivLU<Eigen::MatrixXd>(A).rank() == k) {
      CHECK(matches_small_block(A, rhs, solve.answer()));
      continue;
    }
    CHECK(finite == expected.allFinite());
    CHECK(same_bits(solve.answer(), expected));
  }
}

TEST_CASE("a warm start answered in a reused result is the general path's answer",
          "[lcp][block_solve][warm_start]") {
  // contact-like LCPs w = (B Bᵀ + εI) z + q of n = 4…60 with the active set of their own answer
  // (accepted) or a perturbed one (often rejected: then both go on along Lemke's path)
  std::mt19937_64 rng(4242);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> coin(0, 3);
  LcpResult reused;
  int warm = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int n = 4 + trial % 57;
    LcpProblem p;
    Eigen::MatrixXd B(n, n / 2 + 1);
    for (int j = 0; j < B.cols(); ++j)
      for (int i = 0; i < n; ++i) B(i, j) = normal(rng);
    p.M = B * B.transpose() + 1e-3 * Eigen::MatrixXd::Identity(n, n);
    p.q.resize(n);
    for (int i = 0; i < n; ++i) p.q(i) = normal(rng);
    const LcpResult cold = solve_lemke_general(p);
    REQUIRE(cold.ok());
    LemkeOptions options;
    std::vector<int> guess = cold.active_set;
    if (trial % 3 == 2 && !guess.empty()) guess.erase(guess.begin() + coin(rng) % guess.size());
    options.warm_start = guess;
    const LcpResult fresh = solve_lemke_general(p, options);
    solve_lemke(p, options, reused);
    INFO("trial " << trial << ", n = " << n);
    REQUIRE(reused.status == fresh.status);
    CHECK(reused.path == fresh.path);
    CHECK(same_bits(reused.z, fresh.z));
    CHECK(same_bits(reused.w, fresh.w));
    CHECK(reused.active_set == fresh.active_set);
    CHECK(reused.pivots == fresh.pivots);
    CHECK(reused.attempt == fresh.attempt);
    CHECK(reused.equilibrated == fresh.equilibrated);
    CHECK(reused.message == fresh.message);
    CHECK(reused.residuals.min_z == fresh.residuals.min_z);
    CHECK(reused.residuals.min_w == fresh.residuals.min_w);
    CHECK(reused.residuals.max_complementarity == fresh.residuals.max_complementarity);
    CHECK(reused.residuals.rounding_share == fresh.residuals.rounding_share);
    if (fresh.path == StartPath::warm_start) ++warm;
  }
  CHECK(warm > 300);
}

// Blocks beyond kLuBlock rows (block_solve.cpp) that are well conditioned are solved by a
// partial-pivot LU instead of the complete orthogonal decomposition: the same solution, their
// only one, up to rounding (checked against a full-pivot LU of the block made here); a singular
// block still gets the decomposition's minimum-norm answer.
TEST_CASE("large blocks: well-conditioned ones solved exactly, singular ones by minimum norm",
          "[lcp][block_solve]") {
  std::mt19937_64 rng(91);
  std::normal_distribution<double> normal;
  int nonsingular = 0, singular = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const int k = 129 + 7 * trial, kind = trial % 4;
    const Eigen::MatrixXd A = random_block(rng, k, kind);
    Eigen::VectorXd rhs(k);
    for (int i = 0; i < k; ++i) rhs(i) = normal(rng);
    BlockSolve& solve = thread_block_solve();
    solve.begin(k);
    solve.block() = A;
    solve.rhs() = rhs;
    solve.answer().setZero();
    REQUIRE(solve.refine());
    const Eigen::VectorXd got = solve.answer();
    INFO("trial " << trial << ", k = " << k << ", kind " << kind);
    const Eigen::FullPivLU<Eigen::MatrixXd> exact(A);
    if (exact.rank() == k && exact.rcond() > 1e-6) {
      const Eigen::VectorXd expected = exact.solve(rhs);
      CHECK((got - expected).lpNorm<Eigen::Infinity>() <=
            1e-10 * std::max(1.0, expected.lpNorm<Eigen::Infinity>()));
      ++nonsingular;
    } else if (exact.rank() < k) {
      // (beyond about 40 rows the reference's own solve applies Q blockwise: the same answer, not
      // the same bits; an LU of such a block would answer with entries of 1e12 and more)
      const Eigen::VectorXd expected = reference_refine(A, rhs, Eigen::VectorXd::Zero(k));
      CHECK((got - expected).lpNorm<Eigen::Infinity>() <=
            1e-6 * std::max(1.0, expected.lpNorm<Eigen::Infinity>()));
      ++singular;
    }
  }
  CHECK(nonsingular >= 5);
  CHECK(singular >= 12);
}

// A block whose bits repeat the last one of its size reuses the inverse kept with it (a resting
// or rolling contact's block, step after step): the answer is the bits of one computed anew
TEST_CASE("a repeated block's kept inverse gives the bits of one computed anew",
          "[lcp][block_solve]") {
  std::mt19937_64 rng(515);
  std::normal_distribution<double> normal;
  auto run = [](const Eigen::MatrixXd& A, const Eigen::VectorXd& rhs,
                const Eigen::VectorXd& guess) {
    BlockSolve& solve = thread_block_solve();
    solve.begin(A.rows());
    solve.block() = A;
    solve.rhs() = rhs;
    solve.answer() = guess;
    REQUIRE(solve.refine());
    return Eigen::VectorXd(solve.answer());
  };
  for (int trial = 0; trial < 400; ++trial) {
    const int k = 1 + trial % kSmallLuMax;
    const Eigen::MatrixXd A = random_block(rng, k, 0), other = random_block(rng, k, 0);
    Eigen::VectorXd rhs(k), guess(k);
    for (int i = 0; i < k; ++i) rhs(i) = normal(rng), guess(i) = normal(rng);
    run(A, guess, rhs);                     // A's inverse kept
    const auto kept = run(A, rhs, guess);   // the same block again: the kept inverse
    run(other, rhs, guess);                 // another block of the same size replaces it
    const auto fresh = run(A, rhs, guess);  // A's inverse computed anew
    INFO("trial " << trial << ", k = " << k);
    CHECK(same_bits(kept, fresh));
    CHECK(matches_small_block(A, rhs, fresh));
  }
}
