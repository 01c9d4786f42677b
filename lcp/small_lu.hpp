#pragma once
// LU with partial pivoting of a k × k block, k ≤ kSmallLuMax, on fixed-capacity storage, and its
// solve (internal: the small path's basis solve, small_lemke.cpp).
//
// It performs the floating-point operations of Eigen 3.4's PartialPivLU on a dynamic-size matrix
// of that size, in the same order, so that it gives the same bits without its dynamic-size
// dispatch, allocations of permutations and calls into the product kernels:
// - the factorization is the unblocked right-looking one that Eigen uses up to 16 columns
//   (PartialPivLU.h, unblocked_lu): the pivot is the first entry of largest magnitude in the
//   column on and below the diagonal, the column below it is divided by it (when it is not 0),
//   and the trailing block is updated by a_ij − l_ik u_kj;
// - the solve applies the row interchanges in order, then the unit lower and the upper
//   triangular solves column by column in panels of 8 (TriangularSolverVector.h,
//   EIGEN_TUNE_TRIANGULAR_PANEL_WIDTH), the rows outside a panel updated by the panel's sum
//   Σ_j a_ij x_j taken from j = first column of the panel upward (the column-major
//   matrix–vector kernel, GeneralMatrixVector.h, with one block of columns below 128);
// - product() is that kernel's A x: each row's sum from its first column on.
// The build compiles with -ffp-contract=off (no fused multiply-adds), which all of this assumes.
// tests/lcp/test_small_lu.cpp compares every result with Eigen's bit for bit.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace pivot::lcp::detail {

/// the largest block SmallLu takes: Eigen factorizes larger ones blocked (another order)
inline constexpr int kSmallLuMax = 16;

class SmallLu {
 public:
  static constexpr int kLd = kSmallLuMax;
  static constexpr int kPanel = 8;

  /// the entry (i, j) of a column-major block with leading dimension kLd
  static std::size_t index(int i, int j) {
    return static_cast<std::size_t>(j) * kLd + static_cast<std::size_t>(i);
  }

  /// the entry (i, j) of the block to factorize (column-major, leading dimension kLd)
  double& at(int i, int j) { return lu_[index(i, j)]; }

  /// factorizes the k × k block set by at() in place (k ≤ kSmallLuMax); a zero pivot is kept, as
  /// Eigen keeps it, and the solve then divides by it (non-finite values follow). K > 0 is k known
  /// at compile time (the loops then unroll; the operations are the same).
  template <int K = 0>
  void factorize(int k) {
    if constexpr (K > 0) k = K;
    k_ = k;
    for (int c = 0; c < k; ++c) {
      int best = c;
      double biggest = std::abs(lu_[index(c, c)]);
      for (int i = c + 1; i < k; ++i)
        if (const double x = std::abs(lu_[index(i, c)]); x > biggest) biggest = x, best = i;
      swap_[static_cast<std::size_t>(c)] = best;
      if (biggest != 0.0) {
        if (best != c)
          for (int j = 0; j < k; ++j) std::swap(lu_[index(c, j)], lu_[index(best, j)]);
        const double pivot = lu_[index(c, c)];
        for (int i = c + 1; i < k; ++i) lu_[index(i, c)] /= pivot;
      }
      for (int j = c + 1; j < k; ++j) {
        const double u = lu_[index(c, j)];
        for (int i = c + 1; i < k; ++i) lu_[index(i, j)] -= lu_[index(i, c)] * u;
      }
    }
  }

  /// x = A⁻¹ b in place (b of k entries); K as for factorize()
  template <int K = 0>
  void solve(double* x) const {
    const int k = K > 0 ? K : k_;
    for (int c = 0; c < k; ++c)
      if (const int r = swap_[static_cast<std::size_t>(c)]; r != c) std::swap(x[c], x[r]);
    // L y = P b, unit lower, panels from the top
    for (int p = 0; p < k; p += kPanel) {
      const int end = std::min(k, p + kPanel);
      for (int i = p; i < end; ++i)
        if (x[i] != 0.0)
          for (int s = i + 1; s < end; ++s) x[s] -= x[i] * lu_[index(s, i)];
      for (int s = end; s < k; ++s) x[s] -= panel_sum(s, p, end, x);
    }
    // U x = y, panels from the bottom
    for (int p = k; p > 0; p -= kPanel) {
      const int start = std::max(0, p - kPanel);
      for (int i = p - 1; i >= start; --i)
        if (x[i] != 0.0) {
          x[i] /= lu_[index(i, i)];
          for (int s = start; s < i; ++s) x[s] -= x[i] * lu_[index(s, i)];
        }
      for (int s = 0; s < start; ++s) x[s] -= panel_sum(s, start, p, x);
    }
  }

  /// y = A x for a column-major k × k block `A` with leading dimension kLd (the kernel's order);
  /// K as for factorize()
  template <int K = 0>
  static void product(const double* A, int k, const double* x, double* y) {
    if constexpr (K > 0) k = K;
    for (int i = 0; i < k; ++i) {
      double sum = 0.0;
      for (int j = 0; j < k; ++j) sum += A[index(i, j)] * x[j];
      y[i] = sum;
    }
  }

  /// A⁻¹ into X (column-major, leading dimension kLd) from the factors: column j solves
  /// L U x = P e_j by plain substitution (not Eigen's panel order: the columns of an inverse,
  /// for a condition number and a refinement, not a replacement of solve()). A zero pivot gives
  /// non-finite columns. K as for factorize()
  template <int K = 0>
  void inverse(std::array<double, static_cast<std::size_t>(kLd) * kLd>& X) const {
    const int k = K > 0 ? K : k_;
    for (int j = 0; j < k; ++j) {
      double* x = X.data() + index(0, j);
      for (int i = 0; i < k; ++i) x[i] = i == j ? 1.0 : 0.0;
      for (int c = 0; c < k; ++c)
        if (const int r = swap_[static_cast<std::size_t>(c)]; r != c) std::swap(x[c], x[r]);
      for (int i = 0; i < k; ++i)
        for (int s = i + 1; s < k; ++s) x[s] -= x[i] * lu_[index(s, i)];
      for (int i = k - 1; i >= 0; --i) {
        x[i] /= lu_[index(i, i)];
        for (int s = 0; s < i; ++s) x[s] -= x[i] * lu_[index(s, i)];
      }
    }
  }

 private:
  // Σ_{j = from}^{to − 1} a_sj x_j, from `from` upward
  double panel_sum(int s, int from, int to, const double* x) const {
    double sum = 0.0;
    for (int j = from; j < to; ++j) sum += lu_[index(s, j)] * x[j];
    return sum;
  }

  std::array<double, static_cast<std::size_t>(kLd) * kLd> lu_;
  std::array<int, kLd> swap_;
  int k_ = 0;
};

}  // namespace pivot::lcp::detail
