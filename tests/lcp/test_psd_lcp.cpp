// solve_psd_lcp (Lawson–Hanson's active-set method for a symmetric PSD M) against independent
// answers: the brute-force enumeration of complementary bases, Lemke's method (w = M z + q is the
// same for every solution of a PSD LCP), and the closed form of a box resting on a plane; then
// the crash start of solve_lemke, which uses it on a principal block.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/psd_lcp.hpp"
#include "pivot/lcp/residual.hpp"

// the internal components under test
using namespace pivot::lcp::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot::lcp;
using namespace pivot::test;

namespace {

/// M = AᵀA with A of rank r < n (singular when r < n), q = −Aᵀb + c with c ≥ 0 on a third of the
/// rows: the optimality system of min ‖A z − b‖² + 2 cᵀz over z ≥ 0, which has a solution (its
/// minimizer), so the LCP is solvable
LcpProblem rank_deficient(std::mt19937& rng, int n, int r) {
  const MatrixXd A = random_matrix(rng, r, n);
  const VectorXd b = random_vector(rng, r, -1.0, 1.0);
  VectorXd c = VectorXd::Zero(n);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < n; ++i)
    if (u(rng) < 1.0 / 3.0) c(i) = 0.2 * u(rng);
  return LcpProblem{A.transpose() * A, -A.transpose() * b + c, "rank-deficient PSD"};
}

/// the normal rows of a box (half extents a, b, c; mass m) resting on the plane z = 0 at its four
/// bottom corners, one time step h under gravity g: M = N M⁻¹ Nᵀ (4 × 4, rank 3), q = N v_free
/// with v_free = (0, 0, 0, 0, 0, −g h), twists angular first. N's row i is ((p_i × ẑ)ᵀ, ẑᵀ).
LcpProblem resting_box(double a, double b, double c, double m, double g, double h) {
  const double Ix = m * (b * b + c * c) / 3.0, Iy = m * (a * a + c * c) / 3.0,
               Iz = m * (a * a + b * b) / 3.0;
  Eigen::Matrix<double, 6, 1> inverse_mass;
  inverse_mass << 1 / Ix, 1 / Iy, 1 / Iz, 1 / m, 1 / m, 1 / m;
  MatrixXd N(4, 6);
  int i = 0;
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0}) {
      const Eigen::Vector3d p(sx * a, sy * b, -c);
      const Eigen::Vector3d arm = p.cross(Eigen::Vector3d::UnitZ());
      N.row(i++) << arm.x(), arm.y(), arm.z(), 0, 0, 1;
    }
  Eigen::Matrix<double, 6, 1> v_free;
  v_free << 0, 0, 0, 0, 0, -g * h;
  return LcpProblem{N * inverse_mass.asDiagonal() * N.transpose(), N * v_free, "resting box"};
}

SparseLcpProblem sparse(const LcpProblem& p) {
  return SparseLcpProblem{p.M.sparseView(), p.q, p.name};
}

}  // namespace

TEST_CASE("psd lcp: rank-deficient problems agree with every brute-force solution's w",
          "[lcp][psd]") {
  std::mt19937 rng(11);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 3 + trial % 10, r = 1 + trial % (n - 1);
    const LcpProblem p = rank_deficient(rng, n, r);
    const LcpResult result = solve_psd_lcp(p);
    INFO("trial " << trial << " n " << n << " rank " << r << ": " << result.message);
    REQUIRE(result.status == LcpStatus::solved);
    CHECK(independent_worst(p.M, p.q, result.z) <= 1e-9);
    CHECK(static_cast<int>(result.active_set.size()) <= r);  // P's columns stay independent
    // w is the same for every solution of a PSD LCP: every brute-force basis solution agrees
    const std::vector<VectorXd> all = brute_force_solutions(p.M, p.q);
    REQUIRE_FALSE(all.empty());
    for (const VectorXd& z : all) {
      CHECK(relative_difference(p.M * result.z + p.q, p.M * z + p.q) <= 1e-8);
      ++checked;
    }
  }
  CHECK(checked >= 60);
}

