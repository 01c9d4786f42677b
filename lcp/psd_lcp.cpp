// Lawson–Hanson's active-set method on (M, q) for a symmetric PSD M: see psd_lcp.hpp.
#include "pivot/lcp/psd_lcp.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "pivot/lcp/active_set.hpp"
#include "pivot/lcp/matrix_access.hpp"

namespace pivot::lcp::detail {
namespace {

using detail::drop_negative_entries;
using detail::judge;
using detail::polish;

// a new index whose Cholesky pivot d² = m_jj − yᵀy is at most this share of m_jj is dependent on
// P to rounding (the fourth corner of a box face on a plane: d² ≈ 1e-16 m_jj)
constexpr double kDependent = 1e-10;
// w_j counts as negative below −kNegative s_j, s_j = |q_j| + Σ_i |M_ji| z_i its row's own scale
// (rounding of a degenerate row's exact 0 does not). A threshold from ‖q‖∞ instead let a row with
// q_j = 0 end at w_j = −5.5e-16 beside ‖q‖∞ = 9.7e-5, which the residual check, row by row,
// refuses (the lemke fuzz target's finding regressions/lemke/psd_negative_w_in_a_q_zero_row)
constexpr double kNegative = 1e-11;

// L Lᵀ = M_PP, k × k lower triangular, in a buffer that grows as P does
class GrowingCholesky {
 public:
  [[nodiscard]] int size() const { return k_; }

  // append an index whose column on P is c (size k) and whose diagonal entry is m_jj; false, and
  // no change, when its pivot vanishes (the column depends on P's)
  bool append(const Vector& c, double m_jj) {
    reserve(k_ + 1);
    Vector y = c;
    forward_in_place(y);
    const double d2 = m_jj - y.squaredNorm();
    if (!(d2 > kDependent * std::abs(m_jj))) return false;
    L_.block(k_, 0, 1, k_) = y.transpose();
    L_(k_, k_) = std::sqrt(d2);
    ++k_;
    return true;
  }

  // drop the index at position r: delete row r of L, which leaves rows r..k−2 with one entry
  // right of the diagonal, and rotate columns (i, i+1) for i = r..k−2 to remove it (Givens; the
  // product L Lᵀ, now M_PP without r, is unchanged by rotations of the columns)
  void remove(int r) {
    // rows r+1 … k−1 move up by one, column by column (contiguous in column-major storage)
    for (int c = 0; c < k_; ++c) {
      double* column = L_.data() + static_cast<std::ptrdiff_t>(c) * L_.outerStride();
      std::memmove(column + r, column + r + 1,
                   sizeof(double) * static_cast<std::size_t>(k_ - 1 - r));
    }
    for (int i = r; i + 1 < k_; ++i) {
      const double a = L_(i, i), b = L_(i, i + 1);
      const double h = std::hypot(a, b);
      const double c = a / h, s = b / h;
      for (int t = i; t + 1 < k_; ++t) {
        const double x = L_(t, i), y = L_(t, i + 1);
        L_(t, i) = c * x + s * y;
        L_(t, i + 1) = -s * x + c * y;
      }
      L_(i, i + 1) = 0.0;
    }
    --k_;
    L_.row(k_).head(k_ + 1).setZero();
    L_.col(k_).head(k_ + 1).setZero();
  }

