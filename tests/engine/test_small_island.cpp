// The small-island path (engine/small_island.hpp, islands with joints) and the contact-island
// path (engine/contact_island.hpp, islands without) against the general path
// (engine/island_solver.hpp), the independent implementation they must agree with: the same
// mixed LCP reduced by blocks (A⁻¹ per body, the joint block C = J A⁻¹ Jᵀ; or body by body)
// instead of by a sparse LU of the whole saddle-point matrix. On random islands in general
// position (random inertias, Jacobian rows, biases and momenta; contacts with friction cones,
// joints, motors) both give the same velocities and impulses to 1e-12 of their scale.
#include <catch2/catch.hpp>

#include <Eigen/SVD>
#include <cmath>
#include <random>

#include "island_test_support.hpp"
#include "pivot/constraints/contact_rows.hpp"
#include "pivot/engine/contact_island.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/small_island.hpp"
#include "pivot/lcp/mixed_lcp.hpp"

using namespace pivot;
using namespace pivot::detail;
using namespace pivot::test;

namespace {

// every random number comes from the test's own generator (not std::rand, whose state depends
// on which tests ran before in the same process)
Vec3 random_vec3(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return {u(rng), u(rng), u(rng)};
}

// bodies 0 … nb−1 (global indices 10, 11, …: the island maps them), each with a random
// positive definite mass block; contacts between random bodies or with the world (−1), each
// with a friction cone of 4 directions; `joints` equality rows and `motors` motors
TestIsland make_island(std::mt19937& rng, int nb, int contacts, int joints, int motors) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), positive(0.5, 2.0);
  std::uniform_int_distribution<int> body(0, nb - 1);
  TestIsland island;
  std::vector<Eigen::Triplet<double>> mass;
  for (int b = 0; b < nb; ++b) {
    island.in.bodies.push_back(10 + b);
    Eigen::Matrix3d R;
    R << random_vec3(rng), random_vec3(rng), random_vec3(rng);
    const Eigen::Matrix3d I = R * R.transpose() + positive(rng) * Eigen::Matrix3d::Identity();
    const double m = positive(rng);
    append_rigid_mass(mass, b, I, m);
  }
  island.in.M_tilde.resize(6 * nb, 6 * nb);
  island.in.M_tilde.setFromTriplets(mass.begin(), mass.end());
  island.in.momentum.resize(6 * nb);
  for (int k = 0; k < 6 * nb; ++k) island.in.momentum(k) = u(rng);
  auto pair = [&](RowRef& r) {
    r.body_a = 10 + body(rng);
    r.body_b = nb > 1 && u(rng) > 0.0 ? 10 + body(rng) : -1;
    if (r.body_b == r.body_a) r.body_b = -1;
    r.J_A = random_row(rng);
    r.J_B = r.body_b >= 0 ? random_row(rng) : Row6::Zero();
  };
  // contacts as the World makes them (constraints/contact_rows.hpp): a random unit normal and
  // contact points near the bodies' centres, the normal row and 4 friction directions
  std::vector<Vec3> centre(static_cast<std::size_t>(nb));
  for (auto& x : centre) x = random_vec3(rng);
  auto random_unit = [&] {
    Vec3 n = random_vec3(rng);
    while (n.norm() < 0.1) n = random_vec3(rng);
    return Vec3(n.normalized());
  };
  for (int c = 0; c < contacts; ++c) {
    UnilateralRow n;
    n.body_a = body(rng);
    n.body_b = nb > 1 && u(rng) > 0.0 ? body(rng) : -1;
    if (n.body_b == n.body_a) n.body_b = -1;
    const Vec3 normal = random_unit();
    const Vec3 p_a = centre[n.body_a] + 0.2 * random_vec3(rng);
    const Vec3 p_B = n.body_b >= 0 ? centre[n.body_b] : Vec3::Zero();
    const ContactRow row = contact_row(p_a, centre[n.body_a], p_a, p_B, normal);
    n.J_A = row.J_A;
    n.J_B = n.body_b >= 0 ? row.J_B : Row6::Zero();
    n.body_a += 10;
    if (n.body_b >= 0) n.body_b += 10;
    n.bias = u(rng);  // about half of them pressed
    island.in.unilaterals.push_back(static_cast<int>(island.rows.unilaterals.size()));
    island.rows.unilaterals.push_back(n);
    FrictionCone cone;
    cone.normal_row = island.in.unilaterals.back();
    cone.mu = 0.5 * positive(rng);
    for (const Vec3& t : friction_directions(normal, 4, 0.0)) {
      const ContactRow tangent = contact_row(p_a, centre[n.body_a - 10], p_a, p_B, t);
      RowRef d;
      d.body_a = n.body_a;
      d.body_b = n.body_b;
      d.J_A = tangent.J_A;
      d.J_B = n.body_b >= 0 ? tangent.J_B : Row6::Zero();
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

// The condition number of the answer's basis: the block 𝓜(α, α) of the reduced LCP on the
// answer's active set α (∞ when it is singular: the impulses are then not unique, and two
// correct solvers may return different ones). Rounding moves either answer by about ε times
// this, so only islands where it is at most 1e3 are compared at 1e-12.
double basis_condition(const lcp::SparseMixedLcpProblem& p, const std::vector<int>& active) {
  if (active.empty()) return 1.0;
  const lcp::MixedLcpProblem dense{Eigen::MatrixXd(p.P),
                                   Eigen::MatrixXd(p.Q),
                                   Eigen::MatrixXd(p.K),
                                   Eigen::MatrixXd(p.S),
                                   p.u,
                                   p.v,
                                   p.name};
  const lcp::LcpProblem reduced = lcp::reduce_mixed_lcp(dense);
  const auto k = static_cast<Eigen::Index>(active.size());
  Eigen::MatrixXd B(k, k);
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index j = 0; j < k; ++j) B(i, j) = reduced.M(active[i], active[j]);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(B);
  const Eigen::VectorXd sigma = svd.singularValues();
  return sigma(k - 1) > 0.0 ? sigma(0) / sigma(k - 1) : INFINITY;
}

// the fast path the World would take for this island
std::optional<IslandOutput> solve_fast(const TestIsland& island) {
  if (fits_contact_island(island.rows, island.in))
    return solve_contact_island(island.rows, island.in, {});
  REQUIRE(fits_small_island(island.rows, island.in));
  return solve_small_island(island.rows, island.in, {});
}

void check_same(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  REQUIRE(a.size() == b.size());
  if (a.size() == 0) return;
  CHECK((a - b).lpNorm<Eigen::Infinity>() <= 1e-12 * scale_of(a));
}

struct Compared {
  int islands = 0, with_joints = 0, with_contacts = 0, large = 0, sparse = 0;
};

void compare_paths(int seed, int trials, int max_bodies, int max_contacts, int max_joints,
                   Compared& n, int min_contacts = 0) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> bodies(1, max_bodies), contacts(min_contacts, max_contacts),
      joints(0, max_joints), motors(0, 1);
  for (int trial = 0; trial < trials; ++trial) {
    const int nb = bodies(rng);
    const TestIsland island =
        make_island(rng, nb, contacts(rng), std::min(joints(rng), 6 * nb - 1), motors(rng));
    // the general path's own failures and layers, and nearly singular joint blocks (there both
    // answers are only as close as the conditioning lets them be) are not compared
    lcp::SparseMixedLcpProblem problem;
    const IslandOutput general = solve_island(island.rows, island.in, {}, &problem);
    if (general.status != lcp::LcpStatus::solved || general.fallback || general.regularized)
      continue;
    if (basis_condition(problem, general.active_set) > 1e3) continue;
    const std::optional<IslandOutput> small = solve_fast(island);
    REQUIRE(small.has_value());
    INFO("trial " << trial);
    check_same(general.velocity, small->velocity);
    check_same(general.lambda_eq, small->lambda_eq);
    check_same(general.lambda_uni, small->lambda_uni);
    check_same(general.lambda_motor, small->lambda_motor);
    REQUIRE(general.lambda_cone.size() == small->lambda_cone.size());
    for (std::size_t c = 0; c < general.lambda_cone.size(); ++c)
      check_same(general.lambda_cone[c], small->lambda_cone[c]);
    ++n.islands;
    n.with_joints += island.in.equalities.empty() ? 0 : 1;
    n.with_contacts += island.in.unilaterals.empty() ? 0 : 1;
    n.large += general.lcp_size > 120 ? 1 : 0;
    n.sparse += general.lcp_size > kDenseContactRows ? 1 : 0;
  }
}

}  // namespace

