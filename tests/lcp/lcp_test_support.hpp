#pragma once
// Ground truth for the lcp tests, computed without the solver under test: an exhaustive
// brute-force LCP solver, an independent residual check, and generators of problems whose
// solution is known by construction. Everything is deterministic (fixed seeds).

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "pivot/lcp/lcp_problem.hpp"

namespace pivot::test {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// ─── independent residual ───────────────────────────────────────────────────────────────────

/// the worst relative violation of z ≥ 0, w = M z + q ≥ 0, zᵀw = 0, recomputed here from (M, q, z)
/// without any library code, normwise (relative to ‖z‖∞ and s_w = max(‖q‖∞, ‖M‖∞ ‖z‖∞)): a second
/// opinion next to measure_residuals(), whose measures are componentwise
inline double independent_worst(const MatrixXd& M, const VectorXd& q, const VectorXd& z) {
  if (z.size() != q.size() || M.rows() != q.size() || M.cols() != z.size()) return INFINITY;
  if (!z.allFinite()) return INFINITY;
  constexpr double tiny = 1e-300;
  const VectorXd w = M * z + q;
  const double z_inf = z.size() ? z.cwiseAbs().maxCoeff() : 0.0;
  const double m_inf = M.size() ? M.cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
  const double q_inf = q.size() ? q.cwiseAbs().maxCoeff() : 0.0;
  const double s_z = std::max(z_inf, tiny);
  const double s_w = std::max({q_inf, m_inf * z_inf, tiny});
  double worst = 0.0;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    worst = std::max(worst, -z(i) / s_z);
    worst = std::max(worst, -w(i) / s_w);
    worst = std::max(worst, std::abs(z(i) * w(i)) / (s_z * s_w));
  }
  return worst;
}

/// ‖a − b‖∞ / max(1, ‖b‖∞)
inline double relative_difference(const VectorXd& a, const VectorXd& b) {
  if (a.size() != b.size()) return INFINITY;
  if (a.size() == 0) return 0.0;
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

// ─── brute force ─────────────────────────────────────────────────────────────────────────────

/// every solution at a complementary basis: for each subset α of {0…n−1} (2ⁿ of them) solve
/// M_αα z_α = −q_α with a full-pivot LU, z_ᾱ = 0, and keep z when z ≥ −tol and w ≥ −tol
/// (tol relative to the problem's scale). Singular M_αα are skipped. n ≤ 16.
inline std::vector<VectorXd> brute_force_solutions(const MatrixXd& M, const VectorXd& q,
                                                   double tol = 1e-10) {
  const auto n = static_cast<int>(q.size());
  std::vector<VectorXd> solutions;
  if (n > 16) return solutions;
  const double scale = std::max({1.0, M.cwiseAbs().maxCoeff(), q.cwiseAbs().maxCoeff()});
  for (unsigned long mask = 0; mask < (1ul << n); ++mask) {
    std::vector<int> alpha;
    for (int i = 0; i < n; ++i)
      if (mask & (1ul << i)) alpha.push_back(i);
    VectorXd z = VectorXd::Zero(n);
    if (!alpha.empty()) {
      const auto k = static_cast<Eigen::Index>(alpha.size());
      MatrixXd A(k, k);
      VectorXd b(k);
      for (Eigen::Index r = 0; r < k; ++r) {
        b(r) = -q(alpha[r]);
        for (Eigen::Index c = 0; c < k; ++c) A(r, c) = M(alpha[r], alpha[c]);
      }
      Eigen::FullPivLU<MatrixXd> lu(A);
      lu.setThreshold(1e-13);
      if (!lu.isInvertible()) continue;
      const VectorXd za = lu.solve(b);
      if ((A * za - b).cwiseAbs().maxCoeff() >
          1e-9 * scale * std::max(1.0, za.cwiseAbs().maxCoeff()))
        continue;
      for (Eigen::Index r = 0; r < k; ++r) z(alpha[r]) = za(r);
    }
    const VectorXd w = M * z + q;
    const double zs = std::max(1.0, z.cwiseAbs().maxCoeff());
    if (z.minCoeff() >= -tol * zs && w.minCoeff() >= -tol * scale * zs) solutions.push_back(z);
  }
  return solutions;
}

/// the solution when all brute-force solutions agree (as for a P-matrix), else an empty vector
inline VectorXd brute_force_unique(const MatrixXd& M, const VectorXd& q) {
  const auto all = brute_force_solutions(M, q);
  if (all.empty()) return {};
  for (const auto& z : all)
    if (relative_difference(z, all.front()) > 1e-8) return {};
  return all.front();
}

// ─── generators ──────────────────────────────────────────────────────────────────────────────

inline MatrixXd random_matrix(std::mt19937& rng, Eigen::Index rows, Eigen::Index cols) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatrixXd A(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) A(i, j) = u(rng);
  return A;
}

