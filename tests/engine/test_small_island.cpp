// The small-island path (engine/small_island.hpp) against the general path
// (engine/island_solver.hpp), the independent implementation it must agree with: the same mixed
// LCP reduced by blocks (A⁻¹ per body, the joint block C = J A⁻¹ Jᵀ) instead of by a sparse LU
// of the whole saddle-point matrix. On random islands in general position (random inertias,
// Jacobian rows, biases and momenta; contacts with friction cones, joints, motors) both give
// the same velocities and impulses to 1e-12 of their scale.
#include <catch2/catch.hpp>

#include <random>

#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/small_island.hpp"

using namespace pivot;
using namespace pivot::detail;

namespace {

struct RandomIsland {
  ConstraintSet rows;
  IslandInput in;
};

Row6 random_row(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Row6 r;
  for (int k = 0; k < 6; ++k) r(k) = u(rng);
  return r;
}

// bodies 0 … nb−1 (global indices 10, 11, …: the island maps them), each with a random
// positive definite mass block; contacts between random bodies or with the world (−1), each
// with a friction cone of 4 directions; `joints` equality rows and `motors` motors
RandomIsland make_island(std::mt19937& rng, int nb, int contacts, int joints, int motors) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), positive(0.5, 2.0);
  std::uniform_int_distribution<int> body(0, nb - 1);
  RandomIsland island;
  std::vector<Eigen::Triplet<double>> mass;
  for (int b = 0; b < nb; ++b) {
    island.in.bodies.push_back(10 + b);
    Eigen::Matrix3d R = Eigen::Matrix3d::Random();
    const Eigen::Matrix3d I = R * R.transpose() + positive(rng) * Eigen::Matrix3d::Identity();
    const double m = positive(rng);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) mass.emplace_back(6 * b + r, 6 * b + c, I(r, c));
    for (int k = 3; k < 6; ++k) mass.emplace_back(6 * b + k, 6 * b + k, m);
  }
  island.in.M_tilde.resize(6 * nb, 6 * nb);
  island.in.M_tilde.setFromTriplets(mass.begin(), mass.end());
  island.in.momentum = Eigen::VectorXd::Random(6 * nb);
  auto pair = [&](RowRef& r) {
    r.body_a = 10 + body(rng);
    r.body_b = nb > 1 && u(rng) > 0.0 ? 10 + body(rng) : -1;
    if (r.body_b == r.body_a) r.body_b = -1;
    r.J_A = random_row(rng);
    r.J_B = r.body_b >= 0 ? random_row(rng) : Row6::Zero();
  };
  for (int c = 0; c < contacts; ++c) {
    UnilateralRow n;
    pair(n);
    n.bias = u(rng);  // about half of them pressed
    island.in.unilaterals.push_back(static_cast<int>(island.rows.unilaterals.size()));
    island.rows.unilaterals.push_back(n);
    FrictionCone cone;
    cone.normal_row = island.in.unilaterals.back();
    cone.mu = 0.5 * positive(rng);
    for (int k = 0; k < 4; ++k) {
      RowRef d;
      d.body_a = n.body_a;
      d.body_b = n.body_b;
      d.J_A = random_row(rng);
      d.J_B = n.body_b >= 0 ? random_row(rng) : Row6::Zero();
      cone.directions.push_back(d);
    }
    island.in.cones.push_back(static_cast<int>(island.rows.cones.size()));
    island.rows.cones.push_back(cone);
  }
  for (int j = 0; j < joints; ++j) {
    EqualityRow e;
    pair(e);
    e.bias = 0.1 * u(rng);
    e.owner = 0;
    e.owner_row = j;
    island.in.equalities.push_back(static_cast<int>(island.rows.equalities.size()));
    island.rows.equalities.push_back(e);
  }
  for (int k = 0; k < motors; ++k) {
    MotorConstraint mo;
    pair(mo);
    mo.target = u(rng);
    mo.max_impulse = positive(rng);
    mo.owner = 0;
    island.in.motors.push_back(static_cast<int>(island.rows.motors.size()));
    island.rows.motors.push_back(mo);
  }
  return island;
}

