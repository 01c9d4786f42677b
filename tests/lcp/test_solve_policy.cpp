// The retry policy (lcp/solve_policy.hpp) and LcpResult::attempt: which attempt gave the
// answer is reported, and agrees with the path taken; the start paths that run no attempt
// report none.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/solve_policy.hpp"

// the internal components under test
using namespace pivot::lcp::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot::lcp;
using namespace pivot::test;

TEST_CASE("policy: a P-matrix problem is solved by the standard attempt", "[lcp][policy]") {
  std::mt19937 rng(11);
  const PlantedLcp planted = plant_solution(rng, random_spd(rng, 12), 0.5, "spd n=12");
  const LcpResult result = solve_lemke(planted.problem);
  REQUIRE(result.status == LcpStatus::solved);
  CHECK(independent_worst(planted.problem.M, planted.problem.q, result.z) <= 1e-9);
  CHECK(result.path == StartPath::lemke);
  REQUIRE(result.attempt >= 0);
  CHECK(std::string(attempt_name(result)) == "standard");
  CHECK(std::string(kLemkeAttempts[static_cast<std::size_t>(result.attempt)].name) == "standard");
}

TEST_CASE("policy: the trivial and warm starts and a ray run no attempt", "[lcp][policy]") {
  // q ≥ 0: z = 0
  LcpProblem trivial{MatrixXd::Identity(2, 2), VectorXd::Ones(2), "trivial"};
  const LcpResult t = solve_lemke(trivial);
  CHECK(t.path == StartPath::trivial);
  CHECK(t.attempt == -1);
  CHECK(std::string(attempt_name(t)) == "none");

  // the right active set as warm start: z = (1, 0) for M = I, q = (−1, 2) (by hand)
  LcpProblem warm{MatrixXd::Identity(2, 2), VectorXd(2), "warm"};
  warm.q << -1.0, 2.0;
  LemkeOptions options;
  options.warm_start = std::vector<int>{0};
  const LcpResult w = solve_lemke(warm, options);
  REQUIRE(w.status == LcpStatus::solved);
  CHECK(w.path == StartPath::warm_start);
  CHECK(w.attempt == -1);

  // M = 0, q = (−1): w = −1 whatever z, no solution; every attempt ends on a ray
  LcpProblem ray{MatrixXd::Zero(1, 1), VectorXd::Constant(1, -1.0), "ray"};
  const LcpResult r = solve_lemke(ray);
  CHECK(r.status == LcpStatus::ray_termination);
  CHECK(r.attempt == -1);
}

TEST_CASE("policy: the reported attempt agrees with the path on degenerate problems",
          "[lcp][policy]") {
  // PSD matrices with duplicated rows and columns: tied, degenerate paths; and warm starts with
  // one index wrong, which take the warm path
  std::mt19937 rng(5);
  int warm_paths = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Eigen::Index n = 8;
    const MatrixXd B = random_matrix(rng, n, 3);
    MatrixXd M = B * B.transpose() + 1e-3 * MatrixXd::Identity(n, n);
    M.row(1) = M.row(0);
    M.col(1) = M.col(0);
    const PlantedLcp planted = plant_solution(rng, M, 0.5, "degenerate");
    const LcpResult cold = solve_lemke(planted.problem);
    INFO("trial " << trial << ": " << to_string(cold.status) << ", " << cold.message);
    REQUIRE(cold.status == LcpStatus::solved);
    CHECK(independent_worst(planted.problem.M, planted.problem.q, cold.z) <= 1e-8);
    if (cold.path == StartPath::lemke) {
      REQUIRE(cold.attempt >= 0);
      CHECK_FALSE(kLemkeAttempts[static_cast<std::size_t>(cold.attempt)].from_warm_start);
    }

    // a guess with one index too many or too few
    std::vector<int> guess = cold.active_set;
    if (!guess.empty() && trial % 2 == 0)
      guess.pop_back();
    else
      for (int i = 0; i < n; ++i)
        if (std::find(guess.begin(), guess.end(), i) == guess.end()) {
          guess.insert(std::upper_bound(guess.begin(), guess.end(), i), i);
          break;
        }
    LemkeOptions options;
    options.warm_start = guess;
    const LcpResult warm = solve_lemke(planted.problem, options);
    REQUIRE(warm.status == LcpStatus::solved);
    CHECK(independent_worst(planted.problem.M, planted.problem.q, warm.z) <= 1e-8);
    if (warm.path == StartPath::warm_lemke) {
      ++warm_paths;
      REQUIRE(warm.attempt >= 0);
      CHECK(kLemkeAttempts[static_cast<std::size_t>(warm.attempt)].from_warm_start);
    } else if (warm.path == StartPath::lemke) {
      REQUIRE(warm.attempt >= 0);
      CHECK_FALSE(kLemkeAttempts[static_cast<std::size_t>(warm.attempt)].from_warm_start);
    } else {
      CHECK(warm.attempt == -1);
    }
  }
  // the warm path must have been exercised for the check above to mean anything
  CHECK(warm_paths > 0);
}

