// The small path of solve_lemke (small_lemke.hpp): Lemke's method on a fixed-capacity tableau and
// the certificate of its answer.
#include "pivot/lcp/small_lemke.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "pivot/lcp/active_set.hpp"
#include "pivot/lcp/residual.hpp"
#include "pivot/lcp/small_lu.hpp"

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
// for the current basis B, one row per basic variable, kept condensed (Tucker's form: Murty
// 1988, §2.2): only the columns of the n + 1 nonbasic variables and the basic values are stored,
// the column of a basic variable being the unit vector of its row. Variables are numbered w_i = i,
// z_j = n + j, z₀ = 2n; the slot of a nonbasic variable is its stored column, slot n + 1 holds the
// basic values. Columns 0…n−1 of the full tableau are B⁻¹ itself, which the lexicographic ratio
// test reads (Murty 1988) through entry(). The pivot computes every stored entry with the
// operations of the full tableau's Gauss–Jordan step in the same order (the leaving variable's
// unit column is 1 in its row and 0 elsewhere before the step), so the numbers are the full
// tableau's; it costs n (n + 2) updates instead of n (2n + 2). The rows are padded with zeros
// (which stay 0) to a multiple of 4 entries, so that the row operations have no remainder loop.
class Tableau {
 public:
  static constexpr int kStride = kCapacity + 4;

  explicit Tableau(int n) : n_(n), width_((n + 2 + 3) / 4 * 4) {
    for (int r = 0; r < n; ++r)
      for (int c = n + 2; c < width_; ++c) at(r)[c] = 0.0;
    for (int i = 0; i < n; ++i) {
      basic_[static_cast<std::size_t>(i)] = i;
      row_of_[static_cast<std::size_t>(i)] = i;
      slot_[static_cast<std::size_t>(i)] = -1;
      row_of_[static_cast<std::size_t>(n + i)] = -1;
      slot_[static_cast<std::size_t>(n + i)] = i;
    }
    row_of_[static_cast<std::size_t>(2 * n)] = -1;
    slot_[static_cast<std::size_t>(2 * n)] = n;
  }

  double* at(int r) { return t_.data() + static_cast<std::ptrdiff_t>(r) * kStride; }
  const double* at(int r) const { return t_.data() + static_cast<std::ptrdiff_t>(r) * kStride; }
  double value(int r) const { return at(r)[n_ + 1]; }
  /// the stored column of a nonbasic variable
  int slot(int var) const { return slot_[static_cast<std::size_t>(var)]; }
  /// the full tableau's entry (r, var)
  double entry(int r, int var) const {
    const int s = slot(var);
    return s >= 0 ? at(r)[s] : (row_of(var) == r ? 1.0 : 0.0);
  }
  int basic(int r) const { return basic_[static_cast<std::size_t>(r)]; }
  int row_of(int var) const { return row_of_[static_cast<std::size_t>(var)]; }

  // Gauss–Jordan pivot on (r, e): variable e enters, basic(r) leaves and takes e's slot s. The
  // row operations run over whole rows, slot s included (where they compute the entering
  // column's unit entries, which are not kept); the leaving variable's column is written into
  // slot s after them: 1 / p in row r and 0 − f_i · (1 / p) in row i, the full tableau's values
  // (up to the sign of a zero). Writing slot s before the row operations would also make each
  // row's vector loads wait on a scalar store.
  void pivot(int r, int e) {
    const int width = width_, s = slot(e), leaving = basic(r);
    double* pr = at(r);
    const double p = pr[s];
    for (int c = 0; c < width; c += 4)
      for (int l = 0; l < 4; ++l) pr[c + l] /= p;
    const double leaving_entry = 1.0 / p;
    for (int i = 0; i < n_; ++i) {
      if (i == r) continue;
      double* pi = at(i);
      const double f = pi[s];
      if (f == 0.0) {
        pi[s] = 0.0;
        continue;
      }
      for (int c = 0; c < width; c += 4)
        for (int l = 0; l < 4; ++l) pi[c + l] -= f * pr[c + l];
      pi[s] = -(f * leaving_entry);
    }
    pr[s] = leaving_entry;
    row_of_[static_cast<std::size_t>(leaving)] = -1;
    slot_[static_cast<std::size_t>(leaving)] = s;
    slot_[static_cast<std::size_t>(e)] = -1;
    basic_[static_cast<std::size_t>(r)] = e;
    row_of_[static_cast<std::size_t>(e)] = r;
  }

