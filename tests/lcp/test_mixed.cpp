// Mixed LCPs: problems built around a known solution (x, z, w) are solved exactly; the reduction
// matches the Schur complement computed here; a singular P is reported with its dependent rows,
// and solves once a regularization is given.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/mixed_lcp.hpp"

using namespace pivot::lcp;
using namespace pivot::test;

namespace {

struct PlantedMixed {
  MixedLcpProblem problem;
  VectorXd x, z, w;
};

/// u and v chosen so that (x, z, w) solves [0; w] = [P Q; K S][x; z] + [u; v] with z ⊥ w
PlantedMixed plant(std::mt19937& rng, MatrixXd P, MatrixXd Q, MatrixXd K, MatrixXd S,
                   const std::string& name) {
  PlantedMixed out;
  const auto n = P.rows();
  const auto m = S.rows();
  out.x = random_vector(rng, n, -2.0, 2.0);
  out.z = VectorXd::Zero(m);
  out.w = VectorXd::Zero(m);
  std::uniform_real_distribution<double> coin(0.0, 1.0), value(0.5, 1.5);
  for (Eigen::Index i = 0; i < m; ++i) (coin(rng) < 0.5 ? out.z(i) : out.w(i)) = value(rng);
  out.problem.u = -(P * out.x + Q * out.z);
  out.problem.v = out.w - (K * out.x + S * out.z);
  out.problem.P = std::move(P);
  out.problem.Q = std::move(Q);
  out.problem.K = std::move(K);
  out.problem.S = std::move(S);
  out.problem.name = name;
  return out;
}

void check_planted(const PlantedMixed& planted, const MixedLcpResult& result) {
  INFO(planted.problem.name << ": status " << to_string(result.lcp.status) << ", pivots "
                            << result.lcp.pivots << ", message: " << result.lcp.message);
  CHECK(result.lcp.status == LcpStatus::solved);
  CHECK(result.singular_rows.empty());
  CHECK_FALSE(result.regularized);
  REQUIRE(result.x.size() == planted.x.size());
  REQUIRE(result.lcp.z.size() == planted.z.size());
  INFO("x = " << result.x.transpose() << "\nexpected " << planted.x.transpose());
  INFO("z = " << result.lcp.z.transpose() << "\nexpected " << planted.z.transpose());
  CHECK(relative_difference(result.x, planted.x) <= 1e-9);
  CHECK(relative_difference(result.lcp.z, planted.z) <= 1e-9);
  if (result.lcp.w.size() == planted.w.size())
    CHECK(relative_difference(result.lcp.w, planted.w) <= 1e-9);
  CHECK(result.free_residual <= 1e-9);
}

/// the SPD case: the blocks of one SPD matrix (K = Qᵀ), so the reduced matrix is SPD
PlantedMixed symmetric_case(std::mt19937& rng, int n, int m) {
  const MatrixXd H = random_spd(rng, n + m);
  return plant(rng, H.topLeftCorner(n, n), H.topRightCorner(n, m), H.bottomLeftCorner(m, n),
               H.bottomRightCorner(m, m), "SPD blocks");
}

/// a dynamics step: P = mass matrix, Q = −Jᵀ, K = J, S = 0; the reduced matrix J P⁻¹ Jᵀ is SPD
PlantedMixed saddle_case(std::mt19937& rng, int n, int m) {
  const MatrixXd mass = random_spd(rng, n, 1.0);
  const MatrixXd J = random_matrix(rng, m, n);
  return plant(rng, mass, -J.transpose(), J, MatrixXd::Zero(m, m), "saddle point");
}

/// non-symmetric blocks, with S chosen so that the reduced matrix is a P-matrix
PlantedMixed nonsymmetric_case(std::mt19937& rng, int n, int m) {
  const MatrixXd P = 3.0 * MatrixXd::Identity(n, n) + random_matrix(rng, n, n);
  const MatrixXd Q = random_matrix(rng, n, m);
  const MatrixXd K = random_matrix(rng, m, n);
  const MatrixXd S = K * P.inverse() * Q + random_pd_nonsymmetric(rng, m);
  return plant(rng, P, Q, K, S, "non-symmetric");
}

SparseMixedLcpProblem to_sparse(const MixedLcpProblem& p) {
  SparseMixedLcpProblem s;
  s.P = p.P.sparseView();
  s.Q = p.Q.sparseView();
  s.K = p.K.sparseView();
  s.S = p.S.sparseView();
  s.u = p.u;
  s.v = p.v;
  s.name = p.name;
  return s;
}

/// P = B Bᵀ with rows 1 and 3 of B equal: PSD, rows (and columns) 1 and 3 of P equal, rank 4.
/// Q = P R and u = P s lie in the range of P, so the free rows stay consistent.
MixedLcpProblem singular_case(std::mt19937& rng) {
  const int n = 5, m = 3;
  MatrixXd B = random_matrix(rng, n, n);
  B.row(3) = B.row(1);
  MatrixXd P = B * B.transpose();
  P.row(3) = P.row(1);  // exactly equal, not just up to rounding
  P.col(3) = P.col(1);
  P(3, 3) = P(1, 1);
  const MatrixXd R = random_matrix(rng, n, m);
  MixedLcpProblem p;
  p.P = P;
  p.Q = P * R;
  p.Q.row(3) = p.Q.row(1);
  p.K = p.Q.transpose();
  p.S = R.transpose() * P * R + random_spd(rng, m);
  p.u = P * random_vector(rng, n);
  p.u(3) = p.u(1);
  p.v = random_vector(rng, m);
  p.name = "singular P (rows 1 and 3 equal)";
  return p;
}

}  // namespace