inline VectorXd random_vector(std::mt19937& rng, Eigen::Index n, double lo = -1.0,
                              double hi = 1.0) {
  std::uniform_real_distribution<double> u(lo, hi);
  VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v(i) = u(rng);
  return v;
}

/// a block-sparse SPD matrix like a contact problem's G M⁻¹ Gᵀ + shift: `blocks` diagonal blocks
/// of size `b`, each coupled to the next by a random b × b block (symmetrically), so that the fill
/// is about 3/blocks
inline MatrixXd block_tridiagonal_spd(std::mt19937& rng, int blocks, int b, double shift = 0.1) {
  const int n = blocks * b;
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatrixXd G = MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int bi = i / b, bj = j / b;
      if (bj == bi) G(i, j) = u(rng);
      if (bj == bi + 1) G(i, j) = 0.5 * u(rng);
    }
  // GᵀG couples block k with k ± 1 only
  return G.transpose() * G / b + shift * MatrixXd::Identity(n, n);
}

/// symmetric positive definite: AᵀA/n + shift·I
inline MatrixXd random_spd(std::mt19937& rng, Eigen::Index n, double shift = 0.1) {
  const MatrixXd A = random_matrix(rng, n, n);
  return A.transpose() * A / static_cast<double>(n) + shift * MatrixXd::Identity(n, n);
}

/// non-symmetric with a positive-definite symmetric part (hence a P-matrix): SPD + skew
inline MatrixXd random_pd_nonsymmetric(std::mt19937& rng, Eigen::Index n, double skew = 1.0) {
  const MatrixXd S = random_spd(rng, n);
  const MatrixXd B = random_matrix(rng, n, n);
  return S + skew * (B - B.transpose()) / 2.0;
}

/// an LCP with a planted, strictly complementary solution: a random active set (probability
/// `active`), z_i ∈ [0.5, 1.5] on it, w_i ∈ [0.5, 1.5] off it, and q = w − M z.
/// For a P-matrix M the planted z is the unique solution.
struct PlantedLcp {
  lcp::LcpProblem problem;
  VectorXd z;               ///< the planted solution
  VectorXd w;               ///< M z + q
  std::vector<int> active;  ///< indices with z_i > 0, ascending
};

inline PlantedLcp plant_solution(std::mt19937& rng, const MatrixXd& M, double active = 0.5,
                                 const std::string& name = "planted") {
  const auto n = M.rows();
  std::uniform_real_distribution<double> coin(0.0, 1.0), value(0.5, 1.5);
  PlantedLcp out;
  out.z = VectorXd::Zero(n);
  out.w = VectorXd::Zero(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (coin(rng) < active) {
      out.z(i) = value(rng);
      out.active.push_back(static_cast<int>(i));
    } else {
      out.w(i) = value(rng);
    }
  }
  out.problem.M = M;
  out.problem.q = out.w - M * out.z;
  out.problem.name = name;
  return out;
}

}  // namespace pivot::test
