#pragma once
// The complete orthogonal decomposition of a k × k block, k ≤ kSmallCodMax, on fixed-capacity
// storage, and its minimum-norm solve (internal: the block solve of an active set,
// block_solve.cpp).
//
//   A P = Q [T 0; 0 0] Z,   A⁺ b = P Zᵀ [T⁻¹ (Qᵀ b)(0:r); 0]        (r = rank A)
//
// (Golub & Van Loan 2013, §5.4.2). It performs the floating-point operations of Eigen 3.4's
// CompleteOrthogonalDecomposition on a dynamic-size matrix of that size and of its solve, in the
// same order, so that it gives the same bits without Eigen's dynamic-size dispatch and calls into
// the product kernels:
// - Q P: the column-pivoted Householder QR of ColPivHouseholderQR.h (computeInPlace): the column
//   of largest updated norm first (the first one on a tie), the reflector of
//   makeHouseholderInPlace (Householder.h), applied by applyHouseholderOnTheLeft, the norms
//   downdated as LAPACK's xGEQPF does and recomputed when the downdate has lost too much; the
//   rank is the number of the first "nonzero pivots" whose |R_ii| exceeds k ε max_i |R_ii|;
// - Z, when r < k: the reflectors of CompleteOrthogonalDecomposition.h (computeInPlace) from the
//   right, rows r − 1 down to 0;
// - the solve: Qᵀ b reflector by reflector, T⁻¹ by the upper triangular solve for vectors in
//   panels of 8 (TriangularSolverVector.h), Zᵀ reflector by reflector, then P.
// The sums are those of Eigen's kernels for SSE2 (two doubles a packet, the build's target):
// - a contiguous reduction (a squared norm, the dot product of two contiguous vectors), Redux.h's
//   linear vectorized traversal from entry 0: two packets, summed in alternation over blocks of
//   four entries, then added, the last whole packet added, its two lanes added, and the odd entry
//   last (packet_sum below);
// - a strided one (along a row), the default traversal: from entry 0 upward (row_sum);
// - a row-major matrix–vector product (the QR's Householder update, vᵀ B for the columns of B),
//   two lanes from 0, over the even and the odd entries, added, then the odd entry
//   (GeneralMatrixVector.h, RowMajor; lane_sum); with a single column Eigen takes the dot product
//   instead (GeneralProduct.h, the runtime inner-product fallback), 0 + packet_sum;
// - a column-major one (Z's update, B v), each row from column 0 upward (GeneralMatrixVector.h,
//   ColMajor, one block of columns below 128); with a single row, the dot product, 0 + row_sum.
// The build compiles with -ffp-contract=off (no fused multiply-adds), which all of this assumes.
// tests/lcp/test_block_solve.cpp compares the solve with Eigen's bit for bit.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

namespace pivot::lcp::detail {

/// the largest block SmallCod takes (beyond about 40 rows Eigen applies Q blockwise: other sums)
inline constexpr int kSmallCodMax = 32;

class SmallCod {
 public:
  static constexpr int kLd = kSmallCodMax;

  /// the entry (i, j) of a column-major block with leading dimension kLd
  static std::size_t index(int i, int j) {
    return static_cast<std::size_t>(j) * kLd + static_cast<std::size_t>(i);
  }

  /// the entry (i, j) of the block to decompose (column-major, leading dimension kLd)
  double& at(int i, int j) { return a_[index(i, j)]; }

  /// decomposes the k × k block set by at() in place (1 ≤ k ≤ kSmallCodMax)
  void decompose(int k) {
    k_ = k;
    householder_qr();
    rank_ = count_rank();
    if (rank_ < k_) orthogonalize_right();
  }

  /// r, the decomposition's rank
  int rank() const { return rank_; }

  /// x = A⁺ b (b and x of k entries, distinct); c and y are the caller's workspace of k entries
  void solve(const double* b, double* c, double* y, double* x) const {
    const int n = k_, r = rank_;
    if (r == 0) {
      for (int i = 0; i < n; ++i) x[i] = 0.0;
      return;
    }
    std::copy_n(b, n, c);
    apply_qt(c, r);
    std::copy_n(c, r, y);
    solve_upper(y, r);
    if (r < n) {
      for (int i = r; i < n; ++i) y[i] = 0.0;
      apply_zt(y);
    }
    for (int i = 0; i < n; ++i) x[perm_[static_cast<std::size_t>(i)]] = y[i];
  }

  /// y = A x for a column-major k × k block `A` with leading dimension k, in the order of
  /// Eigen's column-major matrix–vector product: each row's sum from column 0 upward
  static void product(const double* A, int k, const double* x, double* y) {
    for (int i = 0; i < k; ++i) {
      double sum = 0.0;
      for (int j = 0; j < k; ++j) sum += A[static_cast<std::size_t>(j) * k + i] * x[j];
      y[i] = sum;
    }
  }

