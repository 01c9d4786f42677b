#pragma once
// Lemke's complementary pivot algorithm with the lexico-minimum ratio test.
//
// Cline 2002 §2.7.1 and §4.8. Augment w = M z + d z₀ + q with a covering
// vector d > 0 (default all ones), start from the basis {w} with the most negative q_t/d_t row
// replaced by z₀, and pivot complementary variables in until z₀ leaves the basis.
// The ratio test is lexicographic (Murty 1988): among rows tied on y_r / D_r, the row whose
// (y_r, (B⁻¹)_r·) / D_r is lexicographically smallest leaves, so the algorithm never cycles.
// Rows with D_r below a tolerance relative to ‖D‖∞ are excluded (Cline §4.8.3, tiny over tiny).
//
// Revised form: the basis is represented by the square block of M between the rows whose w is
// nonbasic and the columns whose z is basic; its inverse is updated in O(k²) per pivot (k basic
// z's: bordering, Sherman–Morrison row/column replacement, and block deletion) and refactorized
// from an LU every `refactor_interval` pivots and whenever a check fails.
// A warm start (a guessed active set α) is tried as its candidate z_α = −M_αα⁻¹ q_α first, then as
// the start of Lemke's path from its basis with the covering vector e_ᾱ − M(·, α) 1 (docs/lcp.md,
// "Warm start"), then the standard start follows.
// Every `solved` is verified by measure_residuals() on the problem as given (the raw z, or
// max(z, 0) when only rounding-level negative z_i fail). When z₀ has fallen to rounding level
// (≤ 1e-8 of its start) the complementary active sets next to the current basis are tried as an
// early completion, accepted only when verified: on degenerate resting-contact LCPs the path
// otherwise creeps with z₀ ≈ 0 and can end on a false ray or cycle. Each attempt has a budget
// of 10 n + 1000 pivots. A failed check, a ray or a basis that breaks down is re-checked from
// scratch before it is reported: with M + δI (δ = 1e-10 ‖M‖∞: strictly copositive, so no ray;
// the answer is judged on M), then refactorizing every 4 pivots with a 100× larger and a 100×
// smaller pivot tolerance, and with another covering vector. A basis that misses by rounding is
// corrected by a block principal pivot on the signs (polish). Only then is `numerical_failure`
// or `ray_termination` returned (docs/lcp.md, "Hard cases").

#include <functional>
#include <optional>
#include <vector>

#include "pivot/lcp/lcp_problem.hpp"
#include "pivot/lcp/lcp_result.hpp"
#include "pivot/lcp/residual.hpp"

namespace pivot::lcp {

struct LemkeOptions {
  /// covering vector d (size n, every entry > 0); empty means all ones
  Vector covering;
  /// pivot budget; 0 means automatic: 100 n + 1000
  int max_pivots = 0;
  /// recompute the basis inverse from an LU every this many pivots
  int refactor_interval = 64;
  /// rows with D_r ≤ pivot_tolerance · ‖D‖∞ are excluded from the ratio test
  double pivot_tolerance = 1e-8;
  /// the residual check every `solved` must pass (LcpResiduals::worst())
  double residual_tolerance = kDefaultResidualTolerance;
  /// a guessed active set (indices i with z_i > 0, e.g. the previous step's); its candidate is
  /// tried first, then Lemke's path from its basis (StartPath::warm_lemke, at most n/4 + 50
  /// pivots), then the standard start
  std::optional<std::vector<int>> warm_start;
  /// without a warm start: rows (strictly increasing) whose principal sub-LCP (M(R, R), q(R)) is
  /// solved first; its answer's active set is then the warm start of the whole problem (a crash
  /// start, docs/lcp.md "Crash start"). For a contact LCP, the normal rows: the frictionless
  /// problem, whose basis the friction rows rarely change when contacts rest. Empty: none. Its
  /// pivots are counted in LcpResult::pivots and LcpResult::crash_pivots.
  std::vector<int> crash_rows;
  /// polled before each attempt of the retry policy and every 64 pivots along a path; when it
  /// returns true the solve stops at once with status pivot_limit and the message
  /// "interrupted after N pivots" (no answer). Empty: never. The World passes
  /// WorldSettings::interrupted (docs/limits.md "Interruption")
  std::function<bool()> interrupted;
  /// measure LcpResult::seconds (two clock reads a solve); false leaves it 0. The World clears it
  /// unless WorldSettings::profile asks for the stage times, which are its only reader
  bool timed = true;
};

/// solve w = M z + q, z ≥ 0, w ≥ 0, zᵀw = 0
[[nodiscard]] LcpResult solve_lemke(const LcpProblem& problem, const LemkeOptions& options = {});
/// the same, answered in `result`, whose vectors' storage is reused: a dense problem of n ≤ 32
/// that the small path answers (docs/lcp.md, "Small problems"), and one whose warm start is
/// accepted with a block of at most 32 rows, allocate nothing once `result` has held an answer
/// of that size (an answer beyond 32 rows is judged by the residual check in a thread's reused
/// storage; a warm start's block beyond 32 rows is decomposed in dynamic matrices, whose
/// Householder updates allocate temporaries)
void solve_lemke(const LcpProblem& problem, const LemkeOptions& options, LcpResult& result);
/// the same for a sparse M, read in its sparse storage when at most 25 % of its n² entries are
/// stored (the reduced LCPs of contact islands: a column operation costs O(nnz) instead of O(n),
/// and no n × n matrix is formed); a fuller M is expanded to dense storage once. Only the basis
/// inverse, k × k for k basic variables, is dense either way.
[[nodiscard]] LcpResult solve_lemke(const SparseLcpProblem& problem,
                                    const LemkeOptions& options = {});

}  // namespace pivot::lcp
