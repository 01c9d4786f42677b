// An island of joints alone, solved in the joints' range space: see joint_island.hpp for the
// equations.
#include "pivot/engine/joint_island.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/stopwatch.hpp"

namespace pivot::detail {
namespace {

constexpr int kRows = kJointIslandRows;
constexpr int kBodies = kJointIslandBodies;
// a Cholesky pivot at most this fraction of its row's diagonal: the rows may be dependent
constexpr double kDependentPivot = 1e-11;
// the free rows' check, as the small path's (small_island.cpp)
constexpr double kTolerance = 1e-9;
// a block whose mirrored entries differ by more than this fraction of its largest entry is not
// symmetric (a gyroscopic gradient in M̃): Cholesky would read only half of it
constexpr double kSymmetry = 1e-12;

// an island's data in fixed-capacity storage, kept by each thread: nothing is allocated
struct Scratch {
  std::array<Mat3, kBodies> I, I_inv;       // the bodies' blocks of M̃, [I 0; 0 m 1],
  std::array<double, kBodies> m, m_inv;     // and of its inverse
  std::array<Vec6, kBodies> v, residual;    // v⁺ = y + Z λ, then A v − J_eᵀλ − r
  std::array<int, kRows> body_a, body_b;    // each row's island-local bodies, −1: none
  std::array<Row6, kRows> J_a, J_b;         // the row on them
  std::array<Vec6, kRows> Z_a, Z_b;         // A⁻¹ Jᵀ on them
  std::array<int, kRows> first;             // C's profile (assemble_joint_block)
  std::array<int, kBodies> incident_count;  // each body's rows: 2 e (on body_a) or
  std::array<std::array<int, 2 * kRows>, kBodies> incident;  // 2 e + 1 (on body_b), in island order
  // the same lists as the rows' indices and their parts on the body (J_a/Z_a or J_b/Z_b)
  std::array<std::array<int, 2 * kRows>, kBodies> incident_row;
  std::array<std::array<const Row6*, 2 * kRows>, kBodies> incident_J;
  std::array<std::array<const Vec6*, 2 * kRows>, kBodies> incident_Z;
  std::array<double, kRows> rhs, diagonal;         // −(b_e + J_e y), C's diagonal
  std::array<double, kRows> pivot_inverse;         // 1 / L_jj
  std::array<std::array<double, kRows>, kRows> L;  // C's lower half, then its factor L
  // what the structure above (body_a, body_b, the incident lists, first) was
  // built for: the island's bodies and each row's global bodies; an island of the same ones (the
  // same joints step after step, and their post-step) keeps it, and only its values are
  // computed again
  int key_nb = -1, key_ne = -1;
  std::array<int, kBodies> key_bodies;
  std::array<int, kRows> key_a, key_b;
};

// this thread's scratch, reached once per solve: through a plain reference the solve's loops
// address it from a register instead of from the thread pointer at each access
[[gnu::noinline]] Scratch& thread_scratch() {
  thread_local Scratch s;
  return s;
}

int local_body(const std::vector<int>& bodies, int body) {
  if (body < 0) return -1;
  const auto it = std::lower_bound(bodies.begin(), bodies.end(), body);
  return it != bodies.end() && *it == body ? static_cast<int>(it - bodies.begin()) : -1;
}

// body b's block of M̃ read from the compressed M̃, which must have a rigid body's form
// [I 0; 0 m 1]: entries of the rotation columns in the block's rotation rows only, m alone on
// the diagonal of each translation column; false for another form (a force's gradient in it)
bool parse_body_block(const Eigen::SparseMatrix<double>& M, int b, Mat3& I, double& m) {
  const int* start = M.outerIndexPtr();
  const int* row = M.innerIndexPtr();
  const double* value = M.valuePtr();
  I.setZero();
  for (int c = 0; c < 3; ++c)
    for (int k = start[6 * b + c]; k < start[6 * b + c + 1]; ++k) {
      const int r = row[k] - 6 * b;
      if (r < 0 || r >= 3) return false;
      I(r, c) = value[k];
    }
  m = 0.0;
  for (int c = 3; c < 6; ++c) {
    const int k = start[6 * b + c];
    if (start[6 * b + c + 1] != k + 1 || row[k] != 6 * b + c) return false;
    if (c > 3 && value[k] != m) return false;
    m = value[k];
  }
  return true;
}

// each body's block of M̃, A = [I 0; 0 m 1] (a rigid body's mass matrix: rotation first),
// from IslandInput::mass_blocks when the island has them, else parsed from M̃; and its inverse
// [I⁻¹ 0; 0 1/m]; false when M̃ has another form or a block is not positive definite (I's
// leading minors, Sylvester's criterion)
bool invert_body_blocks(const IslandInput& in, int nb, Scratch& s) {
  const Eigen::SparseMatrix<double>& M = in.M_tilde;
  const bool given = static_cast<int>(in.mass_blocks.size()) == nb;
  if (!given && (!M.isCompressed() || M.outerSize() != 6 * nb)) return false;
  for (int b = 0; b < nb; ++b) {
    Mat3& I = s.I[b];
    double m = 0.0;
    if (given) {
      I = in.mass_blocks[static_cast<std::size_t>(b)].I_W;
      m = in.mass_blocks[static_cast<std::size_t>(b)].m;
    } else if (!parse_body_block(M, b, I, m)) {
      return false;
    }
    if (!(m > 0.0)) return false;
    const double largest = I.cwiseAbs().maxCoeff();
    if (!((I - I.transpose()).cwiseAbs().maxCoeff() <= kSymmetry * largest)) return false;
    const double minor2 = I(0, 0) * I(1, 1) - I(0, 1) * I(1, 0);
    if (!(I(0, 0) > 0.0 && minor2 > 0.0 && I.determinant() > 0.0)) return false;
    s.I_inv[b] = I.inverse();
    s.m[b] = m;
    s.m_inv[b] = 1.0 / m;
  }
  return true;
}

// x = A⁻¹ f on body b
template <typename F>
void solve_body(const Scratch& s, int b, const F& f, Vec6& x) {
  x.head<3>().noalias() = s.I_inv[b] * f.template head<3>();
  x.tail<3>() = s.m_inv[b] * f.template tail<3>();
}

// the island's structure: each row's island-local bodies, each body's rows in island order,
// and C's profile: first[e], the first row that shares a body with row e. Kept when the
// island's bodies and rows' bodies are the last call's (the key).
void build_structure(Scratch& s, const ConstraintSet& rows, const IslandInput& in, int nb, int ne) {
  bool same = s.key_nb == nb && s.key_ne == ne &&
              std::equal(in.bodies.begin(), in.bodies.end(), s.key_bodies.begin());
  for (int e = 0; same && e < ne; ++e) {
    const EqualityRow& row = rows.equalities[in.equalities[e]];
    same = row.body_a == s.key_a[e] && row.body_b == s.key_b[e];
  }
  if (same) return;
  s.key_nb = -1;  // no key while it is built
  for (int e = 0; e < ne; ++e) {
    const EqualityRow& row = rows.equalities[in.equalities[e]];
    s.body_a[e] = local_body(in.bodies, row.body_a);
    s.body_b[e] = local_body(in.bodies, row.body_b);
    s.key_a[e] = row.body_a;
    s.key_b[e] = row.body_b;
  }
  for (int b = 0; b < nb; ++b) s.incident_count[b] = 0;
  for (int e = 0; e < ne; ++e) {
    if (s.body_a[e] >= 0) s.incident[s.body_a[e]][s.incident_count[s.body_a[e]]++] = 2 * e;
    if (s.body_b[e] >= 0) s.incident[s.body_b[e]][s.incident_count[s.body_b[e]]++] = 2 * e + 1;
    s.first[e] = e;
  }
  for (int b = 0; b < nb; ++b) {
    const auto& list = s.incident[b];
    for (int p = 0; p < s.incident_count[b]; ++p)
      for (int q = 0; q <= p; ++q)
        s.first[list[p] / 2] = std::min(s.first[list[p] / 2], list[q] / 2);
  }
  for (int b = 0; b < nb; ++b)
    for (int p = 0; p < s.incident_count[b]; ++p) {
      const int e = s.incident[b][p] / 2;
      const bool on_a = s.incident[b][p] % 2 == 0;
      s.incident_row[b][p] = e;
      s.incident_J[b][p] = on_a ? &s.J_a[e] : &s.J_b[e];
      s.incident_Z[b][p] = on_a ? &s.Z_a[e] : &s.Z_b[e];
    }
  std::copy(in.bodies.begin(), in.bodies.end(), s.key_bodies.begin());
  s.key_ne = ne;
  s.key_nb = nb;
}

// C's lower half inside its profile, C_ef = J_e A⁻¹ J_fᵀ for rows e ≥ f, summed over the
// bodies the rows share (each body's rows in island order)
void assemble_joint_block(Scratch& s, int nb, int ne) {
  for (int e = 0; e < ne; ++e) std::fill(s.L[e].begin() + s.first[e], s.L[e].begin() + e + 1, 0.0);
  for (int b = 0; b < nb; ++b) {
    const auto& row = s.incident_row[b];
    const auto& Z = s.incident_Z[b];
    for (int p = 0; p < s.incident_count[b]; ++p) {
      const Row6& J_e = *s.incident_J[b][p];
      double* L_e = s.L[row[p]].data();
      for (int q = 0; q <= p; ++q) L_e[row[q]] += J_e.dot(*Z[q]);
    }
  }
  for (int e = 0; e < ne; ++e) s.diagonal[e] = s.L[e][e];
}

// C = L Lᵀ inside C's envelope, row by row (the envelope method, George & Liu 1981 §4.2: row i
// of L is zero left of first[i], as C's row is). Each entry is C's minus a dot product of two
// rows of L over their common envelope, both contiguous:
//   L_ij = (C_ij − Σ_{k = max(first_i, first_j)}^{j−1} L_ik L_jk) / L_jj,
//   L_ii = √(C_ii − Σ_{k = first_i}^{i−1} L_ik²);
// false on a pivot that says the rows may be dependent
bool factor_profile(Scratch& s, int ne) {
  auto& L = s.L;
  for (int i = 0; i < ne; ++i) {
    double* L_i = L[i].data();
    const int f_i = s.first[i];
    for (int j = f_i; j < i; ++j) {
      const double* L_j = L[j].data();
      double sum = L_i[j];
      for (int k = std::max(f_i, s.first[j]); k < j; ++k) sum -= L_i[k] * L_j[k];
      L_i[j] = sum * s.pivot_inverse[j];
    }
    double d = L_i[i];
    for (int k = f_i; k < i; ++k) d -= L_i[k] * L_i[k];
    if (!(d > kDependentPivot * s.diagonal[i])) return false;
    const double l = std::sqrt(d);
    L_i[i] = l;
    s.pivot_inverse[i] = 1.0 / l;
  }
  return true;
}

// rhs ← C⁻¹ rhs = L⁻ᵀ L⁻¹ rhs: the forward solve by rows of L, the backward one by its columns
// (both contiguous in row i of L)
void solve_profile(Scratch& s, int ne) {
  auto& x = s.rhs;
  for (int i = 0; i < ne; ++i) {
    const double* L_i = s.L[i].data();
    double sum = x[i];
    for (int k = s.first[i]; k < i; ++k) sum -= L_i[k] * x[k];
    x[i] = sum * s.pivot_inverse[i];
  }
  for (int i = ne - 1; i >= 0; --i) {
    x[i] *= s.pivot_inverse[i];
    for (int k = s.first[i]; k < i; ++k) x[k] -= s.L[i][k] * x[i];
  }
}

// the free rows: A v − J_eᵀλ − r = 0 and J_e v + b_e = 0, each within kTolerance of the scale
// of its terms (small_island.cpp's free_rows_hold, on the rows' own Jacobians)
bool free_rows_hold(Scratch& s, const ConstraintSet& rows, const IslandInput& in, int nb, int ne) {
  double Av_scale = 0.0, Jl_scale = 0.0;
  for (int b = 0; b < nb; ++b) {
    Vec6 Av;
    Av.head<3>().noalias() = s.I[b] * s.v[b].head<3>();
    Av.tail<3>() = s.m[b] * s.v[b].tail<3>();
    Av_scale = std::max(Av_scale, Av.lpNorm<Eigen::Infinity>());
    s.residual[b] = Av - in.momentum.segment<6>(6 * b);
  }
  // J_eᵀλ by bodies; its scale is that of the sum on each body
  std::array<Vec6, kBodies> Jl;
  for (int b = 0; b < nb; ++b) Jl[b].setZero();
  for (int e = 0; e < ne; ++e) {
    if (s.body_a[e] >= 0) Jl[s.body_a[e]] += s.J_a[e].transpose() * s.rhs[e];
    if (s.body_b[e] >= 0) Jl[s.body_b[e]] += s.J_b[e].transpose() * s.rhs[e];
  }
  double worst = 0.0;
  for (int b = 0; b < nb; ++b) {
    Jl_scale = std::max(Jl_scale, Jl[b].lpNorm<Eigen::Infinity>());
    worst = std::max(worst, (s.residual[b] - Jl[b]).lpNorm<Eigen::Infinity>());
  }
  const double scale =
      std::max({Av_scale, Jl_scale, in.momentum.lpNorm<Eigen::Infinity>(), 1e-300});
  if (!(worst <= kTolerance * scale)) return false;
  double eq_worst = 0.0, eq_scale = 1e-300;
  for (int e = 0; e < ne; ++e) {
    const double b_e = rows.equalities[in.equalities[e]].bias;
    double Jv = b_e, Jv_abs = 0.0;
    if (s.body_a[e] >= 0) {
      Jv += s.J_a[e].dot(s.v[s.body_a[e]]);
      Jv_abs += s.J_a[e].cwiseAbs().dot(s.v[s.body_a[e]].cwiseAbs());
    }
    if (s.body_b[e] >= 0) {
      Jv += s.J_b[e].dot(s.v[s.body_b[e]]);
      Jv_abs += s.J_b[e].cwiseAbs().dot(s.v[s.body_b[e]].cwiseAbs());
    }
    eq_worst = std::max(eq_worst, std::abs(Jv));
    eq_scale = std::max({eq_scale, Jv_abs, std::abs(b_e)});
  }
  return eq_worst <= kTolerance * eq_scale;
}

}  // namespace

bool solve_joint_island(const ConstraintSet& rows, const IslandInput& in, IslandOutput& out,
                        bool timed) {
  const auto nb = static_cast<int>(in.bodies.size());
  const auto ne = static_cast<int>(in.equalities.size());
  if (ne == 0 || ne > kRows || nb > kBodies) return false;
  if (island_lcp_size(rows, in) != 0) return false;
  Scratch& s = thread_scratch();
  const auto start = now_if(timed);
  if (!invert_body_blocks(in, nb, s)) return false;
  // y = A⁻¹ r, then v ← y + Z λ
  for (int b = 0; b < nb; ++b) solve_body(s, b, in.momentum.segment<6>(6 * b), s.v[b]);
  // each row on its bodies, Z = A⁻¹ J_eᵀ, and the right-hand side −(b_e + J_e y)
  build_structure(s, rows, in, nb, ne);
  for (int e = 0; e < ne; ++e) {
    const EqualityRow& row = rows.equalities[in.equalities[e]];
    double Jy = row.bias;
    if (s.body_a[e] >= 0) {
      s.J_a[e] = row.J_A;
      solve_body(s, s.body_a[e], row.J_A.transpose(), s.Z_a[e]);
      Jy += row.J_A.dot(s.v[s.body_a[e]]);
    }
    if (s.body_b[e] >= 0) {
      s.J_b[e] = row.J_B;
      solve_body(s, s.body_b[e], row.J_B.transpose(), s.Z_b[e]);
      Jy += row.J_B.dot(s.v[s.body_b[e]]);
    }
    s.rhs[e] = -Jy;
  }
  assemble_joint_block(s, nb, ne);
  if (!factor_profile(s, ne)) return false;  // the rank-revealing paths decide
  solve_profile(s, ne);                      // s.rhs = λ
  for (int e = 0; e < ne; ++e) {
    if (s.body_a[e] >= 0) s.v[s.body_a[e]] += s.Z_a[e] * s.rhs[e];
    if (s.body_b[e] >= 0) s.v[s.body_b[e]] += s.Z_b[e] * s.rhs[e];
  }
  IslandTimes times;
  times.reduction = seconds_since(start, timed);
  const auto check_start = now_if(timed);
  bool finite = true;
  for (int b = 0; b < nb; ++b) finite = finite && s.v[b].allFinite();
  for (int e = 0; e < ne; ++e) finite = finite && std::isfinite(s.rhs[e]);
  if (!finite || !free_rows_hold(s, rows, in, nb, ne)) return false;
  out.status = lcp::LcpStatus::solved;
  out.pivots = 0;
  out.warm_started = false;
  out.active_set.clear();
  out.lcp_size = 0;
  out.velocity.resize(6 * nb);
  for (int b = 0; b < nb; ++b) out.velocity.segment<6>(6 * b) = s.v[b];
  out.lambda_eq.resize(ne);
  for (int e = 0; e < ne; ++e) out.lambda_eq(e) = s.rhs[e];
  out.lambda_uni.resize(0);
  out.lambda_cone.clear();
  out.lambda_motor.resize(0);
  out.set_direct_answer();
  times.verification = seconds_since(check_start, timed);
  out.times = times;
  return true;
}

}  // namespace pivot::detail
