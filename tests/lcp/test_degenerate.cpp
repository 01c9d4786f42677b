// Degenerate problems built so that the ratio test ties: duplicated rows and columns in M,
// zero entries in q, q with repeated minimum entries, zero ratios on triangular (Murty) matrices.
// Every M here is a P-matrix or positive semidefinite with a feasible q, so Lemke's method with
// the lexicographic rule must end with a solution; answers are checked by their residuals and,
// for small n, against the brute-force solver (exactly, when the solution is unique).
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/residual.hpp"
#include "lcp_test_support.hpp"

using namespace pivot::lcp;
using namespace pivot::test;

namespace {

LcpProblem make(const MatrixXd& M, const VectorXd& q, const std::string& name) {
  LcpProblem p;
  p.M = M;
  p.q = q;
  p.name = name;
  return p;
}

VectorXd vec(std::initializer_list<double> values) {
  VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values) v(i++) = x;
  return v;
}

/// solved, verified by residuals, and consistent with the brute force (n ≤ 12)
void check_solved(const LcpProblem& problem, const LemkeOptions& options = {}) {
  const LcpResult result = solve_lemke(problem, options);
  INFO(problem.name << " (n = " << problem.q.size() << "): status " << to_string(result.status)
                    << ", pivots " << result.pivots << ", message: " << result.message);
  INFO("M =\n"
       << problem.M << "\nq = " << problem.q.transpose() << "\nz = " << result.z.transpose());
  CHECK(result.status == LcpStatus::solved);
  REQUIRE(result.z.size() == problem.q.size());
  CHECK(measure_residuals(problem.M, problem.q, result.z).worst() <= 1e-9);
  CHECK(independent_worst(problem.M, problem.q, result.z) <= 1e-9);
  if (problem.q.size() <= 12) {
    const auto all = brute_force_solutions(problem.M, problem.q);
    INFO(all.size() << " brute-force solutions");
    CHECK(!all.empty());
    const VectorXd unique = brute_force_unique(problem.M, problem.q);
    if (unique.size() == problem.q.size()) {
      INFO("brute force z = " << unique.transpose());
      CHECK(relative_difference(result.z, unique) <= 1e-9);
    }
  }
}

/// Murty's lower-triangular P-matrix: 1 on the diagonal, 2 below (lcp_exp_murty)
MatrixXd murty(int n) {
  MatrixXd M = MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    M(i, i) = 1.0;
    for (int j = 0; j < i; ++j) M(i, j) = 2.0;
  }
  return M;
}

}  // namespace

TEST_CASE("degenerate: duplicated rows and columns", "[lcp][degenerate]") {
  // z₁ + z₂ = 1 is the whole solution set (Cottle–Pang–Stone remark 4.1.14)
  MatrixXd ones2 = MatrixXd::Ones(2, 2);
  check_solved(make(ones2, vec({-1, -1}), "ones 2x2"));
  // the same with identity blocks: [I I; I I], every row duplicated, every q entry tied
  MatrixXd block(6, 6);
  const MatrixXd I3 = MatrixXd::Identity(3, 3);
  block << I3, I3, I3, I3;
  check_solved(make(block, VectorXd::Constant(6, -1.0), "[I I; I I], q = -1"));
  check_solved(make(block, vec({-1, -2, -1, -1, -2, -1}), "[I I; I I], q with repeated minima"));
  check_solved(make(block, vec({0, -1, 0, 0, -1, 0}), "[I I; I I], q with zeros"));
  // three identical rows and columns, plus one independent row
  MatrixXd dup = MatrixXd::Zero(4, 4);
  dup.topLeftCorner(3, 3).setConstant(2.0);
  dup(3, 3) = 1.0;
  check_solved(make(dup, vec({-2, -2, -2, -1}), "three identical rows"));
  check_solved(make(dup, vec({-2, -2, 0, -1}), "three identical rows, a zero in q"));
}

TEST_CASE("degenerate: identity-like matrices with tied q", "[lcp][degenerate]") {
  for (int n : {1, 2, 4, 7}) {
    check_solved(make(MatrixXd::Identity(n, n), VectorXd::Constant(n, -1.0), "identity, q = -1"));
    check_solved(make(MatrixXd::Identity(n, n) + MatrixXd::Ones(n, n), VectorXd::Constant(n, -1.0),
                      "I + 11ᵀ, q = -1"));
    VectorXd q = VectorXd::Zero(n);
    q(n / 2) = -1.0;
    check_solved(make(MatrixXd::Identity(n, n), q, "identity, q zero but one entry"));
    check_solved(
        make(MatrixXd::Identity(n, n) + MatrixXd::Ones(n, n), q, "I + 11ᵀ, q zero but one entry"));
  }
}

