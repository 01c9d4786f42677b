// island_mass (engine/island_assembly.hpp): M̃ of an island is the bodies' mass blocks plus the
// force gradient's entries between the island's own bodies, nothing else; and its cost is linear
// in the island (issue #24: it walked the whole body set per island, O(N²) for N free bodies).
#include <catch2/catch.hpp>

#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/rigid_body.hpp"
#include "pivot/engine/rigid_body_set.hpp"

using namespace pivot;
using namespace pivot::detail;

namespace {

// five bodies b0…b4 of mass 1 + i: at rest and unturned with no shape (M = diag(1, m 1)), or
// `turned` with unequal principal inertias (a full world inertia)
RigidBodySet five_bodies(bool turned = false) {
  RigidBodySet set;
  for (int i = 0; i < 5; ++i) {
    BodySettings s;
    s.name = "b";  // appended: g++ 12 warns falsely on "b" + to_string(i) (-Wrestrict)
    s.name += std::to_string(i);
    s.mass = 1.0 + i;
    Pose pose;
    if (turned) {
      s.inertia_diag = Vec3(2.0 + 0.25 * i, 2.5 + 0.5 * i, 3.5);
      pose.q_WB = Quat(Eigen::AngleAxisd(0.3 + i, Vec3(1.0, 2.0 + i, -0.5).normalized()));
    }
    set.add(make_rigid_body(s), pose, Vec6::Zero());
  }
  return set;
}

// M's compressed arrays are expected's, entry for entry
void check_same_entries(const Eigen::SparseMatrix<double>& M,
                        const Eigen::SparseMatrix<double>& expected) {
  REQUIRE(M.isCompressed());
  REQUIRE(M.nonZeros() == expected.nonZeros());
  for (int k = 0; k <= M.cols(); ++k) CHECK(M.outerIndexPtr()[k] == expected.outerIndexPtr()[k]);
  for (Eigen::Index k = 0; k < M.nonZeros(); ++k) {
    CHECK(M.innerIndexPtr()[k] == expected.innerIndexPtr()[k]);
    CHECK(M.valuePtr()[k] == expected.valuePtr()[k]);
  }
}

}  // namespace

