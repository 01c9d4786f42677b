#pragma once
// Random islands for the tests of the island paths (joint_island, equality_solve, small_island):
// an island's rows with its input, and random Jacobian rows from the test's own generator.

#include <random>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"

namespace pivot::test {

/// the rows an island's indices refer to, and the island
struct TestIsland {
  detail::ConstraintSet rows;
  detail::IslandInput in;
};

/// a row of six entries uniform in [−1, 1]
inline Row6 random_row(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Row6 r;
  for (int k = 0; k < 6; ++k) r(k) = u(rng);
  return r;
}

}  // namespace pivot::test