TEST_CASE("the small and contact-island paths give the general path's velocities and impulses",
          "[island][small]") {
  Compared n;
  compare_paths(16, 300, 4, 6, 4, n);
  // most trials are compared, with and without joints and contacts
  CHECK(n.islands >= 200);
  CHECK(n.with_joints >= 100);
  CHECK(n.islands - n.with_joints >= 50);
  CHECK(n.with_contacts >= 100);
}

TEST_CASE("larger contact islands give the general path's answer", "[island][small]") {
  Compared n;
  // up to 16 bodies and 42 contacts: m up to 252 rows, 𝓜 in dense storage (kDenseContactRows)
  compare_paths(5, 80, 16, kDenseContactRows / 6, 0, n);
  CHECK(n.islands >= 15);
  CHECK(n.large >= 5);
  // up to 64 bodies and 43 to 85 contacts: m from 258 to 510 rows, 𝓜 in sparse storage above
  // kDenseContactRows (fewer contacts per body than above: most are well conditioned, where the
  // paths can be compared)
  compare_paths(6, 10, 64, 85, 0, n, kDenseContactRows / 6 + 1);
  CHECK(n.sparse >= 5);
  CHECK(n.with_joints == 0);
}

TEST_CASE("the small path declines a singular joint block", "[island][small]") {
  std::mt19937 rng(7);
  TestIsland island = make_island(rng, 1, 1, 2, 0);
  // the second joint row repeats the first: J A⁻¹ Jᵀ is singular
  island.rows.equalities[1].J_A = island.rows.equalities[0].J_A;
  island.rows.equalities[1].J_B = island.rows.equalities[0].J_B;
  island.rows.equalities[1].body_a = island.rows.equalities[0].body_a;
  island.rows.equalities[1].body_b = island.rows.equalities[0].body_b;
  CHECK_FALSE(solve_small_island(island.rows, island.in, {}).has_value());
}