TEST_CASE("psd lcp: larger problems match Lemke's w and drop indices on the way", "[lcp][psd]") {
  std::mt19937 rng(5);
  int with_drops = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 30 + 15 * trial, r = n / 2 + trial;
    const LcpProblem p = rank_deficient(rng, n, r);
    const LcpResult psd = solve_psd_lcp(p);
    const LcpResult lemke = solve_lemke(p);
    INFO("trial " << trial << " n " << n << ": " << psd.message << " / " << lemke.message);
    REQUIRE(psd.status == LcpStatus::solved);
    REQUIRE(lemke.status == LcpStatus::solved);
    CHECK(independent_worst(p.M, p.q, psd.z) <= 1e-9);
    CHECK(relative_difference(psd.w, lemke.w) <= 1e-8);
    // pivots count additions and drops: more than |P| means the Givens deletion ran
    if (psd.pivots > static_cast<int>(psd.active_set.size())) ++with_drops;
    // sparse storage: the same answer up to the order of summation
    const LcpResult s = solve_psd_lcp(sparse(p));
    REQUIRE(s.status == LcpStatus::solved);
    CHECK(relative_difference(s.z, psd.z) <= 1e-10);
  }
  CHECK(with_drops >= 3);
}

/// M = AᵀA with a sparse A (each column touches a few rows, as a contact touches two bodies) and
/// redundant columns (copies of earlier ones, scaled: the fourth corner of a face), q = −Aᵀb + c
/// with c ≥ 0 on some rows; with `bias`, some rows get q_i raised further, which can take q out
/// of M's range (contact rows with a velocity bias). The columns of M on the passive set are then
/// zero in their leading rows, which the factor's forward solve skips.
LcpProblem sparse_redundant(std::mt19937& rng, int n, int r, bool bias) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  MatrixXd A = MatrixXd::Zero(r, n);
  for (int j = 0; j < n; ++j) {
    const int first = static_cast<int>(rng() % static_cast<unsigned>(r));
    for (int i = first; i < std::min(r, first + 3); ++i) A(i, j) = g(rng);
  }
  for (int j = 1; j < n; ++j)
    if (u(rng) < 0.25) A.col(j) = (0.5 + u(rng)) * A.col(static_cast<int>(rng() % j));
  const VectorXd b = random_vector(rng, r, -1.0, 1.0);
  VectorXd q = -A.transpose() * b;
  for (int i = 0; i < n; ++i)
    if (u(rng) < 0.3) q(i) += 0.2 * u(rng);
  if (bias)
    for (int i = 0; i < n; ++i)
      if (u(rng) < 0.3) q(i) += 0.1 * u(rng);
  return LcpProblem{A.transpose() * A, q, "sparse redundant PSD"};
}

TEST_CASE("psd lcp: sparse redundant problems agree with brute force and with Lemke",
          "[lcp][psd]") {
  std::mt19937 rng(23);
  int compared = 0, with_drops = 0;
  for (int trial = 0; trial < 160; ++trial) {
    const bool small = trial < 60;
    const int n = small ? 3 + trial % 9 : 20 + 2 * (trial % 50);
    const int r = std::max(1, small ? 1 + trial % (n - 1) : n / 2 + trial % 7);
    const LcpProblem p = sparse_redundant(rng, n, r, trial % 3 == 0);
    const LcpResult psd = solve_psd_lcp(p);
    const LcpResult s = solve_psd_lcp(sparse(p));
    INFO("trial " << trial << " n " << n << " rank ≤ " << r << ": " << psd.message);
    CHECK(s.status == psd.status);
    if (small) {
      // every complementary basis solution (an independent enumeration) has the same w; with
      // none (q out of M's range, no solution) a `solved` must still pass the independent check
      const std::vector<VectorXd> all = brute_force_solutions(p.M, p.q);
      if (all.empty()) {
        if (psd.status == LcpStatus::solved) CHECK(independent_worst(p.M, p.q, psd.z) <= 1e-9);
        continue;
      }
      REQUIRE(psd.status == LcpStatus::solved);
      for (const VectorXd& z : all) CHECK(relative_difference(psd.w, p.M * z + p.q) <= 1e-8);
    } else {
      const LcpResult lemke = solve_lemke(p);
      if (lemke.status != LcpStatus::solved) {
        if (psd.status == LcpStatus::solved) CHECK(independent_worst(p.M, p.q, psd.z) <= 1e-9);
        continue;
      }
      REQUIRE(psd.status == LcpStatus::solved);
      CHECK(relative_difference(psd.w, lemke.w) <= 1e-8);
      if (psd.pivots > static_cast<int>(psd.active_set.size())) ++with_drops;
    }
    CHECK(independent_worst(p.M, p.q, psd.z) <= 1e-9);
    REQUIRE(s.status == LcpStatus::solved);
    CHECK(relative_difference(s.w, psd.w) <= 1e-8);
    ++compared;
  }
  CHECK(compared >= 100);
  CHECK(with_drops >= 10);
}

