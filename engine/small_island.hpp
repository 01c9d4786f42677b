#pragma once
// The small-island path (internal): an island with joints and a few dozen complementarity rows
// (islands without joints: contact_island.hpp), solved with small dense matrices instead of the
// general path's sparse ones (island_solver.hpp), the buffers kept from step to step. Same
// problem, same answer up to rounding; the general path stays the reference and takes over
// whenever this one cannot vouch for its answer.
//
// Range-space reduction of the island's mixed LCP (island_lcp.hpp), with A = M̃ and G, J_e, S,
// b, b_e its blocks:
//
//   A v⁺ = r + J_eᵀ λ_e + Gᵀ z,   J_e v⁺ + b_e = 0,   w = G v⁺ + S z + b
//
// The free rows give v⁺ = v₀ + V z and λ_e = λ₀ + Λ z, with H = [A −J_eᵀ; J_e 0] and
//
//   H [v₀; λ₀] = [r; −b_e],   H [V; Λ] = [Gᵀ; 0],   w = (S + G V) z + (b + G v₀) =: 𝓜 z + q
//
// An island of joints alone (m = 0) with a rigid-body M̃ is solved first in the joints' range
// space (joint_island.hpp); the paths below take it when that one declines. H is factored
// along the body tree when the island's body graph is a forest (Baraff 1996;
// equality_solve.hpp: linear in the bodies, A may couple a parent and a child). Otherwise (a
// closed loop, or dependent rows found by the tree's pivots) an island of block-diagonal A
// (one 6 × 6 block per body, inverted by a full-pivot LU) within the dense limits below is
// reduced through the joint block:
//
//   Y = A⁻¹ Gᵀ,  Z = A⁻¹ J_eᵀ,  y = A⁻¹ r,  C = J_e Z        (C = J_e A⁻¹ J_eᵀ, ne × ne)
//   λ₀ = −C⁻¹ (b_e + J_e y),   Λ = −C⁻¹ J_e Y,   v₀ = y + Z λ₀,   V = Y + Z Λ
//
// Both are Cline 2002 eq. 2.43 (𝓜 = S − K P⁻¹ Q) with P⁻¹ written by blocks (the Schur
// complement on the joint block, Cline §4.8.2). The pure LCP goes to solve_lemke in dense
// storage, with its residual check (none when m = 0: the island is a linear system). The answer
// is then checked on the free rows as well (‖A v⁺ − J_eᵀλ_e − Gᵀz − r‖ and ‖J_e v⁺ + b_e‖
// within 1e-9 of their scales); a singular block, a failed LCP or a failed check hands the
// island to the general path, which has the regularization and fallback layers.

#include <optional>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/lcp/lemke.hpp"

namespace pivot::detail {

/// the largest island of the dense reduction: bodies, and equality plus complementarity rows
inline constexpr int kSmallIslandBodies = 16;
inline constexpr int kSmallIslandRows = 64;
/// the largest island of the tree reduction (its complementarity rows: kSmallIslandRows)
inline constexpr int kTreeIslandBodies = 64;

/// true when the island has joint rows and either at most kTreeIslandBodies bodies and
/// kSmallIslandRows complementarity rows (the body tree's, if its body graph is a forest) or fits
/// the dense reduction (M̃ block diagonal: no force couples bodies)
[[nodiscard]] bool fits_small_island(const ConstraintSet& rows, const IslandInput& in);

/// the island's answer by the small path written over `out` (in its memory), or false when the
/// general path must give it (`out` is then unspecified)
[[nodiscard]] bool solve_small_island(const ConstraintSet& rows, const IslandInput& in,
                                      const lcp::LemkeOptions& lemke, IslandOutput& out);

/// the same as a new value, or nullopt
[[nodiscard]] std::optional<IslandOutput> solve_small_island(const ConstraintSet& rows,
                                                             const IslandInput& in,
                                                             const lcp::LemkeOptions& lemke);

}  // namespace pivot::detail