TEST_CASE("which islands take which path", "[island][small]") {
  std::mt19937 rng(3);
  // without joints: the contact-island path up to kContactIslandRows rows; with joints: the
  // small path up to kSmallIslandRows rows
  const TestIsland contacts = make_island(rng, 3, kContactIslandRows / 6, 0, 0);
  CHECK(fits_contact_island(contacts.rows, contacts.in));
  CHECK_FALSE(fits_small_island(contacts.rows, contacts.in));
  const TestIsland many = make_island(rng, 3, kContactIslandRows / 6 + 1, 0, 0);
  CHECK_FALSE(fits_contact_island(many.rows, many.in));
  const TestIsland jointed = make_island(rng, 3, kSmallIslandRows / 6 - 1, 1, 0);
  CHECK(fits_small_island(jointed.rows, jointed.in));
  CHECK_FALSE(fits_contact_island(jointed.rows, jointed.in));
  const TestIsland big = make_island(rng, 3, kSmallIslandRows / 6 + 1, 1, 0);
  CHECK_FALSE(fits_small_island(big.rows, big.in));
  // a spring's gradient between bodies 0 and 1: with joints the small path's body tree
  // (engine/equality_solve.hpp), without joints not the contact path
  TestIsland coupled = make_island(rng, 2, 1, 1, 0);
  coupled.in.M_tilde.coeffRef(0, 6) = 0.1;
  CHECK(fits_small_island(coupled.rows, coupled.in));
  coupled.in.equalities.clear();
  CHECK_FALSE(fits_contact_island(coupled.rows, coupled.in));
}
