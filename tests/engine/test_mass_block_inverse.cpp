// The 6 × 6 mass block's inverse (engine/mass_block_inverse.hpp) against Eigen's
// FullPivLU<Mat6>: the same verdict and the same bits for random blocks, blocks with ties for the
// pivot (small integers), rigid-body mass blocks [R I Rᵀ 0; 0 m 1] (isotropic ones too),
// positive definite and rank-2 blocks, and blocks of wide magnitudes with exact zeros.
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "pivot/engine/mass_block_inverse.hpp"

using namespace pivot;
using namespace pivot::detail;

namespace {
// invert_mass_block against Eigen's FullPivLU on A: the same verdict, and when A is invertible
// the same bits; A is counted as compared or singular
void compare_with_eigen(const Mat6& A, int& compared, int& singular) {
  const Eigen::FullPivLU<Mat6> lu(A);
  Mat6 inverse;
  const bool invertible = invert_mass_block(A, inverse);
  REQUIRE(invertible == lu.isInvertible());
  if (!invertible) {
    ++singular;
    return;
  }
  const Mat6 expected = lu.inverse();
  CHECK(std::memcmp(inverse.data(), expected.data(), sizeof(Mat6)) == 0);
  ++compared;
}
}  // namespace

TEST_CASE("the mass block's inverse: Eigen's FullPivLU bit for bit", "[engine][island]") {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> small_int(-2, 2);
  const auto random = [&](auto entry) {
    Mat6 A;
    for (int j = 0; j < 6; ++j)
      for (int i = 0; i < 6; ++i) A(i, j) = entry();
    return A;
  };
  int compared = 0, singular = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    Mat6 A;
    switch (trial % 5) {
      case 0:
        A = random([&] { return normal(rng); });
        break;
      case 1:
        A = random([&] { return static_cast<double>(small_int(rng)); });
        break;
      case 2: {
        Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
        q.normalize();
        const Mat3 R = q.toRotationMatrix();
        Vec3 d(std::exp(normal(rng)), std::exp(normal(rng)), std::exp(normal(rng)));
        if (trial % 10 == 2) d.setConstant(d(0));
        A.setZero();
        A.topLeftCorner<3, 3>() = R * d.asDiagonal() * R.transpose();
        A.bottomRightCorner<3, 3>() = std::exp(normal(rng)) * Mat3::Identity();
        break;
      }
      case 3: {
        if (trial % 15 == 3) {
          Eigen::Matrix<double, 6, 2> C;
          for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 6; ++i) C(i, j) = normal(rng);
          A = C * C.transpose();
        } else {
          const Mat6 B = random([&] { return normal(rng); });
          A = B * B.transpose() + 0.1 * Mat6::Identity();
        }
        break;
      }
      default:
        A = random([&] {
          return small_int(rng) == 0 ? 0.0 : normal(rng) * std::exp2(10 * small_int(rng));
        });
    }
    INFO("trial " << trial);
    compare_with_eigen(A, compared, singular);
  }
  CHECK(compared > 15000);
  CHECK(singular > 500);
}

// positive diagonal blocks (spheres; bodies whose principal axes are the world's) take a
// shortcut, which must still be Eigen's answer bit for bit, the signs of the zeros and the
// singular verdict too; zero and negative entries take the general path, compared all the same
TEST_CASE("the mass block's inverse: diagonal blocks, Eigen's bits", "[engine][island]") {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> pick(0, 24);
  int compared = 0, singular = 0, positive = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    Mat6 A = Mat6::Zero();
    for (int i = 0; i < 6; ++i) {
      switch (pick(rng)) {
        case 0:
          A(i, i) = 0.0;
          break;
        case 1:
          A(i, i) = i > 0 ? A(i - 1, i - 1) : 1.0;  // ties for the pivot
          break;
        case 2:
          A(i, i) = 1e-17 * std::exp(normal(rng));  // below the rank threshold of the others
          break;
        case 3:
          A(i, i) = -std::exp(3.0 * normal(rng));
          break;
        default:
          A(i, i) = std::exp(3.0 * normal(rng));
      }
    }
    if (trial % 7 == 0) A(2, 4) = -0.0;  // a negative zero off the diagonal is still diagonal
    INFO("trial " << trial);
    const int before = compared;
    compare_with_eigen(A, compared, singular);
    positive += compared > before && is_positive_diagonal_block(A) ? 1 : 0;
  }
  CHECK(positive > 8000);
  CHECK(compared > 10000);
  CHECK(singular > 2000);
}
