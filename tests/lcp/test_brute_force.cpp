// Lemke against an independent brute-force solver (every complementary basis, tests/lcp/
// lcp_test_support.hpp) on random P-matrix LCPs, whose solution is unique; and larger random
// problems judged by their residuals.
#include <catch2/catch.hpp>

#include <random>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/residual.hpp"

using namespace pivot::lcp;
using namespace pivot::test;

namespace {

void check_against_brute_force(const LcpProblem& problem, const std::string& label) {
  const VectorXd expected = brute_force_unique(problem.M, problem.q);
  INFO(label << ": n = " << problem.q.size());
  INFO("M =\n" << problem.M << "\nq = " << problem.q.transpose());
  // the brute force itself must find exactly one solution for a P-matrix
  REQUIRE(expected.size() == problem.q.size());
  const LcpResult result = solve_lemke(problem);
  INFO("status " << to_string(result.status) << ", pivots " << result.pivots
                 << ", message: " << result.message);
  INFO("brute force z = " << expected.transpose());
  INFO("Lemke z       = " << result.z.transpose());
  CHECK(result.status == LcpStatus::solved);
  REQUIRE(result.z.size() == problem.q.size());
  CHECK(relative_difference(result.z, expected) <= 1e-9);
  CHECK(independent_worst(problem.M, problem.q, result.z) <= 1e-9);
}

}  // namespace

TEST_CASE("brute force: the reference solver finds the known solution of a planted problem",
          "[lcp][brute_force]") {
  // a self-check of the ground truth: planted, strictly complementary solutions of SPD problems
  std::mt19937 rng(20240601);
  for (int n = 1; n <= 8; ++n) {
    const auto planted = plant_solution(rng, random_spd(rng, n));
    const VectorXd z = brute_force_unique(planted.problem.M, planted.problem.q);
    REQUIRE(z.size() == n);
    CHECK(relative_difference(z, planted.z) <= 1e-10);
  }
}

TEST_CASE("brute force: symmetric positive definite LCPs, n ≤ 10", "[lcp][brute_force]") {
  std::mt19937 rng(12345);
  for (int n = 1; n <= 10; ++n) {
    for (int trial = 0; trial < 12; ++trial) {
      LcpProblem problem;
      problem.M = random_spd(rng, n);
      problem.q = random_vector(rng, n);
      problem.name = "spd";
      check_against_brute_force(problem,
                                "SPD n=" + std::to_string(n) + " trial " + std::to_string(trial));
    }
  }
}

TEST_CASE("brute force: non-symmetric P-matrices (positive-definite symmetric part), n ≤ 10",
          "[lcp][brute_force]") {
  std::mt19937 rng(67890);
  for (int n = 1; n <= 10; ++n) {
    for (int trial = 0; trial < 12; ++trial) {
      LcpProblem problem;
      problem.M = random_pd_nonsymmetric(rng, n, trial % 2 == 0 ? 1.0 : 5.0);
      problem.q = random_vector(rng, n);
      problem.name = "pd-nonsym";
      check_against_brute_force(
          problem, "non-symmetric n=" + std::to_string(n) + " trial " + std::to_string(trial));
    }
  }
}

TEST_CASE("brute force: q mostly negative (many z basic), n ≤ 10", "[lcp][brute_force]") {
  std::mt19937 rng(4242);
  for (int n = 2; n <= 10; ++n) {
    for (int trial = 0; trial < 6; ++trial) {
      LcpProblem problem;
      problem.M = trial % 2 ? random_spd(rng, n, 0.5) : random_pd_nonsymmetric(rng, n);
      problem.q = random_vector(rng, n, -1.0, 0.2);
      check_against_brute_force(
          problem, "negative q n=" + std::to_string(n) + " trial " + std::to_string(trial));
    }
  }
}

TEST_CASE("brute force: larger random problems are solved with verified residuals",
          "[lcp][brute_force]") {
  std::mt19937 rng(777);
  for (int n : {50, 150, 300}) {
    for (int kind = 0; kind < 2; ++kind) {
      LcpProblem problem;
      problem.M = kind == 0 ? random_spd(rng, n) : random_pd_nonsymmetric(rng, n);
      problem.q = random_vector(rng, n);
      const LcpResult result = solve_lemke(problem);
      INFO((kind == 0 ? "SPD" : "non-symmetric P")
           << " n = " << n << ": status " << to_string(result.status) << ", pivots "
           << result.pivots << ", " << result.message);
      CHECK(result.status == LcpStatus::solved);
      REQUIRE(result.z.size() == n);
      CHECK(measure_residuals(problem.M, problem.q, result.z).worst() <= 1e-9);
      CHECK(independent_worst(problem.M, problem.q, result.z) <= 1e-9);
    }
    // and one with a planted solution: the answer is known exactly
    const auto planted = plant_solution(rng, random_spd(rng, n), 0.5, "planted");
    const LcpResult result = solve_lemke(planted.problem);
    INFO("planted n = " << n << ": status " << to_string(result.status) << ", " << result.message);
    CHECK(result.status == LcpStatus::solved);
    REQUIRE(result.z.size() == n);
    CHECK(relative_difference(result.z, planted.z) <= 1e-9);
    CHECK(result.active_set == planted.active);
  }
}

TEST_CASE("an untimed solve (LemkeOptions::timed false) gives the same answer without a wall time",
          "[lcp]") {
  std::mt19937 rng(31);
  for (int n : {3, 20, 60}) {  // the small path, and the general one beyond 32 rows
    const LcpProblem problem{random_pd_nonsymmetric(rng, n), random_vector(rng, n), "random"};
    LemkeOptions untimed;
    untimed.timed = false;
    const LcpResult timed_result = solve_lemke(problem);
    const LcpResult untimed_result = solve_lemke(problem, untimed);
    INFO("n = " << n);
    REQUIRE(untimed_result.ok());
    CHECK(untimed_result.seconds == 0.0);
    CHECK(timed_result.seconds > 0.0);
    CHECK(untimed_result.z == timed_result.z);
    CHECK(independent_worst(problem.M, problem.q, untimed_result.z) <= 1e-9);
    if (n == 3) {  // (the brute force enumerates 2ⁿ bases)
      CHECK(relative_difference(untimed_result.z, brute_force_unique(problem.M, problem.q)) <=
            1e-9);
    }
  }
}
