// The small path of solve_lemke (lcp/small_lemke.hpp): its certificate never accepts an answer
// that the full residual check (measure_residuals) rejects, and its answers are the general
// path's. The problems: 10⁵ random ones of n = 1…32 (PSD, P-matrix, copositive, degenerate with
// ties, infeasible) and every problem of n ≤ 32 of the shared data folder (skipped with a warning
// when the folder is absent). The candidates judged by both: the answers of both paths, those
// answers perturbed by relative 10⁻¹⁷…10⁻⁵ (around the tolerance 1e-9 of both), and the solutions
// of random complementary bases (mostly infeasible, some within rounding of feasible).
#include <catch2/catch.hpp>

#include <Eigen/LU>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/residual.hpp"
#include "pivot/lcp/small_lemke.hpp"
#include "support/test_data.hpp"

using namespace pivot::lcp;
using namespace pivot::test;

namespace {

#ifdef NDEBUG
constexpr int kRandomProblems = 100000;
#else
constexpr int kRandomProblems = 10000;  // debug and sanitizer builds: a tenth
#endif

enum class Kind { psd, p_matrix, copositive, degenerate, infeasible, count };

LcpProblem random_problem(std::mt19937_64& rng, Kind kind, int n) {
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> small_int(-2, 2);
  LcpProblem p;
  p.q.resize(n);
  for (int i = 0; i < n; ++i) p.q(i) = normal(rng);
  const auto random_matrix = [&](int rows, int cols) {
    Eigen::MatrixXd A(rows, cols);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) A(i, j) = normal(rng);
    return A;
  };
  switch (kind) {
    case Kind::psd: {
      // rank-deficient half the time: the redundant contacts' case
      const int rank = std::max(1, rng() % 2 ? n : n / 2);
      const Eigen::MatrixXd A = random_matrix(n, rank);
      p.M = A * A.transpose();
      break;
    }
    case Kind::p_matrix: {
      // a positive definite nonsymmetric matrix: symmetric part PD plus a skew part
      const Eigen::MatrixXd A = random_matrix(n, n), S = random_matrix(n, n);
      p.M = A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n) + (S - S.transpose());
      break;
    }
    case Kind::copositive: {
      p.M = random_matrix(n, n).cwiseAbs();
      break;
    }
    case Kind::degenerate: {
      // small integers: repeated ratios, zero rows of q, singular blocks
      p.M.resize(n, n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) p.M(i, j) = small_int(rng);
      p.M = (p.M * p.M.transpose()).eval();
      for (int i = 0; i < n; ++i) p.q(i) = small_int(rng);
      break;
    }
    default: {
      // a row with M_i· ≤ 0 and q_i < 0 has no solution; the rest random
      p.M = random_matrix(n, n);
      const int i = static_cast<int>(rng() % static_cast<unsigned>(n));
      p.M.row(i) = -p.M.row(i).cwiseAbs();
      p.q(i) = -1.0 - std::abs(p.q(i));
      break;
    }
  }
  return p;
}

struct Tally {
  long candidates = 0, certified = 0, checked = 0, solver_answers = 0, solver_certified = 0;
};

// the certificate's and the check's verdicts on one candidate; the certificate must never be the
// more lenient
void compare(const LcpProblem& p, const Eigen::VectorXd& z, Tally& tally, const std::string& what) {
  if (z.size() != p.q.size()) return;
  const Eigen::VectorXd w = p.M * z + p.q;
  LcpResiduals bounds;
  const bool certified = detail::certify_answer(p.M, p.q, z, w, kDefaultResidualTolerance, bounds);
  const LcpResiduals full = measure_residuals(p.M, p.q, z);
  const bool checked = full.worst() <= kDefaultResidualTolerance;
  ++tally.candidates;
  tally.certified += certified ? 1 : 0;
  tally.checked += checked ? 1 : 0;
  if (certified && !checked) {
    INFO(what << ": n = " << p.q.size() << ", the check's worst " << full.worst() << " (min_z "
              << full.min_z << ", min_w " << full.min_w << ", complementarity "
              << full.max_complementarity << ", rounding share " << full.rounding_share
              << "); the certificate's min_w " << bounds.min_w << ", complementarity "
              << bounds.max_complementarity);
    FAIL("the certificate accepted what the full residual check rejects");
  }
}