TEST_CASE("mixed: problems with a known solution are solved exactly", "[lcp][mixed]") {
  std::mt19937 rng(8080);
  for (auto [n, m] : {std::pair{1, 1}, std::pair{3, 4}, std::pair{6, 10}, std::pair{20, 30}}) {
    INFO("n = " << n << ", m = " << m);
    const PlantedMixed a = symmetric_case(rng, n, m);
    check_planted(a, solve_mixed_lcp(a.problem));
    const PlantedMixed b =
        saddle_case(rng, n + m, m);  // more unknowns than constraints: J full row rank
    check_planted(b, solve_mixed_lcp(b.problem));
    const PlantedMixed c = nonsymmetric_case(rng, n, m);
    check_planted(c, solve_mixed_lcp(c.problem));
  }
}

TEST_CASE("mixed: the sparse problem gives the same answer", "[lcp][mixed][sparse]") {
  std::mt19937 rng(9090);
  const PlantedMixed a = saddle_case(rng, 12, 5);
  check_planted(a, solve_mixed_lcp(to_sparse(a.problem)));
  const PlantedMixed b = nonsymmetric_case(rng, 4, 6);
  check_planted(b, solve_mixed_lcp(to_sparse(b.problem)));
}

TEST_CASE("mixed: the reduction is the Schur complement", "[lcp][mixed]") {
  std::mt19937 rng(1234);
  const PlantedMixed c = nonsymmetric_case(rng, 4, 5);
  const MixedLcpProblem& p = c.problem;
  const MatrixXd Pinv = p.P.inverse();
  const MatrixXd expected_M = p.S - p.K * Pinv * p.Q;
  const VectorXd expected_q = p.v - p.K * Pinv * p.u;
  const LcpProblem reduced = reduce_mixed_lcp(p);
  REQUIRE(reduced.M.rows() == 5);
  REQUIRE(reduced.M.cols() == 5);
  REQUIRE(reduced.q.size() == 5);
  CHECK((reduced.M - expected_M).cwiseAbs().maxCoeff() <= 1e-12 * expected_M.cwiseAbs().maxCoeff());
  CHECK((reduced.q - expected_q).cwiseAbs().maxCoeff() <= 1e-12 * expected_q.cwiseAbs().maxCoeff());
  // and the planted z solves the reduced LCP
  CHECK(independent_worst(reduced.M, reduced.q, c.z) <= 1e-12);
}

