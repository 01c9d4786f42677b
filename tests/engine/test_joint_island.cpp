// The joint-island path (engine/joint_island.hpp): an island of joints alone solved in the
// joints' range space by a Cholesky factorization of C = J A⁻¹ Jᵀ. Its answer is compared with
// an independent solve of the whole saddle-point system [A −Jᵀ; J 0] [v; λ] = [r; −b] by a
// full-pivot LU; and the islands it must leave to the rank-revealing paths are declined.
#include <catch2/catch.hpp>

#include <Eigen/LU>
#include <random>

#include "island_test_support.hpp"
#include "pivot/engine/joint_island.hpp"

using namespace pivot;
using namespace pivot::detail;
using namespace pivot::test;

namespace {

// nb bodies (global indices 10, 11, …) with rigid-body mass blocks [I 0; 0 m 1] of random
// positive definite I; body b > 0 joined to a random earlier body (a tree), body 0 to the
// world, each joint by `per_joint` random rows with random biases
TestIsland make_tree(std::mt19937& rng, int nb, int per_joint) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), positive(0.5, 2.0);
  TestIsland island;
  std::vector<Eigen::Triplet<double>> mass;
  for (int b = 0; b < nb; ++b) {
    island.in.bodies.push_back(10 + b);
    Mat3 R = Mat3::NullaryExpr([&] { return u(rng); });
    const Mat3 I = R * R.transpose() + positive(rng) * Mat3::Identity();
    const double m = positive(rng);
    append_rigid_mass(mass, b, I, m);
  }
  island.in.M_tilde.resize(6 * nb, 6 * nb);
  island.in.M_tilde.setFromTriplets(mass.begin(), mass.end());
  island.in.momentum = Eigen::VectorXd::NullaryExpr(6 * nb, [&] { return u(rng); });
  for (int b = 0; b < nb; ++b) {
    const int parent = b == 0 ? -1 : std::uniform_int_distribution<int>(0, b - 1)(rng);
    for (int k = 0; k < per_joint; ++k) {
      EqualityRow e;
      e.body_a = 10 + b;
      e.body_b = parent < 0 ? -1 : 10 + parent;
      e.J_A = random_row(rng);
      e.J_B = parent < 0 ? Row6::Zero() : random_row(rng);
      e.bias = 0.1 * u(rng);
      e.owner = b;
      e.owner_row = k;
      island.in.equalities.push_back(static_cast<int>(island.rows.equalities.size()));
      island.rows.equalities.push_back(e);
    }
  }
  return island;
}

// [v; λ] of the saddle-point system by a full-pivot LU of the whole matrix
Eigen::VectorXd saddle_point_answer(const TestIsland& island) {
  const auto nv = island.in.M_tilde.rows();
  const auto ne = static_cast<Eigen::Index>(island.in.equalities.size());
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(nv + ne, nv + ne);
  H.topLeftCorner(nv, nv) = Eigen::MatrixXd(island.in.M_tilde);
  Eigen::VectorXd rhs(nv + ne);
  rhs.head(nv) = island.in.momentum;
  for (Eigen::Index e = 0; e < ne; ++e) {
    const EqualityRow& row = island.rows.equalities[island.in.equalities[e]];
    auto place = [&](int body, const Row6& J) {
      if (body < 0) return;
      const int b = body - 10;
      H.block(nv + e, 6 * b, 1, 6) += J;
      H.block(6 * b, nv + e, 6, 1) -= J.transpose();
    };
    place(row.body_a, row.J_A);
    place(row.body_b, row.J_B);
    rhs(nv + e) = -row.bias;
  }
  return Eigen::FullPivLU<Eigen::MatrixXd>(H).solve(rhs);
}

}  // namespace