 private:
  // Redux.h's linear vectorized sum of f(0) … f(n − 1) from entry 0 (see the header)
  template <typename F>
  static double packet_sum(int n, F&& f) {
    if (n == 0) return 0.0;
    if (n < 2) return f(0);
    const int end2 = n / 4 * 4, end = n / 2 * 2;
    double p0 = f(0), p0b = f(1);
    if (end > 2) {
      double p1 = f(2), p1b = f(3);
      for (int i = 4; i < end2; i += 4) {
        p0 += f(i), p0b += f(i + 1);
        p1 += f(i + 2), p1b += f(i + 3);
      }
      p0 += p1, p0b += p1b;
      if (end > end2) p0 += f(end2), p0b += f(end2 + 1);
    }
    double sum = p0 + p0b;
    for (int i = end; i < n; ++i) sum += f(i);
    return sum;
  }

  // the default traversal's sum of f(0) … f(n − 1) (n ≥ 1)
  template <typename F>
  static double row_sum(int n, F&& f) {
    double sum = f(0);
    for (int i = 1; i < n; ++i) sum += f(i);
    return sum;
  }

  // the row-major matrix–vector kernel's sum of f(0) … f(n − 1): two lanes from 0, added, then
  // the odd entry
  template <typename F>
  static double lane_sum(int n, F&& f) {
    double even = 0.0, odd = 0.0;
    int i = 0;
    for (; i + 2 <= n; i += 2) even += f(i), odd += f(i + 1);
    double sum = even + odd;
    for (; i < n; ++i) sum += f(i);
    return sum;
  }

  // makeHouseholder on the n entries x(0), x(s), …, x((n − 1) s): the essential part written
  // over x(s) …, β returned, τ in `tau`; `strided` selects the tail's squared norm (a column's
  // contiguous entries, or a row's)
  static double make_householder(double* x, int n, int s, bool strided, double& tau) {
    const auto square = [&](int i) { return x[(i + 1) * s] * x[(i + 1) * s]; };
    const double tail = n == 1 ? 0.0 : strided ? row_sum(n - 1, square) : packet_sum(n - 1, square);
    const double c0 = x[0];
    if (tail <= std::numeric_limits<double>::min()) {
      tau = 0.0;
      for (int i = 1; i < n; ++i) x[i * s] = 0.0;
      return c0;
    }
    double beta = std::sqrt(c0 * c0 + tail);
    if (c0 >= 0.0) beta = -beta;
    const double d = c0 - beta;
    for (int i = 1; i < n; ++i) x[i * s] = x[i * s] / d;
    tau = (beta - c0) / beta;
    return beta;
  }

  double column_norm(int j, int from) const {
    const double* col = &a_[index(from, j)];
    return std::sqrt(packet_sum(k_ - from, [&](int i) { return col[i] * col[i]; }));
  }

  void householder_qr() {
    const int n = k_;
    std::array<double, kLd> updated, direct;
    for (int j = 0; j < n; ++j)
      direct[static_cast<std::size_t>(j)] = updated[static_cast<std::size_t>(j)] =
          column_norm(j, 0);
    double largest = updated[0];
    for (int j = 1; j < n; ++j) largest = std::max(largest, updated[static_cast<std::size_t>(j)]);
    const double eps = std::numeric_limits<double>::epsilon();
    const double threshold_helper = (largest * eps) * (largest * eps) / n;
    const double downdate_threshold = std::sqrt(eps);
    nonzero_pivots_ = n;
    max_pivot_ = 0.0;
    for (int i = 0; i < n; ++i) perm_[static_cast<std::size_t>(i)] = i;
    for (int k = 0; k < n; ++k) {
      int best = k;
      for (int j = k + 1; j < n; ++j)
        if (updated[static_cast<std::size_t>(j)] > updated[static_cast<std::size_t>(best)])
          best = j;
      const double best_norm = updated[static_cast<std::size_t>(best)];
      if (nonzero_pivots_ == n && best_norm * best_norm < threshold_helper * (n - k))
        nonzero_pivots_ = k;
      if (best != k) {
        for (int i = 0; i < n; ++i) std::swap(a_[index(i, k)], a_[index(i, best)]);
        std::swap(updated[static_cast<std::size_t>(k)], updated[static_cast<std::size_t>(best)]);
        std::swap(direct[static_cast<std::size_t>(k)], direct[static_cast<std::size_t>(best)]);
      }
      // the column permutation, transposition by transposition (applyTranspositionOnTheRight)
      std::swap(perm_[static_cast<std::size_t>(k)], perm_[static_cast<std::size_t>(best)]);
      double tau;
      double* col = &a_[index(k, k)];
      const double beta = make_householder(col, n - k, 1, false, tau);
      h_[static_cast<std::size_t>(k)] = tau;
      col[0] = beta;
      max_pivot_ = std::max(max_pivot_, std::abs(beta));
      // the reflector on rows k… of columns k + 1…: rows() == 1 leaves nothing (no columns)
      const int m = n - k - 1;  // the essential part's length
      if (m > 0 && tau != 0.0) {
        const double* e = col + 1;
        for (int j = k + 1; j < n; ++j) {
          double* b = &a_[index(k, j)];
          const auto term = [&](int i) { return e[i] * b[i + 1]; };
          double t = n - k - 1 == 1 ? 0.0 + packet_sum(m, term) : 0.0 + lane_sum(m, term);
          t += b[0];
          b[0] -= tau * t;
          for (int i = 0; i < m; ++i) b[i + 1] -= t * (tau * e[i]);
        }
      }
      for (int j = k + 1; j < n; ++j) {
        double& up = updated[static_cast<std::size_t>(j)];
        if (up == 0.0) continue;
        double temp = std::abs(a_[index(k, j)]) / up;
        temp = (1.0 + temp) * (1.0 - temp);
        temp = temp < 0.0 ? 0.0 : temp;
        const double ratio = up / direct[static_cast<std::size_t>(j)];
        if (temp * (ratio * ratio) <= downdate_threshold)
          direct[static_cast<std::size_t>(j)] = up = column_norm(j, k + 1);
        else
          up *= std::sqrt(temp);
      }
    }
  }

