#pragma once
// The inverse of a body's 6 × 6 block of M̃ (internal: invert_body_blocks, island_assembly.hpp):
// Eigen 3.4's FullPivLU<Mat6>(A).isInvertible() and .inverse(), their floating-point operations
// in Eigen's order, so that it gives the same bits without Eigen's blocked kernels:
// - the factorization P A Q = L U of FullPivLU.h (computeInPlace): the pivot is the first entry
//   of largest magnitude of the trailing block in column-major order, the column below it is
//   divided by it, the trailing block updated by a_ij − l_ik u_kj; invertible when every pivot
//   exceeds 6 ε times the largest (rank());
// - the inverse, its solve of the identity (FullPivLU::_solve_impl): P I, then the unit lower
//   and the upper triangular solves of the six columns by the blocked kernel of
//   TriangularSolverMatrix.h for a 6 × 6 block (panels of max(mr, nr) = 4 rows for SSE2 doubles:
//   substitution inside a panel, an upper one multiplying by the reciprocal of its diagonal
//   entry, and the rows beyond the panel updated by the matrix kernel with the panel's sum from
//   its first row, x + (−1) Σ), then Q.
// The build compiles with -ffp-contract=off (no fused multiply-adds), which this assumes.
// tests/engine/test_island_mass.cpp compares it with Eigen's bit for bit.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// true when every entry off the diagonal is exactly zero (either sign) and the diagonal is
/// positive and finite (with a negative diagonal entry Eigen's solves leave some zeros negative)
inline bool is_positive_diagonal_block(const Mat6& A) {
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 6; ++i)
      if (i == j ? !(A(i, j) > 0.0 && std::isfinite(A(i, j))) : A(i, j) != 0.0) return false;
  return true;
}

/// A⁻¹ into `inverse` as Eigen's FullPivLU<Mat6> gives it; false (and `inverse` unspecified)
/// when that decomposition finds A singular
inline bool invert_mass_block(const Mat6& A, Mat6& inverse) {
  constexpr int n = 6;
  // a positive diagonal block (a sphere's, or a body whose principal axes are the world's): the
  // factorization's multipliers are all 0 and its solves leave 1 / a_ii on the diagonal and +0
  // elsewhere, which is what this writes directly (the test compares the bits, zeros' signs too);
  // singular, as FullPivLU says, when an entry is within 6 ε of the largest
  if (is_positive_diagonal_block(A)) {
    double largest = 0.0;
    for (int i = 0; i < n; ++i) largest = std::max(largest, A(i, i));
    const double threshold = largest * (n * std::numeric_limits<double>::epsilon());
    for (int i = 0; i < n; ++i)
      if (!(A(i, i) > threshold)) return false;
    inverse.setZero();
    for (int i = 0; i < n; ++i) inverse(i, i) = 1.0 / A(i, i);
    return true;
  }
  double a[n][n];  // a[j][i]: column j, row i
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a[j][i] = A(i, j);
  std::array<int, n> row_t, col_t;
  int nonzero = n;
  double max_pivot = 0.0;
  for (int k = 0; k < n; ++k) {
    int br = k, bc = k;
    double best = std::abs(a[k][k]);
    for (int j = k; j < n; ++j)
      for (int i = (j == k ? k + 1 : k); i < n; ++i)
        if (const double s = std::abs(a[j][i]); s > best) best = s, br = i, bc = j;
    if (best == 0.0) {
      nonzero = k;
      for (int i = k; i < n; ++i) row_t[i] = col_t[i] = i;
      break;
    }
    if (best > max_pivot) max_pivot = best;
    row_t[k] = br;
    col_t[k] = bc;
    if (br != k)
      for (int j = 0; j < n; ++j) std::swap(a[j][k], a[j][br]);
    if (bc != k)
      for (int i = 0; i < n; ++i) std::swap(a[k][i], a[bc][i]);
    if (k < n - 1) {
      const double p = a[k][k];
      for (int i = k + 1; i < n; ++i) a[k][i] /= p;
      for (int j = k + 1; j < n; ++j)
        for (int i = k + 1; i < n; ++i) a[j][i] -= a[k][i] * a[j][k];
    }
  }
  const double threshold = std::abs(max_pivot) * (n * std::numeric_limits<double>::epsilon());
  int rank = 0;
  for (int i = 0; i < nonzero; ++i) rank += std::abs(a[i][i]) > threshold ? 1 : 0;
  if (rank != n) return false;
  std::array<int, n> p, q;
  for (int i = 0; i < n; ++i) p[i] = q[i] = i;
  for (int k = n - 1; k >= 0; --k) std::swap(p[k], p[row_t[k]]);
  for (int k = 0; k < n; ++k) std::swap(q[k], q[col_t[k]]);
  // x = P * I, row by row (x[i][j]: row i, column j), then the triangular solves on all six
  // columns at once
  double x[n][n];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) x[i][j] = 0.0;
  for (int i = 0; i < n; ++i) x[p[i]][i] = 1.0;
  const auto axpy = [&](double* y, const double* v, double f) {
    for (int j = 0; j < n; ++j) y[j] -= v[j] * f;
  };
  // L (unit lower): rows 0..3 by substitution, rows 4..5 by the panel's sums, row 5 by row 4
  for (int i = 0; i < 4; ++i)
    for (int s = i + 1; s < 4; ++s) axpy(x[s], x[i], a[i][s]);
  for (int r = 4; r < 6; ++r) {
    double acc[n];
    for (int j = 0; j < n; ++j) acc[j] = 0.0;
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < n; ++j) acc[j] += a[k][r] * x[k][j];
    for (int j = 0; j < n; ++j) x[r][j] = acc[j] * -1.0 + x[r][j];
  }
  axpy(x[5], x[4], a[4][5]);
  double inv[n];
  for (int i = 0; i < n; ++i) inv[i] = 1.0 / a[i][i];
  // U: rows 5..2 by substitution, rows 0..1 by the panel's sums, then rows 1, 0
  for (int i = 5; i >= 2; --i) {
    for (int j = 0; j < n; ++j) x[i][j] *= inv[i];
    for (int s = 2; s < i; ++s) axpy(x[s], x[i], a[i][s]);
  }
  for (int r = 0; r < 2; ++r) {
    double acc[n];
    for (int j = 0; j < n; ++j) acc[j] = 0.0;
    for (int k = 2; k < 6; ++k)
      for (int j = 0; j < n; ++j) acc[j] += a[k][r] * x[k][j];
    for (int j = 0; j < n; ++j) x[r][j] = acc[j] * -1.0 + x[r][j];
  }
  for (int j = 0; j < n; ++j) x[1][j] *= inv[1];
  axpy(x[0], x[1], a[1][0]);
  for (int j = 0; j < n; ++j) x[0][j] *= inv[0];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) inverse(q[i], j) = x[i][j];
  return true;
}

}  // namespace pivot::detail
