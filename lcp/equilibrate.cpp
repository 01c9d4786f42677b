// Equilibration of an LCP by powers of two (equilibrate.hpp).
#include "pivot/lcp/equilibrate.hpp"

#include "pivot/lcp/matrix_access.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

namespace pivot::lcp::detail {
namespace {

/// the binary exponent of a nonzero finite x: |x| ∈ [2^e, 2^(e+1)) (subnormals included)
int exponent_of(double x) {
  return std::ilogb(x);
}

/// log₂|x| for a nonzero finite x (subnormals included)
double log2_of(double x) {
  return std::log2(std::abs(x));
}

/// the integer nearest x
int nearest(double x) {
  return static_cast<int>(std::lround(x));
}

/// a nonzero entry of [M | q] (column n is q's) and log₂ of its magnitude
struct LogEntry {
  std::size_t row, col;
  double log;
};

template <typename Matrix>
Equilibration balance(const Matrix& M, const Vector& q) {
  const auto n = static_cast<std::size_t>(q.size());
  std::vector<LogEntry> entries;
  detail::access::for_each_nonzero(M, [&](Eigen::Index i, Eigen::Index j, double m) {
    entries.push_back({static_cast<std::size_t>(i), static_cast<std::size_t>(j), log2_of(m)});
  });
  for (std::size_t i = 0; i < n; ++i)
    if (const double qi = q(static_cast<Eigen::Index>(i)); qi != 0.0)
      entries.push_back({i, n, log2_of(qi)});
  // ρ_i for the rows; κ_j for the columns and κ_n for q's: the logarithms of the factors
  std::vector<double> rho(n, 0.0), kappa(n + 1, 0.0), sum(n + 1), count(n + 1);
  // the exact minimization over one side: factor_k = −mean over k's entries of (log₂|a| + the
  // other side's factor); returns the largest move
  const auto minimize = [&](std::vector<double>& mine, const std::vector<double>& other,
                            bool rows) {
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(count.begin(), count.end(), 0.0);
    for (const LogEntry& e : entries) {
      const std::size_t k = rows ? e.row : e.col;
      sum[k] += e.log + other[rows ? e.col : e.row];
      count[k] += 1.0;
    }
    double moved = 0.0;
    for (std::size_t k = 0; k < mine.size(); ++k) {
      const double f = count[k] > 0.0 ? -sum[k] / count[k] : 0.0;
      moved = std::max(moved, std::abs(f - mine[k]));
      mine[k] = f;
    }
    return moved;
  };
  for (int sweep = 0; sweep < kEquilibrationSweeps; ++sweep) {
    const double moved_rows = minimize(rho, kappa, true);
    const double moved_cols = minimize(kappa, rho, false);
    if (std::max(moved_rows, moved_cols) < kEquilibrationSettled) break;
  }
  Equilibration e;
  e.row.resize(n);
  e.col.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    e.row[k] = nearest(rho[k]);
    e.col[k] = nearest(kappa[k]);
  }
  e.q = nearest(kappa[n]);
  return e;
}

}  // namespace

int Equilibration::size() const {
  if (row.empty()) return 0;
  const auto [row_lo, row_hi] = std::minmax_element(row.begin(), row.end());
  const auto [col_lo, col_hi] = std::minmax_element(col.begin(), col.end());
  // M_ij is multiplied by 2^(row_i + col_j), q_i by 2^(row_i + q), z_j by 2^(q − col_j) and w_i
  // by 2^(row_i + q)
  return std::max({std::abs(*row_hi + *col_hi), std::abs(*row_lo + *col_lo), std::abs(*row_hi + q),
                   std::abs(*row_lo + q), std::abs(q - *col_lo), std::abs(q - *col_hi)});
}

Equilibration equilibrate(const DenseMatrix& M, const Vector& q) {
  return balance(M, q);
}
Equilibration equilibrate(const SparseMatrix& M, const Vector& q) {
  return balance(M, q);
}

DenseMatrix scaled_matrix(const DenseMatrix& M, const Equilibration& e) {
  DenseMatrix out(M.rows(), M.cols());
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < M.rows(); ++i)
      out(i, j) = std::ldexp(
          M(i, j), e.row[static_cast<std::size_t>(i)] + e.col[static_cast<std::size_t>(j)]);
  return out;
}

SparseMatrix scaled_matrix(const SparseMatrix& M, const Equilibration& e) {
  SparseMatrix out = M;
  for (Eigen::Index j = 0; j < out.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(out, j); it; ++it)
      it.valueRef() = std::ldexp(it.value(), e.row[static_cast<std::size_t>(it.row())] +
                                                 e.col[static_cast<std::size_t>(j)]);
  return out;
}

Vector scaled_q(const Vector& q, const Equilibration& e) {
  Vector out(q.size());
  for (Eigen::Index i = 0; i < q.size(); ++i)
    out(i) = std::ldexp(q(i), e.row[static_cast<std::size_t>(i)] + e.q);
  return out;
}

Vector scaled_covering(const Vector& d, const Equilibration& e) {
  // R d, divided by its largest entry's power of two so that the scaled covering is near 1; an
  // entry that would fall below the normal range is raised to its bottom (any positive covering
  // is a valid one: it only chooses the path)
  int top = INT_MIN;
  for (Eigen::Index i = 0; i < d.size(); ++i)
    top = std::max(top, exponent_of(d(i)) + e.row[static_cast<std::size_t>(i)]);
  Vector out(d.size());
  for (Eigen::Index i = 0; i < d.size(); ++i)
    out(i) = std::max(std::ldexp(d(i), e.row[static_cast<std::size_t>(i)] - top),
                      std::numeric_limits<double>::min());
  return out;
}

void unscale_solution(const Equilibration& e, Vector& z, Vector& w) {
  for (Eigen::Index j = 0; j < z.size(); ++j)
    z(j) = std::ldexp(z(j), e.col[static_cast<std::size_t>(j)] - e.q);
  for (Eigen::Index i = 0; i < w.size(); ++i)
    w(i) = std::ldexp(w(i), -(e.row[static_cast<std::size_t>(i)] + e.q));
}

}  // namespace pivot::lcp::detail
