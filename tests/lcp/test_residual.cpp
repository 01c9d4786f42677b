// The residual check's definition (lcp/lcp_result.hpp): componentwise scales, and the noise
// floor η = n ε max(‖q‖∞, maxᵢ (|M| |z|)ᵢ) below which a w_i counts as zero when rounding of its
// terms (each by at most η, none changing sign) can make it zero.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "pivot/lcp/residual.hpp"

using namespace pivot::lcp;

TEST_CASE("residuals: a row that cancels to rounding is not judged on that rounding", "[lcp]") {
  // Row 2 is the friction-cone row w_2 = μ z_0 − z_1 of an unloaded contact, as in a box
  // pyramid's LCP: z_0 came out of a basis solve as −4e-18 (rounding next to ‖z‖∞ = 0.13), so
  // w_2 = −2e-18 and the row's own scale |μ z_0| is that same number. The exact answer has
  // z_0 = w_2 = 0; the rounded one must pass.
  DenseMatrix M(3, 3);
  M << 1.0, 0.0, 0.0,  //
      0.0, 1.0, 0.0,   //
      0.5, -1.0, 0.0;
  Vector q(3);
  q << 4e-18, 0.2, 0.0;
  Vector z(3);
  z << -4e-18, 0.0, 0.13;
  Vector w;
  const LcpResiduals r = measure_residuals(M, q, z, &w);
  REQUIRE(w(0) == 0.0);
  REQUIRE(w(2) == Approx(-2e-18).margin(1e-30));
  // η = n ε max(‖q‖∞, ‖M‖∞ ‖z‖∞) = 3 ε max(0.2, 1.5 · 0.13) = 3 ε 0.2 ≈ 1.3e-16 > |w_2|
  const double eta = 3 * std::numeric_limits<double>::epsilon() * 0.2;
  REQUIRE(std::abs(w(2)) < eta);
  CHECK(r.min_z == Approx(-4e-18 / 0.13));  // rounding relative to ‖z‖∞
  CHECK(r.min_w == 0.0);                    // |w_2| ≤ η counts as 0
  CHECK(r.max_complementarity < 1e-15);
  CHECK(r.worst() <= 1e-9);
}

TEST_CASE("residuals: a violated row above the noise floor is still rejected", "[lcp]") {
  // the same cone row violated by 1e-6 of the problem's scale: far above η (≈ 1e-16), and −100 %
  // of the row's own scale
  DenseMatrix M(2, 2);
  M << 1.0, 0.0,  //
      0.5, 0.0;
  Vector q(2);
  q << -1.0, -0.5 - 1e-6;
  Vector z(2);
  z << 1.0, 0.0;
  const LcpResiduals r = measure_residuals(M, q, z);
  CHECK(r.min_w ==
        Approx(-1e-6 / 1.0).epsilon(1e-3));  // w_1 = −1e-6 against s_1 = 0.5 + 0.5 + 1e-6
  CHECK(r.worst() > 1e-9);
}

TEST_CASE("residuals: a row whose sign the data fixes is not zero within the floor", "[lcp]") {
  // The lemke fuzz finding (tests/fuzz/regressions/lemke/false_solved_global_noise_floor) in
  // three rows: row 0 has terms of 1e20 (η = 3 ε 2e20 ≈ 1.3e5); row 1 is w_1 = 2.43 z_2 + 3480,
  // which is ≥ 3480 for every z_2 ≥ 0, so z_1 = 1e20 > 0 beside w_1 = 5910 violates
  // complementarity whatever the rounding. |w_1| is below η, and the floor alone passed it.
  DenseMatrix M(3, 3);
  M << 1.0, 0.0, 0.0,  //
      0.0, 0.0, 2.43,  //
      0.0, 0.0, 1.0;
  Vector q(3);
  q << -1e20, 3480.0, -1000.0;
  Vector z(3);
  z << 1e20, 1e20, 1000.0;
  Vector w;
  const LcpResiduals r = measure_residuals(M, q, z, &w);
  REQUIRE(w(0) == 0.0);
  REQUIRE(w(2) == 0.0);
  REQUIRE(w(1) == Approx(2.43 * 1000.0 + 3480.0));
  const double eta = 3 * std::numeric_limits<double>::epsilon() * 2e20;
  REQUIRE(std::abs(w(1)) < eta);                // the floor alone would judge it 0
  CHECK(r.max_complementarity == Approx(1.0));  // min(z_1/‖z‖∞, w_1/s_1) = min(1, 1)
  CHECK(r.worst() > 1e-9);

  // the same row with terms of 1e20 that cancel (w_1 = q_1 − z_0 + 2.43 z_2, q_1 = 1e20 after
  // rounding): a term of the other sign, which rounding may move by η, reaches 0, and the row is
  // judged on the floor as before
  M(1, 0) = -1.0;
  q(1) = 3480.0 + 1e20;
  const LcpResiduals cancel = measure_residuals(M, q, z);
  CHECK(cancel.worst() <= 1e-9);
}

