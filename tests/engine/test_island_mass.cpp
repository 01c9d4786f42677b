// island_mass (engine/island_assembly.hpp): M̃ of an island is the bodies' mass blocks plus the
// force gradient's entries between the island's own bodies, nothing else; and its cost is linear
// in the island (issue #24: it walked the whole body set per island, O(N²) for N free bodies).
#include <catch2/catch.hpp>

#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/rigid_body.hpp"
#include "pivot/engine/rigid_body_set.hpp"

using namespace pivot;
using namespace pivot::detail;

TEST_CASE("island_mass keeps the gradient entries between the island's bodies only",
          "[engine][islands]") {
  RigidBodySet set;
  for (int i = 0; i < 5; ++i) {
    BodySettings s;
    s.name = "b";  // appended: g++ 12 warns falsely on "b" + to_string(i) (-Wrestrict)
    s.name += std::to_string(i);
    s.mass = 1.0 + i;  // M = diag(I, m): I = identity without a shape, m = 1 + i
    set.add(make_rigid_body(s), Pose{}, Vec6::Zero());
  }
  // a gradient coupling bodies 1–3 (same island) and 3–4 (4 is in another island), plus a
  // diagonal entry on 3: entries written by hand, so the expected M̃ is known entry by entry
  std::vector<Eigen::Triplet<double>> t = {{6 * 1 + 3, 6 * 3 + 3, 0.25}, {6 * 3 + 3, 6 * 1 + 3, 0.25},
                                           {6 * 3 + 4, 6 * 4 + 4, 7.0},  {6 * 4 + 4, 6 * 3 + 4, 7.0},
                                           {6 * 3 + 5, 6 * 3 + 5, -0.5}};
  Eigen::SparseMatrix<double> gradient(30, 30);
  gradient.setFromTriplets(t.begin(), t.end());
  const std::vector<int> island = {1, 3};
  const Eigen::MatrixXd M = Eigen::MatrixXd(island_mass(set, island, &gradient));
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(12, 12);
  for (int k = 0; k < 2; ++k) {
    expected.block<3, 3>(6 * k, 6 * k).setIdentity();                                  // inertia
    expected.block<3, 3>(6 * k + 3, 6 * k + 3) = (2.0 + 2 * k) * Eigen::Matrix3d::Identity();  // m
  }
  expected(3, 6 + 3) = expected(6 + 3, 3) = 0.25;
  expected(6 + 5, 6 + 5) += -0.5;
  CHECK((M - expected).cwiseAbs().maxCoeff() == 0.0);
}
