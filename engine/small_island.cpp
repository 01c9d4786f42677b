// The small-island path: see small_island.hpp for the equations.
#include "pivot/engine/small_island.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <vector>

#include "pivot/engine/equality_solve.hpp"
#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/island_lcp.hpp"
#include "pivot/engine/joint_island.hpp"
#include "pivot/engine/stopwatch.hpp"

namespace pivot::detail {
namespace {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

// the island's blocks in dense storage, kept by each thread from step to step so that a resting
// island reuses its memory (Eigen reallocates only when a size changes)
struct Scratch {
  Matrix G, S, Je, Y, Z, C, Lambda, V, JeY, c;
  Vector v, be, r, y, lambda0, v0, Jey, rhs, x, c_vector;
  Vector x_v, x_lambda, Av, Jl, Gz, Jv, Jv_abs;  // the free rows' check
  Vector minus_be, zero_e;                       // the tree path's right-hand sides
  std::vector<Mat6> A, A_inv;
  EqualityTree tree;
  Eigen::FullPivLU<Matrix> lu;
  lcp::LcpProblem reduced;
  lcp::LcpResult result;  // the reduced LCP's answer, its storage reused
};

// A thread's Scratch per island shape (bodies, equality rows, complementarity rows): an Eigen
// matrix reallocates whenever its size changes, and one thread solves islands of different shapes
// in a step (an island's velocities and then its post-step, which has other rows), so each shape
// keeps its own. A few shapes are kept; a new one beyond them takes the oldest one's place.
class ScratchByShape {
 public:
  Scratch& of_shape(int nv, int ne, int m) {
    const std::array<int, 3> shape{nv, ne, m};
    for (Slot& slot : slots_)
      if (slot.scratch && slot.shape == shape) return *slot.scratch;
    Slot& slot = slots_[next_];
    next_ = (next_ + 1) % slots_.size();
    if (!slot.scratch) slot.scratch = std::make_unique<Scratch>();
    slot.shape = shape;
    return *slot.scratch;
  }

