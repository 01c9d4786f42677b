// Contact islands, reduced body by body: see contact_island.hpp for the equations.
#include "pivot/engine/contact_island.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <chrono>
#include <vector>

#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/island_lcp.hpp"
#include "pivot/engine/stopwatch.hpp"

namespace pivot::detail {
namespace {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;
using RowMatrix6 = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor>;

// per body: the rows of G that touch it and their six entries, A_b and A_b⁻¹; kept by each
// thread from step to step so that a resting island reuses its memory
struct Scratch {
  std::vector<std::vector<int>> rows;  // R_b
  std::vector<RowMatrix6> G;           // G_b, |R_b| × 6
  std::vector<int> count;              // rows of G_b filled so far
  std::vector<Mat6> A, A_inv;
  std::vector<Eigen::Triplet<double>> S;
  Vector v, y;
  Matrix T, block;
};

// G's entries sorted into the bodies' blocks (a row's entries for one body arrive together);
// S as triplets, v dense
struct BodySink {
  Scratch& s;
  void J(int, int, double) {}  // no joint rows in a contact island
  void G(int row, int col, double value) {
    const int b = col / 6;
    std::vector<int>& R = s.rows[b];
    int& n = s.count[b];
    if (n == 0 || R[n - 1] != row) {
      if (n == static_cast<int>(R.size())) {
        R.push_back(row);
        s.G[b].conservativeResize(n + 1, 6);
      }
      R[n] = row;
      s.G[b].row(n).setZero();
      ++n;
    }
    s.G[b](n - 1, col % 6) = value;
  }
  void S(int row, int col, double value) { s.S.emplace_back(row, col, value); }
  void b(int, double) {}
  void v(int row, double value) { s.v(row) = value; }
};

// 𝓜 = S + Σ_b G_b A_b⁻¹ G_bᵀ and q = b + Σ_b G_b y_b
void reduce(Scratch& s, const Vector& r, lcp::LcpProblem& reduced) {
  const auto m = s.v.size();
  const auto nb = static_cast<int>(s.A.size());
  reduced.q = s.v;
  s.y.resize(6 * nb);
  reduced.M.setZero(m, m);
  for (const auto& t : s.S) reduced.M(t.row(), t.col()) += t.value();
  for (int b = 0; b < nb; ++b) {
    const int k = s.count[b];
    const auto Gb = s.G[b].topRows(k);
    const std::vector<int>& R = s.rows[b];
    s.y.segment<6>(6 * b).noalias() = s.A_inv[b] * r.segment<6>(6 * b);
    s.T.noalias() = Gb * s.A_inv[b];
    s.block.noalias() = s.T * Gb.transpose();
    const Vector qb = Gb * s.y.segment<6>(6 * b);
    for (int j = 0; j < k; ++j) {
      reduced.q(R[j]) += qb(j);
      for (int i = 0; i < k; ++i) reduced.M(R[i], R[j]) += s.block(i, j);
    }
  }
}

// v⁺ and the free-row check ‖A v⁺ − Gᵀz − r‖∞ ≤ 1e-9 of the largest term, body by body
bool recover(const Scratch& s, const Vector& r, const Vector& z, Vector& v) {
  constexpr double kTolerance = 1e-9;
  const auto nb = static_cast<int>(s.A.size());
  v.resize(6 * nb);
  double worst = 0.0, scale = 1e-300;
  for (int b = 0; b < nb; ++b) {
    const int k = s.count[b];
    const std::vector<int>& R = s.rows[b];
    Vec6 Gz = Vec6::Zero();
    for (int i = 0; i < k; ++i) Gz += z(R[i]) * s.G[b].row(i).transpose();
    v.segment<6>(6 * b) = s.y.segment<6>(6 * b) + s.A_inv[b] * Gz;
    const Vec6 Av = s.A[b] * v.segment<6>(6 * b);
    worst = std::max(worst, (Av - Gz - r.segment<6>(6 * b)).lpNorm<Eigen::Infinity>());
    scale = std::max({scale, Av.lpNorm<Eigen::Infinity>(), Gz.lpNorm<Eigen::Infinity>(),
                      r.segment<6>(6 * b).lpNorm<Eigen::Infinity>()});
  }
  return v.allFinite() && worst <= kTolerance * scale;
}

}  // namespace

bool fits_contact_island(const ConstraintSet& rows, const IslandInput& in) {
  if (!in.equalities.empty() || island_lcp_size(rows, in) > kContactIslandRows) return false;
  return is_block_diagonal(in.M_tilde);
}

std::optional<IslandOutput> solve_contact_island(const ConstraintSet& rows, const IslandInput& in,
                                                 const lcp::LemkeOptions& lemke) {
  thread_local Scratch s;
  const auto start = std::chrono::steady_clock::now();
  const IslandLcp island(rows, in);
  const int nv = island.nv(), m = island.layout().m;
  const int nb = nv / 6;
  s.rows.resize(nb);
  s.G.resize(nb);
  s.count.assign(nb, 0);
  s.S.clear();
  s.v.setZero(m);
  BodySink sink{s};
  island.emit(sink);
  if (!invert_body_blocks(in.M_tilde, s.A, s.A_inv)) return std::nullopt;  // general path
  IslandTimes times;
  times.assembly = seconds_since(start);
  const auto reduce_start = std::chrono::steady_clock::now();
  lcp::LcpProblem reduced;
  reduce(s, in.momentum, reduced);
  times.reduction = seconds_since(reduce_start);
  const lcp::LcpResult result = lcp::solve_lemke(reduced, lemke);
  times.add_lcp(result);
  if (!result.ok()) return std::nullopt;  // the general path's layers take over
  const auto recover_start = std::chrono::steady_clock::now();
  Vector v;
  if (!recover(s, in.momentum, result.z, v)) return std::nullopt;
  IslandOutput out = island.output(v, result);
  times.reduction += seconds_since(recover_start);
  out.times = times;
  return out;
}

}  // namespace pivot::detail
