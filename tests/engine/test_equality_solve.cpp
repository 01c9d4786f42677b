// The equality block solved along the body tree (engine/equality_solve.hpp) against an
// independent dense solve: the saddle-point matrix H = [A −Jᵀ; J 0] assembled densely and solved
// by Eigen's full-pivot LU, on random trees and chains of bodies with random joint rows, random
// inertias and random (non-symmetric) couplings of a parent and a child in A. Closed loops and
// dependent rows are reported, and the small-island path then still gives the general path's
// answer.
#include <catch2/catch.hpp>

#include <Eigen/LU>
#include <algorithm>
#include <random>

#include "island_test_support.hpp"
#include "pivot/engine/equality_solve.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/small_island.hpp"

using namespace pivot;
using namespace pivot::detail;
using namespace pivot::test;

namespace {

// bodies with global indices 5, 8, 11, … (ascending, not contiguous); body i > 0 joined to
// parent[i] < i by 1 to 5 random rows, some bodies also to the world; with `coupled`, A has a
// random block between some parents and children. The rows are listed in a shuffled order.
TestIsland make_tree(std::mt19937& rng, const std::vector<int>& parent, bool coupled) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), positive(0.5, 2.0);
  std::uniform_int_distribution<int> joint_rows(1, 5), world_rows(0, 2);
  const int nb = static_cast<int>(parent.size());
  TestIsland t;
  std::vector<Eigen::Triplet<double>> mass;
  for (int b = 0; b < nb; ++b) {
    t.in.bodies.push_back(5 + 3 * b);
    Eigen::Matrix<double, 6, 6> R;
    for (int k = 0; k < 6; ++k) R.row(k) = random_row(rng);
    const Eigen::Matrix<double, 6, 6> block =
        R * R.transpose() + positive(rng) * Eigen::Matrix<double, 6, 6>::Identity();
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) mass.emplace_back(6 * b + r, 6 * b + c, block(r, c));
    if (coupled && parent[b] >= 0 && u(rng) > 0.0)
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) {
          mass.emplace_back(6 * b + r, 6 * parent[b] + c, 0.1 * u(rng));
          mass.emplace_back(6 * parent[b] + r, 6 * b + c, 0.1 * u(rng));
        }
  }
  t.in.M_tilde.resize(6 * nb, 6 * nb);
  t.in.M_tilde.setFromTriplets(mass.begin(), mass.end());
  t.in.momentum.resize(6 * nb);
  for (int k = 0; k < 6 * nb; ++k) t.in.momentum(k) = u(rng);
  auto add_row = [&](int a, int b) {
    EqualityRow e;
    e.body_a = t.in.bodies[a];
    e.body_b = b >= 0 ? t.in.bodies[b] : -1;
    e.J_A = random_row(rng);
    e.J_B = b >= 0 ? random_row(rng) : Row6::Zero();
    e.bias = 0.1 * u(rng);
    e.owner = 0;
    t.rows.equalities.push_back(e);
  };
  for (int b = 0; b < nb; ++b) {
    const int to_parent = parent[b] >= 0 ? joint_rows(rng) : 0;
    const int to_world = std::min(world_rows(rng), 5 - to_parent);
    // a child's row with the child as body a or as body b
    for (int k = 0; k < to_parent; ++k)
      u(rng) > 0.0 ? add_row(b, parent[b]) : add_row(parent[b], b);
    for (int k = 0; k < to_world; ++k) add_row(b, -1);
  }
  for (int e = 0; e < static_cast<int>(t.rows.equalities.size()); ++e) t.in.equalities.push_back(e);
  std::shuffle(t.in.equalities.begin(), t.in.equalities.end(), rng);
  return t;
}

// H = [A −Jᵀ; J 0] in dense storage
Eigen::MatrixXd dense_kkt(const TestIsland& t) {
  const int nv = 6 * static_cast<int>(t.in.bodies.size());
  const int ne = static_cast<int>(t.in.equalities.size());
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(nv + ne, nv + ne);
  H.topLeftCorner(nv, nv) = Eigen::MatrixXd(t.in.M_tilde);
  for (int e = 0; e < ne; ++e) {
    const EqualityRow& r = t.rows.equalities[t.in.equalities[e]];
    auto put = [&](int body, const Row6& J) {
      if (body < 0) return;
      const auto b =
          std::lower_bound(t.in.bodies.begin(), t.in.bodies.end(), body) - t.in.bodies.begin();
      H.block(nv + e, 6 * b, 1, 6) += J;
      H.block(6 * b, nv + e, 6, 1) -= J.transpose();
    };
    put(r.body_a, r.J_A);
    put(r.body_b, r.J_B);
  }
  return H;
}

