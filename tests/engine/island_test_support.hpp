#pragma once
// Random islands for the tests of the island paths (joint_island, equality_solve, small_island):
// an island's rows with its input, and random Jacobian rows from the test's own generator.

#include <Eigen/SparseCore>
#include <random>
#include <vector>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"

namespace pivot::test {

/// the rows an island's indices refer to, and the island
struct TestIsland {
  detail::ConstraintSet rows;
  detail::IslandInput in;
};

/// body b's rigid-body mass block [I 0; 0 m 1] of an island's M̃, as triplets
inline void append_rigid_mass(std::vector<Eigen::Triplet<double>>& t, int b, const Mat3& I,
                              double m) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) t.emplace_back(6 * b + r, 6 * b + c, I(r, c));
  for (int k = 3; k < 6; ++k) t.emplace_back(6 * b + k, 6 * b + k, m);
}

/// a row of six entries uniform in [−1, 1]
inline Row6 random_row(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Row6 r;
  for (int k = 0; k < 6; ++k) r(k) = u(rng);
  return r;
}

}  // namespace pivot::test
