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
    const Eigen::FullPivLU<Mat6> lu(A);
    Mat6 inverse;
    const bool invertible = invert_mass_block(A, inverse);
    INFO("trial " << trial);
    REQUIRE(invertible == lu.isInvertible());
    if (!invertible) {
      ++singular;
      continue;
    }
    const Mat6 expected = lu.inverse();
    CHECK(std::memcmp(inverse.data(), expected.data(), sizeof(Mat6)) == 0);
    ++compared;
  }
  CHECK(compared > 15000);
  CHECK(singular > 500);
}
