#pragma once
// Row and column equilibration of an LCP by powers of two, so that Lemke's tests and the
// residual check see a problem of the same scale whatever the units of the original.
//
// For positive diagonal R (rows), C (columns) and a number γ > 0, the LCP (M, q) and
//   M̃ = R M C,   q̃ = γ R q
// have the same solutions up to the change of variables z = C z̃ / γ, w = w̃ / (γ R):
//   w̃ = R M C z̃ + γ R q = γ R (M z + q) = γ R w,
// and z̃ ≥ 0, w̃ ≥ 0, z̃ᵀw̃ = 0 hold exactly when z ≥ 0, w ≥ 0, zᵀw = 0 do, R, C and γ being
// positive and diagonal. With powers of two for R, C and γ the scaled data are exact (only an
// entry that leaves the range of double rounds), and so is the way back.
//
// The factors are those of Curtis and Reid (1972, "On the automatic scaling of matrices for
// Gaussian elimination"), rounded to powers of two: the logarithms ρ_i, κ_j of the row and
// column factors minimize Σ (log₂|a_ij| + ρ_i + κ_j)² over the nonzero entries of the augmented
// matrix [M | q] (q being one more column, whose factor is γ = 2^κ_q), so that the entries of
// every row and column are spread evenly about 1. The minimum is approached by alternating the
// exact row and column minimizations (each a mean over the row's or column's entries; block
// coordinate descent on a convex quadratic) until no factor moves by more than
// kEquilibrationSettled bits or kEquilibrationSweeps sweeps are done. Every entry steers the
// factors by its share of its row and column only, so an entry that is rounding noise beside
// the others (a q_i of 1e-17 where the rest are 1) moves them little. A problem already in
// balance gets factors near 1; a problem in kilograms of 10¹⁶, or with one column in units 10¹²
// times another's, gets the factors that undo it.

#include <vector>

#include "pivot/lcp/lcp_problem.hpp"

namespace pivot::lcp::detail {

/// the scaling by powers of two of an LCP (see above): R = diag(2^row), C = diag(2^col),
/// γ = 2^q
struct Equilibration {
  std::vector<int> row;
  std::vector<int> col;
  int q = 0;
  /// the largest power of two (as its exponent) by which the scaling multiplies or divides an
  /// entry of M, of q, of z or of w: how far the scaled problem is from the original
  [[nodiscard]] int size() const;
};

/// the most sweeps equilibrate() makes (each O(stored entries of M + n)) ...
inline constexpr int kEquilibrationSweeps = 50;
/// ... and the largest move of a factor's logarithm (bits) that ends them
inline constexpr double kEquilibrationSettled = 0.05;

/// the factors that balance [M | q] (see above); M square n × n, q of size n, all finite
[[nodiscard]] Equilibration equilibrate(const DenseMatrix& M, const Vector& q);
[[nodiscard]] Equilibration equilibrate(const SparseMatrix& M, const Vector& q);

/// R M C and γ R q, exactly (ldexp) unless an entry leaves the range of double
[[nodiscard]] DenseMatrix scaled_matrix(const DenseMatrix& M, const Equilibration& e);
[[nodiscard]] SparseMatrix scaled_matrix(const SparseMatrix& M, const Equilibration& e);
[[nodiscard]] Vector scaled_q(const Vector& q, const Equilibration& e);
/// a covering vector d of the original problem as the scaled problem's: R d (the augmented
/// column d z₀ scales with the rows as q does, up to the free factor of z₀)
[[nodiscard]] Vector scaled_covering(const Vector& d, const Equilibration& e);

/// z = C z̃ / γ and w = w̃ / (γ R), in place
void unscale_solution(const Equilibration& e, Vector& z, Vector& w);

}  // namespace pivot::lcp::detail
