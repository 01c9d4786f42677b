// The small path's LU (lcp/small_lu.hpp) against Eigen's PartialPivLU on a MatrixXd, the
// general path's basis solve: the same bits for every block of k = 1…16, random dense ones, ones
// with ties for the pivot, with zero columns (a zero pivot) and with exact zeros in the
// right-hand side (which the triangular solves skip).
#include <Eigen/LU>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <type_traits>

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
    // k known at run time, and, for k ≤ 4, at compile time as the small path calls it
    const auto check = [&](auto size) {
      constexpr int K = decltype(size)::value;
      const int kk = K > 0 ? K : k;
      SmallLu lu;
      for (int j = 0; j < kk; ++j)
        for (int i = 0; i < kk; ++i) block[SmallLu::index(i, j)] = lu.at(i, j) = A(i, j);
      lu.factorize<K>(kk);
      std::array<double, kSmallLuMax> y, p, r;
      std::copy_n(b.data(), kk, y.begin());
      lu.solve<K>(y.data());
      SmallLu::product<K>(block.data(), kk, y.data(), p.data());
      INFO("trial " << trial << ", k = " << k << ", kind " << kind << ", K = " << K);
      REQUIRE(same_bits(p.data(), product.data(), kk));
      for (int i = 0; i < kk; ++i)
        r[static_cast<std::size_t>(i)] = b(i) - p[static_cast<std::size_t>(i)];
      REQUIRE(same_bits(r.data(), residual.data(), kk));
      lu.solve<K>(r.data());
      REQUIRE(same_bits(r.data(), correction.data(), kk));
      for (int i = 0; i < kk; ++i) y[static_cast<std::size_t>(i)] += r[static_cast<std::size_t>(i)];
      REQUIRE(same_bits(y.data(), x.data(), kk));
    };
    check(std::integral_constant<int, 0>{});
    switch (k) {
      case 1:
        check(std::integral_constant<int, 1>{});
        break;
      case 2:
        check(std::integral_constant<int, 2>{});
        break;
      case 3:
        check(std::integral_constant<int, 3>{});
        break;
      case 4:
        check(std::integral_constant<int, 4>{});
        break;
      default:
        break;
    }
    ++compared;
    singular += x.allFinite() ? 0 : 1;
  }
  CHECK(compared == 20000);
  CHECK(singular > 0);  // the zero pivots were exercised
}