  // s with L Lᵀ s = rhs
  [[nodiscard]] Vector solve(const Vector& rhs) const { return backward(forward(rhs)); }
  // y = L⁻¹ rhs
  [[nodiscard]] Vector forward(const Vector& rhs) const {
    Vector y = rhs;
    forward_in_place(y);
    return y;
  }
  // y ← L⁻¹ y (y of size k) on the rows from y's first nonzero on: L⁻¹ keeps the leading zeros
  // zero, and the column of a new index is nonzero only in the rows of its bodies' contacts,
  // which on a pyramid entered P shortly before it (the trailing block of L, not all of it: a
  // 20-level pyramid's crash has |P| = 630 at the end)
  void forward_in_place(Vector& y) const {
    Eigen::Index first = 0;
    while (first < k_ && y(first) == 0.0) ++first;
    const Eigen::Index tail = k_ - first;
    if (tail > 0)
      L_.block(first, first, tail, tail).triangularView<Eigen::Lower>().solveInPlace(y.tail(tail));
  }
  // s = L⁻ᵀ y
  [[nodiscard]] Vector backward(const Vector& y) const {
    Vector s = y;
    L_.topLeftCorner(k_, k_).transpose().triangularView<Eigen::Upper>().solveInPlace(s);
    return s;
  }
  // after append(): y = L⁻¹ rhs grown by its last entry, from the new last entry of rhs (the
  // leading rows of L, hence of y, did not change)
  void extend_forward(Vector& y, double rhs_last) const {
    const int k = k_ - 1;
    y.conservativeResize(k_);
    y(k) = (rhs_last - L_.row(k).head(k).dot(y.head(k))) / L_(k, k);
  }