double scale_of(const Eigen::VectorXd& a) {
  return std::max(1.0, a.lpNorm<Eigen::Infinity>());
}

void check_same(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  REQUIRE(a.size() == b.size());
  if (a.size() == 0) return;
  CHECK((a - b).lpNorm<Eigen::Infinity>() <= 1e-12 * scale_of(a));
}

}  // namespace

TEST_CASE("the small-island path gives the general path's velocities and impulses",
          "[island][small]") {
  std::mt19937 rng(16);
  std::uniform_int_distribution<int> bodies(1, 4), contacts(0, 6), joints(0, 4), motors(0, 1);
  int compared = 0, with_joints = 0, with_contacts = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int nb = bodies(rng);
    const RandomIsland island =
        make_island(rng, nb, contacts(rng), std::min(joints(rng), 6 * nb - 1), motors(rng));
    REQUIRE(fits_small_island(island.rows, island.in));
    const IslandOutput general = solve_island(island.rows, island.in, {});
    REQUIRE(general.status == lcp::LcpStatus::solved);
    if (general.fallback || general.regularized) continue;  // the general path's own layers
    const std::optional<IslandOutput> small = solve_small_island(island.rows, island.in, {});
    REQUIRE(small.has_value());
    INFO("trial " << trial);
    check_same(general.velocity, small->velocity);
    check_same(general.lambda_eq, small->lambda_eq);
    check_same(general.lambda_uni, small->lambda_uni);
    check_same(general.lambda_motor, small->lambda_motor);
    REQUIRE(general.lambda_cone.size() == small->lambda_cone.size());
    for (std::size_t c = 0; c < general.lambda_cone.size(); ++c)
      check_same(general.lambda_cone[c], small->lambda_cone[c]);
    CHECK(general.active_set == small->active_set);
    ++compared;
    with_joints += island.in.equalities.empty() ? 0 : 1;
    with_contacts += island.in.unilaterals.empty() ? 0 : 1;
  }
  // most trials are compared, with and without joints and contacts
  CHECK(compared >= 250);
  CHECK(with_joints >= 100);
  CHECK(with_contacts >= 100);
}

TEST_CASE("the small path hands a singular joint block to the general path", "[island][small]") {
  std::mt19937 rng(7);
  RandomIsland island = make_island(rng, 1, 1, 2, 0);
  // the second joint row repeats the first: J A⁻¹ Jᵀ is singular
  island.rows.equalities[1].J_A = island.rows.equalities[0].J_A;
  island.rows.equalities[1].J_B = island.rows.equalities[0].J_B;
  island.rows.equalities[1].body_a = island.rows.equalities[0].body_a;
  island.rows.equalities[1].body_b = island.rows.equalities[0].body_b;
  CHECK_FALSE(solve_small_island(island.rows, island.in, {}).has_value());
  const IslandOutput general = solve_island(island.rows, island.in, {});
  CHECK(general.regularized);
}

TEST_CASE("islands too large or coupled by forces are not small", "[island][small]") {
  std::mt19937 rng(3);
  // contacts only: reduced body by body up to kSmallContactIslandRows; with joints up to
  // kSmallIslandRows
  const RandomIsland contacts = make_island(rng, 3, kSmallContactIslandRows / 6, 0, 0);
  CHECK(fits_small_island(contacts.rows, contacts.in));
  const RandomIsland big = make_island(rng, 3, kSmallContactIslandRows / 6 + 1, 0, 0);
  CHECK_FALSE(fits_small_island(big.rows, big.in));
  const RandomIsland jointed = make_island(rng, 3, kSmallIslandRows / 6 + 1, 1, 0);
  CHECK_FALSE(fits_small_island(jointed.rows, jointed.in));
  RandomIsland coupled = make_island(rng, 2, 1, 0, 0);
  coupled.in.M_tilde.coeffRef(0, 6) = 0.1;  // a spring's gradient between bodies 0 and 1
  CHECK_FALSE(fits_small_island(coupled.rows, coupled.in));
}
