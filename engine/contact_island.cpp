// Contact islands, reduced body by body: see contact_island.hpp for the equations.
#include "pivot/engine/contact_island.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
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
  std::vector<Eigen::Triplet<double>> S, S_sorted;
  std::vector<Matrix> blocks;  // G_b A_b⁻¹ G_bᵀ
  // per body, G_b A_b⁻¹ and G_b y_b: a body's row count stays from step to step on a resting
  // island, and an Eigen matrix reallocates whenever its size changes (one for all bodies did)
  std::vector<RowMatrix6> T;
  std::vector<Vector> qb;
  std::vector<std::array<int, 4>> owners;  // per row: (body, position in R_b) twice, −1: none
  Vector v, y, velocity;
  lcp::LcpProblem dense;
  lcp::SparseLcpProblem sparse;
  LcpResultsBySize results;  // the dense reduced LCP's answers, their storage reused
  lcp::LcpResult sparse_result;
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

// each body's term of 𝓜 = S + Σ_b G_b A_b⁻¹ G_bᵀ (the |R_b| × |R_b| block on rows R_b) and
// q = b + Σ_b G_b y_b
void body_terms(Scratch& s, const Vector& r, Vector& q) {
  const auto nb = static_cast<int>(s.A.size());
  q = s.v;
  s.y.resize(6 * nb);
  s.blocks.resize(nb);
  s.T.resize(nb);
  s.qb.resize(nb);
  for (int b = 0; b < nb; ++b) {
    const int k = s.count[b];
    const auto Gb = s.G[b].topRows(k);
    const std::vector<int>& R = s.rows[b];
    s.y.segment<6>(6 * b).noalias() = s.A_inv[b] * r.segment<6>(6 * b);
    s.T[b].noalias() = Gb * s.A_inv[b];
    s.blocks[b].noalias() = s.T[b] * Gb.transpose();
    s.qb[b].noalias() = Gb * s.y.segment<6>(6 * b);
    for (int j = 0; j < k; ++j) q(R[j]) += s.qb[b](j);
  }
}

// 𝓜 in dense storage (m ≤ kDenseContactRows): S, then each body's block
void reduce_dense(Scratch& s, const Vector& r, lcp::LcpProblem& reduced) {
  const auto m = s.v.size();
  const auto nb = static_cast<int>(s.A.size());
  body_terms(s, r, reduced.q);
  reduced.M.setZero(m, m);
  for (const auto& t : s.S) reduced.M(t.row(), t.col()) += t.value();
  for (int b = 0; b < nb; ++b) {
    const std::vector<int>& R = s.rows[b];
    for (int j = 0; j < s.count[b]; ++j)
      for (int i = 0; i < s.count[b]; ++i) reduced.M(R[i], R[j]) += s.blocks[b](i, j);
  }
}

