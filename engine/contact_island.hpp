#pragma once
// Contact islands (internal): an island without joints whose M̃ is block diagonal (no force
// couples two bodies), with up to kContactIslandRows complementarity rows, reduced body by body
// into 𝓜 (dense up to kDenseContactRows rows, compressed sparse above) instead of by the general
// path's sparse LU and sparse product (island_solver.hpp). A row of G touches at most two
// bodies, so with A = M̃ (one 6 × 6 block per body, inverted by a full-pivot LU)
//
//   A v⁺ = r + Gᵀ z,   w = G v⁺ + S z + b
//   𝓜 = S + G A⁻¹ Gᵀ = S + Σ_b G_b A_b⁻¹ G_bᵀ,    q = b + Σ_b G_b y_b,   y_b = A_b⁻¹ r_b
//   v⁺_b = y_b + A_b⁻¹ G_bᵀ z_{R_b}
//
// (Cline 2002 eq. 2.43 with P = A), where G_b holds the rows R_b that touch body b, restricted
// to its six columns: each term is |R_b| × |R_b| and lands on the rows and columns R_b (a
// 10-box stack, m = 240: ten products of 40 × 6 blocks). 𝓜 is solved by solve_lemke with its
// residual check; the answer is also checked on the free rows
// (‖A v⁺ − Gᵀz − r‖ within 1e-9 of its scale). A singular block, a failed LCP or a failed check
// hands the island to the general path, which has the fallback layers.

#include <optional>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/lcp/lemke.hpp"

namespace pivot::detail {

/// the largest contact island, in complementarity rows; larger ones take the general path. A
/// bound on the work of one island, not a tuning: the sparse 𝓜 of the body-by-body reduction is
/// as fast as the general path's up to here (a 20-level pyramid, m = 9 600: 68 against 78 ms a
/// step), and an earlier variant's cold starts on 13-level pyramids are gone (docs/step.md).
inline constexpr int kContactIslandRows = 16384;

/// up to this many rows 𝓜 is formed dense; above, sparse (its entries are the R_b × R_b blocks,
/// a fraction of m² that falls as the island grows, and the dense m × m residual check and
/// column operations were then most of the solve)
inline constexpr int kDenseContactRows = 256;

/// true when the island has no joint rows, at most kContactIslandRows complementarity rows, and
/// a block-diagonal M̃
[[nodiscard]] bool fits_contact_island(const ConstraintSet& rows, const IslandInput& in);

/// the island's answer written over `out` (in its memory), or false when the general path must
/// give it (`out` is then unspecified)
[[nodiscard]] bool solve_contact_island(const ConstraintSet& rows, const IslandInput& in,
                                        const lcp::LemkeOptions& lemke, IslandOutput& out);

/// the same as a new value, or nullopt
[[nodiscard]] std::optional<IslandOutput> solve_contact_island(const ConstraintSet& rows,
                                                               const IslandInput& in,
                                                               const lcp::LemkeOptions& lemke);

}  // namespace pivot::detail