  int count_rank() const {
    const double threshold = std::abs(max_pivot_) * (k_ * std::numeric_limits<double>::epsilon());
    int r = 0;
    for (int i = 0; i < nonzero_pivots_; ++i) r += std::abs(a_[index(i, i)]) > threshold ? 1 : 0;
    return r;
  }

  void swap_heads(int k, int r) {
    for (int i = 0; i <= k; ++i) std::swap(a_[index(i, k)], a_[index(i, r)]);
  }

  // [R11 R12] = [T11 0] Z by reflectors from the right, rows r − 1 down to 0
  void orthogonalize_right() {
    const int n = k_, r = rank_, len = n - r + 1;
    for (int k = r - 1; k >= 0; --k) {
      if (k != r - 1) swap_heads(k, r - 1);
      double tau;
      double* row = &a_[index(k, r - 1)];
      const double beta = make_householder(row, len, kLd, true, tau);
      z_[static_cast<std::size_t>(k)] = tau;
      row[0] = beta;
      if (k > 0 && tau != 0.0) {
        const double* e = row + kLd;  // the essential part, n − r entries of row k
        for (int i = 0; i < k; ++i) {
          double* b = &a_[index(i, r - 1)];
          const auto term = [&](int j) { return b[(j + 1) * kLd] * e[j * kLd]; };
          double t = 0.0;
          if (k == 1) {
            t = 0.0 + row_sum(n - r, term);
          } else {
            for (int j = 0; j < n - r; ++j) t += term(j);
          }
          t += b[0];
          b[0] -= tau * t;
          for (int j = 0; j < n - r; ++j) b[(j + 1) * kLd] -= e[j * kLd] * (tau * t);
        }
      }
      if (k != r - 1) swap_heads(k, r - 1);
    }
  }

  // c ← Qᵀ c with the first `length` reflectors, H_0 first
  void apply_qt(double* c, int length) const {
    const int n = k_;
    for (int k = 0; k < length; ++k) {
      const double tau = h_[static_cast<std::size_t>(k)];
      if (n - k == 1) {
        c[k] *= 1.0 - tau;
        continue;
      }
      if (tau == 0.0) continue;
      const double* e = &a_[index(k + 1, k)];
      double t = packet_sum(n - k - 1, [&](int i) { return e[i] * c[k + 1 + i]; });
      t += c[k];
      c[k] -= tau * t;
      for (int i = 0; i < n - k - 1; ++i) c[k + 1 + i] -= tau * e[i] * t;
    }
  }

  // y ← T⁻¹ y on the leading r × r upper triangle, in panels of 8 from the bottom
  void solve_upper(double* y, int r) const {
    constexpr int kPanel = 8;
    for (int p = r; p > 0; p -= kPanel) {
      const int start = std::max(0, p - kPanel);
      for (int i = p - 1; i >= start; --i)
        if (y[i] != 0.0) {
          y[i] /= a_[index(i, i)];
          for (int s = start; s < i; ++s) y[s] -= y[i] * a_[index(s, i)];
        }
      for (int s = 0; s < start; ++s) {
        double sum = 0.0;
        for (int j = start; j < p; ++j) sum += a_[index(s, j)] * y[j];
        y[s] -= sum;
      }
    }
  }

  // y ← Zᵀ y: for each row k < r, the reflector on entries (k, r, …, n − 1)
  void apply_zt(double* y) const {
    const int n = k_, r = rank_;
    for (int k = 0; k < r; ++k) {
      if (k != r - 1) std::swap(y[k], y[r - 1]);
      const double tau = z_[static_cast<std::size_t>(k)];
      if (tau != 0.0) {
        const double* e = &a_[index(k, r)];
        double t = row_sum(n - r, [&](int i) { return e[i * kLd] * y[r + i]; });
        t += y[r - 1];
        y[r - 1] -= tau * t;
        for (int i = 0; i < n - r; ++i) y[r + i] -= tau * e[i * kLd] * t;
      }
      if (k != r - 1) std::swap(y[k], y[r - 1]);
    }
  }

  std::array<double, static_cast<std::size_t>(kLd) * kLd> a_;
  std::array<double, kLd> h_, z_;
  std::array<int, kLd> perm_;
  int k_ = 0, rank_ = 0, nonzero_pivots_ = 0;
  double max_pivot_ = 0.0;
};

}  // namespace pivot::lcp::detail
