// Equilibration of an LCP by powers of two (equilibrate.hpp).
#include "pivot/lcp/equilibrate.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

namespace pivot::lcp::detail {
namespace {

/// calls f(i, j, M_ij) for every nonzero (stored) entry of M
template <typename F>
void for_each_nonzero(const DenseMatrix& M, F&& f) {
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < M.rows(); ++i)
      if (M(i, j) != 0.0) f(i, j, M(i, j));
}
template <typename F>
void for_each_nonzero(const SparseMatrix& M, F&& f) {
  for (Eigen::Index j = 0; j < M.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(M, j); it; ++it)
      if (it.value() != 0.0) f(it.row(), j, it.value());
}

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

template <typename Matrix>
Equilibration balance(const Matrix& M, const Vector& q) {
  const auto n = static_cast<std::size_t>(q.size());
  // ρ_i, κ_j, and κ_q for q's column: the logarithms of the factors, in real numbers
  std::vector<double> rho(n, 0.0), kappa(n, 0.0), sum(n), count(n);
  double kappa_q = 0.0;
  for (int sweep = 0; sweep < kEquilibrationSweeps; ++sweep) {
    double moved = 0.0;
    // each row: ρ_i = −mean over its nonzero entries of (log₂|a_ij| + κ_j)
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(count.begin(), count.end(), 0.0);
    for_each_nonzero(M, [&](Eigen::Index i, Eigen::Index j, double m) {
      sum[static_cast<std::size_t>(i)] += log2_of(m) + kappa[static_cast<std::size_t>(j)];
      count[static_cast<std::size_t>(i)] += 1.0;
    });
    for (std::size_t i = 0; i < n; ++i) {
      if (const double qi = q(static_cast<Eigen::Index>(i)); qi != 0.0) {
        sum[i] += log2_of(qi) + kappa_q;
        count[i] += 1.0;
      }
      const double r = count[i] > 0.0 ? -sum[i] / count[i] : 0.0;
      moved = std::max(moved, std::abs(r - rho[i]));
      rho[i] = r;
    }
    // each column of M, then q's: κ_j = −mean over its nonzero entries of (log₂|a_ij| + ρ_i)
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(count.begin(), count.end(), 0.0);
    for_each_nonzero(M, [&](Eigen::Index i, Eigen::Index j, double m) {
      sum[static_cast<std::size_t>(j)] += log2_of(m) + rho[static_cast<std::size_t>(i)];
      count[static_cast<std::size_t>(j)] += 1.0;
    });
    for (std::size_t j = 0; j < n; ++j) {
      const double c = count[j] > 0.0 ? -sum[j] / count[j] : 0.0;
      moved = std::max(moved, std::abs(c - kappa[j]));
      kappa[j] = c;
    }
    double q_sum = 0.0, q_count = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      if (const double qi = q(static_cast<Eigen::Index>(i)); qi != 0.0) {
        q_sum += log2_of(qi) + rho[i];
        q_count += 1.0;
      }
    const double g = q_count > 0.0 ? -q_sum / q_count : 0.0;
    moved = std::max(moved, std::abs(g - kappa_q));
    kappa_q = g;
    if (moved < kEquilibrationSettled) break;
  }
  Equilibration e;
  e.row.resize(n);
  e.col.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    e.row[k] = nearest(rho[k]);
    e.col[k] = nearest(kappa[k]);
  }
  e.q = nearest(kappa_q);
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