TEST_CASE("mixed: a singular P is reported with its dependent rows", "[lcp][mixed][singular]") {
  std::mt19937 rng(4711);
  const MixedLcpProblem p = singular_case(rng);
  REQUIRE_FALSE(Eigen::FullPivLU<MatrixXd>(p.P).isInvertible());  // ground truth

  const std::set<int> duplicated = {1, 3};
  auto check_singular = [&](const MixedLcpResult& result, const char* storage) {
    INFO(storage << ": status " << to_string(result.lcp.status)
                 << ", message: " << result.lcp.message);
    std::string rows;
    for (int r : result.singular_rows) rows += std::to_string(r) + " ";
    INFO("singular rows: " << rows);
    CHECK_FALSE(result.ok());
    CHECK(result.lcp.status != LcpStatus::solved);
    CHECK_FALSE(result.regularized);
    CHECK(!result.singular_rows.empty());
    for (int r : result.singular_rows) CHECK(duplicated.count(r) == 1);
    CHECK(!result.lcp.message.empty());
  };
  check_singular(solve_mixed_lcp(p), "dense");
  check_singular(solve_mixed_lcp(to_sparse(p)), "sparse");
  CHECK_THROWS_AS(reduce_mixed_lcp(p), pivot::Error);
}

TEST_CASE("mixed: a singular P solves once regularized", "[lcp][mixed][singular]") {
  std::mt19937 rng(4711);
  const MixedLcpProblem p = singular_case(rng);
  const double delta = 1e-7;
  MixedLcpOptions options;
  options.regularization = VectorXd::Constant(p.P.rows(), delta);
  for (int storage = 0; storage < 2; ++storage) {
    const MixedLcpResult result =
        storage == 0 ? solve_mixed_lcp(p, options) : solve_mixed_lcp(to_sparse(p), options);
    INFO((storage == 0 ? "dense" : "sparse")
         << ": status " << to_string(result.lcp.status) << ", message: " << result.lcp.message);
    CHECK(result.lcp.status == LcpStatus::solved);
    CHECK(result.regularized);
    REQUIRE(result.x.size() == p.P.rows());
    REQUIRE(result.lcp.z.size() == p.S.rows());
    // judge the answer here, on the regularized equations (P + δI) x + Q z + u = 0
    const MatrixXd P_reg = p.P + delta * MatrixXd::Identity(p.P.rows(), p.P.rows());
    const VectorXd& x = result.x;
    const VectorXd& z = result.lcp.z;
    const VectorXd r = P_reg * x + p.Q * z + p.u;
    const double scale = std::max({p.u.cwiseAbs().maxCoeff(), (P_reg * x).cwiseAbs().maxCoeff(),
                                   (p.Q * z).cwiseAbs().maxCoeff()});
    CHECK(r.cwiseAbs().maxCoeff() <= 1e-9 * scale);
    const VectorXd w = p.K * x + p.S * z + p.v;
    const double w_scale = std::max({p.v.cwiseAbs().maxCoeff(), (p.K * x).cwiseAbs().maxCoeff(),
                                     (p.S * z).cwiseAbs().maxCoeff()});
    const double z_scale = std::max(z.cwiseAbs().maxCoeff(), 1e-300);
    CHECK(z.minCoeff() >= -1e-9 * z_scale);
    CHECK(w.minCoeff() >= -1e-9 * w_scale);
    CHECK(z.cwiseProduct(w).cwiseAbs().maxCoeff() <= 1e-9 * z_scale * w_scale);
  }
}

TEST_CASE("mixed: a P with a dependent combination of rows is singular", "[lcp][mixed][singular]") {
  std::mt19937 rng(99);
  MixedLcpProblem p;
  p.P = random_matrix(rng, 3, 3);
  p.P.row(2) = p.P.row(0) + p.P.row(1);
  p.Q = random_matrix(rng, 3, 2);
  p.K = random_matrix(rng, 2, 3);
  p.S = random_spd(rng, 2);
  p.u = random_vector(rng, 3);
  p.v = random_vector(rng, 2);
  const MixedLcpResult result = solve_mixed_lcp(p);
  INFO("status " << to_string(result.lcp.status) << ", message: " << result.lcp.message);
  CHECK_FALSE(result.ok());
  CHECK(!result.singular_rows.empty());
  for (int r : result.singular_rows) CHECK((r >= 0 && r < 3));
}

