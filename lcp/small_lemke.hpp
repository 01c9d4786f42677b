#pragma once
// The small path of solve_lemke (internal): Lemke's method for dense problems of n ≤
// kSmallLemkeMax on a fixed-capacity tableau, its answer accepted by a certificate from the final
// basis instead of the full residual check (docs/lcp.md, "Small problems").
//
// It takes the standard attempt of the general path (lemke.cpp, solve_policy.hpp) as it is: the
// same start, the same ratio test with the same tolerances and the same lexicographic tie break,
// on a condensed tableau instead of the revised form, and z from the final basis by the same LU
// solve with one step of refinement on the same basis block (the same rows and columns in the same
// order), so that it gives the general path's answer bit for bit when both take the same pivots.
// A warm start is tried first as the general path tries it (try_warm_start_in_place() in
// active_set.hpp: the same candidate, judged the same way). Whenever the general path would do
// something else (a crash start, a rejected warm start, equilibration, early completion, a ray, a
// pivot budget, a non-finite value) or the certificate cannot accept, it declines and the general
// path solves the problem from the start, as it does without this path.

#include "pivot/lcp/lcp_problem.hpp"
#include "pivot/lcp/lcp_result.hpp"
#include "pivot/lcp/lemke.hpp"

namespace pivot::lcp::detail {

/// the largest n the small path takes
inline constexpr int kSmallLemkeMax = 32;

/// Solves (M, q), n ≤ kSmallLemkeMax, on the stack: true when `result` holds the answer (the
/// trivial z = 0 for q ≥ 0, the accepted warm start, or a `solved` accepted by certify_answer(),
/// or when it cannot accept, by the general path's judgement of the same z, judge() in
/// active_set.hpp); false when the general path must decide, and then `result` is unspecified.
/// Allocates nothing but result's z, w and active set (reused when they have the capacity)
/// unless the full check runs.
bool solve_small_lemke(const DenseMatrix& M, const Vector& q, const LemkeOptions& options,
                       LcpResult& result);

/// The certificate of an answer z with w = M z + q (as computed by `M * z + q`): true only when
/// measure_residuals(M, q, z).worst() ≤ tolerance is implied, whatever the summation order of
/// either computation. It asks z_i ≥ −τ ‖z‖∞ for every i, w_i ≥ −τ s_i for every i, |w_i| ≤ τ s_i
/// where z_i ≠ 0 (a complementary basis: z off the basis is exactly 0, and w on it is the basis
/// solve's residual), and the check's rounding share below its limit with the same margin, where
/// s_i = |q_i| + Σ_j |M_ij z_j| and τ the tolerance less the rounding of w and s (see
/// small_lemke.cpp). One pass over M. `bounds` receives the certificate's own measures (min_z,
/// min_w, max_complementarity, rounding_share), each no better than the check's up to that
/// rounding.
bool certify_answer(const DenseMatrix& M, const Vector& q, const Vector& z, const Vector& w,
                    double tolerance, LcpResiduals& bounds);

/// solve_lemke without the small path (the fallback, and the tests' reference)
[[nodiscard]] LcpResult solve_lemke_general(const LcpProblem& problem,
                                            const LemkeOptions& options = {});

}  // namespace pivot::lcp::detail