TEST_CASE("residuals: the rows judged zero must agree on one rounding of z", "[lcp]") {
  // The lemke fuzz finding (tests/fuzz/regressions/lemke/false_solved_rows_disagree_on_a_
  // rounding_level_z) in four rows: row 0 has terms of 1e20, so η ≈ 4 ε 2e20 ≈ 1.8e5 and
  // δ = 100 · 4 ε 1e20 ≈ 8.9e6. z_0 = 1184 is within δ of 0 and of 984.6. Row 1, w_1 = z_0
  // (z_1 = 1e20 > 0), is zero only at z̃_0 = 0; row 3, w_3 = 0.1016 z_0 − 100 (z_3 = 1e20 > 0),
  // only at z̃_0 = 984.25. Row by row both reach zero; no single z̃ makes both zero.
  DenseMatrix M = DenseMatrix::Zero(4, 4);
  M(0, 1) = 1.0;
  M(0, 3) = -1.0;
  M(1, 0) = 1.0;
  M(3, 0) = 0.1016;
  Vector q(4);
  q << 0.0, 0.0, 0.0, -100.0;
  Vector z(4);
  z << 1184.0, 1e20, 0.0, 1e20;
  Vector w;
  const LcpResiduals r = measure_residuals(M, q, z, &w);
  const double eta = 4 * std::numeric_limits<double>::epsilon() * 1e20;
  REQUIRE(std::abs(w(1)) < eta);  // both within the floor, and each reachable alone
  REQUIRE(std::abs(w(3)) < eta);
  CHECK(r.worst() > 1e-9);

  // with z_1 = 0 row 1 only needs w̃_1 ≥ 0, and z̃_0 = 984.25 satisfies both rows: the rows
  // agree. This answer was judged on the floor and passed; it is refused now for another
  // reason: its floor η ≈ 1.8e5 is above 1e-3 of the data (‖q‖∞ = 100), where the floor no
  // longer stands for rounding (w_3 = 20.3 is a fifth of q_3; a false `solved` of an LCP with no
  // solution had such a floor: tests/fuzz/regressions/lemke/false_solved_floor_above_data)
  z(1) = 0.0;
  M(0, 1) = 0.0;
  M(0, 2) = 1.0;
  z(2) = 1e20;
  const LcpResiduals agree = measure_residuals(M, q, z, &w);
  REQUIRE(std::abs(w(3)) < eta);
  REQUIRE(eta > 1e-3 * 100.0);
  CHECK(agree.worst() > 1e-9);
}

TEST_CASE("residuals: a floor above a thousandth of the data is not used", "[lcp]") {
  // The lemke fuzz finding (tests/fuzz/regressions/lemke/false_solved_floor_above_data): w_0 =
  // 0.609 z_1 − 5600 and w_1 = 0.566 z_1 + 12500 ≥ 12500 force z_1 = 0 and w_0 = −5600: no
  // solution. Beside z_0, z_2 of 1e18 (terms of 1e20 in row 4) the floor was ≈ 1e5 and w_0 was
  // judged 0 with z̃_1 = 9190 within rounding of z_1 = 0.
  DenseMatrix M = DenseMatrix::Zero(5, 5);
  M(0, 1) = 0.609375;
  M(1, 1) = 0.56640625;
  M(4, 0) = -99.15625;
  M(4, 2) = 17.73046875;
  Vector q(5);
  q << -5600.0, 12500.0, 0.0, 0.0, 0.0;
  Vector z(5);
  z << 1.14547939352057e18, 0.0, 6.406003288197e18, 0.0, 0.0;
  Vector w;
  const LcpResiduals r = measure_residuals(M, q, z, &w);
  REQUIRE(w(0) == -5600.0);
  // measured as it is: w_0 / (its own scale 5600) = −1
  CHECK(r.min_w == Approx(-1.0));
  CHECK(r.worst() >= 1.0);
}