TEST_CASE("policy: the table starts with the warm path, then the standard start", "[lcp][policy]") {
  // the order the documentation (solve_policy.hpp, docs/lcp.md) promises
  CHECK(kLemkeAttempts[0].from_warm_start);
  CHECK(std::string(kLemkeAttempts[1].name) == "standard");
  for (std::size_t i = 1; i < kLemkeAttempts.size(); ++i) {
    CHECK_FALSE(kLemkeAttempts[i].from_warm_start);
    // the spread covering vector only after every attempt with d
    if (i > 1 && kLemkeAttempts[i - 1].spread_covering) CHECK(kLemkeAttempts[i].spread_covering);
  }
}

// docs/limits.md "Interruption": LemkeOptions::interrupted is polled before each attempt and
// every 64 pivots. A P-matrix problem with a planted solution of 150 active indices needs about
// 150 pivots along the standard path; interrupted on the third poll, the solve stops unsolved,
// says so, and has taken at most 2 × 64 pivots. A check that never fires changes nothing.
TEST_CASE(
    "policy: an interrupt check stops Lemke within 64 pivots, and an idle one changes "
    "nothing",
    "[lcp][policy]") {
  std::mt19937 rng(23);
  const PlantedLcp planted = plant_solution(rng, random_spd(rng, 200), 0.75, "spd n=200");
  const LcpResult plain = solve_lemke(planted.problem);
  REQUIRE(plain.status == LcpStatus::solved);
  REQUIRE(plain.pivots > 130);
  CHECK(independent_worst(planted.problem.M, planted.problem.q, plain.z) <= 1e-9);

  LemkeOptions idle;
  int idle_polls = 0;
  idle.interrupted = [&] {
    ++idle_polls;
    return false;
  };
  const LcpResult same = solve_lemke(planted.problem, idle);
  CHECK(idle_polls >= 2);  // before the attempt, and at pivot 63
  CHECK(same.status == LcpStatus::solved);
  CHECK(same.pivots == plain.pivots);
  CHECK(same.z == plain.z);  // bit for bit

  LemkeOptions stop;
  int polls = 0;
  stop.interrupted = [&] { return ++polls >= 3; };
  const LcpResult cut = solve_lemke(planted.problem, stop);
  CHECK(cut.status == LcpStatus::pivot_limit);
  CHECK(cut.message.find("interrupted after") != std::string::npos);
  CHECK(cut.pivots <= 128);
  CHECK(cut.pivots > 0);
  CHECK(cut.z.isZero());

  // interrupted before anything starts: no pivot at all
  LemkeOptions at_once;
  at_once.interrupted = [] { return true; };
  const LcpResult none = solve_lemke(planted.problem, at_once);
  CHECK(none.status == LcpStatus::pivot_limit);
  CHECK(none.pivots == 0);
}