// perturbations of z by relative 10^[−17, −5], and random complementary bases
void compare_candidates(const LcpProblem& p, const Eigen::VectorXd& answer, std::mt19937_64& rng,
                        Tally& tally, const std::string& what) {
  const auto n = static_cast<int>(p.q.size());
  std::uniform_real_distribution<double> exponent(-17.0, -5.0), sign(-1.0, 1.0);
  if (answer.size() == n) {
    compare(p, answer, tally, what + " (answer)");
    Eigen::VectorXd z = answer;
    const double size = std::pow(10.0, exponent(rng));
    for (int i = 0; i < n; ++i)
      if (z(i) != 0.0) z(i) *= 1.0 + size * sign(rng);
    compare(p, z, tally, what + " (perturbed answer)");
  }
  // a random complementary basis S: z_S = −M_SS⁻¹ q_S (full-pivot LU), z = 0 elsewhere
  std::vector<int> S;
  for (int i = 0; i < n; ++i)
    if (answer.size() == n ? (answer(i) > 0.0) != (rng() % 8 == 0) : rng() % 2 == 0) S.push_back(i);
  if (S.empty()) return;
  Eigen::MatrixXd A(S.size(), S.size());
  Eigen::VectorXd rhs(S.size());
  for (std::size_t a = 0; a < S.size(); ++a) {
    rhs(static_cast<Eigen::Index>(a)) = -p.q(S[a]);
    for (std::size_t b = 0; b < S.size(); ++b)
      A(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)) = p.M(S[a], S[b]);
  }
  const Eigen::VectorXd zS = A.fullPivLu().solve(rhs);
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
  for (std::size_t a = 0; a < S.size(); ++a) z(S[a]) = zS(static_cast<Eigen::Index>(a));
  if (z.allFinite()) compare(p, z, tally, what + " (random basis)");
}

bool same_bits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0;
}

// solves p on the small path and on the general path and compares the candidates of both
void exercise(const LcpProblem& p, std::mt19937_64& rng, Tally& tally, long& same, long& both,
              const std::string& what) {
  LcpResult small;
  const bool taken = detail::solve_small_lemke(p.M, p.q, {}, small);
  const LcpResult general = detail::solve_lemke_general(p);
  if (taken) {
    ++tally.solver_answers;
    // the small path's answer passes the full check and is the general path's
    CHECK(measure_residuals(p.M, p.q, small.z).worst() <= kDefaultResidualTolerance);
    CHECK(general.ok());
    ++both;
    if (same_bits(small.z, general.z) && same_bits(small.w, general.w)) ++same;
  }
  if (general.ok()) {
    LcpResiduals bounds;
    tally.solver_certified +=
        detail::certify_answer(p.M, p.q, general.z, general.w, kDefaultResidualTolerance, bounds)
            ? 1
            : 0;
  }
  compare_candidates(p, general.ok() ? general.z : Eigen::VectorXd(), rng, tally, what);
  if (taken) compare_candidates(p, small.z, rng, tally, what + ", small path");
}

}  // namespace

