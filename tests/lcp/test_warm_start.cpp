// Warm start: the previous answer's active set, on a slightly different problem, gives a
// verified solution with one factorization and no pivots; a wrong guess falls back to Lemke.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/residual.hpp"
#include "lcp_test_support.hpp"

using namespace pivot::lcp;
using namespace pivot::test;

namespace {

/// an SPD problem of size 40 with a planted, strictly complementary solution (margins ≥ 0.5),
/// so that a 1e-6 relative change of q cannot change the active set
PlantedLcp warm_problem(std::uint32_t seed) {
  std::mt19937 rng(seed);
  return plant_solution(rng, random_spd(rng, 40), 0.5, "warm n=40");
}

LcpProblem perturbed(const LcpProblem& problem, std::uint32_t seed) {
  std::mt19937 rng(seed);
  LcpProblem out = problem;
  out.q += 1e-6 * problem.q.cwiseAbs().maxCoeff() * random_vector(rng, problem.q.size());
  return out;
}

/// is the candidate of this active set (z_α = −M_αα⁻¹ q_α, z_ᾱ = 0) a solution? computed here
bool active_set_solves(const LcpProblem& problem, const std::vector<int>& active) {
  const auto n = problem.q.size();
  VectorXd z = VectorXd::Zero(n);
  if (!active.empty()) {
    const auto k = static_cast<Eigen::Index>(active.size());
    MatrixXd A(k, k);
    VectorXd b(k);
    for (Eigen::Index r = 0; r < k; ++r) {
      b(r) = -problem.q(active[r]);
      for (Eigen::Index c = 0; c < k; ++c) A(r, c) = problem.M(active[r], active[c]);
    }
    const VectorXd za = A.fullPivLu().solve(b);
    for (Eigen::Index r = 0; r < k; ++r) z(active[r]) = za(r);
  }
  return independent_worst(problem.M, problem.q, z) <= 1e-9;
}

}  // namespace

TEST_CASE("warm start: the previous active set solves a perturbed problem without pivots",
          "[lcp][warm_start]") {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    const PlantedLcp planted = warm_problem(seed);
    const LcpResult first = solve_lemke(planted.problem);
    INFO("seed " << seed << ": first solve " << to_string(first.status) << ", pivots "
                 << first.pivots << ", " << first.message);
    REQUIRE(first.status == LcpStatus::solved);
    CHECK(first.path == StartPath::lemke);
    CHECK(first.active_set == planted.active);

    const LcpProblem next = perturbed(planted.problem, seed + 100);
    // ground truth: the same active set still solves the perturbed problem
    REQUIRE(active_set_solves(next, first.active_set));
    LemkeOptions options;
    options.warm_start = first.active_set;
    const LcpResult warm = solve_lemke(next, options);
    INFO("warm solve: " << to_string(warm.status) << ", path " << to_string(warm.path)
                        << ", pivots " << warm.pivots << ", " << warm.message);
    CHECK(warm.status == LcpStatus::solved);
    CHECK(warm.path == StartPath::warm_start);
    CHECK(warm.pivots == 0);
    CHECK(warm.active_set == first.active_set);
    REQUIRE(warm.z.size() == 40);
    CHECK(independent_worst(next.M, next.q, warm.z) <= 1e-9);
    // the same answer as a cold solve
    const LcpResult cold = solve_lemke(next);
    REQUIRE(cold.status == LcpStatus::solved);
    CHECK(relative_difference(warm.z, cold.z) <= 1e-9);
  }
}

TEST_CASE("warm start: a wrong active set falls back to Lemke's path and still solves",
          "[lcp][warm_start]") {
  const PlantedLcp planted = warm_problem(7);
  const LcpProblem next = perturbed(planted.problem, 8);
  const auto n = static_cast<int>(next.q.size());

  std::vector<std::vector<int>> wrong_guesses;
  // the complement of the right set
  std::vector<int> complement;
  for (int i = 0; i < n; ++i)
    if (!std::binary_search(planted.active.begin(), planted.active.end(), i))
      complement.push_back(i);
  wrong_guesses.push_back(complement);
  // every index
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  wrong_guesses.push_back(all);
  // the right set with one index missing
  std::vector<int> missing = planted.active;
  REQUIRE(!missing.empty());
  missing.erase(missing.begin());
  wrong_guesses.push_back(missing);

  for (const auto& guess : wrong_guesses) {
    // ground truth: this guess really is wrong
    REQUIRE_FALSE(active_set_solves(next, guess));
    LemkeOptions options;
    options.warm_start = guess;
    const LcpResult result = solve_lemke(next, options);
    INFO("guess of " << guess.size() << " indices: " << to_string(result.status) << ", path "
                     << to_string(result.path) << ", pivots " << result.pivots << ", "
                     << result.message);
    CHECK(result.status == LcpStatus::solved);
    // Lemke's path from the guessed basis (or, if that path fails, from the standard start)
    CHECK((result.path == StartPath::warm_lemke || result.path == StartPath::lemke));
    CHECK(result.pivots > 0);
    REQUIRE(result.z.size() == n);
    CHECK(independent_worst(next.M, next.q, result.z) <= 1e-9);
    CHECK(relative_difference(result.z, planted.z) <= 1e-4);  // q moved by 1e-6 relative
  }
}

