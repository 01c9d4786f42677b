// Sparse storage: Lemke, the warm start and the residual check read a sparse M directly (no n × n
// expansion below 25 % fill), and a sparse mixed LCP is reduced to a sparse 𝓜. Checked against
// the brute-force solver, the planted solutions and the dense storage of the same problems.
#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <vector>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/mixed_lcp.hpp"
#include "pivot/lcp/residual.hpp"

using namespace pivot::lcp;
using namespace pivot::test;

namespace {

SparseMatrix sparse_of(const MatrixXd& M) {
  return M.sparseView();
}

bool sparse_path(const SparseMatrix& M) {  // the rule of solve_lemke(SparseLcpProblem)
  return static_cast<double>(M.nonZeros()) <= 0.25 * static_cast<double>(M.rows() * M.rows());
}

}  // namespace

TEST_CASE("sparse Lemke: block-sparse P-matrix LCPs match the brute force", "[lcp][sparse]") {
  std::mt19937 rng(777);
  for (int blocks : {12, 13, 14}) {  // tridiagonal: 20–24 % fill
    for (int trial = 0; trial < 3; ++trial) {
      const MatrixXd M = block_tridiagonal_spd(rng, blocks, 1);
      const VectorXd q = random_vector(rng, M.rows());
      const SparseLcpProblem problem{sparse_of(M), q, "block-sparse"};
      REQUIRE(sparse_path(problem.M));
      const VectorXd expected = brute_force_unique(M, q);
      REQUIRE(expected.size() == q.size());
      const LcpResult result = solve_lemke(problem);
      INFO("blocks " << blocks << " trial " << trial << ": " << to_string(result.status) << ", "
                     << result.message);
      REQUIRE(result.ok());
      CHECK(relative_difference(result.z, expected) <= 1e-9);
      CHECK(independent_worst(M, q, result.z) <= 1e-9);
    }
  }
}

TEST_CASE("sparse Lemke: larger problems give the dense storage's unique answer", "[lcp][sparse]") {
  std::mt19937 rng(4242);
  for (int blocks : {20, 40}) {
    // non-symmetric with a positive-definite symmetric part: a P-matrix, so the answer is unique
    MatrixXd M = block_tridiagonal_spd(rng, blocks, 6);
    for (Eigen::Index i = 0; i + 1 < M.rows(); ++i) {
      M(i, i + 1) += 0.3;
      M(i + 1, i) -= 0.3;
    }
    const VectorXd q = random_vector(rng, M.rows());
    const SparseLcpProblem sparse{sparse_of(M), q, "sparse"};
    REQUIRE(sparse_path(sparse.M));
    const LcpResult s = solve_lemke(sparse);
    const LcpResult d = solve_lemke(LcpProblem{M, q, "dense"});
    INFO("n = " << q.size() << ": sparse " << to_string(s.status) << " (" << s.pivots
                << " pivots), dense " << to_string(d.status) << " (" << d.pivots << " pivots)");
    REQUIRE(s.ok());
    REQUIRE(d.ok());
    CHECK(independent_worst(M, q, s.z) <= 1e-9);
    CHECK(relative_difference(s.z, d.z) <= 1e-9);
    CHECK(s.pivots == d.pivots);  // the same path: only the storage differs
  }
}