TEST_CASE("psd lcp: a box resting on four corners carries its weight on three of them",
          "[lcp][psd]") {
  const double m = 4.0, g = 9.81, h = 1e-3, a = 0.3, b = 0.2, c = 0.1;
  const LcpProblem p = resting_box(a, b, c, m, g, h);
  REQUIRE((p.M - p.M.transpose()).norm() <= 1e-15);
  const LcpResult result = solve_psd_lcp(p);
  REQUIRE(result.status == LcpStatus::solved);
  // the four corners' rows have rank 3 and every corner stops (w = 0): the active set is a basis
  // of them, three rows (two diagonal corners carry the box alone, and the iteration may end on
  // them; the third joins as a degenerate basic index)
  CHECK(result.active_set.size() == 3);
  // closed form: the impulses carry the weight over the step, m g h, with no net moment
  // about the centre (Σ z_i x_i = Σ z_i y_i = 0), and every corner stops (w = 0)
  const VectorXd& z = result.z;
  CHECK(z.sum() == Approx(m * g * h).epsilon(1e-12));
  const double mx = -a * (z(0) + z(1)) + a * (z(2) + z(3));
  const double my = -b * (z(0) + z(2)) + b * (z(1) + z(3));
  CHECK(std::abs(mx) <= 1e-14 * m * g * h);
  CHECK(std::abs(my) <= 1e-14 * m * g * h);
  CHECK(result.w.cwiseAbs().maxCoeff() <= 1e-15);
  CHECK(z.minCoeff() >= 0.0);
}

TEST_CASE("psd lcp: bad input is reported, q ≥ 0 is trivial", "[lcp][psd]") {
  LcpProblem p{MatrixXd::Identity(3, 3), VectorXd::Constant(3, -1.0), "bad"};
  p.M(0, 1) = 0.5;  // not symmetric
  CHECK(solve_psd_lcp(p).status == LcpStatus::invalid_input);
  p.M(0, 1) = 0.0;
  p.q(1) = NAN;
  CHECK(solve_psd_lcp(p).status == LcpStatus::invalid_input);
  p.q = VectorXd::Constant(3, 0.5);
  const LcpResult trivial = solve_psd_lcp(p);
  CHECK(trivial.status == LcpStatus::solved);
  CHECK(trivial.path == StartPath::trivial);
  CHECK(trivial.z.isZero(0.0));
  // an indefinite M is not detected up front, but never reported as solved wrongly
  LcpProblem indefinite{MatrixXd::Identity(2, 2), VectorXd::Constant(2, -1.0), "indefinite"};
  indefinite.M(0, 1) = indefinite.M(1, 0) = 2.0;
  const LcpResult r = solve_psd_lcp(indefinite);
  if (r.status == LcpStatus::solved)
    CHECK(independent_worst(indefinite.M, indefinite.q, r.z) <= 1e-9);
}

TEST_CASE("lemke crash start: the PSD block's active set starts the whole problem",
          "[lcp][psd][warm_start]") {
  // M = SPD + K with K skew-symmetric and zero on the leading block R: positive definite (so the
  // solution is unique) and symmetric on R, where the crash runs
  std::mt19937 rng(3);
  for (int trial = 0; trial < 8; ++trial) {
    const int n = 40, k = 15;
    MatrixXd M = random_spd(rng, n);
    MatrixXd K = random_matrix(rng, n, n);
    K = (K - K.transpose()).eval();
    K.topLeftCorner(k, k).setZero();
    M += K;
    const LcpProblem p{M, random_vector(rng, n), "crash"};
    LemkeOptions options;
    options.crash_rows.resize(k);
    std::iota(options.crash_rows.begin(), options.crash_rows.end(), 0);
    const LcpResult crashed = solve_lemke(p, options);
    const LcpResult plain = solve_lemke(p);
    INFO("trial " << trial << ": " << crashed.message);
    REQUIRE(crashed.status == LcpStatus::solved);
    REQUIRE(plain.status == LcpStatus::solved);
    CHECK(relative_difference(crashed.z, plain.z) <= 1e-9);
    CHECK(crashed.crash_pivots > 0);
    CHECK(crashed.pivots >= crashed.crash_pivots);
    CHECK(plain.crash_pivots == 0);
    // the crash runs only without a warm start: a given warm start wins
    options.warm_start = plain.active_set;
    const LcpResult warm = solve_lemke(p, options);
    CHECK(warm.crash_pivots == 0);
    CHECK(warm.path == StartPath::warm_start);
  }
}

