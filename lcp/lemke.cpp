// Lemke's method as a whole (lemke.hpp): input checks, the trivial and warm starts, then the
// attempts of the retry policy (solve_policy.hpp) along Lemke's path (lemke_path.hpp), each
// answer judged by the residual check and polished on its active set (active_set.hpp).
#include "pivot/lcp/lemke.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "pivot/lcp/active_set.hpp"
#include "pivot/lcp/equilibrate.hpp"
#include "pivot/lcp/lcp_blocks.hpp"
#include "pivot/lcp/lemke_path.hpp"
#include "pivot/lcp/matrix_access.hpp"
#include "pivot/lcp/psd_lcp.hpp"
#include "pivot/lcp/small_lemke.hpp"
#include "pivot/lcp/solve_policy.hpp"

namespace pivot::lcp {
namespace {

using namespace detail;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// now, or no clock read when the solve is not timed (LemkeOptions::timed)
std::chrono::steady_clock::time_point start_if(bool timed) {
  return timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
}

// a sparse M with more than this fraction of its n² entries stored is solved in dense storage
constexpr double kDenseFraction = 0.25;

// a problem with a nonzero entry beyond 2^±this (10^±150: the product of two entries over- or
// underflows) is solved equilibrated from the start (docs/lcp.md, "Scaling")
constexpr int kExtremeExponent = 500;

// a problem whose rows or columns of M have largest entries more than 2^this (about 10¹²) apart
// is solved equilibrated from the start too (docs/lcp.md, "Scaling"): no contact problem of the
// scene format's magnitudes comes near it
constexpr int kWideSpreadExponent = 40;

template <typename Matrix>
LcpResult solve_from(const Matrix& M, const Vector& q, const LemkeOptions& options) {
  LcpResult result;
  if (std::string why = validate(M, q); !why.empty()) {
    result.message = why;
    return result;
  }
  const auto n = static_cast<int>(q.size());
  Vector d = options.covering.size() == 0 ? Vector(Vector::Ones(n)) : options.covering;
  if (d.size() != n) {
    result.message = fmt::format("covering vector has {} entries, expected {}", d.size(), n);
    return result;
  }
  for (int i = 0; i < n; ++i)
    if (!(d(i) > 0.0) || !std::isfinite(d(i))) {
      result.message =
          fmt::format("covering vector entry {} is {} (must be positive, finite)", i, d(i));
      return result;
    }
  if (options.max_pivots < 0 || options.refactor_interval < 1 || !(options.pivot_tolerance >= 0) ||
      !(options.residual_tolerance > 0)) {
    result.message = "invalid Lemke options (max_pivots, refactor_interval or a tolerance)";
    return result;
  }

  // trivial: q ≥ 0 gives z = 0
  if (n == 0 || q.minCoeff() >= 0.0) {
    const auto start = std::chrono::steady_clock::now();
    result.z = Vector::Zero(n);
    result.residuals = measure_residuals(M, q, result.z, &result.w);
    result.check_seconds = seconds_since(start);
    result.status = LcpStatus::solved;
    result.path = StartPath::trivial;
    return result;
  }
  if (options.warm_start &&
      try_warm_start(M, q, *options.warm_start, options.residual_tolerance, result))
    return result;

  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : 100 * n + 1000;
  result.path = StartPath::lemke;
  // the attempts of the retry policy, in order (solve_policy.hpp)
  const double m_norm = detail::access::max_row_abs_sum(M);
  const bool warm_path = options.warm_start && valid_active_set(*options.warm_start, n);
  Vector spread = d;
  for (int i = 0; i < n; ++i)
    spread(i) *= 1.0 + 0.5 * std::fmod(static_cast<double>(i) * 0.6180339887498949, 1.0);
  // Each attempt gets at most 10 n + 1000 pivots (Lemke's path is a few n pivots on every
  // problem we have seen; a longer one is a numerical cycle, as a 61 000-pivot run on a 5-level
  // pyramid was); the whole cascade gets max_pivots.
  const int attempt_budget = std::min(max_pivots, 10 * n + 1000);
  // the path from a warm start should be short (a nearby basis); a long one is cut off and the
  // standard start used instead
  const int warm_budget = n / 4 + 50;
  int total_pivots = 0;
  bool residual_failed = false;
  bool interrupted = false;
  LcpStatus last = LcpStatus::ray_termination;
  Matrix regularized;
  for (std::size_t index = 0; index < detail::kLemkeAttempts.size(); ++index) {
    const detail::LemkeAttempt& attempt = detail::kLemkeAttempts[index];
    if (attempt.from_warm_start && !warm_path) continue;
    if (options.interrupted && options.interrupted()) {
      interrupted = true;
      break;
    }
    const double regularization = attempt.regularization * m_norm;
    if (regularization > 0.0) regularized = detail::access::plus_diagonal(M, regularization);
    const Matrix& M_used = regularization > 0.0 ? regularized : M;
    LemkeOptions tuned = options;
    tuned.pivot_tolerance =
        std::min(options.pivot_tolerance * attempt.multiply / attempt.divide, attempt.cap);
    const int refactor_interval =
        attempt.refactor_interval > 0 ? attempt.refactor_interval : options.refactor_interval;
    result.attempt = static_cast<int>(index);
    // a completion is judged on the problem as given (M, not M_used)
    const Completion completion = [&](const std::vector<int>& S, const Vector& guess) {
      Vector z = guess, w;
      return accept_active_set(M, q, S, options.residual_tolerance, z, w, result);
    };
    const Vector covering = attempt.from_warm_start
                                ? LemkeSolver<Matrix>::warm_covering(M, *options.warm_start)
                                : (attempt.spread_covering ? spread : d);
    LemkeSolver<Matrix> solver(M_used, q, covering, tuned, completion);
    result.path = attempt.from_warm_start ? StartPath::warm_lemke : StartPath::lemke;
    if (attempt.from_warm_start)
      last = solver.run_from(*options.warm_start,
                             std::min({warm_budget, attempt_budget, max_pivots - total_pivots}),
                             refactor_interval);
    else
      last = solver.run(std::min(attempt_budget, max_pivots - total_pivots), refactor_interval);
    result.refactorizations += solver.refactorizations();
    total_pivots += solver.pivots();
    result.pivots = total_pivots;
    if (solver.completed()) return result;
    if (solver.interrupted()) {
      interrupted = true;
      break;
    }
    if (last == LcpStatus::pivot_limit && total_pivots >= max_pivots) break;
    // the warm path's own failures say nothing about the problem: the standard start decides
    if (last == LcpStatus::numerical_failure && !attempt.from_warm_start) residual_failed = true;
    if (last != LcpStatus::solved) continue;
    result.z = solver.solution();
    result.active_set = solver.active_set();
    if (judge(M, q, result.z, options.residual_tolerance, result.w, result.residuals,
              result.check_seconds)) {
      drop_negative_entries(M, q, options.residual_tolerance, result.active_set, result.z, result.w,
                            result.residuals, result.check_seconds);
      result.status = LcpStatus::solved;
      return result;
    }
    if (polish(M, q, options.residual_tolerance, result)) return result;
    // an answer of M + δI that fits no solution of M is expected when M has none
    if (regularization == 0.0 && !attempt.from_warm_start) residual_failed = true;
  }
  result.attempt = -1;  // none succeeded
  if (interrupted) {
    result.status = LcpStatus::pivot_limit;
    result.z = Vector::Zero(n);
    result.w = q;
    result.residuals = measure_residuals(M, q, result.z);
    result.active_set.clear();
    result.message = fmt::format("interrupted after {} pivots", total_pivots);
    return result;
  }
  if (residual_failed) {
    result.status = LcpStatus::numerical_failure;
    result.message =
        result.z.size() != n ? std::string("the basis became singular along Lemke's path")
        : !result.residuals.verifiable()
            ? fmt::format(
                  "the answer cannot be verified: z's rounding moves w by {:.3g} of "
                  "|q|inf (more than {:.3g}; |z|inf = {:.3g})",
                  result.residuals.rounding_share, kMaxRoundingShare,
                  result.z.lpNorm<Eigen::Infinity>())
            : fmt::format("the answer fails the residual check (worst {:.3g} > {:.3g})",
                          result.residuals.worst(), options.residual_tolerance);
    if (result.z.size() != n) {
      result.z = Vector::Zero(n);
      result.w = q;
      result.residuals = measure_residuals(M, q, result.z);
    }
    return result;
  }
  result.status = last;
  result.z = Vector::Zero(n);
  result.w = q;
  result.residuals = measure_residuals(M, q, result.z);
  result.active_set.clear();
  result.message =
      last == LcpStatus::ray_termination
          ? "secondary ray: no solution reachable along Lemke's path"
          : fmt::format("no solution within {} pivots (the attempts together)", total_pivots);
  return result;
}

// The crash start (LemkeOptions::crash_rows): the sub-LCP on the rows R, whose block must be
// symmetric PSD (the frictionless contact problem), by Lawson–Hanson's active-set method
// (psd_lcp.hpp), and its active set as the warm start of the whole problem. Everything after
// that is the usual solve, so the answer passes the same check whatever the crash gave; a crash
// that fails (an asymmetric block, no answer) only costs its time.
template <typename Matrix>
LcpResult solve(const Matrix& M, const Vector& q, const LemkeOptions& options) {
  const std::vector<int>& rows = options.crash_rows;
  const auto n = q.size();
  if (options.warm_start || rows.empty() || static_cast<Eigen::Index>(rows.size()) >= n ||
      M.rows() != n || M.cols() != n || !valid_active_set(rows, n) || !q.allFinite() ||
      !(q.minCoeff() < 0.0))
    return solve_from(M, q, options);
  using Sub = std::conditional_t<std::is_same_v<Matrix, DenseMatrix>, LcpProblem, SparseLcpProblem>;
  detail::PsdLcpOptions psd;
  psd.max_iterations = options.max_pivots;  // max_pivots bounds the crash's pivots and Lemke's
  const LcpResult crash =
      detail::solve_psd_lcp(Sub{detail::access::principal_block(M, rows), q(rows), {}}, psd);
  if (options.max_pivots > 0 && crash.pivots >= options.max_pivots) {
    LcpResult result;
    result.status = LcpStatus::pivot_limit;
    result.z = Vector::Zero(n);
    result.residuals = measure_residuals(M, q, result.z, &result.w);
    result.pivots = result.crash_pivots = crash.pivots;
    result.message =
        fmt::format("no solution within {} pivots (the crash start used them)", crash.pivots);
    return result;
  }
  LemkeOptions whole = options;
  if (!crash.active_set.empty()) {
    std::vector<int> guess;
    guess.reserve(crash.active_set.size());
    for (int a : crash.active_set) guess.push_back(rows[a]);
    whole.warm_start = std::move(guess);
  }
  if (options.max_pivots > 0) whole.max_pivots = options.max_pivots - crash.pivots;
  LcpResult result = solve_from(M, q, whole);
  result.crash_pivots = crash.pivots;
  result.pivots += crash.pivots;
  return result;
}

// The equilibrated solve (equilibrate.hpp): Lemke's method and its residual checks on
// (R M C, γ R q), the answer taken back to z = C z̃ / γ, w = w̃ / (γ R). The residuals reported
// are the scaled problem's: the measures relative to ‖z‖∞ and ‖q‖∞ mean the same whatever the
// units of the original.
template <typename Matrix>
LcpResult solve_equilibrated(const Matrix& M, const Vector& q, const Equilibration& e,
                             const LemkeOptions& options) {
  LemkeOptions scaled = options;
  if (options.covering.size() == q.size()) scaled.covering = scaled_covering(options.covering, e);
  LcpResult result = solve(scaled_matrix(M, e), scaled_q(q, e), scaled);
  result.equilibrated = true;
  unscale_solution(e, result.z, result.w);
  if (result.ok() && !(result.z.allFinite() && result.w.allFinite())) {
    result.status = LcpStatus::numerical_failure;
    result.message = "the solution leaves the range of double when scaled back";
    result.z = Vector::Zero(q.size());
    result.w = q;
    result.active_set.clear();
  }
  return result;
}

/// The largest finite |M_ij| of each row and column into row_max and col_max (zeros on entry),
/// and whether some finite nonzero entry lies beyond 2^±kExtremeExponent. Stored zeros and
/// entries that are not finite leave every maximum as it is.
template <typename Matrix>
bool entry_maxima(const Matrix& M, std::vector<double>& row_max, std::vector<double>& col_max) {
  const double big = std::ldexp(1.0, kExtremeExponent), small = std::ldexp(1.0, -kExtremeExponent);
  bool extreme = false;
  detail::access::for_each_nonzero(M, [&](Eigen::Index i, Eigen::Index j, double m) {
    const double a = std::abs(m);
    if (!std::isfinite(a)) return;
    extreme = extreme || a > big || a < small;
    row_max[static_cast<std::size_t>(i)] = std::max(row_max[static_cast<std::size_t>(i)], a);
    col_max[static_cast<std::size_t>(j)] = std::max(col_max[static_cast<std::size_t>(j)], a);
  });
  return extreme;
}

/// the same on a compressed sparse M's arrays: a column's largest entry in a register and the
/// tests without branches (through the iterator and the callback this pass was a tenth of a
/// resting 20-cube stack's step, m = 480, nnz = 23 920)
bool entry_maxima(const SparseMatrix& M, std::vector<double>& row_max,
                  std::vector<double>& col_max) {
  if (!M.isCompressed()) return entry_maxima<SparseMatrix>(M, row_max, col_max);
  const double big = std::ldexp(1.0, kExtremeExponent), small = std::ldexp(1.0, -kExtremeExponent);
  const double* const value = M.valuePtr();
  const int* const row = M.innerIndexPtr();
  const int* const start = M.outerIndexPtr();
  double* const rows = row_max.data();
  bool extreme = false;
  for (Eigen::Index j = 0; j < M.outerSize(); ++j) {
    double column = 0.0;
    for (int p = start[j]; p < start[j + 1]; ++p) {
      const double a = std::abs(value[p]);
      if (!(a <= std::numeric_limits<double>::max())) continue;  // ∞ or NaN
      extreme = extreme | (a > big) | ((a != 0.0) & (a < small));
      double& r = rows[row[p]];
      r = std::max(r, a);
      column = std::max(column, a);
    }
    col_max[static_cast<std::size_t>(j)] = column;
  }
  return extreme;
}

/// whether the data call for the equilibrated solve first: a nonzero finite entry of M or q
/// beyond 2^±kExtremeExponent in magnitude, or rows or columns of M whose largest entries span
/// more than 2^kWideSpreadExponent (the residual check's min_z is relative to ‖z‖∞: an entry of
/// z that many orders below the largest can pass as zero, so a copy of a problem in such units
/// can be answered "solved" with a z that is not the original's). One pass over the
/// entries; data that are not finite are left to solve()'s input check.
template <typename Matrix>
bool needs_equilibration(const Matrix& M, const Vector& q) {
  const double big = std::ldexp(1.0, kExtremeExponent), small = std::ldexp(1.0, -kExtremeExponent);
  if (M.rows() != q.size() || M.cols() != q.size()) return false;  // solve() names the sizes
  bool extreme = false;
  const auto check = [&](double x) {
    const double a = std::abs(x);
    extreme = extreme || (std::isfinite(a) && (a > big || (a != 0.0 && a < small)));
  };
  for (Eigen::Index i = 0; i < q.size(); ++i) check(q(i));
  const auto n = static_cast<std::size_t>(q.size());
  thread_local std::vector<double> row_max, col_max;
  row_max.assign(n, 0.0);
  col_max.assign(n, 0.0);
  if (entry_maxima(M, row_max, col_max) || extreme) return true;
  const auto wide = [](const std::vector<double>& maxima) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    for (const double x : maxima)
      if (x > 0.0) lo = std::min(lo, x), hi = std::max(hi, x);
    return hi > 0.0 && hi > lo * std::ldexp(1.0, kWideSpreadExponent);
  };
  return wide(row_max) || wide(col_max);
}

// Scale-free solving (docs/lcp.md, "Scaling"): a problem with entries beyond 2^±kExtremeExponent,
// or with rows or columns spread beyond 2^kWideSpreadExponent, is solved equilibrated; any other
// is solved as given first, and solved equilibrated when that
// fails. Balancing cannot tell units from rounding noise (a row of 1e-15's left by cancellation
// is scaled up like a row in tonnes), so a problem that solves as given keeps that answer: it
// passed the residual check on the data as given. The success path computes no factors.
template <typename Matrix>
LcpResult solve_scale_free(const Matrix& M, const Vector& q, const LemkeOptions& options);

// The equilibrated solve of a problem that may split into decoupled blocks (lcp_blocks.hpp): one
// block is equilibrated as a whole (nullopt when its factors are all 1 and `as_given` is set: the
// retry would repeat the solve as given); several are solved one by one, each by
// solve_scale_free() on its own data (as given first, equilibrated when that fails or when its
// data call for it), so that each block's answer is judged on its own scale. Equilibrated as a
// whole, a box stack's contact LCP of 31 independent stacks with its rows and columns scaled by
// 1e±12 gets a z that, mapped back, leaves −0.5 of a row, judged "solved": the balancing, pinned
// block by block by q's entries of 1e-17, puts the blocks' z 10¹⁰ apart, and one global ‖z‖∞
// judges the smaller blocks by the largest one's rounding.
template <typename Matrix>
std::optional<LcpResult> solve_balanced(const Matrix& M, const Vector& q,
                                        const LemkeOptions& options, bool as_given) {
  const std::vector<std::vector<int>> blocks =
      validate(M, q).empty() ? decoupled_blocks(M) : std::vector<std::vector<int>>{};
  if (blocks.size() <= 1) {
    const Equilibration e = equilibrate(M, q);
    if (as_given && e.size() == 0) return std::nullopt;
    return solve_equilibrated(M, q, e, options);
  }
  const auto n = q.size();
  LcpResult whole;
  whole.status = LcpStatus::solved;
  whole.path = StartPath::trivial;
  whole.z = Vector::Zero(n);
  whole.w = Vector::Zero(n);
  std::vector<int> position(static_cast<std::size_t>(n), -1);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const std::vector<int>& rows = blocks[k];
    LemkeOptions sub = options;
    if (options.covering.size() == n) sub.covering = gather(options.covering, rows);
    if (options.warm_start) sub.warm_start = restrict_indices(*options.warm_start, rows, position);
    sub.crash_rows = restrict_indices(options.crash_rows, rows, position);
    if (options.max_pivots > 0) sub.max_pivots = options.max_pivots - whole.pivots;
    const bool interrupted = options.interrupted && options.interrupted();
    if (interrupted || (options.max_pivots > 0 && sub.max_pivots <= 0)) {
      // the blocks left unsolved are this one's failure, as a whole solve's would be
      LcpResult left;
      left.status = LcpStatus::pivot_limit;
      left.z = Vector::Zero(static_cast<Eigen::Index>(rows.size()));
      left.w = gather(q, rows);
      left.message = interrupted ? fmt::format("interrupted after {} pivots", whole.pivots)
                                 : fmt::format("pivot limit of {} reached", options.max_pivots);
      add_block_answer(rows, static_cast<int>(k), left, whole);
      continue;
    }
    add_block_answer(
        rows, static_cast<int>(k),
        solve_scale_free(detail::access::principal_block(M, rows), gather(q, rows), sub), whole);
  }
  if (!whole.ok()) whole.active_set.clear();
  std::sort(whole.active_set.begin(), whole.active_set.end());
  return whole;
}

