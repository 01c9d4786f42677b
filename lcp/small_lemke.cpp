// The small path of solve_lemke (small_lemke.hpp): Lemke's method on a fixed-capacity tableau and
// the certificate of its answer.
#include "pivot/lcp/small_lemke.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "pivot/lcp/active_set.hpp"
#include "pivot/lcp/residual.hpp"

namespace pivot::lcp::detail {
namespace {

constexpr int kCapacity = kSmallLemkeMax;
constexpr double kSmallEpsilon = std::numeric_limits<double>::epsilon();
constexpr double kSmallTiny = std::numeric_limits<double>::min();

// entries of M, q beyond 2^±this are left to the general path, which equilibrates them
// (lemke.cpp's kSmallExtremeExponent), and so are rows or columns of M spread beyond 2^40
// (kSmallWideSpreadExponent there)
constexpr int kSmallExtremeExponent = 500;
constexpr int kSmallWideSpreadExponent = 40;
// the general path tries its early completion when z₀ ≤ 1e-8 of its start (lemke_path.hpp); the
// small path leaves such a path to it with a margin of 10 for the rounding of z₀ in either form
constexpr double kSmallCompletionMargin = 1e-7;
// the share of ‖q‖∞ that z's rounding may move w by (residual.cpp: 100 n ε ‖z‖∞ max_i Σ_j |M_ij|)
constexpr double kSmallZRoundingFactor = 100.0;

using BasisMatrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kCapacity, kCapacity>;
using BasisVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kCapacity, 1>;

// γ_m = m u / (1 − m u), u = ε/2: the relative error bound of a sum of m floating-point terms
// (Higham 2002, "Accuracy and Stability of Numerical Algorithms", §3.1 Lemma 3.1 and eq. (3.4))
double sum_error_bound(int m) {
  const double mu = m * 0.5 * kSmallEpsilon;
  return mu / (1.0 - mu);
}

// The tableau B⁻¹ [I, −M, −d, q] of the augmented system w − M z − d z₀ = q (Cline 2002 eq. 2.35)
// for the current basis B, row-major, one row per basic variable. Variables are numbered by
// their tableau column: w_i is i, z_j is n + j, z₀ is 2n; column 2n + 1 holds the basic values.
// Columns 0…n−1 are B⁻¹ itself, which the lexicographic ratio test reads (Murty 1988). The
// column of a basic variable stays an exact unit vector (the pivot sets it), so a row of B⁻¹ is
// exactly 0 where the revised form's compact rows (lemke_path.hpp) have no entry.
class Tableau {
 public:
  static constexpr int kWidth = 2 * kCapacity + 2;

  Tableau(const DenseMatrix& M, const Vector& q, const double* d, int n) : n_(n) {
    const int width = 2 * n + 2;
    for (int r = 0; r < n; ++r) {
      double* row = at(r);
      std::fill(row, row + width, 0.0);
      row[r] = 1.0;
      for (int j = 0; j < n; ++j) row[n + j] = -M(r, j);
      row[2 * n] = -d[r];
      row[2 * n + 1] = q(r);
      basic_[r] = r;
      row_of_[r] = r;
      row_of_[n + r] = -1;
    }
    row_of_[2 * n] = -1;
  }

  double* at(int r) { return t_.data() + static_cast<std::ptrdiff_t>(r) * kWidth; }
  double value(int r) { return at(r)[2 * n_ + 1]; }
  double entry(int r, int c) { return at(r)[c]; }
  int basic(int r) const { return basic_[r]; }
  int row_of(int var) const { return row_of_[var]; }

  // Gauss–Jordan pivot on (r, e): variable e enters, basic(r) leaves
  void pivot(int r, int e) {
    const int width = 2 * n_ + 2;
    double* pr = at(r);
    const double p = pr[e];
    for (int c = 0; c < width; ++c) pr[c] /= p;
    pr[e] = 1.0;
    for (int i = 0; i < n_; ++i) {
      if (i == r) continue;
      double* pi = at(i);
      const double f = pi[e];
      if (f == 0.0) continue;
      for (int c = 0; c < width; ++c) pi[c] -= f * pr[c];
      pi[e] = 0.0;
    }
    row_of_[basic_[r]] = -1;
    basic_[r] = e;
    row_of_[e] = r;
  }

