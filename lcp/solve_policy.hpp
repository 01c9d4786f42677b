#pragma once
// The retry policy of solve_lemke: the attempts along Lemke's path, in order, and why each
// exists (docs/lcp.md, "Hard cases").
//
// A ray or a failed residual check can come from a near-singular basis chosen through a tiny
// pivot (Cline 2002 §4.8.3), typically on the rank-deficient, highly degenerate matrices of
// resting contacts. So neither is reported before the problem has been re-tried from scratch:
//   - with M + δI, δ = 1e-10 ‖M‖∞ (strictly copositive, so the path cannot end on a ray; the
//     answer is still judged on M as given);
//   - with frequent refactorization and a 100× larger, then a 100× smaller pivot tolerance;
//   - with a 10⁴× smaller pivot tolerance at the usual refactorization interval;
//   - and all of it again with another covering vector, each d_i scaled by a factor in
//     [1, 1.5) spread by the golden ratio, so the rows do not tie the way they did with d = 1:
//     on the degenerate friction LCPs of box pyramids the path through near-ties, not the
//     matrix, is what fails, and another path usually succeeds.
// Before all of them, when a warm start was given and its set was rejected, Lemke's path from
// the guessed basis (covering vector e_ᾱ − M(·,α)1, capped at n/4 + 50 pivots).
// A genuine ray ends every attempt on a ray; `solved` is only ever returned verified on the
// problem as given. Each attempt gets at most 10 n + 1000 pivots; all together, max_pivots.

#include <array>
#include <limits>

namespace pivot::lcp::detail {

/// one attempt of the policy; the pivot tolerance used is
/// min(options.pivot_tolerance × multiply / divide, cap)
struct LemkeAttempt {
  const char* name;       ///< short name, reported in LcpResult::attempt_name()
  double multiply = 1.0;  ///< on the pivot tolerance of the options
  double divide = 1.0;    ///< on the pivot tolerance of the options
  double cap = std::numeric_limits<double>::infinity();  ///< upper bound of the tolerance
  int refactor_interval = 0;     ///< pivots between refactorizations; 0: the options' value
  double regularization = 0.0;   ///< δ / ‖M‖∞ of the regularized M + δI; 0: M as given
  bool spread_covering = false;  ///< the golden-ratio spread covering vector instead of d
  bool from_warm_start = false;  ///< Lemke's path from the warm start's basis
};

/// the attempts, in the order solve_lemke makes them
inline constexpr std::array<LemkeAttempt, 10> kLemkeAttempts = {{
    {.name = "warm path", .from_warm_start = true},
    {.name = "standard"},
    {.name = "regularized", .regularization = 1e-10},
    {.name = "larger pivot tolerance", .multiply = 100.0, .cap = 1e-6, .refactor_interval = 4},
    {.name = "smaller pivot tolerance", .divide = 100.0, .refactor_interval = 4},
    {.name = "much smaller pivot tolerance", .multiply = 1e-4},
    {.name = "spread covering", .spread_covering = true},
    {.name = "spread covering, regularized", .regularization = 1e-10, .spread_covering = true},
    {.name = "spread covering, larger pivot tolerance",
     .multiply = 100.0,
     .cap = 1e-6,
     .refactor_interval = 4,
     .spread_covering = true},
    {.name = "spread covering, much smaller pivot tolerance",
     .multiply = 1e-4,
     .spread_covering = true},
}};

}  // namespace pivot::lcp::detail