template <typename Matrix>
LcpResult solve_scale_free(const Matrix& M, const Vector& q, const LemkeOptions& options) {
  if (needs_equilibration(M, q)) return *solve_balanced(M, q, options, false);
  LcpResult result = solve(M, q, options);
  if (result.ok() || result.status == LcpStatus::invalid_input ||
      (options.interrupted && options.interrupted()))
    return result;
  std::optional<LcpResult> balanced = solve_balanced(M, q, options, true);
  if (!balanced) return result;
  LcpResult& retry = *balanced;
  retry.pivots += result.pivots;
  retry.crash_pivots += result.crash_pivots;
  retry.refactorizations += result.refactorizations;
  retry.check_seconds += result.check_seconds;
  return retry;
}

// The warm start of a dense problem beyond the small path, answered in `result`'s own storage:
// the first steps of solve_scale_free() for such a problem (the input checks, then
// try_warm_start()), taken only when they lead to the warm start on the data as given (nothing to
// equilibrate, q with a negative entry). False leaves the problem to the general path from the
// start, which then tries the same warm start first and goes on from there.
bool solve_warm_in_place(const DenseMatrix& M, const Vector& q, const LemkeOptions& options,
                         LcpResult& result) {
  const auto n = q.size();
  if (!options.warm_start || n == 0 || !validate(M, q).empty() || needs_equilibration(M, q))
    return false;
  if (options.covering.size() != 0) {
    if (options.covering.size() != n) return false;
    for (Eigen::Index i = 0; i < n; ++i)
      if (!(options.covering(i) > 0.0) || !std::isfinite(options.covering(i))) return false;
  }
  if (options.max_pivots < 0 || options.refactor_interval < 1 || !(options.pivot_tolerance >= 0) ||
      !(options.residual_tolerance > 0))
    return false;
  if (q.minCoeff() >= 0.0) return false;  // the trivial answer, the general path's
  result.crash_pivots = result.refactorizations = 0;
  result.attempt = -1;
  result.equilibrated = false;
  result.check_seconds = 0.0;
  return try_warm_start_in_place(M, q, *options.warm_start, options.residual_tolerance, result);
}

}  // namespace