// the tree's answer against the dense full-pivot LU's, relative to the answer's size
void check_against_dense(const TestIsland& t) {
  const int nv = 6 * static_cast<int>(t.in.bodies.size());
  const int ne = static_cast<int>(t.in.equalities.size());
  EqualityTree tree;
  REQUIRE(tree.factor(t.rows, t.in.bodies, t.in.equalities, t.in.M_tilde) ==
          EqualityTree::Status::factored);
  std::mt19937 rng(static_cast<unsigned>(nv + 7 * ne));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd rhs(nv + ne);
  for (int k = 0; k < nv + ne; ++k) rhs(k) = u(rng);
  const Eigen::MatrixXd H = dense_kkt(t);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(H);
  REQUIRE(lu.isInvertible());
  const Eigen::VectorXd expected = lu.solve(rhs);
  Eigen::VectorXd v(nv), lambda(ne);
  tree.solve(rhs.head(nv), rhs.tail(ne), v, lambda);
  Eigen::VectorXd x(nv + ne);
  x << v, lambda;
  const double scale = std::max(1.0, expected.lpNorm<Eigen::Infinity>());
  CHECK((x - expected).lpNorm<Eigen::Infinity>() <= 1e-10 * scale);
  CHECK((H * x - rhs).lpNorm<Eigen::Infinity>() <= 1e-10 * scale * H.lpNorm<Eigen::Infinity>());
}

}  // namespace

TEST_CASE("the body tree's factorization solves the equality block like a dense LU",
          "[island][equality]") {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    INFO("trial " << trial);
    const int nb = 1 + trial % 12;
    std::vector<int> parent(static_cast<std::size_t>(nb), -1);
    for (int b = 1; b < nb; ++b) parent[b] = std::uniform_int_distribution<int>(0, b - 1)(rng);
    // some trees split into a forest: a body without a parent starts a new tree
    if (trial % 5 == 0 && nb > 2) parent[nb / 2] = -1;
    check_against_dense(make_tree(rng, parent, trial % 2 == 1));
  }
}

TEST_CASE("a long chain is solved along its bodies", "[island][equality]") {
  std::mt19937 rng(5);
  std::vector<int> parent(40);
  for (int b = 0; b < 40; ++b) parent[b] = b - 1;
  check_against_dense(make_tree(rng, parent, false));
  const TestIsland coupled = make_tree(rng, parent, true);
  check_against_dense(coupled);
  // 40 bodies: above the dense reduction's 16, within the tree's limit; the general path's answer
  REQUIRE(fits_small_island(coupled.rows, coupled.in));
  const std::optional<IslandOutput> small = solve_small_island(coupled.rows, coupled.in, {});
  REQUIRE(small.has_value());
  const IslandOutput general = solve_island(coupled.rows, coupled.in, {});
  REQUIRE(general.status == lcp::LcpStatus::solved);
  CHECK((small->velocity - general.velocity).lpNorm<Eigen::Infinity>() <=
        1e-9 * std::max(1.0, general.velocity.lpNorm<Eigen::Infinity>()));
  // above the tree's limit a coupled island goes to the general path
  std::vector<int> long_parent(kTreeIslandBodies + 1);
  for (int b = 0; b <= kTreeIslandBodies; ++b) long_parent[b] = b - 1;
  const TestIsland too_long = make_tree(rng, long_parent, true);
  CHECK_FALSE(fits_small_island(too_long.rows, too_long.in));
}