TEST_CASE("small Lemke: the certificate accepts nothing that the full check rejects (random)",
          "[lcp][small]") {
  std::mt19937_64 rng(20261129);
  Tally tally;
  long same = 0, both = 0;
  for (int k = 0; k < kRandomProblems; ++k) {
    const auto kind = static_cast<Kind>(k % static_cast<int>(Kind::count));
    const int n = 1 + static_cast<int>(rng() % detail::kSmallLemkeMax);
    const LcpProblem p = random_problem(rng, kind, n);
    exercise(p, rng, tally, same, both, "random problem " + std::to_string(k));
  }
  INFO("candidates " << tally.candidates << ", certified " << tally.certified << ", checked "
                     << tally.checked << "; small path took " << tally.solver_answers
                     << ", same bits " << same << " of " << both);
  // the certificate is no formality: it accepts most answers of the solvers, and the small path
  // takes most problems and gives the general path's answer bit for bit
  CHECK(tally.certified > tally.candidates / 4);
  CHECK(tally.solver_answers > kRandomProblems / 2);
  CHECK(same == both);
  // some candidates pass the check without the certificate (it is the stricter), none the
  // other way round (compare() fails then)
  CHECK(tally.checked >= tally.certified);
}

TEST_CASE("small Lemke: the shared data's problems of n <= 32", "[lcp][small][data]") {
  const auto data = shared_data_dir();
  if (!data) {
    WARN("shared data folder absent: skipping the small-path data-file test");
    return;
  }
  std::mt19937_64 rng(7);
  Tally tally;
  long same = 0, both = 0, problems = 0;
  for (const char* folder : {"siconos", "contact", "fclib"})
    for (const auto& file : dat_files(*data / "lcp" / folder)) {
      const LcpProblem p = read_lcp_file(file);
      if (p.q.size() > detail::kSmallLemkeMax) continue;
      ++problems;
      for (int round = 0; round < 20; ++round)
        exercise(p, rng, tally, same, both, file.filename().string());
    }
  INFO(problems << " problems; candidates " << tally.candidates << ", certified " << tally.certified
                << "; same bits " << same << " of " << both);
  CHECK(problems > 0);
  CHECK(same == both);
  CHECK(tally.certified > 0);
}

TEST_CASE("small Lemke: an answer off by more than the tolerance is not certified",
          "[lcp][small]") {
  // M = I, q = (−1, −2): z = (1, 2), w = 0. z₀ off by 1e-6 leaves w₀ = 1e-6 against s₀ = 2 (a
  // complementarity of 5e-7 > 1e-9); by 1e-12, w₀ = 1e-12 (5e-13): certified. The check agrees.
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(2, 2);
  const Eigen::VectorXd q = Eigen::Vector2d(-1.0, -2.0);
  LcpResiduals bounds;
  for (const double off : {1e-6, 1e-12}) {
    const Eigen::VectorXd z = Eigen::Vector2d(1.0 + off, 2.0);
    const Eigen::VectorXd w = M * z + q;
    const bool certified = detail::certify_answer(M, q, z, w, 1e-9, bounds);
    CHECK(certified == (off < 1e-9));
    CHECK((measure_residuals(M, q, z).worst() <= 1e-9) == (off < 1e-9));
  }
  // a z_i below −1e-9 ‖z‖∞: never (here also w₀ = −1.1)
  const Eigen::VectorXd z = Eigen::Vector2d(-0.1, 2.0);
  CHECK_FALSE(detail::certify_answer(M, q, z, Eigen::VectorXd(M * z + q), 1e-9, bounds));
  // a rounding-level negative z_i whose row's w is 0 to rounding: accepted (by both). M = [1 1;
  // 0 1], q = (−2, −2), z = (−1e-17, 2): w = (−1e-17 + 2 − 2, 2 − 2) = (0, 0) in floating point
  Eigen::MatrixXd M1(2, 2);
  M1 << 1.0, 1.0, 0.0, 1.0;
  const Eigen::VectorXd q1 = Eigen::Vector2d(-2.0, -2.0);
  const Eigen::VectorXd z1 = Eigen::Vector2d(-1e-17, 2.0);
  CHECK(detail::certify_answer(M1, q1, z1, Eigen::VectorXd(M1 * z1 + q1), 1e-9, bounds));
  CHECK(measure_residuals(M1, q1, z1).worst() <= 1e-9);
}