TEST_CASE("degenerate: zero ratios on Murty's triangular matrices", "[lcp][degenerate]") {
  for (int n : {3, 6, 8}) {
    const MatrixXd L = murty(n);
    const MatrixXd U = L.transpose();
    VectorXd tied = VectorXd::Constant(n, -1.0);
    VectorXd zeros = VectorXd::Zero(n);
    for (int i = 0; i < n; i += 2) zeros(i) = -1.0;
    VectorXd half = VectorXd::Zero(n);
    for (int i = n / 2; i < n; ++i) half(i) = -2.0;
    for (const auto& [M, label] : {std::pair{L, "Murty L"}, std::pair{U, "Murty U"}}) {
      check_solved(make(M, tied, std::string(label) + ", q = -1"));
      check_solved(make(M, zeros, std::string(label) + ", q alternating 0 / -1"));
      check_solved(make(M, half, std::string(label) + ", q zero then -2"));
      check_solved(make(M, -half, std::string(label) + ", q ≥ 0 with zeros"));
    }
  }
}

TEST_CASE("degenerate: random integer P-matrices with tied and zero q", "[lcp][degenerate]") {
  // strictly diagonally dominant with a positive diagonal (a P-matrix, unique solution),
  // small integers everywhere so that ratios tie often
  std::mt19937 rng(31337);
  std::uniform_int_distribution<int> off(-1, 1), qv(-2, 1);
  for (int n = 2; n <= 8; ++n) {
    for (int trial = 0; trial < 25; ++trial) {
      MatrixXd M(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) M(i, j) = i == j ? n : off(rng);
      VectorXd q(n);
      for (int i = 0; i < n; ++i) q(i) = qv(rng);
      check_solved(make(M, q, "integer P n=" + std::to_string(n) + " #" + std::to_string(trial)));
    }
  }
}

TEST_CASE("degenerate: planted solutions with z_i = w_i = 0 on PSD matrices with duplicated rows",
          "[lcp][degenerate]") {
  // M = BᵀB with duplicated columns of B: PSD, duplicated rows and columns. q = w − M z for a
  // planted complementary pair with small integers and several indices where z_i = w_i = 0.
  // For symmetric PSD M, w is the same for every solution, so it must equal the planted w.
  std::mt19937 rng(2718);
  std::uniform_int_distribution<int> entry(-1, 1), pick(0, 2);
  for (int n = 3; n <= 9; ++n) {
    for (int trial = 0; trial < 8; ++trial) {
      MatrixXd B(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) B(i, j) = entry(rng);
      B.col(n - 1) = B.col(0);  // duplicated column → duplicated row and column of M
      if (n > 4) B.col(n - 2) = B.col(1);
      const MatrixXd M = B.transpose() * B;
      VectorXd z = VectorXd::Zero(n), w = VectorXd::Zero(n);
      for (int i = 0; i < n; ++i) {
        const int kind = pick(rng);  // 0: both zero, 1: z basic, 2: w basic
        if (kind == 1) z(i) = 1.0 + (i % 2);
        if (kind == 2) w(i) = 1.0;
      }
      const LcpProblem problem = make(M, w - M * z, "planted PSD n=" + std::to_string(n));
      check_solved(problem);
      const LcpResult result = solve_lemke(problem);
      if (result.status == LcpStatus::solved) {
        const VectorXd w_found = M * result.z + problem.q;
        INFO(problem.name << ": planted w = " << w.transpose()
                          << ", found w = " << w_found.transpose());
        CHECK(relative_difference(w_found, w) <= 1e-9);
      }
    }
  }
}

TEST_CASE("degenerate: tied problems with a non-uniform covering vector", "[lcp][degenerate]") {
  MatrixXd block(6, 6);
  const MatrixXd I3 = MatrixXd::Identity(3, 3);
  block << I3, I3, I3, I3;
  LemkeOptions options;
  options.covering = vec({1, 2, 3, 1, 2, 3});
  check_solved(make(block, VectorXd::Constant(6, -1.0), "[I I; I I], d = 1 2 3 1 2 3"), options);
  options.covering = vec({2, 1, 1, 2, 1, 1});
  check_solved(make(block, vec({-2, -1, -1, -2, -1, -1}), "[I I; I I], q ∝ d: every ratio tied"),
               options);
  LemkeOptions murty_options;
  murty_options.covering = VectorXd::LinSpaced(6, 1.0, 6.0);
  check_solved(make(murty(6), -VectorXd::LinSpaced(6, 1.0, 6.0), "Murty, q = -d"), murty_options);
}