TEST_CASE("the joint-island path solves the saddle-point system", "[island][joint]") {
  std::mt19937 rng(11);
  int solved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int nb = std::uniform_int_distribution<int>(1, 12)(rng);
    const int per_joint = std::uniform_int_distribution<int>(1, 3)(rng);
    const TestIsland island = make_tree(rng, nb, per_joint);
    IslandOutput out;
    // random rows on a tree, at most 3 per joint: independent (C positive definite)
    INFO("trial " << trial);
    REQUIRE(solve_joint_island(island.rows, island.in, out));
    const Eigen::VectorXd x = saddle_point_answer(island);
    const auto nv = out.velocity.size();
    const double scale = std::max(1.0, x.lpNorm<Eigen::Infinity>());
    CHECK((out.velocity - x.head(nv)).lpNorm<Eigen::Infinity>() <= 1e-10 * scale);
    CHECK((out.lambda_eq - x.tail(x.size() - nv)).lpNorm<Eigen::Infinity>() <= 1e-10 * scale);
    CHECK(out.status == lcp::LcpStatus::solved);
    CHECK(out.lcp_size == 0);
    ++solved;
  }
  CHECK(solved == 200);
}

TEST_CASE("the joint-island path declines what it cannot vouch for", "[island][joint]") {
  std::mt19937 rng(5);
  IslandOutput out;
  SECTION("dependent rows: a row repeated") {
    TestIsland island = make_tree(rng, 4, 3);
    island.rows.equalities[5] = island.rows.equalities[4];
    CHECK_FALSE(solve_joint_island(island.rows, island.in, out));
  }
  SECTION("dependent rows: one the sum of two others on the same bodies") {
    TestIsland island = make_tree(rng, 3, 3);
    EqualityRow& r = island.rows.equalities[8];
    const EqualityRow& a = island.rows.equalities[6];
    const EqualityRow& b = island.rows.equalities[7];
    r.J_A = a.J_A + b.J_A;
    r.J_B = a.J_B + b.J_B;
    CHECK_FALSE(solve_joint_island(island.rows, island.in, out));
  }
  SECTION("a force couples two bodies in M̃") {
    TestIsland island = make_tree(rng, 2, 2);
    island.in.M_tilde.coeffRef(0, 6) = 0.1;
    island.in.M_tilde.coeffRef(6, 0) = 0.1;
    CHECK_FALSE(solve_joint_island(island.rows, island.in, out));
  }
  SECTION("a gyroscopic gradient: a body's block not symmetric") {
    TestIsland island = make_tree(rng, 2, 2);
    island.in.M_tilde.coeffRef(0, 1) += 0.3;
    CHECK_FALSE(solve_joint_island(island.rows, island.in, out));
  }
  SECTION("a complementarity row") {
    TestIsland island = make_tree(rng, 2, 2);
    UnilateralRow u;
    u.body_a = 10;
    u.J_A = random_row(rng);
    island.in.unilaterals.push_back(0);
    island.rows.unilaterals.push_back(u);
    CHECK_FALSE(solve_joint_island(island.rows, island.in, out));
  }
  SECTION("more rows than the path's storage") {
    const TestIsland island = make_tree(rng, kJointIslandRows / 3 + 1, 3);
    CHECK_FALSE(solve_joint_island(island.rows, island.in, out));
  }
}

// the bodies' blocks handed beside M̃ (IslandInput::mass_blocks, as island_mass writes them)
// give the answer of M̃ parsed, bit for bit; and they are what the path reads: a block handed
// not symmetric is declined though M̃ is a rigid body's
TEST_CASE("the joint-island path reads the bodies' blocks handed beside M̃", "[island][joint]") {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 50; ++trial) {
    const int nb = std::uniform_int_distribution<int>(1, 8)(rng);
    TestIsland island = make_tree(rng, nb, 3);
    IslandOutput parsed, handed;
    REQUIRE(solve_joint_island(island.rows, island.in, parsed));
    const Eigen::MatrixXd M(island.in.M_tilde);
    for (int b = 0; b < nb; ++b)
      island.in.mass_blocks.push_back({M.block<3, 3>(6 * b, 6 * b), M(6 * b + 3, 6 * b + 3)});
    REQUIRE(solve_joint_island(island.rows, island.in, handed));
    CHECK(handed.velocity == parsed.velocity);
    CHECK(handed.lambda_eq == parsed.lambda_eq);
    island.in.mass_blocks.back().I_W(0, 1) += 0.3;
    CHECK_FALSE(solve_joint_island(island.rows, island.in, handed));
  }
}