 private:
  struct Slot {
    std::array<int, 3> shape{};
    std::unique_ptr<Scratch> scratch;
  };
  std::array<Slot, 4> slots_;
  std::size_t next_ = 0;
};

// dst = C⁻¹ rhs by the full-pivot LU of C, the steps of Eigen's FullPivLU::solve (P C Q = L U:
// c = P rhs, c ← L⁻¹ c, c ← U⁻¹ c on the rank's rows, dst = Q c with zeros past the rank), in
// the caller's buffer c (of rhs's own type, as Eigen's: a vector takes the triangular solves for
// vectors) instead of a new one
template <typename Rhs, typename Dst>
void lu_solve(const Eigen::FullPivLU<Matrix>& lu, const Rhs& rhs, Rhs& c, Dst& dst) {
  const Eigen::Index n = lu.rows(), rank = lu.rank();
  dst.resize(n, rhs.cols());
  if (rank == 0) {
    dst.setZero();
    return;
  }
  c.resize(n, rhs.cols());
  c = lu.permutationP() * rhs;
  lu.matrixLU().topLeftCorner(n, n).template triangularView<Eigen::UnitLower>().solveInPlace(
      c.topRows(n));
  lu.matrixLU()
      .topLeftCorner(rank, rank)
      .template triangularView<Eigen::Upper>()
      .solveInPlace(c.topRows(rank));
  for (Eigen::Index i = 0; i < rank; ++i) dst.row(lu.permutationQ().indices().coeff(i)) = c.row(i);
  for (Eigen::Index i = rank; i < n; ++i) dst.row(lu.permutationQ().indices().coeff(i)).setZero();
}

struct DenseSink {
  Scratch& s;
  void J(int e, int col, double value) { s.Je(e, col) += value; }
  void G(int row, int col, double value) { s.G(row, col) += value; }
  void S(int row, int col, double value) { s.S(row, col) += value; }
  void b(int e, double value) { s.be(e) = value; }
  void v(int row, double value) { s.v(row) = value; }
};

// the free rows of the answer: A v − J_eᵀλ − Gᵀz − r = 0 and J_e v + b_e = 0, each within
// 1e-9 of the scale of its terms
// (in the scratch's buffers: v = x_v, λ = x_lambda)
bool free_rows_hold(Scratch& s, const Eigen::SparseMatrix<double>& A, const Vector& z) {
  constexpr double kTolerance = 1e-9;
  const Vector& v = s.x_v;
  const Vector& lambda = s.x_lambda;
  Vector& Av = s.Av;
  Av.resize(v.size());
  Av.noalias() = A * v;
  s.Jl.noalias() = s.Je.transpose() * lambda;
  s.Gz.noalias() = s.G.transpose() * z;
  const double scale =
      std::max({Av.lpNorm<Eigen::Infinity>(), s.Jl.lpNorm<Eigen::Infinity>(),
                s.Gz.lpNorm<Eigen::Infinity>(), s.r.lpNorm<Eigen::Infinity>(), 1e-300});
  if (!((Av - s.Jl - s.Gz - s.r).lpNorm<Eigen::Infinity>() <= kTolerance * scale)) return false;
  if (s.be.size() == 0) return true;
  s.Jv.noalias() = s.Je * v;
  s.Jv_abs.noalias() = s.Je.cwiseAbs() * v.cwiseAbs();
  const double eq_scale =
      std::max({s.Jv_abs.lpNorm<Eigen::Infinity>(), s.be.lpNorm<Eigen::Infinity>(), 1e-300});
  return (s.Jv + s.be).lpNorm<Eigen::Infinity>() <= kTolerance * eq_scale;
}

// Y = A⁻¹ Gᵀ, Z = A⁻¹ J_eᵀ, y = A⁻¹ r by blocks
void solve_blocks(Scratch& s) {
  const auto nb = static_cast<int>(s.A.size());
  s.Y.resize(6 * nb, s.G.rows());
  s.Z.resize(6 * nb, s.Je.rows());
  s.y.resize(6 * nb);
  // a block of a matrix without columns (an island of joints alone has no complementarity
  // rows, one without joints no equality rows) has no storage: Eigen would offset a null
  // pointer (UBSan; found by the step fuzz target), so empty products are skipped
  const bool has_g = s.G.rows() > 0, has_je = s.Je.rows() > 0;
  for (int b = 0; b < nb; ++b) {
    if (has_g)
      s.Y.middleRows<6>(6 * b).noalias() = s.A_inv[b] * s.G.middleCols<6>(6 * b).transpose();
    if (has_je)
      s.Z.middleRows<6>(6 * b).noalias() = s.A_inv[b] * s.Je.middleCols<6>(6 * b).transpose();
    s.y.segment<6>(6 * b).noalias() = s.A_inv[b] * s.r.segment<6>(6 * b);
  }
}

// with joints: 𝓜 = S + G V and q = b + G v₀ through the joint block C = J_e A⁻¹ J_eᵀ (see the
// header); false when C is singular
bool reduce_with_joints(Scratch& s, lcp::LcpProblem& reduced) {
  solve_blocks(s);
  s.C.noalias() = s.Je * s.Z;
  s.lu.compute(s.C);
  if (!s.lu.isInvertible()) return false;
  s.Jey.noalias() = s.Je * s.y;
  s.rhs = s.be + s.Jey;
  lu_solve(s.lu, s.rhs, s.c_vector, s.lambda0);
  s.lambda0 = -s.lambda0;
  // an island of joints alone has no complementarity rows: Y has no columns, and Eigen's
  // triangular solve must not see that empty block (its data pointer is null; UBSan)
  if (s.Y.cols() > 0) {
    s.JeY.noalias() = s.Je * s.Y;
    lu_solve(s.lu, s.JeY, s.c, s.Lambda);
    s.Lambda = -s.Lambda;
  } else {
    s.Lambda.resize(s.Je.rows(), 0);
  }
  s.v0 = s.y;
  s.v0.noalias() += s.Z * s.lambda0;
  s.V = s.Y;
  s.V.noalias() += s.Z * s.Lambda;
  reduced.M = s.S;
  reduced.M.noalias() += s.G * s.V;
  reduced.q = s.v;
  reduced.q.noalias() += s.G * s.v0;
  return true;
}

// the same reduction with (v₀, λ₀) and the columns of (V, Λ) solved along the body tree
// (equality_solve.hpp): H [v₀; λ₀] = [r; −b_e] and H [V_k; Λ_k] = [G_kᵀ; 0], the k-th row of G
void reduce_by_tree(Scratch& s, lcp::LcpProblem& reduced) {
  const auto nv = s.Je.cols(), ne = s.Je.rows(), m = s.G.rows();
  s.v0.resize(nv);
  s.lambda0.resize(ne);
  s.minus_be = -s.be;
  s.tree.solve(s.r, s.minus_be, s.v0, s.lambda0);
  s.V.resize(nv, m);
  s.Lambda.resize(ne, m);
  s.zero_e.setZero(ne);
  for (Eigen::Index k = 0; k < m; ++k) {
    auto V_k = s.V.col(k);
    auto Lambda_k = s.Lambda.col(k);
    s.tree.solve(s.G.row(k).transpose(), s.zero_e, V_k, Lambda_k);
  }
  reduced.M = s.S;
  reduced.q = s.v;
  if (m == 0) return;  // (Eigen's products must not see the empty blocks: see solve_blocks)
  reduced.M.noalias() += s.G * s.V;
  reduced.q.noalias() += s.G * s.v0;
}

// x = (v⁺, λ_e) from z
void recover(const Scratch& s, const Vector& z, Vector& x) {
  const auto nv = s.v0.size(), ne = s.Je.rows();
  x.head(nv) = s.v0;
  x.head(nv).noalias() += s.V * z;
  x.tail(ne) = s.lambda0;
  x.tail(ne).noalias() += s.Lambda * z;
}

}  // namespace

namespace {

// the dense reduction's limits (the tree's: fits_small_island)
bool fits_dense(const ConstraintSet& rows, const IslandInput& in) {
  const auto nb = static_cast<int>(in.bodies.size());
  if (nb > kSmallIslandBodies) return false;
  if (static_cast<int>(in.equalities.size()) + island_lcp_size(rows, in) > kSmallIslandRows)
    return false;
  return is_block_diagonal(in.M_tilde);
}

}  // namespace

bool fits_small_island(const ConstraintSet& rows, const IslandInput& in) {
  if (in.equalities.empty()) return false;  // a contact island (contact_island.hpp)
  if (static_cast<int>(in.bodies.size()) <= kTreeIslandBodies &&
      island_lcp_size(rows, in) <= kSmallIslandRows)
    return true;  // the tree's, if its body graph is a forest; else the dense reduction's
  return fits_dense(rows, in);
}

std::optional<IslandOutput> solve_small_island(const ConstraintSet& rows, const IslandInput& in,
                                               const lcp::LemkeOptions& lemke) {
  IslandOutput out;
  if (!solve_small_island(rows, in, lemke, out)) return std::nullopt;
  return out;
}

bool solve_small_island(const ConstraintSet& rows, const IslandInput& in,
                        const lcp::LemkeOptions& lemke, IslandOutput& out) {
  // joints alone: a linear system, by the range-space Cholesky (joint_island.hpp)
  const bool timed = lemke.timed;
  if (solve_joint_island(rows, in, out, timed)) return true;
  thread_local ScratchByShape scratch;
  const auto start = now_if(timed);
  const IslandLcp island(rows, in);
  const int nv = island.nv(), ne = island.ne(), m = island.layout().m;
  Scratch& s = scratch.of_shape(nv, ne, m);
  s.G.setZero(m, nv);
  s.S.setZero(m, m);
  s.v.setZero(m);
  s.Je.setZero(ne, nv);
  s.be.setZero(ne);
  DenseSink sink{s};
  island.emit(sink);
  s.r = in.momentum;
  IslandTimes times;
  times.assembly = seconds_since(start, timed);
  const auto reduce_start = now_if(timed);
  lcp::LcpProblem& reduced = s.reduced;
  if (s.tree.factor(rows, in.bodies, in.equalities, in.M_tilde) == EqualityTree::Status::factored) {
    reduce_by_tree(s, reduced);
  } else {
    // a closed loop or dependent rows: the dense reduction's full-pivot LU of C, which hands
    // dependent rows to the general path (its regularization layer)
    if (!fits_dense(rows, in)) return false;
    if (!invert_body_blocks(in.M_tilde, s.A, s.A_inv)) return false;  // general path
    if (!reduce_with_joints(s, reduced)) return false;  // redundant joints: general path
  }
  times.reduction = seconds_since(reduce_start, timed);
  // an island of equalities alone (m = 0) is a linear system: its reduced LCP is empty and
  // solved by z = 0, with no call into Lemke's method
  lcp::LcpResult& result = s.result;
  if (m == 0) {
    result = lcp::LcpResult{};
    result.status = lcp::LcpStatus::solved;
    result.path = lcp::StartPath::trivial;
  } else {
    lcp::solve_lemke(reduced, lemke, result);
  }
  times.add_lcp(result);
  if (!result.ok()) return false;  // the general path's layers take over
  const auto recover_start = now_if(timed);
  const Vector& z = result.z;
  Vector& x = s.x;
  x.resize(nv + ne);
  recover(s, z, x);
  if (!x.allFinite()) return false;
  s.x_v = x.head(nv);
  s.x_lambda = x.tail(ne);
  if (!free_rows_hold(s, in.M_tilde, z)) return false;
  island.output(x, result, out);
  times.verification += seconds_since(recover_start, timed);
  out.times = times;
  return true;
}

}  // namespace pivot::detail