TEST_CASE("a closed loop is not factored along the tree, and the small path still solves it",
          "[island][equality]") {
  std::mt19937 rng(11);
  std::vector<int> parent(5);
  for (int b = 0; b < 5; ++b) parent[b] = b - 1;
  TestIsland t = make_tree(rng, parent, false);
  // a ball-joint-like closure of the last body onto the first: three rows
  for (int k = 0; k < 3; ++k) {
    EqualityRow e;
    e.body_a = t.in.bodies[4];
    e.body_b = t.in.bodies[0];
    e.J_A = random_row(rng);
    e.J_B = random_row(rng);
    t.in.equalities.push_back(static_cast<int>(t.rows.equalities.size()));
    t.rows.equalities.push_back(e);
  }
  EqualityTree tree;
  CHECK(tree.factor(t.rows, t.in.bodies, t.in.equalities, t.in.M_tilde) ==
        EqualityTree::Status::not_a_tree);
  // the island's answer (the dense reduction's) against the general path's
  REQUIRE(fits_small_island(t.rows, t.in));
  const std::optional<IslandOutput> small = solve_small_island(t.rows, t.in, {});
  REQUIRE(small.has_value());
  const IslandOutput general = solve_island(t.rows, t.in, {});
  REQUIRE(general.status == lcp::LcpStatus::solved);
  CHECK((small->velocity - general.velocity).lpNorm<Eigen::Infinity>() <=
        1e-10 * std::max(1.0, general.velocity.lpNorm<Eigen::Infinity>()));
  CHECK((small->lambda_eq - general.lambda_eq).lpNorm<Eigen::Infinity>() <=
        1e-10 * std::max(1.0, general.lambda_eq.lpNorm<Eigen::Infinity>()));
}

TEST_CASE("dependent rows are reported by a pivot, and the general path takes the island",
          "[island][equality]") {
  std::mt19937 rng(13);
  std::vector<int> parent{-1, 0, 1};
  TestIsland t = make_tree(rng, parent, false);
  // a row between bodies 2 and 1 repeated, scaled: J A⁻¹ Jᵀ of that node is singular
  const auto it =
      std::find_if(t.rows.equalities.begin(), t.rows.equalities.end(), [&](const EqualityRow& e) {
        return (e.body_a == t.in.bodies[2] || e.body_b == t.in.bodies[2]) && e.body_a >= 0 &&
               e.body_b >= 0;
      });
  REQUIRE(it != t.rows.equalities.end());
  EqualityRow copy = *it;
  copy.J_A *= 2.0;
  copy.J_B *= 2.0;
  copy.bias *= 2.0;
  t.in.equalities.push_back(static_cast<int>(t.rows.equalities.size()));
  t.rows.equalities.push_back(copy);
  EqualityTree tree;
  CHECK(tree.factor(t.rows, t.in.bodies, t.in.equalities, t.in.M_tilde) ==
        EqualityTree::Status::dependent);
  // the dense reduction's LU finds C singular too: the general path regularizes
  CHECK_FALSE(solve_small_island(t.rows, t.in, {}).has_value());
  // seven rows between a body and the world are more than its freedoms
  TestIsland seven = make_tree(rng, {-1}, false);
  while (seven.rows.equalities.size() < 7) {
    EqualityRow e;
    e.body_a = seven.in.bodies[0];
    e.J_A = random_row(rng);
    seven.in.equalities.push_back(static_cast<int>(seven.rows.equalities.size()));
    seven.rows.equalities.push_back(e);
  }
  CHECK(tree.factor(seven.rows, seven.in.bodies, seven.in.equalities, seven.in.M_tilde) ==
        EqualityTree::Status::dependent);
}

TEST_CASE(
    "an island whose M̃ couples a parent and a child takes the tree and agrees with the "
    "general path",
    "[island][equality]") {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 20; ++trial) {
    INFO("trial " << trial);
    const int nb = 2 + trial % 20;
    std::vector<int> parent(static_cast<std::size_t>(nb), -1);
    for (int b = 1; b < nb; ++b) parent[b] = std::uniform_int_distribution<int>(0, b - 1)(rng);
    const TestIsland t = make_tree(rng, parent, true);
    REQUIRE(fits_small_island(t.rows, t.in));
    const std::optional<IslandOutput> small = solve_small_island(t.rows, t.in, {});
    REQUIRE(small.has_value());
    const IslandOutput general = solve_island(t.rows, t.in, {});
    REQUIRE(general.status == lcp::LcpStatus::solved);
    REQUIRE_FALSE(general.regularized);
    const double scale = std::max(1.0, general.velocity.lpNorm<Eigen::Infinity>());
    CHECK((small->velocity - general.velocity).lpNorm<Eigen::Infinity>() <= 1e-9 * scale);
    CHECK((small->lambda_eq - general.lambda_eq).lpNorm<Eigen::Infinity>() <=
          1e-9 * std::max(1.0, general.lambda_eq.lpNorm<Eigen::Infinity>()));
  }
}
