#pragma once
// The position-level projection LCP with a free metric (Cline 2002 §3.4, eq. 3.7, with W in
// place of M⁻¹; Struben 1998 §4.2.1 for the animator's reading). Given contacts at the current
// poses and a positive semi-definite 6×6 block W_i per body (angular first), find the twist
// displacement dp (one per body) of least W⁻¹-norm that closes every gap:
//
//   min ½ dpᵀ W⁻¹ dp   s.t.   g_c + J_c dp ≥ 0 for every contact c
//   ⇔  dp = W Jᵀ λ,   0 ≤ λ ⊥ (J W Jᵀ) λ + g ≥ 0,
//
// which for W = M⁻¹ is post-stabilization. A W with zero blocks forbids those motions exactly:
// dp's blocks are then exactly zero (no inverse of W is ever formed). With W_i = (1/R_i) times
// a body's shape metric, two spheres in a central overlap of depth d move by d R_2/(R_1+R_2)
// and d R_1/(R_1+R_2): Struben's meeting point P′ = R P_1 + (1−R) P_2, R = R_1/(R_1+R_2)
// (Eq. 4.15), solved jointly for every contact at once instead of per point.

#include <vector>

#include "pivot/collision/contact.hpp"
#include "pivot/core/spatial.hpp"
#include "pivot/lcp/lemke.hpp"

namespace pivot {

struct ProjectionResult {
  Eigen::VectorXd dp;  ///< 6 per body (δθ; δx), world axes at the COM; zero where W is zero
  lcp::LcpStatus status = lcp::LcpStatus::solved;  ///< of Lemke on the LCP as assembled
  bool fallback = false;  ///< Lemke failed (a ray: no feasible answer): dp is zero
  int pivots = 0;
  int rows = 0;        ///< contact rows in the LCP (those with a movable side)
  int immovable = 0;   ///< overlapping contacts between two immovable sides (not in the LCP)
  std::string message;  ///< Lemke's, when it failed
};

/// the projection above for `contacts` at `poses` (centre-of-mass poses, one per body) with the
/// metric blocks `W` (one per body; a zero block: immovable). Never returns a non-finite dp:
/// when Lemke ends on a ray (no feasible answer, e.g. an overlap that only a forbidden motion
/// could remove) or fails otherwise, dp is zero and `status` says why.
[[nodiscard]] ProjectionResult solve_projection(const std::vector<Contact>& contacts,
                                                const std::vector<Pose>& poses,
                                                const std::vector<Mat6>& W,
                                                const lcp::LemkeOptions& lemke = {});

/// the pose moved by a twist displacement (δθ; δx): x + δx, and exp(δθ) q normalized only when
/// δθ ≠ 0, so that a zero block leaves that part of the pose bit for bit
[[nodiscard]] Pose displace(const Pose& pose, const Vec6& dp);

}  // namespace pivot
