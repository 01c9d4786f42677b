#pragma once
// Exact evaluation of Loop subdivision patches (internal), after J. Stam, "Evaluation of Loop
// subdivision surfaces", SIGGRAPH 1998 (Kry 2000 §5.2 uses the same surfaces).
//
// A triangle (a, b, c) of the control mesh is a patch p(v, w) over 0 ≤ v, w, v + w ≤ 1 with a
// at (0, 0), b at (1, 0), c at (0, 1).
// - Regular (a, b, c of valence 6): a quartic box spline over the 12 control points of the
//   1-rings of a, b, c (Stam 1998 App. A). Lattice positions (v, w) of the 12 points, in the
//   order of `loop_regular_coefficients`:
//     0 (0,−1)  1 (−1,0)  2 (1,−1)  3 (0,0)=a  4 (−1,1)  5 (2,−1)
//     6 (1,0)=b 7 (0,1)=c 8 (−1,2)  9 (2,0)   10 (1,1)  11 (0,2)
// - One extraordinary vertex (EV) of valence N ≠ 6 at a: the K = N + 6 control points
//   (a, its ring from b counter-clockwise, then 5 outer points) are subdivided m times,
//   C_m = A^m C_0 with A the K × K subdivision matrix, until (v, w) scaled by 2^m lies in the
//   band 1/2 ≤ v + w ≤ 1, whose three regular sub-triangles Ω_1..Ω_3 are box splines over
//   12 points B_k C_m (Stam 1998 §3-4: p = b(t_k(v, w))ᵀ B_k A^m C_0). A = V Λ V⁻¹ is
//   diagonalized numerically (Stam §4: the eigenbasis makes the cost independent of m), so
//   p = b(t)ᵀ (B_k V) Λ^m (V⁻¹ C_0). A and B_k are not tabulated: they are the stencils of one
//   Loop step on a synthetic mesh with a valence-N vertex (`loop_ev_basis`).

#include <array>
#include <vector>

#include "pivot/collision/loop_mesh.hpp"
#include "pivot/collision/surface_jet.hpp"

namespace pivot::detail {

/// a quartic patch in monomial form: p(v, w) = Σ_{i+j≤4} a[5 i + j] v^i w^j
using LoopQuartic = std::array<Vec3, 25>;

/// the regular patch's monomial coefficients from its 12 control points (the box-spline basis
/// of Stam 1998 App. A, expanded once)
[[nodiscard]] LoopQuartic loop_regular_coefficients(const std::array<Vec3, 12>& points);

/// point and partials to third order of a quartic at (v, w)
[[nodiscard]] SurfaceJet loop_quartic_jet(const LoopQuartic& a, const Vec2& vw);

/// the regular patch's point and partials to third order at (v, w) (any (v, w): a polynomial)
[[nodiscard]] SurfaceJet loop_regular_jet(const std::array<Vec3, 12>& points, const Vec2& vw);

/// the 12 control vertices of the regular face (a, b, c), in the order above; a, b, c interior
[[nodiscard]] std::array<int, 12> loop_regular_vertices(const LoopMesh& mesh, int a, int b, int c);

/// the N + 6 control vertices of face (a, b, c) with the EV at a; b and c interior, valence 6
[[nodiscard]] std::vector<int> loop_ev_vertices(const LoopMesh& mesh, int a, int b, int c);

/// the subdivision matrices and eigenstructure for an EV of valence N (3 ≤ N ≤ 64)
struct LoopEvBasis {
  int valence = 0;
  Eigen::MatrixXd A;                 ///< K × K subdivision matrix
  std::array<Eigen::MatrixXd, 3> B;  ///< 12 × K: the control points of Ω_1, Ω_2, Ω_3
  /// A = V Λ V⁻¹ reproduced to 1e-12 with cond(V) < 1e6; otherwise (valence 3, whose A is
  /// defective or nearly so) the evaluation multiplies by A m times instead
  bool diagonal = false;
  Eigen::VectorXcd lambda;              ///< eigenvalues (real in theory; complex arithmetic
                                        ///< keeps repeated ones' eigenvectors exact)
  Eigen::MatrixXcd V_inverse;           ///< K × K
  std::array<Eigen::MatrixXcd, 3> Phi;  ///< B_k V, 12 × K
  /// Loop's limit mask over the K points (the left eigenvector of the eigenvalue 1): the EV's
  /// limit position is limit_mask · C_0
  Eigen::RowVectorXd limit_mask;
};

/// builds the basis for valence N; throws pivot::Error for N outside [3, 64]
[[nodiscard]] LoopEvBasis loop_ev_basis(int valence);

/// the jet of an EV patch with control points C_0 (K × 3) at (v, w), with Ĉ = V⁻¹ C_0 when
/// basis.diagonal (the real part of the result is taken). Points nearer the EV than 2^-40 in v + w
/// (or outside past it) are evaluated at v + w = 2^-40 on the same ray (a position error below
/// 1e-12 |p_v|); outside the triangle the nearest sub-triangle's polynomial is extended.
/// `centred`: C_0 has the EV's limit position subtracted (limit_mask · C_0 = 0, the result is
/// p − c_0); the power path (valence 3) then removes the eigenvalue-1 component that rounding
/// brings in at each step, which would otherwise swamp the decaying rest.
[[nodiscard]] SurfaceJet loop_ev_jet(const LoopEvBasis& basis, const Eigen::MatrixXd& C0,
                                     const Eigen::MatrixXcd& C_hat, Vec2 vw, bool centred = false);

}  // namespace pivot::detail