namespace {

// a random sparse matrix with explicit patterns: `mask` says which entries are stored (some of
// them exactly 0.0), `A` holds them
struct Patterned {
  SparseMatrix A;
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> mask;
};

Patterned patterned(std::mt19937& rng, int rows, int cols, double density,
                    const std::vector<int>& group_sizes) {
  std::uniform_real_distribution<double> coin(0.0, 1.0), value(-2.0, 2.0);
  std::uniform_int_distribution<std::size_t> pick(0, group_sizes.size() - 1);
  Patterned p;
  p.mask.setConstant(rows, cols, false);
  std::vector<Eigen::Triplet<double>> entries;
  // columns in groups that share one row pattern (a body's six columns of G)
  for (int c = 0; c < cols;) {
    const int g = std::min(group_sizes[pick(rng)], cols - c);
    std::vector<int> pattern;
    for (int r = 0; r < rows; ++r)
      if (coin(rng) < density) pattern.push_back(r);
    for (int t = 0; t < g; ++t)
      for (int r : pattern) {
        p.mask(r, c + t) = true;
        entries.emplace_back(r, c + t, coin(rng) < 0.05 ? 0.0 : value(rng));
      }
    c += g;
  }
  p.A.resize(rows, cols);
  p.A.setFromTriplets(entries.begin(), entries.end());
  return p;
}

}  // namespace

TEST_CASE("mixed: the sparse Schur complement S − K X, entry by entry in its documented order",
          "[lcp][mixed][sparse]") {
  // Reference: entry (r, j) stored where S or some K(r, c) X(c, j) is, and summed as
  // S(r, j) − K(r, c₁) X(c₁, j) − … over column j's entries of X in order, one term at a time
  // (the contract that keeps the engine's bits when the product's loops are reorganized). K's
  // columns come in groups with one row pattern, of sizes that fit, fill and overflow the
  // implementation's groups; some stored entries are exactly zero.
  std::mt19937 rng(2026);
  SparseMatrix out;  // reused across the cases, as the engine does
  for (int trial = 0; trial < 12; ++trial) {
    const int m = 5 + trial * 7, n = 6 + trial * 5;
    const Patterned S = patterned(rng, m, m, 0.08, {1});
    const Patterned K = patterned(rng, m, n, 0.3, {1, 2, 3, 6, 6, 9, 13});
    const Patterned X = patterned(rng, n, m, 0.25, {1});
    pivot::lcp::detail::schur_complement(S.A, K.A, X.A, out);
    REQUIRE(out.rows() == m);
    REQUIRE(out.cols() == m);
    for (int j = 0; j < m; ++j) {
      std::vector<int> rows;
      std::vector<double> values;
      for (int r = 0; r < m; ++r) {
        bool stored = S.mask(r, j);
        double sum = S.mask(r, j) ? S.A.coeff(r, j) : 0.0;
        for (SparseMatrix::InnerIterator x(X.A, j); x; ++x)
          if (K.mask(r, x.index())) {
            stored = true;
            sum += -K.A.coeff(r, x.index()) * x.value();
          }
        if (stored) {
          rows.push_back(r);
          values.push_back(sum);
        }
      }
      std::vector<int> got_rows;
      std::vector<double> got_values;
      for (SparseMatrix::InnerIterator it(out, j); it; ++it) {
        got_rows.push_back(static_cast<int>(it.index()));
        got_values.push_back(it.value());
      }
      INFO("trial " << trial << ", column " << j);
      REQUIRE(got_rows == rows);
      CHECK(got_values == values);  // bit for bit
    }
    // and the mathematics, against a dense product
    const MatrixXd dense = MatrixXd(S.A) - MatrixXd(K.A) * MatrixXd(X.A);
    CHECK((MatrixXd(out) - dense).cwiseAbs().maxCoeff() <=
          1e-14 * std::max(1.0, dense.cwiseAbs().maxCoeff()));
  }
}