TEST_CASE("warm start: from a nearly right active set Lemke's path is short", "[lcp][warm_start]") {
  // the right set with a few indices missing: the path from that basis (lemke.hpp, run_from)
  // needs about one pivot per missing index, where the standard start needs about one per
  // active index
  for (std::uint32_t seed : {11u, 12u, 13u}) {
    const PlantedLcp planted = warm_problem(seed);
    const LcpProblem next = perturbed(planted.problem, seed + 100);
    const LcpResult cold = solve_lemke(next);
    REQUIRE(cold.ok());
    for (std::size_t missing = 1; missing <= 3; ++missing) {
      std::vector<int> guess = planted.active;
      REQUIRE(guess.size() > 2 * missing);
      for (std::size_t i = 0; i < missing; ++i) guess.erase(guess.begin() + 2 * i);
      REQUIRE_FALSE(active_set_solves(next, guess));
      LemkeOptions options;
      options.warm_start = guess;
      const LcpResult warm = solve_lemke(next, options);
      INFO("seed " << seed << ", " << missing << " missing: " << to_string(warm.status) << ", "
                   << to_string(warm.path) << ", " << warm.pivots << " pivots (cold " << cold.pivots
                   << ")");
      REQUIRE(warm.ok());
      CHECK(warm.path == StartPath::warm_lemke);
      CHECK(warm.pivots <= static_cast<int>(2 * missing));
      CHECK(warm.pivots < cold.pivots);
      CHECK(independent_worst(next.M, next.q, warm.z) <= 1e-9);
      CHECK(relative_difference(warm.z, planted.z) <= 1e-4);
    }
  }
}

TEST_CASE("warm start: a problem without a solution still ends on a ray, whatever the guess",
          "[lcp][warm_start]") {
  // w = M z + q with M = 0, q < 0: w = q < 0 for every z, so there is no solution. The guessed
  // block M_αα = 0 is singular and the warm path breaks down; that must not turn the answer into
  // a numerical failure: the standard start decides, and it ends on a ray.
  const LcpProblem problem{MatrixXd::Zero(2, 2), VectorXd::Constant(2, -1.0), "no solution"};
  for (const std::vector<int>& guess :
       {std::vector<int>{}, std::vector<int>{0}, std::vector<int>{0, 1}}) {
    LemkeOptions options;
    options.warm_start = guess;
    const LcpResult r = solve_lemke(problem, options);
    INFO("guess of " << guess.size() << ": " << to_string(r.status) << ", " << r.message);
    CHECK(r.status == LcpStatus::ray_termination);
    CHECK(r.z.size() == 2);
    CHECK(r.z.allFinite());
  }
}

TEST_CASE("warm start: a numerically singular guessed block is not a basis, even with finite values",
          "[lcp][warm_start]") {
  // A lemke fuzz finding (tests/fuzz/regressions/lemke/singular_warm_block_z_4e19): M has a
  // zero row (2) and two proportional columns (2, 3); the guess α = {0, …, 4} makes M_αα = M,
  // singular, and its partial-pivot LU gave finite z of 4e19 (z₀ = z₁ = z₄ = 0) with w₄ = −69.1,
  // passed on as solved because the rounding level of such a z is above the data. The guess
  // must be refused and the answer decided by the standard start. Independent facts: (i) a
  // solution exists, z = (0, 0, 1, 0, 69.140625/67), checked below by hand; (ii) Lemke's method
  // is not guaranteed to find it for this M (not copositive-plus: row 0 has −110.7 on the
  // diagonal), so a ray is an honest answer; a `solved` must pass the independent check.
  MatrixXd M(5, 5);
  M << -110.6640625, 59.93359375, 6.56640625, -16.12109375, 0,  //
      0.99609375, 0, 0, 0, 0,                                  //
      0, 0, 0, 0, 0,                                           //
      0.1015625, 0.0625, 0, 0, 0,                              //
      79, 0, 0, 0, 67;
  VectorXd q(5);
  q << -5.46875, 96.09375, 0, 0, -69.140625;
  VectorXd known(5);
  known << 0, 0, 1, 0, 69.140625 / 67.0;
  REQUIRE(independent_worst(M, q, known) <= 1e-12);

  for (const bool sparse : {false, true}) {
    LemkeOptions options;
    options.warm_start = std::vector<int>{0, 1, 2, 3, 4};
    const LcpResult r = sparse ? solve_lemke(SparseLcpProblem{M.sparseView(), q, "singular"}, options)
                               : solve_lemke(LcpProblem{M, q, "singular"}, options);
    INFO((sparse ? "sparse: " : "dense: ") << to_string(r.status) << ", " << r.message);
    CHECK(r.z.allFinite());
    CHECK(r.z.cwiseAbs().maxCoeff() < 1e6);  // nothing of the 4e19 blow-up
    if (r.ok()) {
      // row by row, against each row's own magnitudes (the normwise check would pass 4e19)
      const VectorXd w = M * r.z + q;
      for (Eigen::Index i = 0; i < 5; ++i) {
        const double row = std::abs(q(i)) + (M.row(i).cwiseAbs() * r.z.cwiseAbs()).sum();
        CHECK(r.z(i) >= -1e-9 * r.z.cwiseAbs().maxCoeff());
        CHECK(w(i) >= -1e-9 * row);
        CHECK(std::min(std::abs(r.z(i)), std::abs(w(i))) <= 1e-9 * std::max(row, 1.0));
      }
    } else {
      CHECK(r.status == LcpStatus::ray_termination);
    }
  }
}