TEST_CASE("residuals: an answer out along a near-ray is not verifiable", "[lcp]") {
  // The shape of the lemke fuzz finding
  // (tests/fuzz/regressions/lemke/false_solved_z_relative_complementarity_1e17). By hand the LCP
  // has no solution: w_1 = 5.47 > 0 for every z forces z_1 = 0, and then w_0 = 0.609 z_1 − 569.5
  // = −569.5 < 0. Yet the z below passes every componentwise measure: w_0 = 0 at z_1 = 935.1,
  // z_1 = 935.1 counts as 0 beside ‖z‖∞ = 9e16 (1e-14 of it) against w_1 = 5.47, and rows 2
  // and 3 cancel exactly. z's rounding (100 n ε ‖z‖∞ ≈ 8e3) moves w by about 1.6e4, 28 times
  // ‖q‖∞: the answer cannot be checked, and is refused as not verifiable.
  DenseMatrix M = DenseMatrix::Zero(4, 4);
  M(0, 1) = 0.609375;
  M(2, 2) = 1.0;
  M(2, 3) = -1.0;
  M(3, 2) = -1.0;
  M(3, 3) = 1.0;
  Vector q(4);
  q << -569.5, 5.47, 0.0, 0.0;
  Vector z(4);
  z << 0.0, 569.5 / 0.609375, 9e16, 9e16;
  const LcpResiduals r = measure_residuals(M, q, z);
  // the componentwise measures alone pass it: that is the defect the rule closes
  CHECK(r.min_z == 0.0);
  CHECK(r.max_complementarity < 1e-13);
  CHECK(r.min_w > -1e-13);
  const double delta = 100.0 * 4 * std::numeric_limits<double>::epsilon() * 9e16;
  CHECK(r.rounding_share == Approx(delta * 2.0 / 569.5).epsilon(1e-12));
  CHECK_FALSE(r.verifiable());
  CHECK(r.worst() == std::numeric_limits<double>::infinity());
  // the same problem and z scaled together: the share does not move (M z scales as q does)
  const LcpResiduals scaled = measure_residuals(M, 1e6 * q, 1e6 * z);
  CHECK(scaled.rounding_share == Approx(r.rounding_share).epsilon(1e-12));
  // a z of the data's size on the same M is verifiable: z = (0, 935.1, 1, 1) moves w by
  // 100 · 4 ε · 935 · 2 ≈ 1.7e-10 of ‖q‖∞ = 569.5
  Vector z_small = z;
  z_small(2) = z_small(3) = 1.0;
  CHECK(measure_residuals(M, q, z_small).verifiable());
}

TEST_CASE("residuals: a tiny coefficient does not bring the whole floor with it", "[lcp]") {
  // the sign-fixed row above with a term of −1e-300 z_0 = −1e-280: rounding of z_0 (1e20) moves
  // that term by about 1e-300 · 100 n ε 1e20, not by the floor η ≈ 1.3e5, so w_1 = 5910 is
  // still no zero
  DenseMatrix M(3, 3);
  M << 1.0, 0.0, 0.0,      //
      -1e-300, 0.0, 2.43,  //
      0.0, 0.0, 1.0;
  Vector q(3);
  q << -1e20, 3480.0, -1000.0;
  Vector z(3);
  z << 1e20, 1e20, 1000.0;
  CHECK(measure_residuals(M, q, z).worst() > 1e-9);
}

TEST_CASE("residuals: a rounding-negative z is rounding of a zero", "[lcp]") {
  // exact solution z* = (1, 0, 0) of M = [0 1 1; 1 0 0; 0 0 0], q = (0, −1, 0); the computed
  // z_1 = −4e-15, z_2 = 4.5e-15 are rounding of the zeros, and w_0 = z_1 + z_2 = 5e-16 (below
  // η = 3 ε) must count as 0 beside z_0 = 1: z̃_1 = z̃_2 = 0 are within rounding of them.
  DenseMatrix M(3, 3);
  M << 0.0, 1.0, 1.0,  //
      1.0, 0.0, 0.0,   //
      0.0, 0.0, 0.0;
  Vector q(3);
  q << 0.0, -1.0, 0.0;
  Vector z(3);
  z << 1.0, -4e-15, 4.5e-15;
  Vector w;
  const LcpResiduals r = measure_residuals(M, q, z, &w);
  REQUIRE(std::abs(w(0)) <= 3 * std::numeric_limits<double>::epsilon());
  CHECK(r.max_complementarity == 0.0);
  CHECK(r.worst() <= 1e-9);
}