// 𝓜 in sparse storage, written column by column in compressed form: its entries are the
// R_b × R_b blocks of the bodies and S's, a small fraction of m² on a large island (a 20-cube
// stack, m = 480: about a fifth), and the LCP's column operations and residual check then cost
// O(nnz). Column c is the merge of S's column c and of the blocks of the (at most two) bodies
// whose rows R_b hold c, all sorted by row (the island emits G row by row, so each R_b is
// ascending); an entry present in several is summed in the dense order (S, then the bodies in
// ascending order), so both storages hold the same bits.
void reduce_sparse(Scratch& s, const Vector& r, lcp::SparseLcpProblem& reduced) {
  const auto m = static_cast<int>(s.v.size());
  const auto nb = static_cast<int>(s.A.size());
  body_terms(s, r, reduced.q);
  // the (body, position in R_b) of each row: at most two, bodies ascending
  s.owners.assign(m, {-1, -1, -1, -1});
  for (int b = 0; b < nb; ++b)
    for (int j = 0; j < s.count[b]; ++j) {
      auto& o = s.owners[s.rows[b][j]];
      const int slot = o[0] < 0 ? 0 : 2;
      o[slot] = b;
      o[slot + 1] = j;
    }
  // S's entries by column, rows ascending (emission order among equal positions)
  s.S_sorted.assign(s.S.begin(), s.S.end());
  std::stable_sort(s.S_sorted.begin(), s.S_sorted.end(), [](const auto& a, const auto& b) {
    return a.col() != b.col() ? a.col() < b.col() : a.row() < b.row();
  });
  // written through raw pointers into storage sized for the most entries there can be (S's
  // and every block's), then trimmed: a push_back per entry into the thread's vectors was most
  // of the reduction
  std::size_t bound = s.S_sorted.size();
  for (int b = 0; b < nb; ++b) bound += static_cast<std::size_t>(s.count[b]) * s.count[b];
  reduced.M.resize(m, m);
  reduced.M.resizeNonZeros(static_cast<Eigen::Index>(bound));
  int* const outer = reduced.M.outerIndexPtr();
  int* const inner = reduced.M.innerIndexPtr();
  double* const values = reduced.M.valuePtr();
  const auto* const S = s.S_sorted.data();
  const std::size_t s_count = s.S_sorted.size();
  int nnz = 0;
  std::size_t next_s = 0;
  outer[0] = 0;
  for (int c = 0; c < m; ++c) {
    const auto& o = s.owners[c];
    // the three sorted sources of column c: S's entries, and the blocks of its two bodies
    std::size_t s_end = next_s;
    while (s_end < s_count && S[s_end].col() == c) ++s_end;
    const int* rows[2] = {nullptr, nullptr};
    const double* block[2] = {nullptr, nullptr};
    int pos[2] = {0, 0}, len[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      const int b = o[2 * k];
      if (b < 0) continue;
      rows[k] = s.rows[b].data();
      len[k] = s.count[b];
      block[k] = s.blocks[b].col(o[2 * k + 1]).data();  // its entries on the rows R_b
    }
    for (;;) {
      int row = m;
      if (next_s < s_end) row = S[next_s].row();
      for (int k = 0; k < 2; ++k)
        if (pos[k] < len[k]) row = std::min(row, rows[k][pos[k]]);
      if (row == m) break;
      double value = 0.0;
      while (next_s < s_end && S[next_s].row() == row) value += S[next_s++].value();
      for (int k = 0; k < 2; ++k)
        if (pos[k] < len[k] && rows[k][pos[k]] == row) value += block[k][pos[k]++];
      inner[nnz] = row;
      values[nnz] = value;
      ++nnz;
    }
    next_s = s_end;
    outer[c + 1] = nnz;
  }
  reduced.M.resizeNonZeros(nnz);
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
  IslandOutput out;
  if (!solve_contact_island(rows, in, lemke, out)) return std::nullopt;
  return out;
}

bool solve_contact_island(const ConstraintSet& rows, const IslandInput& in,
                          const lcp::LemkeOptions& lemke, IslandOutput& out) {
  thread_local Scratch s;
  const bool timed = lemke.timed;
  const auto start = now_if(timed);
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
  if (!invert_body_blocks(in.M_tilde, s.A, s.A_inv)) return false;  // general path
  IslandTimes times;
  times.assembly = seconds_since(start, timed);
  const auto reduce_start = now_if(timed);
  lcp::LcpResult* answer = &s.sparse_result;
  if (m <= kDenseContactRows) {
    lcp::LcpProblem& reduced = s.dense;
    reduce_dense(s, in.momentum, reduced);
    times.reduction = seconds_since(reduce_start, timed);
    answer = &s.results.of_size(m);
    lcp::solve_lemke(reduced, lemke, *answer);
  } else {
    lcp::SparseLcpProblem& reduced = s.sparse;
    reduce_sparse(s, in.momentum, reduced);
    times.reduction = seconds_since(reduce_start, timed);
    s.sparse_result = lcp::solve_lemke(reduced, lemke);
  }
  const lcp::LcpResult& result = *answer;
  times.add_lcp(result);
  if (!result.ok()) return false;  // the general path's layers take over
  const auto recover_start = now_if(timed);
  if (!recover(s, in.momentum, result.z, s.velocity)) return false;
  island.output(s.velocity, result, out);
  times.reduction += seconds_since(recover_start, timed);
  out.times = times;
  return true;
}

}  // namespace pivot::detail