TEST_CASE("island_mass keeps the gradient entries between the island's bodies only",
          "[engine][islands]") {
  // M = diag(I, m): I = identity without a shape, m = 1 + i
  const RigidBodySet set = five_bodies();
  // a gradient coupling bodies 1–3 (same island) and 3–4 (4 is in another island), plus a
  // diagonal entry on 3: entries written by hand, so the expected M̃ is known entry by entry
  std::vector<Eigen::Triplet<double>> t = {{6 * 1 + 3, 6 * 3 + 3, 0.25},
                                           {6 * 3 + 3, 6 * 1 + 3, 0.25},
                                           {6 * 3 + 4, 6 * 4 + 4, 7.0},
                                           {6 * 4 + 4, 6 * 3 + 4, 7.0},
                                           {6 * 3 + 5, 6 * 3 + 5, -0.5}};
  Eigen::SparseMatrix<double> gradient(30, 30);
  gradient.setFromTriplets(t.begin(), t.end());
  const std::vector<int> island = {1, 3};
  const Eigen::MatrixXd M = Eigen::MatrixXd(island_mass(set, island, &gradient));
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(12, 12);
  for (int k = 0; k < 2; ++k) {
    expected.block<3, 3>(6 * k, 6 * k).setIdentity();  // inertia
    expected.block<3, 3>(6 * k + 3, 6 * k + 3) = (2.0 + 2 * k) * Eigen::Matrix3d::Identity();  // m
  }
  expected(3, 6 + 3) = expected(6 + 3, 3) = 0.25;
  expected(6 + 5, 6 + 5) += -0.5;
  CHECK((M - expected).cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE(
    "island_mass in place stores the same entries as the triplet assembly, and reuses its "
    "memory",
    "[engine][islands]") {
  const RigidBodySet set = five_bodies();
  // bodies 1–3 coupled, 3–4 across islands, a diagonal gradient entry on a mass entry (3, 3), one
  // beside the mass block's nonzeros (rows 0–2 of body 3's translation columns), and an explicit
  // zero: each stored as the triplet assembly stores it
  std::vector<Eigen::Triplet<double>> t = {
      {6 * 1 + 3, 6 * 3 + 3, 0.25}, {6 * 3 + 3, 6 * 1 + 3, 0.25},     {6 * 3 + 4, 6 * 4 + 4, 7.0},
      {6 * 4 + 4, 6 * 3 + 4, 7.0},  {6 * 3 + 5, 6 * 3 + 5, -0.5},     {6 * 3 + 1, 6 * 3 + 4, 0.125},
      {6 * 1 + 0, 6 * 3 + 0, 0.0},  {6 * 3 + 3, 6 * 3 + 3, 1.0 / 3.0}};
  Eigen::SparseMatrix<double> gradient(30, 30);
  gradient.setFromTriplets(t.begin(), t.end());
  const std::vector<int> island = {1, 3};
  const Eigen::SparseMatrix<double> expected = island_mass(set, island, &gradient);
  Eigen::SparseMatrix<double> M;
  for (int pass = 0; pass < 2; ++pass) {
    island_mass(set, island, &gradient, M);
    check_same_entries(M, expected);
  }
  // the entry on (3, 3) of body 3 (local 9, 9): mass 4 plus 1/3
  CHECK(M.coeff(9, 9) == 4.0 + 1.0 / 3.0);
}

// each body's 6 × 6 block of a block-diagonal M̃, read from its columns, and its inverse; the
// blocks against the dense matrix, the inverses by A A⁻¹ = 1; a singular block is refused
TEST_CASE("invert_body_blocks reads each body's block and inverts it", "[island]") {
  const int nb = 3;
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(6 * nb, 6 * nb);
  for (int b = 0; b < nb; ++b) {
    Mat6 R;
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) R(r, c) = std::sin(1.0 + r + 7.0 * c + 13.0 * b);
    dense.block<6, 6>(6 * b, 6 * b) = R * R.transpose() + Mat6::Identity();
  }
  const Eigen::SparseMatrix<double> M = dense.sparseView();
  std::vector<Mat6> A, A_inv;
  REQUIRE(invert_body_blocks(M, A, A_inv));
  REQUIRE(A.size() == 3);
  for (int b = 0; b < nb; ++b) {
    CHECK(A[b] == Mat6(dense.block<6, 6>(6 * b, 6 * b)));
    CHECK((A[b] * A_inv[b] - Mat6::Identity()).lpNorm<Eigen::Infinity>() < 1e-12);
  }
  Eigen::MatrixXd singular = dense;
  singular.block<6, 6>(6, 6).row(2).setZero();
  CHECK_FALSE(invert_body_blocks(singular.sparseView(), A, A_inv));
}

// the blocks island_mass hands beside M̃ (IslandInput::mass_blocks): for turned bodies of
// unequal principal inertias (I_W full), each block is M̃'s own 6 × 6 block entry for entry, and
// M̃ in place is still the triplet assembly's; given when the gradient has entries outside the
// island only, cleared when one falls inside it
TEST_CASE("island_mass hands each body's block when no gradient entry falls in the island",
          "[engine][islands]") {
  const RigidBodySet set = five_bodies(true);
  const std::vector<int> island = {1, 2};
  auto check_blocks = [&](const Eigen::SparseMatrix<double>& M,
                          const std::vector<RigidMassBlock>& blocks) {
    REQUIRE(blocks.size() == island.size());
    const Eigen::MatrixXd dense(M);
    for (std::size_t k = 0; k < island.size(); ++k) {
      Mat6 A = Mat6::Zero();
      A.topLeftCorner<3, 3>() = blocks[k].I_W;
      A.bottomRightCorner<3, 3>() = blocks[k].m * Mat3::Identity();
      const auto b = static_cast<Eigen::Index>(6 * k);
      CHECK(A == Mat6(dense.block<6, 6>(b, b)));
      CHECK(blocks[k].I_W(0, 1) != 0.0);  // turned: the world inertia is full
      CHECK(blocks[k].m == 1.0 + island[k]);
    }
  };
  Eigen::SparseMatrix<double> M;
  std::vector<RigidMassBlock> blocks;
  SECTION("no gradient") {
    island_mass(set, island, nullptr, M, nullptr, &blocks);
    check_same_entries(M, island_mass(set, island, nullptr));
    check_blocks(M, blocks);
  }
  std::vector<Eigen::Triplet<double>> t = {{6 * 3 + 4, 6 * 4 + 4, 7.0},
                                           {6 * 4 + 4, 6 * 3 + 4, 7.0}};
  SECTION("a gradient between two other bodies") {
    Eigen::SparseMatrix<double> gradient(30, 30);
    gradient.setFromTriplets(t.begin(), t.end());
    island_mass(set, island, &gradient, M, nullptr, &blocks);
    check_same_entries(M, island_mass(set, island, &gradient));
    check_blocks(M, blocks);
  }
  SECTION("a gradient entry on a body of the island") {
    t.emplace_back(6 * 2 + 5, 6 * 2 + 5, -0.5);
    Eigen::SparseMatrix<double> gradient(30, 30);
    gradient.setFromTriplets(t.begin(), t.end());
    blocks.resize(7);
    island_mass(set, island, &gradient, M, nullptr, &blocks);
    check_same_entries(M, island_mass(set, island, &gradient));
    CHECK(blocks.empty());
  }
}