 private:
  int n_;
  std::array<double, static_cast<std::size_t>(kCapacity) * kWidth> t_;
  std::array<int, kCapacity> basic_;
  std::array<int, 2 * kCapacity + 1> row_of_;
};

// The basis as the revised form keeps it (lemke_path.hpp): L, the rows whose w is nonbasic, and Z,
// the basic z̃ (n stands for z₀), each in the order its four moves leave them, so that the final
// basis block M(L, Z) is the general path's, row for row and column for column.
struct BasisOrder {
  std::array<int, kCapacity + 1> rows, cols;  // the first k are set
  int k = 0;

  static int find(const std::array<int, kCapacity + 1>& a, int k, int x) {
    for (int i = 0; i < k; ++i)
      if (a[static_cast<std::size_t>(i)] == x) return i;
    return -1;
  }
  // z_j (n: z₀) enters, w_r leaves: grow
  void grow(int r, int j) {
    rows[static_cast<std::size_t>(k)] = r;
    cols[static_cast<std::size_t>(k)] = j;
    ++k;
  }
  // z_j enters, z_c leaves: column swap in place
  void replace_col(int c, int j) { cols[static_cast<std::size_t>(find(cols, k, c))] = j; }
  // w_i enters, w_r leaves: row swap in place
  void replace_row(int i, int r) { rows[static_cast<std::size_t>(find(rows, k, i))] = r; }
  // w_i enters, z_c leaves: both moved to the last position, then dropped
  void remove(int i, int c) {
    const int p = find(rows, k, i), l = find(cols, k, c), last = k - 1;
    if (p != last)
      std::swap(rows[static_cast<std::size_t>(p)], rows[static_cast<std::size_t>(last)]);
    if (l != last)
      std::swap(cols[static_cast<std::size_t>(l)], cols[static_cast<std::size_t>(last)]);
    --k;
  }
};

// One pass over M and q: every entry finite, none beyond 2^±kSmallExtremeExponent, rows and columns
// not spread beyond 2^kSmallWideSpreadExponent (lemke.cpp's needs_equilibration and validate)
bool plain_data(const DenseMatrix& M, const Vector& q, int n) {
  const double big = std::ldexp(1.0, kSmallExtremeExponent),
               small = std::ldexp(1.0, -kSmallExtremeExponent);
  const auto ordinary = [&](double x) {
    const double a = std::abs(x);
    return std::isfinite(a) && a <= big && (a == 0.0 || a >= small);
  };
  for (int i = 0; i < n; ++i)
    if (!ordinary(q(i))) return false;
  std::array<double, kCapacity> row_max, col_max;
  std::fill_n(row_max.begin(), n, 0.0);
  std::fill_n(col_max.begin(), n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double m = M(i, j);
      if (!ordinary(m)) return false;
      const double a = std::abs(m);
      row_max[static_cast<std::size_t>(i)] = std::max(row_max[static_cast<std::size_t>(i)], a);
      col_max[static_cast<std::size_t>(j)] = std::max(col_max[static_cast<std::size_t>(j)], a);
    }
  const auto narrow = [n](const std::array<double, kCapacity>& maxima) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    for (int i = 0; i < n; ++i)
      if (const double x = maxima[static_cast<std::size_t>(i)]; x > 0.0)
        lo = std::min(lo, x), hi = std::max(hi, x);
    return !(hi > 0.0 && hi > lo * std::ldexp(1.0, kSmallWideSpreadExponent));
  };
  return narrow(row_max) && narrow(col_max);
}

// The ratio test of lemke_path.hpp's ratio_test() on the tableau, for entering column e: the
// blocking rows are those with rate D_r = T(r, e) > pivot_tolerance · max_r |D_r| (Cline §4.8.3),
// ties within 1e-12 of the minimum ratio max(y_r, 0) / D_r; z₀ leaves whenever tied; otherwise
// the lexicographically smallest row of B⁻¹ / D_r (Murty 1988) within 1e-12 of the rows' scale,
// the candidates taken in the general path's order (basic z by position in Z, then basic w by
// row) so that exact ties go the same way. −1: no blocking row, or a value that is not finite
// (the general path decides those).
int ratio_test(Tableau& T, const BasisOrder& order, int n, int e, double pivot_tolerance) {
  double dmax = 0.0, ymax = 0.0;
  for (int r = 0; r < n; ++r) {
    dmax = std::max(dmax, std::abs(T.entry(r, e)));
    ymax = std::max(ymax, std::abs(T.value(r)));
  }
  if (!std::isfinite(dmax) || !std::isfinite(ymax) || !(dmax > 0.0)) return -1;
  const double dtol = pivot_tolerance * dmax;
  // candidate rows in the general path's order
  std::array<int, kCapacity> rows;  // the first `count` are set
  int count = 0;
  for (int b = 0; b < order.k; ++b) {
    const int c = order.cols[static_cast<std::size_t>(b)];
    rows[static_cast<std::size_t>(count++)] = T.row_of(c == n ? 2 * n : n + c);
  }
  for (int i = 0; i < n; ++i)
    if (T.row_of(i) >= 0) rows[static_cast<std::size_t>(count++)] = T.row_of(i);
  std::array<double, kCapacity> ratio;
  double theta = std::numeric_limits<double>::infinity();
  for (int c = 0; c < count; ++c) {
    const int r = rows[static_cast<std::size_t>(c)];
    const double rate = T.entry(r, e);
    ratio[static_cast<std::size_t>(c)] = std::numeric_limits<double>::infinity();
    if (rate <= dtol) continue;
    ratio[static_cast<std::size_t>(c)] = std::max(T.value(r), 0.0) / rate;
    theta = std::min(theta, ratio[static_cast<std::size_t>(c)]);
  }
  if (!std::isfinite(theta)) return -1;
  const double tie = 1e-12 * std::max(theta, std::max(ymax, kSmallTiny) / dmax);
  std::array<int, kCapacity> ties;
  int tied = 0;
  for (int c = 0; c < count; ++c)
    if (ratio[static_cast<std::size_t>(c)] <= theta + tie) {
      const int r = rows[static_cast<std::size_t>(c)];
      if (T.basic(r) == 2 * n) return r;  // z₀ leaves: a solution
      ties[static_cast<std::size_t>(tied++)] = r;
    }
  if (tied == 1) return ties[0];
  // the lexicographic minimum of (B⁻¹)_r· / D_r over the tied rows
  // max_col |T(r, col) / D_r| is max_col |T(r, col)| / D_r, bit for bit (a correctly rounded
  // division is monotone), at one division per row
  double scale = 0.0;
  for (int c = 0; c < tied; ++c) {
    const int r = ties[static_cast<std::size_t>(c)];
    double largest = 0.0;
    for (int col = 0; col < n; ++col) largest = std::max(largest, std::abs(T.entry(r, col)));
    scale = std::max(scale, largest / T.entry(r, e));
  }
  const double eq_tol = 1e-12 * std::max(scale, kSmallTiny);
  int best = ties[0];
  for (int c = 1; c < tied; ++c) {
    const int r = ties[static_cast<std::size_t>(c)];
    const double rate_r = T.entry(r, e), rate_best = T.entry(best, e);
    for (int col = 0; col < n; ++col) {
      if (T.entry(r, col) == 0.0 && T.entry(best, col) == 0.0) continue;  // both quotients 0
      const double a = T.entry(r, col) / rate_r, b = T.entry(best, col) / rate_best;
      if (std::abs(a - b) <= eq_tol) continue;
      if (a < b) best = r;
      break;
    }
  }
  return best;
}

// z from the final basis as LemkeSolver::solution() computes it: an LU with partial pivoting of
// the block A = M(L, Z) in the basis' order, z_Z = A⁻¹(−q_L) and one step of iterative
// refinement. The products go through Eigen's dynamic-size kernels (maps of the stack storage),
// the ones the general path's MatrixXd uses, so that the same block gives the same bits.
void basis_solution(const DenseMatrix& M, const Vector& q, const BasisOrder& order, Vector& z) {
  z.setZero();
  const int k = order.k;
  if (k == 0) return;
  BasisMatrix A(k, k);
  BasisVector rhs(k), zz(k), product(k), residual(k);
  for (int b = 0; b < k; ++b)
    for (int a = 0; a < k; ++a)
      A(a, b) = M(order.rows[static_cast<std::size_t>(a)], order.cols[static_cast<std::size_t>(b)]);
  for (int a = 0; a < k; ++a) rhs(a) = -q(order.rows[static_cast<std::size_t>(a)]);
  const Eigen::PartialPivLU<BasisMatrix> lu(A);
  zz = lu.solve(rhs);
  Eigen::Map<Eigen::VectorXd>(product.data(), k).noalias() =
      Eigen::Map<const Eigen::MatrixXd>(A.data(), k, k) *
      Eigen::Map<const Eigen::VectorXd>(zz.data(), k);
  residual = rhs - product;
  zz += lu.solve(residual);
  for (int b = 0; b < k; ++b) z(order.cols[static_cast<std::size_t>(b)]) = zz(b);
}

void set_trivial(const Vector& q, int n, LcpResult& result) {
  result.z.setZero(n);
  result.w = q;
  result.residuals = LcpResiduals{};  // measure_residuals of z = 0 when q ≥ 0: all 0
  result.status = LcpStatus::solved;
  result.path = StartPath::trivial;
}

}  // namespace

