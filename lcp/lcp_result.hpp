#pragma once
// The result of an LCP solve: status, solution, pivots, and residuals measured on the answer.

#include <Eigen/Core>
#include <string>
#include <vector>

namespace pivot::lcp {

enum class LcpStatus {
  solved,             ///< z, w verified by the residual check
  ray_termination,    ///< Lemke's path ended on a secondary ray: no solution reachable
  pivot_limit,        ///< the pivot budget ran out
  numerical_failure,  ///< the answer failed the residual check even after refactorization
  invalid_input,      ///< bad sizes, NaN/Inf, unreadable file: see message
};

/// "solved", "ray_termination", ...
[[nodiscard]] const char* to_string(LcpStatus status);

/// How far (z, w) is from solving the LCP, each relative to its own scale (componentwise, so a
/// huge z cannot hide a violated row):
///   s_i                 = |q_i| + Σ_j |M_ij z_j|      the scale of w_i (its rounding error ~ ε
///   s_i) w̃_i                 = 0 if |w_i| ≤ η and some z̃ near z makes w̃_i = 0, else w_i:
///                         η = n ε max(‖q‖∞, max_i s_i), the noise floor; "near": z̃ ≥ 0 with
///                         |z̃_j − z_j| ≤ 100 n ε ‖z‖∞ (a basis solve's rounding). Rows whose terms
///                         cancel to rounding are not judged on it; rows whose sign the data fixes
///                         (q_i > 0 and M_ij ≥ 0, or the mirror) never count as 0
///   min_z               = min(0, min over z_i < 0 of −ζ_i)
///   min_w               = min(0, min_i w̃_i / s_i)
///   max_complementarity = max_i min(ζ_i, |w̃_i| / s_i), with z_i's size
///                         ζ_i = max(|z_i| / ‖z‖∞, max_k |M_ki z_i| / s_k), the second term
///                         (invariant to scaling rows and columns) only for |z_i| beyond the
///                         rounding 100 n ε ‖z‖∞ and rows k with s_k > η
/// (0/0 counts as 0; a z or w that is not finite gives ±∞.) w is recomputed as M z + q from the
/// problem, never taken from the solver.
///   rounding_share      = max_i Σ_j |M_ij| · 100 n ε ‖z‖∞ / ‖q‖∞, what z's rounding can make
///                         of w beside the data (0 when z = 0; +∞ for q = 0 and z ≠ 0)
/// An answer is verifiable only while rounding_share ≤ kMaxRoundingShare: beyond it any w_i is
/// within rounding of 0 and every z_i ≪ ‖z‖∞ counts as 0, so the measures above cannot fail
/// (Lemke's path running out along a near-ray to z of 10¹⁷ for an LCP with no solution).
struct LcpResiduals {
  double min_z = 0.0;
  double min_w = 0.0;
  double max_complementarity = 0.0;
  double rounding_share = 0.0;
  /// the largest of −min_z, −min_w, max_complementarity: 0 for an exact solution, +∞ when z or
  /// w is not finite or the answer is not verifiable()
  [[nodiscard]] double worst() const;
  /// rounding_share ≤ kMaxRoundingShare (see above)
  [[nodiscard]] bool verifiable() const;
};

/// the largest share of ‖q‖∞ that z's rounding may move w by for an answer to be checked at all
inline constexpr double kMaxRoundingShare = 1e-3;

/// which path the solver took
enum class StartPath {
  trivial,     ///< q ≥ 0: z = 0 with no pivots
  warm_start,  ///< the guessed active set gave a verified solution with one factorization
  lemke,       ///< Lemke from the standard start (a warm start, if given, was rejected)
  warm_lemke,  ///< Lemke's path from the guessed active set, whose own candidate was rejected
};

[[nodiscard]] const char* to_string(StartPath path);

struct LcpResult;
/// the name of the policy attempt that gave the answer ("standard", "regularized", ...), or
/// "none" when result.attempt is −1
[[nodiscard]] const char* attempt_name(const LcpResult& result);

struct LcpResult {
  LcpStatus status = LcpStatus::invalid_input;
  Eigen::VectorXd z;     ///< solution (size n), meaningful when solved
  Eigen::VectorXd w;     ///< M z + q
  int pivots = 0;        ///< all of them, including crash_pivots
  int crash_pivots = 0;  ///< of which in the crash start's sub-problem (LemkeOptions::crash_rows)
  int refactorizations = 0;
  StartPath path = StartPath::lemke;
  /// the attempt of the retry policy that gave the answer: an index into kLemkeAttempts
  /// (solve_policy.hpp); −1 when no attempt along Lemke's path ran or none succeeded (the
  /// trivial and warm starts, and every failure). attempt_name() says it in words.
  int attempt = -1;
  /// of the answer, by measure_residuals(); for an answer that the certificate accepted
  /// (docs/lcp.md, "Small problems"), the certificate's own measures, each no better than the
  /// check's
  LcpResiduals residuals;
  /// the active set of the answer: indices i with z_i basic, ascending; pass it back as the
  /// warm start of the next, similar problem
  std::vector<int> active_set;
  /// solved on the problem equilibrated by powers of two (docs/lcp.md, "Scaling"): z and w are
  /// the original problem's, `residuals` the scaled problem's
  bool equilibrated = false;
  std::string message;   ///< why, when not solved
  double seconds = 0.0;  ///< wall time of the whole solve, s
  /// of which in the residual checks of candidate answers, s (the small path's certificate is
  /// not timed apart: 0 when it accepted)
  double check_seconds = 0.0;
  [[nodiscard]] bool ok() const { return status == LcpStatus::solved; }
};

}  // namespace pivot::lcp