 private:
  void reserve(int k) {
    if (L_.rows() >= k) return;
    const auto old = L_.rows();
    const Eigen::Index cap = std::max<Eigen::Index>({16, 2 * old, k});
    L_.conservativeResize(cap, cap);
    L_.bottomRows(cap - old).setZero();
    L_.rightCols(cap - old).setZero();
  }
  DenseMatrix L_;
  int k_ = 0;
};

double asymmetry(const DenseMatrix& M) {
  return (M - M.transpose()).cwiseAbs().maxCoeff();
}
double asymmetry(const SparseMatrix& M) {
  const SparseMatrix t = M.transpose();
  const SparseMatrix d = M - t;
  double worst = 0.0;
  for (Eigen::Index j = 0; j < d.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(d, j); it; ++it)
      worst = std::max(worst, std::abs(it.value()));
  return worst;
}
double largest(const DenseMatrix& M) {
  return M.cwiseAbs().maxCoeff();
}
double largest(const SparseMatrix& M) {
  return M.nonZeros() == 0 ? 0.0 : M.coeffs().cwiseAbs().maxCoeff();
}

template <typename Matrix>
LcpResult solve_psd(const Matrix& M, const Vector& q, const PsdLcpOptions& options) {
  LcpResult result;
  if (std::string why = validate(M, q); !why.empty()) {
    result.message = why;
    return result;
  }
  const auto n = static_cast<int>(q.size());
  if (n > 0 && asymmetry(M) > 1e-12 * largest(M)) {
    result.message = "M is not symmetric (the active-set method needs a symmetric PSD M)";
    return result;
  }
  if (options.max_iterations < 0 || !(options.residual_tolerance > 0)) {
    result.message = "invalid options (max_iterations or residual_tolerance)";
    return result;
  }
  Vector z = Vector::Zero(n);
  if (n == 0 || q.minCoeff() >= 0.0) {
    result.path = StartPath::trivial;
    result.status =
        judge(M, q, z, options.residual_tolerance, result.w, result.residuals, result.check_seconds)
            ? LcpStatus::solved
            : LcpStatus::numerical_failure;
    result.z = z;
    return result;
  }
  const int max_iterations = options.max_iterations > 0 ? options.max_iterations : 3 * n + 10;
  const Matrix abs_M = M.cwiseAbs();
  const Vector abs_q = q.cwiseAbs();
  Vector negative = kNegative * abs_q;  // −w_j beyond this is negative: kNegative s_j
  std::vector<int> P;                   // the passive set, in the order of L's rows
  std::vector<int> position(n, -1);     // i's place in P, or −1
  std::vector<char> set_aside(n, 0);    // no step possible with it, until P changes
  GrowingCholesky chol;
  auto column_on_P = [&](int j) {
    Vector column = Vector::Zero(static_cast<Eigen::Index>(P.size()));
    detail::access::gather_column(M, j, P, position, column);
    return column;
  };
  // y = L⁻¹ (−q_P), kept with L: an added index extends it by one entry, a drop recomputes it
  Vector y;
  auto add = [&](int j) {
    if (!chol.append(column_on_P(j), detail::access::entry(M, j, j))) return false;
    position[j] = static_cast<int>(P.size());
    P.push_back(j);
    chol.extend_forward(y, -q(j));
    ++result.pivots;
    return true;
  };
  auto refresh_forward = [&] {
    Vector rhs(P.size());
    for (std::size_t a = 0; a < P.size(); ++a) rhs(static_cast<Eigen::Index>(a)) = -q(P[a]);
    y = chol.forward(rhs);
  };
  // drop every index of P whose z has reached 0, last first (positions shift)
  auto drop_zeros = [&] {
    for (int a = static_cast<int>(P.size()) - 1; a >= 0; --a) {
      if (z(P[a]) > 0.0) continue;
      const int i = P[a];
      z(i) = 0.0;
      chol.remove(a);
      P.erase(P.begin() + a);
      position[i] = -1;
      ++result.pivots;
      for (std::size_t b = a; b < P.size(); ++b) position[P[b]] = static_cast<int>(b);
    }
    refresh_forward();
    std::fill(set_aside.begin(), set_aside.end(), 0);
  };
  Vector w = q;
  Vector scale(n);  // the rows' |M| max(z, 0), recomputed with w
  int iterations = 0;
  bool converged = false;
  while (iterations < max_iterations) {
    int j = -1;
    for (int i = 0; i < n; ++i)
      if (position[i] < 0 && !set_aside[i] && w(i) < -negative(i) && (j < 0 || w(i) < w(j))) j = i;
    if (j < 0) {
      converged = true;
      break;
    }
    ++iterations;
    if (!add(j)) {
      // M(·, j) depends on P's columns: d with d_j = 1, d_P = −M_PP⁻¹ M_Pj has M d = 0 (M is
      // PSD and dᵀM d = 0), and the objective falls along it at the rate qᵀd = w_j < 0 (z is the
      // minimum on P). Lawson–Hanson's argument needs q in the range of M and never meets this;
      // with q outside it (contact rows with a bias) z moves along d until an index of P reaches
      // 0, which leaves, and j replaces it: the same span, so M_PP stays nonsingular. No index of
      // P decreasing along d means the objective is unbounded below on z ≥ 0, so the LCP has no
      // solution: j is set aside and the final check reports it.
      const Vector d = -chol.solve(column_on_P(j));
      const double scale = d.size() > 0 ? d.lpNorm<Eigen::Infinity>() : 0.0;
      double t = 0.0;
      int blocking = -1;
      for (std::size_t a = 0; a < P.size(); ++a) {
        const double d_a = d(static_cast<Eigen::Index>(a));
        if (!(d_a < -1e-14 * scale)) continue;
        const double step = std::max(z(P[a]), 0.0) / -d_a;
        if (blocking < 0 || step < t) {
          t = step;
          blocking = static_cast<int>(a);
        }
      }
      if (blocking < 0) {
        set_aside[j] = 1;
        continue;
      }
      const Vector z_before = z;
      const std::vector<int> P_before = P;
      for (std::size_t a = 0; a < P.size(); ++a) z(P[a]) += t * d(static_cast<Eigen::Index>(a));
      z(P[blocking]) = 0.0;
      drop_zeros();
      if (add(j)) {
        z(j) = t;
      } else {
        // j still depends on P to rounding: undo the move, set j aside
        z = z_before;
        for (std::size_t a = P.size(); a-- > 0;) {
          position[P[a]] = -1;
          chol.remove(static_cast<int>(a));
        }
        P.clear();
        y.resize(0);
        for (int i : P_before) add(i);
        set_aside[j] = 1;
        continue;
      }
    }
    // the inner loop: move z toward the minimum on P, dropping the indices that reach 0. Each
    // pass that does not end it drops at least one index, so |P| + 1 passes (|P| on entry: the
    // bound must not shrink with P, or the last solve on the reduced P is skipped; the lemke
    // fuzz target's finding tests/fuzz/regressions/lemke/psd_inner_loop_bound) always end it
    const std::size_t passes = P.size() + 1;
    for (std::size_t inner = 0; inner < passes; ++inner) {
      const Vector s = chol.backward(y);
      double alpha = 1.0;
      int blocking = -1;
      for (std::size_t a = 0; a < P.size(); ++a) {
        const double s_a = s(static_cast<Eigen::Index>(a));
        if (s_a > 0.0) continue;
        const double z_a = z(P[a]);
        const double step = z_a <= 0.0 ? 0.0 : z_a / (z_a - s_a);
        if (blocking < 0 || step < alpha) {
          alpha = step;
          blocking = static_cast<int>(a);
        }
      }
      if (blocking < 0) {
        for (std::size_t a = 0; a < P.size(); ++a) z(P[a]) = s(static_cast<Eigen::Index>(a));
        break;
      }
      for (std::size_t a = 0; a < P.size(); ++a)
        z(P[a]) += alpha * (s(static_cast<Eigen::Index>(a)) - z(P[a]));
      z(P[blocking]) = 0.0;
      drop_zeros();
      // the index just added, dropped at once, would be added again: set it aside
      if (position[j] < 0) set_aside[j] = 1;
    }
    // w = M z + q and the rows' scales |M| max(z, 0) + |q|, in one pass over the columns where
    // z ≠ 0 (z lives on P), instead of two full products (a 20-level pyramid's crash: 106 ms
    // before, 85–98 ms after). Columns in ascending order, as the products take them, so the
    // sums are the same.
    w.setZero();
    scale.setZero();
    for (int i = 0; i < n; ++i) {
      if (z(i) == 0.0) continue;
      detail::access::add_column(M, i, z(i), w);
      detail::access::add_column(abs_M, i, std::max(z(i), 0.0), scale);
    }
    w += q;
    negative = kNegative * (scale + abs_q);
  }
  // complete P to a basis of the tight rows: the indices off P with w_i = 0 to rounding whose
  // columns are independent of P's join it with z_i = 0 (degenerate basic). z does not change; the
  // set is a sturdier warm start: a box on four corners keeps three rows, not the two diagonal
  // ones the iteration may end on, and the next step's slightly tilted load still fits it
  if (converged)
    for (int i = 0; i < n; ++i)
      if (position[i] < 0 && std::abs(w(i)) <= negative(i)) add(i);
  result.z = z;
  result.active_set = P;
  std::sort(result.active_set.begin(), result.active_set.end());
  result.path = StartPath::lemke;
  bool passed = judge(M, q, result.z, options.residual_tolerance, result.w, result.residuals,
                      result.check_seconds);
  // a miss by rounding on an ill-conditioned M_PP (the lemke fuzz target's third finding: worst
  // 1.3e-9 on M = 3e4 · (a near rank-one block) + I): the same correction of the active set from
  // the signs of z and w, with a minimum-norm refinement, that Lemke's answers get (active_set.hpp)
  if (!passed && converged)
    passed = polish(M, q, options.residual_tolerance, result);
  else if (passed)
    drop_negative_entries(M, q, options.residual_tolerance, result.active_set, result.z, result.w,
                          result.residuals, result.check_seconds);
  if (passed && converged) {
    result.status = LcpStatus::solved;
  } else if (!converged) {
    result.status = LcpStatus::pivot_limit;
    result.message = fmt::format("no solution within {} iterations", max_iterations);
  } else {
    result.status = LcpStatus::numerical_failure;
    result.message = fmt::format("the answer fails the residual check (worst {:.3g} > {:.3g})",
                                 result.residuals.worst(), options.residual_tolerance);
  }
  return result;
}

// the solve of either storage, with its wall time in `seconds`
template <typename Problem>
LcpResult timed_solve(const Problem& problem, const PsdLcpOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  LcpResult result = solve_psd(problem.M, problem.q, options);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

LcpResult solve_psd_lcp(const LcpProblem& problem, const PsdLcpOptions& options) {
  return timed_solve(problem, options);
}

LcpResult solve_psd_lcp(const SparseLcpProblem& problem, const PsdLcpOptions& options) {
  return timed_solve(problem, options);
}

}  // namespace pivot::lcp::detail
