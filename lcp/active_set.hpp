#pragma once
// Active sets (internal): the residual judgement of a candidate answer, the solve of a
// complementary active set, the warm start that tries the previous step's set, and the polish
// that corrects a set from the signs of z and w. Lemke's path (lemke_path.hpp) calls the
// completion on the sets next to its basis; lemke.cpp calls the rest.

#include <Eigen/QR>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "pivot/lcp/block_solve.hpp"
#include "pivot/lcp/lcp_result.hpp"
#include "pivot/lcp/matrix_access.hpp"
#include "pivot/lcp/residual.hpp"
#include "pivot/lcp/small_lemke.hpp"

namespace pivot::lcp::detail {

// The residuals of z, or of max(z, 0) when z fails and its projection passes. A degenerate basis
// has basic z_i whose exact value is 0; the solve returns them as ±rounding (−4e-18 next to
// ‖z‖∞ = 0.13 on a 5-level box pyramid). A negative one makes w_j = μ z_i − … of a friction-cone
// row negative relative to its own scale, which is that same rounding, and the componentwise
// check rejects an exact basis; the projection removes that. The other way round, the
// minimum-norm answer on the singular block of redundant contacts may have z_i slightly below
// 0 (within the check) whose projection would unbalance other rows: z itself is tried first.
// Nothing is hidden: what is returned is exactly what was judged. The wall time of the check is
// added to `check_seconds` (LcpResult::check_seconds).
// A dense z of n ≤ kSmallLemkeMax is first offered to the certificate (small_lemke.hpp), which
// implies the full check's verdict when it accepts (then `residuals` are its own measures); in
// builds without NDEBUG every answer goes through the full check.
template <typename Matrix>
bool judge(const Matrix& M, const Vector& q, Vector& z, double tolerance, Vector& w,
           LcpResiduals& residuals, double& check_seconds) {
  const auto start = std::chrono::steady_clock::now();
  struct AddTime {
    std::chrono::steady_clock::time_point start;
    double& seconds;
    ~AddTime() {
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  } add_time{start, check_seconds};
#ifdef NDEBUG
  if constexpr (std::is_same_v<Matrix, DenseMatrix>) {
    if (q.size() <= kSmallLemkeMax && z.size() == q.size()) {
      // measure_residuals' M * z + q without its temporary: the product into w, then q added,
      // the same operations in the same order (Eigen evaluates the product alone first either way)
      w.resize(q.size());
      w.noalias() = M * z;
      w += q;
      if (certify_answer(M, q, z, w, tolerance, residuals)) return true;
    }
  }
#endif
  residuals = measure_residuals(M, q, z, &w);
  if (residuals.worst() <= tolerance || !(z.minCoeff() < 0.0))
    return residuals.worst() <= tolerance;
  Vector projected = z.cwiseMax(0.0), w_projected;
  const LcpResiduals r = measure_residuals(M, q, projected, &w_projected);
  if (!(r.worst() <= tolerance)) return false;
  z = std::move(projected);
  w = std::move(w_projected);
  residuals = r;
  return true;
}

// z on the active set S: solves M(S,S) z_S = −q_S (z = 0 off S) starting from the guess z (zero
// when empty) by two rounds of z_S += M(S,S)⁺ (−q_S − M(S,S) z_S), the minimum-norm correction
// of a rank-revealing (complete orthogonal) decomposition. For a nonsingular block this is the
// unique solution; for the rank-deficient blocks of redundant contacts it stays next to the
// guess (the regularized answer) instead of jumping to an arbitrary one. False for a bad set.
// indices in [0, n), strictly increasing
inline bool valid_active_set(const std::vector<int>& active, Eigen::Index n) {
  for (std::size_t a = 0; a < active.size(); ++a)
    if (active[a] < 0 || active[a] >= n || (a > 0 && active[a] <= active[a - 1])) return false;
  return true;
}

template <typename Matrix>
bool solve_active_set(const Matrix& M, const Vector& q, const std::vector<int>& active, Vector& z) {
  const Eigen::Index n = q.size();
  const auto k = static_cast<Eigen::Index>(active.size());
  if (!valid_active_set(active, n)) return false;
  // the block, the right side and the guess in this thread's reused storage (block_solve.hpp)
  BlockSolve& block = thread_block_solve();
  block.begin(k);
  Eigen::Map<Vector> rhs = block.rhs(), zz = block.answer();
  const bool guessed = z.size() == n;
  for (Eigen::Index a = 0; a < k; ++a) {
    rhs(a) = -q(active[a]);
    zz(a) = guessed ? z(active[a]) : 0.0;
  }
  z.setZero(n);
  if (k == 0) return true;
  if constexpr (std::is_same_v<Matrix, DenseMatrix>) {
    Eigen::Map<DenseMatrix> A = block.block();
    for (Eigen::Index b = 0; b < k; ++b)
      for (Eigen::Index a = 0; a < k; ++a) A(a, b) = M(active[a], active[b]);
  } else {
    std::vector<int> position(static_cast<std::size_t>(n), -1);
    block.block() = detail::access::gather_block(M, active, active, position);
  }
  if (!block.refine()) return false;
  for (Eigen::Index a = 0; a < k; ++a) z(active[a]) = zz(a);
  return true;
}

// The entries of the active set whose z_i < 0 carries more than `tolerance` of some row's
// magnitude: |M_ki z_i| > tolerance · s_k with s_k = |q_k| + Σ_j |M_kj z_j| over the rows above
// the noise floor η = n ε max(‖q‖∞, max_k s_k) (the residual check's ζ_i, lcp_result.hpp). The
// check measures min_z against ‖z‖∞, so a z_i of −10⁻¹³ ‖z‖∞ passes it; but scaling the
// problem's columns scales z_i alone, and the same z_i can be half of a row of a scaled copy
// (an answer the check accepts on one scaling and rejects on another). This share does not
// change when rows and columns are scaled. Empty when no such entry exists.
template <typename Matrix>
std::vector<int> negative_entries_that_matter(const Matrix& M, const Vector& q, const Vector& z,
                                              double tolerance) {
  std::vector<int> out;
  // only when an entry lies beyond the rounding box δ = 100 n ε ‖z‖∞ (the check measures one
  // within it by |z_i| / ‖z‖∞ only): the common answer, with none, costs one pass and no
  // allocation. Then every negative entry with a share is dropped, those within δ too: the set
  // without only the larger ones is as degenerate as before.
  const Eigen::Index n = q.size();
  const double delta = 100.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon() *
                       z.template lpNorm<Eigen::Infinity>();
  if (!(z.minCoeff() < -delta)) return out;
  Vector s = q.cwiseAbs();
  access::for_each_nonzero(
      M, [&](Eigen::Index k, Eigen::Index j, double m) { s(k) += std::abs(m * z(j)); });
  const double eta = static_cast<double>(n) * std::numeric_limits<double>::epsilon() *
                     std::max(q.lpNorm<Eigen::Infinity>(), s.maxCoeff());
  std::vector<char> matters(static_cast<std::size_t>(n), 0);
  access::for_each_nonzero(M, [&](Eigen::Index k, Eigen::Index j, double m) {
    if (z(j) < 0.0 && s(k) > eta && std::abs(m * z(j)) > tolerance * s(k))
      matters[static_cast<std::size_t>(j)] = 1;
  });
  for (Eigen::Index j = 0; j < n; ++j)
    if (matters[static_cast<std::size_t>(j)]) out.push_back(static_cast<int>(j));
  return out;
}

// An accepted answer z (judged on the set `active`) whose negative entries matter (above) is
// offered once more without them: the set minus those indices is solved and judged, and
// replaces z, w, the residuals and the set when it passes (in exact arithmetic such a z_i is a
// degenerate basic 0, and w_i is 0 without it). True when it replaced them.
template <typename Matrix>
bool drop_negative_entries(const Matrix& M, const Vector& q, double tolerance,
                           std::vector<int>& active, Vector& z, Vector& w, LcpResiduals& residuals,
                           double& check_seconds) {
  const std::vector<int> drop = negative_entries_that_matter(M, q, z, tolerance);
  if (drop.empty()) return false;
  std::vector<int> fewer;
  std::set_difference(active.begin(), active.end(), drop.begin(), drop.end(),
                      std::back_inserter(fewer));
  Vector z_fewer = z, w_fewer;
  LcpResiduals res_fewer;
  if (!solve_active_set(M, q, fewer, z_fewer)) return false;
  if (!judge(M, q, z_fewer, tolerance, w_fewer, res_fewer, check_seconds)) return false;
  active = std::move(fewer);
  z = std::move(z_fewer);
  w = std::move(w_fewer);
  residuals = res_fewer;
  return true;
}

// accepts z for the given active set when the residual check passes; z is the guess on entry
// and the candidate on exit (before the projection onto z ≥ 0, so polish() sees its signs)
template <typename Matrix>
bool accept_active_set(const Matrix& M, const Vector& q, const std::vector<int>& active,
                       double tolerance, Vector& z, Vector& w, LcpResult& result) {
  if (!solve_active_set(M, q, active, z)) return false;
  Vector judged = z;
  LcpResiduals res;
  if (!judge(M, q, judged, tolerance, w, res, result.check_seconds)) return false;
  std::vector<int> kept = active;
  if (drop_negative_entries(M, q, tolerance, kept, judged, w, res, result.check_seconds))
    z = judged;
  result.z = judged;
  result.w = w;
  result.residuals = res;
  result.active_set = kept;
  result.status = LcpStatus::solved;
  result.message.clear();
  return true;
}

// the warm start: the guessed active set, accepted only when verified
template <typename Matrix>
bool try_warm_start(const Matrix& M, const Vector& q, const std::vector<int>& active,
                    double tolerance, LcpResult& result) {
  Vector z, w;
  if (!accept_active_set(M, q, active, tolerance, z, w, result)) return false;
  result.path = StartPath::warm_start;
  result.pivots = 0;
  return true;
}

// The same warm start answered in `result`'s own vectors (their storage reused; the reusing
// solve_lemke's): the same z, w and residuals as try_warm_start() on a fresh result, since that
// one's candidate also starts from z = 0 and is judged the same way. When it is not accepted,
// result's z, w and residuals are left unspecified (the caller solves afresh).
template <typename Matrix>
bool try_warm_start_in_place(const Matrix& M, const Vector& q, const std::vector<int>& active,
                             double tolerance, LcpResult& result) {
  result.z.setZero(q.size());
  if (!solve_active_set(M, q, active, result.z)) return false;
  if (!judge(M, q, result.z, tolerance, result.w, result.residuals, result.check_seconds))
    return false;
  result.active_set = active;
  drop_negative_entries(M, q, tolerance, result.active_set, result.z, result.w, result.residuals,
                        result.check_seconds);
  result.status = LcpStatus::solved;
  result.message.clear();
  result.path = StartPath::warm_start;
  result.pivots = 0;
  return true;
}

// On an ill-conditioned problem the basis Lemke ends on can miss by rounding: a z_i slightly
// negative, or a w_i. Correct the active set from the signs (drop z_i < 0, add w_i < 0: a block
// principal pivot) and re-solve, a few times; only a verified answer is accepted.
// A correction that changes more indices than the set has (plus kPolishSlack) is no rounding
// miss but a wrong basis, and is not tried: on a 13-level box pyramid (n = 4056) the answers of
// failed attempts have ~200 basic z and ~1600 w_i < 0, and each round's dense decomposition of
// the ~2000-index set took 5–10 s, for nothing (none passed the check).
inline constexpr std::size_t kPolishSlack = 16;
template <typename Matrix>
bool polish(const Matrix& M, const Vector& q, double tolerance, LcpResult& result) {
  std::vector<int> active = result.active_set;
  Vector z = result.z, w = result.w;
  // first the same active set, refined on M from Lemke's z (which may come from M + δI)
  if (accept_active_set(M, q, active, tolerance, z, w, result)) return true;
  if (z.size() != q.size()) return false;
  w = M * z + q;
  for (int round = 0; round < 3; ++round) {
    std::vector<bool> in(q.size(), false);
    for (int i : active) in[i] = true;
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      if (in[i] && z(i) < 0.0)
        in[i] = false;
      else if (!in[i] && w(i) < 0.0)
        in[i] = true;
    }
    std::vector<int> next;
    for (Eigen::Index i = 0; i < q.size(); ++i)
      if (in[i]) next.push_back(static_cast<int>(i));
    if (next == active) return false;
    std::size_t changed = 0;
    for (Eigen::Index i = 0; i < q.size(); ++i)
      if (in[static_cast<std::size_t>(i)] !=
          std::binary_search(active.begin(), active.end(), static_cast<int>(i)))
        ++changed;
    if (changed > active.size() + kPolishSlack) return false;
    active = std::move(next);
    if (accept_active_set(M, q, active, tolerance, z, w, result)) return true;
    if (z.size() != q.size()) return false;
    w = M * z + q;
  }
  return false;
}

}  // namespace pivot::lcp::detail
