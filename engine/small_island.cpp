// The small-island path: see small_island.hpp for the equations.
#include "pivot/engine/small_island.hpp"

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

// the island's blocks in dense storage, kept by each thread from step to step so that a resting
// island reuses its memory (Eigen reallocates only when a size changes)
struct Scratch {
  Matrix G, S, Je, Y, Z, C, Lambda, V;
  Vector v, be, r, y, lambda0, v0;
  std::vector<Mat6> A, A_inv;
};

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
bool free_rows_hold(const Scratch& s, const Vector& v, const Vector& lambda, const Vector& z) {
  constexpr double kTolerance = 1e-9;
  const auto nb = static_cast<int>(s.A.size());
  Vector Av(v.size());
  for (int b = 0; b < nb; ++b) Av.segment<6>(6 * b) = s.A[b] * v.segment<6>(6 * b);
  const Vector Jl = s.Je.transpose() * lambda, Gz = s.G.transpose() * z;
  const double scale =
      std::max({Av.lpNorm<Eigen::Infinity>(), Jl.lpNorm<Eigen::Infinity>(),
                Gz.lpNorm<Eigen::Infinity>(), s.r.lpNorm<Eigen::Infinity>(), 1e-300});
  if (!((Av - Jl - Gz - s.r).lpNorm<Eigen::Infinity>() <= kTolerance * scale)) return false;
  if (s.be.size() == 0) return true;
  const Vector Jv = s.Je * v;
  const double eq_scale = std::max({(s.Je.cwiseAbs() * v.cwiseAbs()).lpNorm<Eigen::Infinity>(),
                                    s.be.lpNorm<Eigen::Infinity>(), 1e-300});
  return (Jv + s.be).lpNorm<Eigen::Infinity>() <= kTolerance * eq_scale;
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
  const Eigen::FullPivLU<Matrix> lu(s.C);
  if (!lu.isInvertible()) return false;
  s.lambda0 = -lu.solve(Vector(s.be + s.Je * s.y));
  // an island of joints alone has no complementarity rows: Y has no columns, and Eigen's
  // triangular solve must not see that empty block (its data pointer is null; UBSan)
  if (s.Y.cols() > 0)
    s.Lambda = -lu.solve(Matrix(s.Je * s.Y));
  else
    s.Lambda.resize(s.Je.rows(), 0);
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

// x = (v⁺, λ_e) from z
void recover(const Scratch& s, const Vector& z, Vector& x) {
  const auto nb = static_cast<int>(s.A.size());
  const auto ne = s.Je.rows();
  x.head(6 * nb) = s.v0;
  x.head(6 * nb).noalias() += s.V * z;
  x.tail(ne) = s.lambda0;
  x.tail(ne).noalias() += s.Lambda * z;
}

}  // namespace

bool fits_small_island(const ConstraintSet& rows, const IslandInput& in) {
  const auto nb = static_cast<int>(in.bodies.size());
  if (nb > kSmallIslandBodies) return false;
  if (in.equalities.empty()) return false;  // a contact island (contact_island.hpp)
  if (static_cast<int>(in.equalities.size()) + island_lcp_size(rows, in) > kSmallIslandRows)
    return false;
  return is_block_diagonal(in.M_tilde);
}

std::optional<IslandOutput> solve_small_island(const ConstraintSet& rows, const IslandInput& in,
                                               const lcp::LemkeOptions& lemke) {
  thread_local Scratch s;
  const auto start = std::chrono::steady_clock::now();
  const IslandLcp island(rows, in);
  const int nv = island.nv(), ne = island.ne(), m = island.layout().m;
  s.G.setZero(m, nv);
  s.S.setZero(m, m);
  s.v.setZero(m);
  s.Je.setZero(ne, nv);
  s.be.setZero(ne);
  DenseSink sink{s};
  island.emit(sink);
  s.r = in.momentum;
  if (!invert_body_blocks(in.M_tilde, s.A, s.A_inv)) return std::nullopt;  // general path
  IslandTimes times;
  times.assembly = seconds_since(start);
  const auto reduce_start = std::chrono::steady_clock::now();
  lcp::LcpProblem reduced;
  if (!reduce_with_joints(s, reduced)) return std::nullopt;  // redundant joints: general path
  times.reduction = seconds_since(reduce_start);
  const lcp::LcpResult result = lcp::solve_lemke(reduced, lemke);
  times.add_lcp(result);
  if (!result.ok()) return std::nullopt;  // the general path's layers take over
  const auto recover_start = std::chrono::steady_clock::now();
  const Vector& z = result.z;
  Vector x(nv + ne);
  recover(s, z, x);
  if (!x.allFinite() || !free_rows_hold(s, x.head(nv), x.tail(ne), z)) return std::nullopt;
  IslandOutput out = island.output(x, result);
  times.verification += seconds_since(recover_start);
  out.times = times;
  return out;
}

}  // namespace pivot::detail