TEST_CASE("sparse Lemke: degenerate problems break their ties as in dense storage",
          "[lcp][sparse][degenerate]") {
  // M = BᵀB for a block-bidiagonal B of small integers, each block's last column a copy of its
  // first (duplicated rows and columns of M: PSD, rank-deficient), and q = w − M z for a planted
  // complementary pair with many z_i = w_i = 0 (zero ratios): the ratio test ties at almost
  // every pivot, as on a box pyramid's friction rows. The sparse storage resolves the ties on
  // compact rows of B⁻¹ with products over the stored entries of M's rows (lemke_path.hpp,
  // lex_row); the dense storage forms the full rows: both must take the same path.
  std::mt19937 rng(8128);
  std::uniform_int_distribution<int> entry(-1, 1), pick(0, 2);
  for (int blocks : {12, 20}) {
    for (int trial = 0; trial < 4; ++trial) {
      const int b = 5, n = blocks * b;
      MatrixXd B = MatrixXd::Zero(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (j / b == i / b || j / b == i / b + 1) B(i, j) = entry(rng);
      for (int k = 0; k < blocks; ++k) B.col(k * b + b - 1) = B.col(k * b);
      // odd trials: q = −1, every row tied at the start, the lexicographic rule deciding among
      // the w's from the first pivot on (a solution need not exist: then both storages must end
      // the same way after the same pivots)
      const bool all_tied = trial % 2 == 1;
      const MatrixXd M = B.transpose() * B;
      VectorXd z = VectorXd::Zero(n), w = VectorXd::Zero(n);
      for (int i = 0; i < n; ++i) {
        const int kind = pick(rng);  // 0: both zero, 1: z basic, 2: w basic
        if (kind == 1) z(i) = 1.0 + (i % 2);
        if (kind == 2) w(i) = 1.0;
      }
      const VectorXd q = all_tied ? VectorXd(VectorXd::Constant(n, -1.0)) : VectorXd(w - M * z);
      const SparseLcpProblem sparse{sparse_of(M), q, "degenerate sparse"};
      REQUIRE(sparse_path(sparse.M));
      const LcpResult s = solve_lemke(sparse);
      const LcpResult d = solve_lemke(LcpProblem{M, q, "degenerate dense"});
      INFO("n = " << n << " trial " << trial << ": sparse " << to_string(s.status) << " ("
                  << s.pivots << " pivots, attempt " << s.attempt << "), dense "
                  << to_string(d.status) << " (" << d.pivots << " pivots, attempt " << d.attempt
                  << ")");
      CHECK(s.status == d.status);
      CHECK(s.pivots == d.pivots);
      CHECK(s.attempt == d.attempt);
      CHECK(s.active_set == d.active_set);
      CHECK(relative_difference(s.z, d.z) <= 1e-9);
      if (all_tied) continue;
      REQUIRE(s.ok());
      CHECK(independent_worst(M, q, s.z) <= 1e-9);
      // symmetric PSD: every solution has the same w, the planted one
      CHECK(relative_difference(VectorXd(M * s.z + q), w) <= 1e-9);
    }
  }
}

TEST_CASE("sparse Lemke: the warm start is accepted in sparse storage", "[lcp][sparse]") {
  std::mt19937 rng(99);
  const MatrixXd M = block_tridiagonal_spd(rng, 30, 4);
  const PlantedLcp planted = plant_solution(rng, M, 0.5, "planted sparse");
  LemkeOptions options;
  options.warm_start = planted.active;
  const LcpResult r =
      solve_lemke(SparseLcpProblem{sparse_of(M), planted.problem.q, "planted"}, options);
  REQUIRE(r.ok());
  CHECK(r.path == StartPath::warm_start);
  CHECK(r.pivots == 0);
  CHECK(relative_difference(r.z, planted.z) <= 1e-10);
}

TEST_CASE("sparse residuals equal the dense ones", "[lcp][sparse][residual]") {
  std::mt19937 rng(5);
  const MatrixXd M = block_tridiagonal_spd(rng, 10, 3);
  for (int trial = 0; trial < 5; ++trial) {
    const VectorXd q = random_vector(rng, M.rows());
    VectorXd z = random_vector(rng, M.rows(), -0.2, 1.0);
    for (Eigen::Index i = 0; i < z.size(); i += 3) z(i) = 0.0;
    VectorXd wd, ws;
    const LcpResiduals d = measure_residuals(M, q, z, &wd);
    const LcpResiduals s = measure_residuals(sparse_of(M), q, z, &ws);
    CHECK(s.min_z == Approx(d.min_z).margin(1e-15));
    CHECK(s.min_w == Approx(d.min_w).margin(1e-14));
    CHECK(s.max_complementarity == Approx(d.max_complementarity).margin(1e-14));
    CHECK((ws - wd).cwiseAbs().maxCoeff() <= 1e-14);
    CHECK((wd - (M * z + q)).cwiseAbs().maxCoeff() == 0.0);
  }
}

TEST_CASE("sparse Lemke: a non-finite entry is reported, not solved", "[lcp][sparse][invalid]") {
  MatrixXd M = MatrixXd::Identity(4, 4);
  M(2, 1) = std::numeric_limits<double>::quiet_NaN();
  const LcpResult r = solve_lemke(SparseLcpProblem{sparse_of(M), VectorXd::Constant(4, -1.0), ""});
  CHECK(r.status == LcpStatus::invalid_input);
  CHECK(r.message == "M(2, 1) is not finite (nan)");
}

TEST_CASE("sparse mixed LCP: a contact-like island is reduced sparsely and solved exactly",
          "[lcp][sparse][mixed]") {
  // P: block-diagonal SPD 6 × 6 masses of `bodies` bodies; G: each row touches two neighbouring
  // bodies (12 entries), Q = −Gᵀ, K = G, S = 0.1 I; so 𝓜 = S + G P⁻¹ Gᵀ is positive definite and
  // sparse. The solution (x, z, w) is planted.
  std::mt19937 rng(31337);
  const int bodies = 30, rows = 4 * (bodies - 1), n = 6 * bodies;
  MatrixXd P = MatrixXd::Zero(n, n), G = MatrixXd::Zero(rows, n);
  for (int b = 0; b < bodies; ++b) P.block(6 * b, 6 * b, 6, 6) = random_spd(rng, 6, 0.5);
  for (int r = 0; r < rows; ++r) {
    const int a = r / 4;
    G.block(r, 6 * a, 1, 6) = random_matrix(rng, 1, 6);
    G.block(r, 6 * (a + 1), 1, 6) = random_matrix(rng, 1, 6);
  }
  const MatrixXd S = 0.1 * MatrixXd::Identity(rows, rows);
  const PlantedLcp planted = plant_solution(rng, MatrixXd::Identity(rows, rows));  // z, w only
  const VectorXd x = random_vector(rng, n);
  MixedLcpProblem dense{P, -G.transpose(), G, S, VectorXd(), VectorXd(), "contact-like"};
  dense.u = -(P * x + dense.Q * planted.z);
  dense.v = planted.w - G * x - S * planted.z;
  const SparseMixedLcpProblem sparse{
      P.sparseView(), dense.Q.sparseView(), G.sparseView(), S.sparseView(), dense.u,
      dense.v,        "contact-like"};
  const LcpProblem reduced = reduce_mixed_lcp(dense);
  REQUIRE(sparse_path(reduced.M.sparseView()));
  const MixedLcpResult r = solve_mixed_lcp(sparse);
  INFO(to_string(r.lcp.status) << ": " << r.lcp.message);
  REQUIRE(r.ok());
  CHECK(relative_difference(r.lcp.z, planted.z) <= 1e-10);
  CHECK(relative_difference(r.x, x) <= 1e-10);
  CHECK(r.free_residual <= 1e-12);
  CHECK(independent_worst(reduced.M, reduced.q, r.lcp.z) <= 1e-12);
}

// The scale decision (docs/lcp.md, "Scaling") reads a compressed sparse M's arrays directly: it
// must decide as the dense copy and an uncompressed copy do, for rows spread beyond 2^40 and for
// an entry of q beyond 2^500 (the entries of q are tested apart from M's).
TEST_CASE("sparse Lemke: the scale decision of sparse storage is the dense storage's",
          "[lcp][sparse][scale]") {
  std::mt19937 rng(2718);
  const MatrixXd base = block_tridiagonal_spd(rng, 20, 1);  // n = 20, 14 % fill
  const VectorXd q0 = random_vector(rng, base.rows());
  struct Case {
    const char* name;
    MatrixXd M;
    VectorXd q;
    bool equilibrated;  // what the rule says, independently of the code
  };
  std::vector<Case> cases;
  cases.push_back({"as generated", base, q0, false});
  {
    MatrixXd M = base;
    M.row(7) *= std::ldexp(1.0, 45);  // rows 2^45 apart
    cases.push_back({"one row scaled by 2^45", M, q0, true});
  }
  {
    VectorXd q = q0;
    q(5) = -1e160;  // beyond 2^500, in q alone
    cases.push_back({"an entry of q of -1e160", base, q, true});
  }
  for (const Case& c : cases) {
    INFO(c.name);
    SparseMatrix compressed = sparse_of(c.M);
    REQUIRE(sparse_path(compressed));
    SparseMatrix uncompressed = compressed;
    uncompressed.uncompress();
    const LcpResult dense = solve_lemke(LcpProblem{c.M, c.q, "dense"});
    const LcpResult sparse = solve_lemke(SparseLcpProblem{compressed, c.q, "sparse"});
    const LcpResult loose = solve_lemke(SparseLcpProblem{uncompressed, c.q, "uncompressed"});
    CHECK(dense.equilibrated == c.equilibrated);
    CHECK(sparse.equilibrated == c.equilibrated);
    CHECK(loose.equilibrated == c.equilibrated);
    CHECK(sparse.status == dense.status);
    CHECK(loose.status == dense.status);
    if (!dense.ok()) continue;  // (q of −1e160: no answer is verifiable in double, either storage)
    CHECK(relative_difference(sparse.z, dense.z) <= 1e-9);
    CHECK(relative_difference(loose.z, dense.z) <= 1e-9);
  }
}