TEST_CASE("psd lcp: an inner loop that drops two indices ends on the solve over what is left",
          "[lcp][psd]") {
  // the lemke fuzz target's finding (tests/fuzz/regressions/lemke/psd_inner_loop_bound): adding
  // index 5 to P = {1, 6} dropped 6, then 1, and the inner loop's bound, recomputed from the
  // shrinking P, ended it before the solve on P = {5}: z₅ = 2.896e-13 instead of −q₅/M₅₅, w₅ < 0
  MatrixXd M(7, 7);
  M << 33544.6722106934, 3323.13098144531, -5436.05166625977, 12240.9536590576, 11945.6202392578,
      11708.0759887695, 22807.5966339111, 3323.13098144531, 17461.0204467773, -6417.45001220703,
      13668.7638549805, 14374.1862640381, 13578.2699127197, 9656.6145324707, -5436.05166625977,
      -6417.45001220703, 20659.9224853516, -4271.84552001953, -8378.48246765137, -6287.91041564941,
      -12890.0361633301, 12240.9536590576, 13668.7638549805, -4271.84552001953, 16922.6903533936,
      11693.3267211914, 13502.0252838135, 14683.4324493408, 11945.6202392578, 14374.1862640381,
      -8378.48246765137, 11693.3267211914, 15933.6401977539, 13607.7122039795, 13425.4899139404,
      11708.0759887695, 13578.2699127197, -6287.91041564941, 13502.0252838135, 13607.7122039795,
      13105.2284545898, 13487.7669219971, 22807.5966339111, 9656.6145324707, -12890.0361633301,
      14683.4324493408, 13425.4899139404, 13487.7669219971, 22135.2232666016;
  VectorXd q(7);
  q << 1e-05, -3.90625e-09, 1.99609375e-06, 9.3765625e-05, 9.00390625e-06, -3.90625e-09,
      -3.90625e-09;
  const LcpProblem p{M, q, "two drops"};
  const LcpResult psd = solve_psd_lcp(p);
  INFO(psd.message);
  REQUIRE(psd.status == LcpStatus::solved);
  CHECK(independent_worst(M, q, psd.z) <= 1e-9);
  const LcpResult lemke = solve_lemke(p);
  REQUIRE(lemke.status == LcpStatus::solved);
  CHECK(relative_difference(psd.z, lemke.z) <= 1e-9);  // M is positive definite: one solution
}

TEST_CASE("psd lcp: a row with q = 0 pushed below 0 by rounding-sized terms is entered",
          "[lcp][psd]") {
  // the lemke fuzz target's second finding (regressions/lemke/psd_negative_w_in_a_q_zero_row):
  // z₀ = 3.1e-13 makes w₃ = M₃₀ z₀ = −5.5e-16 in a row with q₃ = 0. That is small beside
  // ‖q‖∞ = 9.7e-5, the old threshold's scale, but it is the whole of row 3, which the residual
  // check judges on its own: index 3 must enter (z₃ = 5.5e-16, w₃ = 0)
  MatrixXd M(5, 5);
  M << 12403.5648956299, 0.433273315429688, -0.001739501953125, -0.001739501953125,
      922.642791748047, 0.433273315429688, 1.00003051757812, 1.52587890625e-05, 1.52587890625e-05,
      0.0351715087890625, -0.001739501953125, 1.52587890625e-05, 1.00001525878906,
      1.52587890625e-05, 1.52587890625e-05, -0.001739501953125, 1.52587890625e-05,
      1.52587890625e-05, 1.00001525878906, 1.52587890625e-05, 922.642791748047, 0.0351715087890625,
      1.52587890625e-05, 1.52587890625e-05, 10898.0007629395;
  VectorXd q(5);
  q << -3.90625e-09, 9.699609375e-05, 9.9609375e-07, 0, 0;
  const LcpResult psd = solve_psd_lcp(LcpProblem{M, q, "q = 0 row"});
  INFO(psd.message);
  REQUIRE(psd.status == LcpStatus::solved);
  CHECK(psd.z(3) > 0.0);
  CHECK(independent_worst(M, q, psd.z) <= 1e-9);
}
