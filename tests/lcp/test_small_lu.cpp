// The small path's LU (lcp/small_lu.hpp) against Eigen's PartialPivLU on a MatrixXd, the
// general path's basis solve: the same bits for every block of k = 1…16, random dense ones, ones
// with ties for the pivot, with zero columns (a zero pivot) and with exact zeros in the
// right-hand side (which the triangular solves skip).
#include <Eigen/LU>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "pivot/lcp/small_lu.hpp"

using pivot::lcp::detail::kSmallLuMax;
using pivot::lcp::detail::SmallLu;

namespace {

bool same_bits(const double* a, const double* b, int k) {
  return std::memcmp(a, b, static_cast<std::size_t>(k) * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("small LU: Eigen's PartialPivLU bit for bit", "[lcp][small]") {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> small_int(-2, 2);
  int compared = 0, singular = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int k = 1 + trial % kSmallLuMax;
    const int kind = (trial / kSmallLuMax) % 4;
    Eigen::MatrixXd A(k, k);
    Eigen::VectorXd b(k);
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i)
        A(i, j) = kind == 1 ? small_int(rng) : normal(rng) * std::exp2(small_int(rng) * 10);
    for (int i = 0; i < k; ++i) b(i) = kind == 3 && i % 3 == 0 ? 0.0 : normal(rng);
    if (kind == 2) A.col(static_cast<Eigen::Index>(rng() % static_cast<unsigned>(k))).setZero();
    // the general path's solve: z = A⁻¹ b, then one step of refinement
    const Eigen::PartialPivLU<Eigen::MatrixXd> eigen(A);
    Eigen::VectorXd x = eigen.solve(b);
    Eigen::VectorXd product(k);
    product.noalias() = A * x;
    const Eigen::VectorXd residual = b - product;
    const Eigen::VectorXd correction = eigen.solve(residual);
    x += correction;

    std::array<double, static_cast<std::size_t>(SmallLu::kLd) * SmallLu::kLd> block;
    SmallLu lu;
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i) block[SmallLu::index(i, j)] = lu.at(i, j) = A(i, j);
    lu.factorize(k);
    std::array<double, kSmallLuMax> y, p, r;
    std::copy_n(b.data(), k, y.begin());
    lu.solve(y.data());
    SmallLu::product(block.data(), k, y.data(), p.data());
    INFO("trial " << trial << ", k = " << k << ", kind " << kind);
    REQUIRE(same_bits(p.data(), product.data(), k));
    for (int i = 0; i < k; ++i)
      r[static_cast<std::size_t>(i)] = b(i) - p[static_cast<std::size_t>(i)];
    REQUIRE(same_bits(r.data(), residual.data(), k));
    lu.solve(r.data());
    REQUIRE(same_bits(r.data(), correction.data(), k));
    for (int i = 0; i < k; ++i) y[static_cast<std::size_t>(i)] += r[static_cast<std::size_t>(i)];
    REQUIRE(same_bits(y.data(), x.data(), k));
    ++compared;
    singular += x.allFinite() ? 0 : 1;
  }
  CHECK(compared == 20000);
  CHECK(singular > 0);  // the zero pivots were exercised
}