TEST_CASE("residuals: scaling the problem changes nothing", "[lcp]") {
  DenseMatrix M(2, 2);
  M << 2.0, 1.0,  //
      1.0, 2.0;
  Vector q(2);
  q << -1.0, 0.5;
  Vector z(2);
  z << 0.5, 0.0;
  const LcpResiduals a = measure_residuals(M, q, z);
  const LcpResiduals b = measure_residuals(1e8 * M, 1e8 * q, z);
  CHECK(a.worst() == b.worst());
  CHECK(a.worst() == 0.0);
  // an inexact z: w = (2·0.6 − 1, 0.6 + 0.5) = (0.2, 1.1) and z₁w₁ ≠ 0; by hand the
  // complementarity measure is min(|z₁|/‖z‖∞, |w₁|/s₁) = min(1, 0.2 / (1 + 1.2)) = 0.2/2.2,
  // the same for the problem scaled by 1e8 (an absolute measure would grow by 1e8)
  Vector z_off(2);
  z_off << 0.6, 0.0;
  const LcpResiduals c = measure_residuals(M, q, z_off);
  const LcpResiduals d = measure_residuals(1e8 * M, 1e8 * q, z_off);
  CHECK(c.max_complementarity == Approx(0.2 / 2.2).epsilon(1e-12));
  CHECK(d.max_complementarity == Approx(0.2 / 2.2).epsilon(1e-12));
}

TEST_CASE("residuals: a z that is not finite is never within any tolerance", "[lcp]") {
  // every comparison with a NaN is false, so a NaN that reached the measures would pass any
  // check written as "worst() <= tol" only by accident of evaluation order; found by the lemke
  // fuzz target (a singular warm basis gave z = (0, NaN, NaN, NaN, NaN), judged `solved`)
  DenseMatrix M(2, 2);
  M << 2.0, 1.0,  //
      1.0, 2.0;
  Vector q(2);
  q << -1.0, 0.5;
  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Vector z(2);
    z << 0.0, bad;
    const LcpResiduals r = measure_residuals(M, q, z);
    CHECK_FALSE(r.worst() <= 1e-9);
    CHECK(r.worst() == std::numeric_limits<double>::infinity());
  }
}

// The sparse measure sums every row in one pass over M's stored entries (lcp/residual.cpp,
// row_sums); the dense one uses Eigen's products. On random LCP-like answers — rows of active
// indices made zero, degenerate rows whose terms cancel, rounding-negative z, some violated
// rows, z entries far apart in size — the two storages must give the same verdict and nearly
// the same measures, and the sparse w must be exactly Eigen's sparse M z + q.
TEST_CASE("residuals: sparse storage gives the dense verdicts", "[lcp]") {
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto uniform = [&] {  // splitmix64 → [0, 1)
    std::uint64_t x = (state += 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return static_cast<double>((x ^ (x >> 31)) >> 11) * 0x1p-53;
  };
  int passed = 0, refused = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 5 + static_cast<int>(uniform() * 40);
    DenseMatrix M = DenseMatrix::Zero(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i == j || uniform() < 0.15) M(i, j) = (uniform() - 0.3) * std::pow(10.0, 4 * uniform() - 2);
    Vector z = Vector::Zero(n);
    for (int i = 0; i < n; ++i)
      if (uniform() < 0.5) z(i) = std::pow(10.0, 6 * uniform() - 3);
    if (trial % 3 == 0) z(static_cast<int>(uniform() * n)) = -1e-17;  // rounding of a zero
    Vector q = -(M * z);
    for (int i = 0; i < n; ++i) {
      if (z(i) > 0.0) continue;  // w_i = 0 to rounding where z_i > 0
      const double kind = uniform();
      q(i) += kind < 0.4 ? 0.0 : kind < 0.9 ? uniform() : -1e-3 * uniform();  // 0, > 0, < 0
    }
    const SparseMatrix S = M.sparseView();
    Vector w_dense, w_sparse;
    const LcpResiduals rd = measure_residuals(M, q, z, &w_dense);
    const LcpResiduals rs = measure_residuals(S, q, z, &w_sparse);
    INFO("trial " << trial << ", n " << n);
    const Vector eigen_w = S * z + q;
    CHECK(w_sparse == eigen_w);
    CHECK((rd.worst() <= 1e-9) == (rs.worst() <= 1e-9));
    CHECK(rs.min_z == rd.min_z);
    CHECK(rs.min_w == Approx(rd.min_w).margin(1e-9));
    CHECK(rs.max_complementarity == Approx(rd.max_complementarity).margin(1e-9));
    (rs.worst() <= 1e-9 ? passed : refused) += 1;
  }
  // both kinds occur, so the comparison covers passing and refused answers
  CHECK(passed > 50);
  CHECK(refused > 50);
}