 private:
  int n_, width_;
  std::array<double, static_cast<std::size_t>(kCapacity) * kStride> t_;
  std::array<int, kCapacity> basic_;
  std::array<int, 2 * kCapacity + 1> row_of_, slot_;
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

// an entry of M or q that the small path takes: finite, and 0 or within 2^±kSmallExtremeExponent
bool ordinary(double x) {
  constexpr double big = 0x1p500, small = 0x1p-500;
  static_assert(kSmallExtremeExponent == 500);
  const double a = std::abs(x);
  return a <= big && (a == 0.0 || a >= small);  // false for NaN and ±∞ too
}

// Whether M is data the small path takes: every entry ordinary, and rows and columns not spread
// beyond 2^kSmallWideSpreadExponent (lemke.cpp's needs_equilibration and validate: the data that
// the general path would equilibrate or reject). One pass over the entries finds the largest and
// the smallest nonzero magnitude and any NaN (four independent running extrema, no branch per
// entry); when those two are within 2^kSmallWideSpreadExponent of each other, so are every row's
// and every column's largest entries, and the rows and columns need no pass of their own.
bool plain_matrix(const DenseMatrix& M, int n) {
  constexpr double big = 0x1p500, small = 0x1p-500, spread = 0x1p40,
                   inf = std::numeric_limits<double>::infinity();
  static_assert(kSmallWideSpreadExponent == 40);
  const double* m = M.data();
  const int count = n * n;
  std::array<double, 4> hi{0.0, 0.0, 0.0, 0.0}, lo{inf, inf, inf, inf};
  bool nan = false;
  const auto take = [&](int k, std::size_t lane) {
    const double a = std::abs(m[k]);
    nan = nan | (a != a);
    lo[lane] = std::min(lo[lane], a == 0.0 ? inf : a);
    hi[lane] = std::max(hi[lane], a);
  };
  int k = 0;
  for (; k + 4 <= count; k += 4)
    for (int l = 0; l < 4; ++l) take(k + l, static_cast<std::size_t>(l));
  for (; k < count; ++k) take(k, static_cast<std::size_t>(k & 3));
  const double largest = std::max(std::max(hi[0], hi[1]), std::max(hi[2], hi[3]));
  const double smallest = std::min(std::min(lo[0], lo[1]), std::min(lo[2], lo[3]));
  if (nan || !(largest <= big) || smallest < small) return false;
  if (largest == 0.0 || largest <= smallest * spread) return true;
  // the rows' and the columns' largest entries
  std::array<double, kCapacity> row_max;
  std::fill_n(row_max.begin(), n, 0.0);
  double col_lo = inf, col_hi = 0.0;
  for (int j = 0; j < n; ++j) {
    double col_max = 0.0;
    for (int i = 0; i < n; ++i) {
      const double a = std::abs(M(i, j));
      row_max[static_cast<std::size_t>(i)] = std::max(row_max[static_cast<std::size_t>(i)], a);
      col_max = std::max(col_max, a);
    }
    if (col_max > 0.0) col_lo = std::min(col_lo, col_max), col_hi = std::max(col_hi, col_max);
  }
  double row_lo = inf, row_hi = 0.0;
  for (int i = 0; i < n; ++i)
    if (const double x = row_max[static_cast<std::size_t>(i)]; x > 0.0)
      row_lo = std::min(row_lo, x), row_hi = std::max(row_hi, x);
  return !(row_hi > 0.0 && row_hi > row_lo * spread) && !(col_hi > 0.0 && col_hi > col_lo * spread);
}

// the tableau's columns −M, row by row, so that each row is written in order (the first pivot
// reads the rows with vector loads right after)
void fill_tableau(const DenseMatrix& M, int n, Tableau& T) {
  for (int i = 0; i < n; ++i) {
    double* row = T.at(i);
    for (int j = 0; j < n; ++j) row[j] = -M(i, j);
  }
}

// The ratio test of lemke_path.hpp's ratio_test() on the tableau, for entering variable e: the
// blocking rows are those with rate D_r = T(r, e) > pivot_tolerance · max_r |D_r| (Cline §4.8.3),
// ties within 1e-12 of the minimum ratio max(y_r, 0) / D_r; z₀ leaves whenever tied; otherwise
// the lexicographically smallest row of B⁻¹ / D_r (Murty 1988) within 1e-12 of the rows' scale,
// the candidates taken in the general path's order (basic z by position in Z, then basic w by
// row) so that exact ties go the same way. The minimum, the ties and z₀'s precedence do not
// depend on that order: it is set up only when two or more rows tie. −1: no blocking row, or a
// value that is not finite (the general path decides those).
int ratio_test(const Tableau& T, const BasisOrder& order, int n, int e, double pivot_tolerance) {
  const int s = T.slot(e);
  double dmax = 0.0, ymax = 0.0;
  for (int r = 0; r < n; ++r) {
    dmax = std::max(dmax, std::abs(T.at(r)[s]));
    ymax = std::max(ymax, std::abs(T.value(r)));
  }
  if (!std::isfinite(dmax) || !std::isfinite(ymax) || !(dmax > 0.0)) return -1;
  const double dtol = pivot_tolerance * dmax;
  std::array<double, kCapacity> ratio;
  double theta = std::numeric_limits<double>::infinity();
  for (int r = 0; r < n; ++r) {
    const double rate = T.at(r)[s];
    ratio[static_cast<std::size_t>(r)] =
        rate <= dtol ? std::numeric_limits<double>::infinity() : std::max(T.value(r), 0.0) / rate;
    theta = std::min(theta, ratio[static_cast<std::size_t>(r)]);
  }
  if (!std::isfinite(theta)) return -1;
  const double tie = 1e-12 * std::max(theta, std::max(ymax, kSmallTiny) / dmax);
  const auto tied = [&](int r) { return ratio[static_cast<std::size_t>(r)] <= theta + tie; };
  int count = 0, only = -1;
  for (int r = 0; r < n; ++r)
    if (tied(r)) {
      if (T.basic(r) == 2 * n) return r;  // z₀ leaves: a solution
      ++count;
      only = r;
    }
  if (count == 1) return only;
  // the tied rows in the general path's order
  std::array<int, kCapacity> ties;
  count = 0;
  for (int b = 0; b < order.k; ++b) {
    const int c = order.cols[static_cast<std::size_t>(b)];
    if (const int r = T.row_of(c == n ? 2 * n : n + c); tied(r))
      ties[static_cast<std::size_t>(count++)] = r;
  }
  for (int i = 0; i < n; ++i)
    if (const int r = T.row_of(i); r >= 0 && tied(r)) ties[static_cast<std::size_t>(count++)] = r;
  // the lexicographic minimum of (B⁻¹)_r· / D_r over the tied rows
  // max_col |T(r, col) / D_r| is max_col |T(r, col)| / D_r, bit for bit (a correctly rounded
  // division is monotone), at one division per row
  double scale = 0.0;
  for (int c = 0; c < count; ++c) {
    const int r = ties[static_cast<std::size_t>(c)];
    double largest = 0.0;
    for (int col = 0; col < n; ++col) largest = std::max(largest, std::abs(T.entry(r, col)));
    scale = std::max(scale, largest / T.at(r)[s]);
  }
  const double eq_tol = 1e-12 * std::max(scale, kSmallTiny);
  int best = ties[0];
  for (int c = 1; c < count; ++c) {
    const int r = ties[static_cast<std::size_t>(c)];
    const double rate_r = T.at(r)[s], rate_best = T.at(best)[s];
    for (int col = 0; col < n; ++col) {
      const double x = T.entry(r, col), y = T.entry(best, col);
      if (x == 0.0 && y == 0.0) continue;  // both quotients 0
      const double a = x / rate_r, b = y / rate_best;
      if (std::abs(a - b) <= eq_tol) continue;
      if (a < b) best = r;
      break;
    }
  }
  return best;
}

// z from the final basis as LemkeSolver::solution() computes it: an LU with partial pivoting of
// the block A = M(L, Z) in the basis' order, z_Z = A⁻¹(−q_L) and one step of iterative
// refinement. Up to kSmallLuMax columns on fixed storage by SmallLu (small_lu.hpp), beyond through
// Eigen's dynamic-size kernels (maps of the stack storage); both are the general path's MatrixXd
// operations in its order, so that the same block gives the same bits.
void basis_solution(const DenseMatrix& M, const Vector& q, const BasisOrder& order, Vector& z) {
  z.setZero();
  const int k = order.k;
  if (k == 0) return;
  const auto row = [&](int a) { return order.rows[static_cast<std::size_t>(a)]; };
  const auto col = [&](int b) { return order.cols[static_cast<std::size_t>(b)]; };
  std::array<double, kCapacity> zz;
  if (k <= kSmallLuMax) {
    // the smallest bases, the common ones, with k known at compile time
    const auto solve = [&](auto size) {
      constexpr int K = decltype(size)::value;
      const int kk = K > 0 ? K : k;
      std::array<double, static_cast<std::size_t>(SmallLu::kLd) * SmallLu::kLd> A;
      std::array<double, kSmallLuMax> rhs, residual;
      SmallLu lu;
      for (int b = 0; b < kk; ++b)
        for (int a = 0; a < kk; ++a) A[SmallLu::index(a, b)] = lu.at(a, b) = M(row(a), col(b));
      for (int a = 0; a < kk; ++a)
        zz[static_cast<std::size_t>(a)] = rhs[static_cast<std::size_t>(a)] = -q(row(a));
      lu.factorize<K>(kk);
      lu.solve<K>(zz.data());
      SmallLu::product<K>(A.data(), kk, zz.data(), residual.data());
      for (int a = 0; a < kk; ++a)
        residual[static_cast<std::size_t>(a)] =
            rhs[static_cast<std::size_t>(a)] - residual[static_cast<std::size_t>(a)];
      lu.solve<K>(residual.data());
      for (int a = 0; a < kk; ++a)
        zz[static_cast<std::size_t>(a)] += residual[static_cast<std::size_t>(a)];
    };
    switch (k) {
      case 1:
        solve(std::integral_constant<int, 1>{});
        break;
      case 2:
        solve(std::integral_constant<int, 2>{});
        break;
      case 3:
        solve(std::integral_constant<int, 3>{});
        break;
      case 4:
        solve(std::integral_constant<int, 4>{});
        break;
      default:
        solve(std::integral_constant<int, 0>{});
        break;
    }
  } else {
    BasisMatrix A(k, k);
    BasisVector rhs(k), x(k), product(k), residual(k);
    for (int b = 0; b < k; ++b)
      for (int a = 0; a < k; ++a) A(a, b) = M(row(a), col(b));
    for (int a = 0; a < k; ++a) rhs(a) = -q(row(a));
    const Eigen::PartialPivLU<BasisMatrix> lu(A);
    x = lu.solve(rhs);
    Eigen::Map<Eigen::VectorXd>(product.data(), k).noalias() =
        Eigen::Map<const Eigen::MatrixXd>(A.data(), k, k) *
        Eigen::Map<const Eigen::VectorXd>(x.data(), k);
    residual = rhs - product;
    x += lu.solve(residual);
    std::copy_n(x.data(), k, zz.begin());
  }
  for (int b = 0; b < k; ++b) z(col(b)) = zz[static_cast<std::size_t>(b)];
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
namespace {

// certify_answer() on the given w, or, with w_out, on w = M z + q computed in its own pass over M
// into w_out (the storage of w) in the order of Eigen's `M * z` followed by `+ q`: each row's
// products summed from column 0 upward starting at 0, then q_i added. On false, w_out may be
// unset.
bool certify(const DenseMatrix& M, const Vector& q, const Vector& z, const Vector& w, double* w_out,
             double tolerance, LcpResiduals& bounds) {
  const auto n = static_cast<int>(q.size());
  bounds = LcpResiduals{};  // min_z is set below
  if (z.size() != n || w.size() != n || M.rows() != n || M.cols() != n || n > kCapacity)
    return false;
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
  std::array<double, kCapacity> s, abs_row, product;
  std::fill_n(abs_row.begin(), n, 0.0);
  std::fill_n(product.begin(), n, 0.0);
  for (int i = 0; i < n; ++i) s[static_cast<std::size_t>(i)] = std::abs(q(i));
  for (int j = 0; j < n; ++j) {
    const double zj = z(j), abs_zj = std::abs(zj);
    const double* column = M.data() + static_cast<std::ptrdiff_t>(j) * n;
    for (int i = 0; i < n; ++i) {
      const double a = std::abs(column[i]);
      abs_row[static_cast<std::size_t>(i)] += a;
      s[static_cast<std::size_t>(i)] += a * abs_zj;
      if (w_out) product[static_cast<std::size_t>(i)] += column[i] * zj;
    }
  }
  if (w_out)
    for (int i = 0; i < n; ++i) w_out[i] = product[static_cast<std::size_t>(i)] + q(i);
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

}  // namespace

bool certify_answer(const DenseMatrix& M, const Vector& q, const Vector& z, const Vector& w,
                    double tolerance, LcpResiduals& bounds) {
  return certify(M, q, z, w, nullptr, tolerance, bounds);
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
  // q first: the trivial answer needs nothing set up beyond the check of M
  double q_min = std::numeric_limits<double>::infinity();
  bool q_plain = true;
  for (int i = 0; i < n; ++i) {
    q_plain = q_plain && ordinary(q(i));
    q_min = std::min(q_min, q(i));
  }
  if (!q_plain) return false;
  // a warm start is tried as the general path tries it first (active_set.hpp), in result's own
  // storage; a crash start, and a warm start that is not accepted, are the general path's
  const bool trivial = q_min >= 0.0, lemke = !trivial && !options.warm_start;
  if (lemke && !options.crash_rows.empty()) return false;
  if (!plain_matrix(M, n)) return false;
  result.message.clear();
  result.active_set.clear();
  result.pivots = result.crash_pivots = result.refactorizations = 0;
  result.attempt = -1;
  result.equilibrated = false;
  result.check_seconds = 0.0;
  if (trivial) {
    set_trivial(q, n, result);
    return true;
  }
  if (options.warm_start)
    return try_warm_start_in_place(M, q, *options.warm_start, options.residual_tolerance, result);

  // the standard start: w_t leaves for z₀, t = argmax −q_t / d_t (ties: the largest index)
  Tableau T(n);
  fill_tableau(M, n, T);
  int t = 0;
  double best = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const double r = -q(i) / d[static_cast<std::size_t>(i)];
    if (r >= best) {
      best = r;
      t = i;
    }
    T.at(i)[n] = -d[static_cast<std::size_t>(i)];
    T.at(i)[n + 1] = q(i);
  }
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
  // measure_residuals' M * z + q computed in the certificate's pass over M, the same operations
  // in the same order (Eigen evaluates the product alone first, then adds q)
  result.w.resize(n);
  accepted = certify(M, q, result.z, result.w, result.w.data(), options.residual_tolerance,
                     result.residuals);
#endif
  if (!accepted && !judge(M, q, result.z, options.residual_tolerance, result.w, result.residuals,
                          result.check_seconds))
    return false;
  // the basic z, ascending (z₀ has left the basis)
  std::array<bool, kCapacity> basic{};
  for (int b = 0; b < order.k; ++b)
    basic[static_cast<std::size_t>(order.cols[static_cast<std::size_t>(b)])] = true;
  result.active_set.reserve(static_cast<std::size_t>(order.k));  // one allocation at most
  for (int i = 0; i < n; ++i)
    if (basic[static_cast<std::size_t>(i)]) result.active_set.push_back(i);
  // a negative z_i that carries a share of a row: the set without it (active_set.hpp; it finds
  // none when no z_i is negative)
  if (result.z.minCoeff() < 0.0)
    drop_negative_entries(M, q, options.residual_tolerance, result.active_set, result.z, result.w,
                          result.residuals, result.check_seconds);
  result.status = LcpStatus::solved;
  result.path = StartPath::lemke;
  result.attempt = 1;  // kLemkeAttempts[1], "standard"
  result.pivots = pivots;
  return true;
}

}  // namespace pivot::lcp::detail