// The certificate. With γ = γ_{n+1} (Higham §3.1: a sum of n + 1 terms, q_i and the M_ij z_j),
// any floating-point evaluation of w_i = q_i + Σ_j M_ij z_j is within γ s_i of the exact value,
// and any of s_i = |q_i| + Σ_j |M_ij z_j| within γ s_i of its own (barring underflow and
// overflow, which the range test below excludes: Higham §2.1). So the check's w_i differs from
// the certificate's by at most 2γ s_i, and its s_i is at least (1 − γ) s_i while the
// certificate's is at most (1 + γ) s_i. Hence |w_i| ≤ τ s_i here gives |w_i| ≤ tolerance · s_i
// there for τ = (tolerance (1 − γ) − 2γ) / (1 + γ), and w_i ≥ −τ s_i here gives
// w_i ≥ −tolerance · s_i there. The check's other measures only relax these (its noise floor sets
// w_i to 0, its complementarity takes min(ζ_i, |w_i| / s_i)), and its min_z is 0 for z ≥ 0.
// Complementarity holds by construction for a complementary basis: z_i = 0 exactly off it, and on
// it w_i is the residual of the basis solve, which LU with partial pivoting followed by one step
// of refinement keeps at rounding level relative to s_i (Higham Thm 9.4 and §12.2, componentwise
// backward stability after one step of fixed-precision refinement); the certificate measures that
// residual rather than bounding it a priori (γ_{3k} |L̂||Û||ẑ| depends on the growth of the
// factors and would be the looser of the two, for the same O(n²) pass).
bool certify_answer(const DenseMatrix& M, const Vector& q, const Vector& z, const Vector& w,
                    double tolerance, LcpResiduals& bounds) {
  const auto n = static_cast<int>(q.size());
  bounds = LcpResiduals{};  // min_z is set below
  if (z.size() != n || w.size() != n || M.rows() != n || M.cols() != n) return false;
  const double g = sum_error_bound(n + 1);
  const double tau = (tolerance * (1.0 - g) - 2.0 * g) / (1.0 + g);
  if (!(tau > 0.0)) return false;
  // |z_j| within 2^±400 where nonzero: with the data within 2^±500, no term underflows or
  // overflows. A negative z_j (a basic z_j whose exact value is 0, computed as −4e-19, say) must
  // be within the check's rounding box of 0, δ = 100 n ε ‖z‖∞, and within τ ‖z‖∞: the check
  // measures such a z_j by |z_j| / ‖z‖∞, and a larger one by its share of the rows, which is
  // left to the check (a z_j of −5e-10 ‖z‖∞ can be half of a row).
  const double z_big = std::ldexp(1.0, 400), z_small = std::ldexp(1.0, -400);
  double z_norm = 0.0, z_min = 0.0;
  for (int j = 0; j < n; ++j) {
    const double zj = std::abs(z(j));
    if (!(zj <= z_big) || (zj != 0.0 && zj < z_small)) return false;
    z_norm = std::max(z_norm, zj);
    z_min = std::min(z_min, z(j));
  }
  if (z_min < -tau * z_norm ||
      z_min < -kSmallZRoundingFactor * n * kSmallEpsilon * z_norm * (1.0 - 4.0 * g))
    return false;
  // s_i and Σ_j |M_ij| in one pass over the columns (the latter over every column: the check's
  // rounding share)
  if (n > kCapacity) return false;
  std::array<double, kCapacity> s, abs_row;
  std::fill_n(abs_row.begin(), n, 0.0);
  for (int i = 0; i < n; ++i) s[static_cast<std::size_t>(i)] = std::abs(q(i));
  for (int j = 0; j < n; ++j) {
    const double zj = std::abs(z(j));
    for (int i = 0; i < n; ++i) {
      const double a = std::abs(M(i, j));
      abs_row[static_cast<std::size_t>(i)] += a;
      s[static_cast<std::size_t>(i)] += a * zj;
    }
  }
  double min_w = 0.0, complementarity = 0.0, row_norm = 0.0;
  for (int i = 0; i < n; ++i) {
    const double wi = w(i), si = s[static_cast<std::size_t>(i)];
    if (!std::isfinite(wi) || !std::isfinite(si)) return false;
    row_norm = std::max(row_norm, abs_row[static_cast<std::size_t>(i)]);
    if (si == 0.0 && wi != 0.0) return false;  // no exact w_i is nonzero with s_i = 0
    const double share = si > 0.0 ? wi / si : 0.0;
    min_w = std::min(min_w, share);
    if (z(i) != 0.0) complementarity = std::max(complementarity, std::abs(share));
  }
  bounds.min_z = z_norm > 0.0 ? z_min / z_norm : 0.0;
  bounds.min_w = min_w;
  bounds.max_complementarity = complementarity;
  // the check's rounding share, 100 n ε ‖z‖∞ max_i Σ_j |M_ij| / ‖q‖∞, must stay below its limit
  // with the same margin for the rounding of the sums
  const double q_norm = q.lpNorm<Eigen::Infinity>();
  const double rounding_in_w = kSmallZRoundingFactor * n * kSmallEpsilon * z_norm * row_norm;
  bounds.rounding_share = rounding_in_w == 0.0 ? 0.0
                          : q_norm > 0.0       ? rounding_in_w / q_norm
                                               : std::numeric_limits<double>::infinity();
  return -min_w <= tau && complementarity <= tau &&
         bounds.rounding_share * (1.0 + 4.0 * g) <= kMaxRoundingShare * (1.0 - 4.0 * g);
}