void solve_lemke(const LcpProblem& problem, const LemkeOptions& options, LcpResult& result) {
  // a small dense problem is tried on the small path first (small_lemke.hpp), a larger one's warm
  // start in result's storage; whatever they decline is solved by the general path from the start
  const auto start = start_if(options.timed);
  const bool small = problem.q.size() <= kSmallLemkeMax;
  if (!(small ? solve_small_lemke(problem.M, problem.q, options, result)
              : solve_warm_in_place(problem.M, problem.q, options, result)))
    result = solve_scale_free(problem.M, problem.q, options);
  result.seconds = options.timed ? seconds_since(start) : 0.0;
}

LcpResult solve_lemke(const LcpProblem& problem, const LemkeOptions& options) {
  LcpResult result;
  solve_lemke(problem, options, result);
  return result;
}

LcpResult detail::solve_lemke_general(const LcpProblem& problem, const LemkeOptions& options) {
  const auto start = start_if(options.timed);
  LcpResult result = solve_scale_free(problem.M, problem.q, options);
  result.seconds = options.timed ? seconds_since(start) : 0.0;
  return result;
}

LcpResult solve_lemke(const SparseLcpProblem& problem, const LemkeOptions& options) {
  // the basis inverse is dense whatever the storage; M itself is read in its own storage unless
  // it is so full that dense column operations are cheaper
  const auto start = start_if(options.timed);
  const double n = static_cast<double>(problem.q.size());
  LcpResult result = static_cast<double>(problem.M.nonZeros()) > kDenseFraction * n * n
                         ? solve_scale_free(DenseMatrix(problem.M), problem.q, options)
                         : solve_scale_free(problem.M, problem.q, options);
  result.seconds = options.timed ? seconds_since(start) : 0.0;
  return result;
}

}  // namespace pivot::lcp
