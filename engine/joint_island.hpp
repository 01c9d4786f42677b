#pragma once
// An island of joints alone (internal): equality rows and no complementarity rows (m = 0), M̃
// block diagonal and symmetric positive definite (no force couples two bodies; the step's M̃
// without a gyroscopic gradient, and every post-step). Its free rows (island_lcp.hpp)
//
//   A v⁺ − J_eᵀ λ = r,    J_e v⁺ + b_e = 0          (A = M̃)
//
// are a linear system, not an LCP. It is solved in the joints' range space, the Schur complement
// on the joint block (Cline 2002 §4.8.2; Baraff 1996 §5 for its sparsity):
//
//   y = A⁻¹ r,   Z = A⁻¹ J_eᵀ,   C = J_e Z,   C λ = −(b_e + J_e y),   v⁺ = y + Z λ
//
// A⁻¹ through each body's I⁻¹ and 1/m (I and m from IslandInput::mass_blocks when the assembly
// handed them, else read from M̃'s columns); Z row by row, each row's Jacobian on its (at
// most two) bodies; C (ne × ne) from the pairs of rows that share a body, and factored by a dense
// Cholesky C = L Lᵀ (Golub–Van Loan §4.2) in fixed-capacity storage. The rows keep the island's
// order, in which a joint's rows and its neighbours' are close: L has no entry left of the first
// entry of its row in C (the profile, Golub–Van Loan §4.3.5), and the factorization works only
// inside it, so that a chain costs O(ne) rather than O(ne³). The structure (each row's
// island-local bodies, each body's rows, the profile) is kept by each thread and built again
// only when the island's bodies or its rows' bodies differ from the last solve's.
//
// C is positive definite exactly when the rows are independent. A pivot d_j = C_jj − Σ L_jk² at
// most 1e-11 C_jj (row j within 1e-11 of a combination of the rows before it, in the metric A⁻¹)
// says that they may not be: the island is declined, and the small path's rank-revealing
// factorizations (small_island.hpp) decide and report. The answer is then checked on the free
// rows, as the small path's (each residual within 1e-9 of the scale of its terms), and declined
// when the check fails.

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"

namespace pivot::detail {

/// the largest island of this path: equality rows and bodies
inline constexpr int kJointIslandRows = 36;
inline constexpr int kJointIslandBodies = 16;

/// the answer of an island of joints alone written over `out` (in its memory), or false when
/// the island is not one this path takes (complementarity rows, too large, M̃ coupled or not
/// symmetric positive definite) or its rows may be dependent (`out` is then unspecified);
/// out.times measured when `timed` (LemkeOptions::timed), else zeros
[[nodiscard]] bool solve_joint_island(const ConstraintSet& rows, const IslandInput& in,
                                      IslandOutput& out, bool timed = true);

}  // namespace pivot::detail