bool solve_small_lemke(const DenseMatrix& M, const Vector& q, const LemkeOptions& options,
                       LcpResult& result) {
  const auto n = static_cast<int>(q.size());
  if (n < 1 || n > kCapacity || M.rows() != n || M.cols() != n) return false;
  if (options.max_pivots < 0 || options.refactor_interval < 1 || !(options.pivot_tolerance >= 0) ||
      !(options.residual_tolerance > 0))
    return false;
  std::array<double, kCapacity> d;
  if (options.covering.size() == 0) {
    std::fill_n(d.begin(), n, 1.0);
  } else {
    if (options.covering.size() != n) return false;
    for (int i = 0; i < n; ++i) {
      d[static_cast<std::size_t>(i)] = options.covering(i);
      if (!(d[static_cast<std::size_t>(i)] > 0.0) || !std::isfinite(d[static_cast<std::size_t>(i)]))
        return false;
    }
  }
  if (!plain_data(M, q, n)) return false;
  result.message.clear();
  result.active_set.clear();
  result.pivots = result.crash_pivots = result.refactorizations = 0;
  result.attempt = -1;
  result.equilibrated = false;
  result.check_seconds = 0.0;
  if (q.minCoeff() >= 0.0) {
    set_trivial(q, n, result);
    return true;
  }
  // a warm start is tried as the general path tries it first (active_set.hpp), in result's own
  // storage; a crash start, and a warm start that is not accepted, are the general path's
  if (options.warm_start)
    return try_warm_start_in_place(M, q, *options.warm_start, options.residual_tolerance, result);
  if (!options.crash_rows.empty()) return false;

  // the standard start: w_t leaves for z₀, t = argmax −q_t / d_t (ties: the largest index)
  int t = 0;
  double best = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const double r = -q(i) / d[static_cast<std::size_t>(i)];
    if (r >= best) {
      best = r;
      t = i;
    }
  }
  Tableau T(M, q, d.data(), n);
  BasisOrder order;
  T.pivot(t, 2 * n);
  order.grow(t, n);
  const double z0_start = T.value(t);
  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : 100 * n + 1000;
  const int budget = std::min(max_pivots, 10 * n + 1000);
  int entering = n + t;  // z_t
  int pivots = 0;
  while (true) {
    if (pivots >= budget) return false;
    if (options.interrupted && pivots % 64 == 63 && options.interrupted()) return false;
    if (const int z0_row = T.row_of(2 * n);
        z0_row >= 0 && !(T.value(z0_row) > kSmallCompletionMargin * z0_start))
      return false;
    const int r = ratio_test(T, order, n, entering, options.pivot_tolerance);
    if (r < 0) return false;
    const int leaving = T.basic(r);
    const bool enters_z = entering >= n, leaves_z = leaving >= n;
    const int leaving_index = leaving == 2 * n ? n : (leaves_z ? leaving - n : leaving);
    if (enters_z && !leaves_z)
      order.grow(leaving, entering - n);
    else if (enters_z)
      order.replace_col(leaving_index, entering - n);
    else if (!leaves_z)
      order.replace_row(entering, leaving);
    else
      order.remove(entering, leaving_index);
    T.pivot(r, entering);
    ++pivots;
    if (leaving == 2 * n) break;  // z₀ left: a complementary basis
    entering = leaves_z ? leaving - n : n + leaving;
  }

  result.z.resize(n);
  basis_solution(M, q, order, result.z);
  if (!result.z.allFinite()) return false;
  // the certificate, and when it cannot accept, the general path's judgement of the same z
  // (judge(): the full check, and max(z, 0) when only rounding-level negative z_i fail it). Builds
  // without NDEBUG judge every answer by the full check.
  bool accepted = false;
#ifdef NDEBUG
  // measure_residuals' M * z + q without its temporary: the product into w, then q added, the
  // same operations in the same order (Eigen evaluates the product alone first either way)
  result.w.resize(n);
  result.w.noalias() = M * result.z;
  result.w += q;
  accepted = certify_answer(M, q, result.z, result.w, options.residual_tolerance, result.residuals);
#endif
  if (!accepted && !judge(M, q, result.z, options.residual_tolerance, result.w, result.residuals,
                          result.check_seconds))
    return false;
  for (int b = 0; b < order.k; ++b)
    result.active_set.push_back(order.cols[static_cast<std::size_t>(b)]);
  std::sort(result.active_set.begin(), result.active_set.end());
  // a negative z_i that carries a share of a row: the set without it (active_set.hpp)
  drop_negative_entries(M, q, options.residual_tolerance, result.active_set, result.z, result.w,
                        result.residuals, result.check_seconds);
  result.status = LcpStatus::solved;
  result.path = StartPath::lemke;
  result.attempt = 1;  // kLemkeAttempts[1], "standard"
  result.pivots = pivots;
  return true;
}

}  // namespace pivot::lcp::detail
