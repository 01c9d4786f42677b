#pragma once
// A regular chart of a Loop surface around one extraordinary vertex (internal).
//
// Stam's parameterization of the N patches around an EV of valence N is singular at the EV
// (|p_v| ∝ (2λ_1)^m at v + w = 2^-m, λ_1 the subdominant eigenvalue): there a contact frame has
// no limit and the contact rates of the reduced mode blow up or vanish (Kry 2000 §5.1.2, Kry &
// Pai 2002 §3.6). The thesis replaced the surface near the EV by an S-patch (Kry 2000 §5.2) and
// set aside Stam's characteristic map because it needs the inverse of a bivariate quartic and
// the inverse's derivatives. This chart keeps the exact Loop surface and inverts numerically:
//
//   x = Eᵀ (p(v, w) − c_0) / L                                        (chart coordinates)
//
// with c_0 the EV's limit position, E = [e_1 e_2] an orthonormal basis of its limit tangent
// plane (Loop's tangent masks) and L the mean length of the EV's control edges. x is the
// surface's projection onto its tangent plane at the EV, a linear image of the characteristic
// map to first order [DERIVED: a Monge (height-field) chart over the tangent plane]. The surface
// as a function of x, p̃(x) = c_0 + L E x + h(x) n, has p̃_x = L E at the EV: regular. A point
// x is mapped back to (patch, v, w) by Newton's method on x = F(v, w) in the patch of its
// sector, and the jet of p̃ (point and partials to third order) is the patch's jet composed with
// the inverse of F's jet, the series reversion δ(ξ) of F(v_0 + δ) = x + ξ to third order
// (fixed-point iteration in truncated Taylor arithmetic, exact to degree 3).
//
// The EV patches evaluate p − c_0 from control points with c_0 subtracted and the eigenvalue-1
// component removed, so that near the EV the derivatives keep their relative precision (the
// plain points agree in their leading digits there).
//
// Smoothness: the Loop surface is C¹ at an EV and its curvature is bounded for N = 4, 5 (the
// λ_1² eigenvalue of Loop's weights), so in this chart p̃ has bounded second derivatives; its
// third derivatives grow towards the EV like |x|^(log λ/log λ_1 − 3) for the eigenvalues λ below
// λ_1 (the surface is not C³ there in any chart). Points nearer the EV than the image of
// v + w = 2^-36 (|x| ≈ 1e-16 of the chart's radius for valence 4, 1e-12 for valence 5) are
// evaluated at that distance on the same ray.

#include <memory>
#include <optional>
#include <vector>

#include "pivot/collision/loop_patch.hpp"
#include "pivot/collision/smooth_surface.hpp"

namespace pivot::detail {

class LoopEvChart {
 public:
  /// the chart of the EV shared by `patches` (counter-clockwise around it; patch k has the EV at
  /// (0, 0), its ring vertex k at (1, 0) and k + 1 at (0, 1)), with control points C0[k] (the
  /// K = N + 6 points in loop_ev_vertices' order). `cut`: the EV patches hand a contact to the
  /// chart at v + w = cut. Throws pivot::Error when no chart fits (the chart's disk would reach
  /// beyond v + w = 1/2 of some patch, or the tangent plane is degenerate).
  LoopEvChart(std::shared_ptr<const LoopEvBasis> basis, std::vector<int> patches,
              const std::vector<Eigen::MatrixXd>& C0, double cut);

  [[nodiscard]] const std::vector<int>& patches() const { return patches_; }
  /// the chart's domain: a regular 16-gon around x = 0 that covers every v + w ≤ cut with a
  /// margin and lies inside v + w < 1/2 of the patches
  [[nodiscard]] const PatchDomain& domain() const { return domain_; }
  [[nodiscard]] double cut() const { return cut_; }
  [[nodiscard]] const Vec3& limit_position() const { return c0_; }
  /// the limit tangent plane: e_1, e_2 (orthonormal) and the outward normal
  [[nodiscard]] const Vec3& e1() const { return e1_; }
  [[nodiscard]] const Vec3& e2() const { return e2_; }
  [[nodiscard]] const Vec3& normal() const { return n_; }
  [[nodiscard]] double scale() const { return L_; }

  /// x of the point (v, w) of patch `k` (an index into patches())
  [[nodiscard]] Vec2 chart_point(int k, const Vec2& vw) const;
  /// (k, (v, w)) with chart_point(k, vw) = x, or nothing if Newton's method fails
  [[nodiscard]] std::optional<std::pair<int, Vec2>> patch_point(const Vec2& x) const;
  /// p̃ and its partials to third order with respect to x, in the surface frame. Throws
  /// pivot::Error when x cannot be mapped back (far outside the domain).
  [[nodiscard]] SurfaceJet jet(const Vec2& x) const;

 private:
  // the jet of p − c_0 on patch k at (v, w)
  [[nodiscard]] SurfaceJet centred_jet(int k, const Vec2& vw) const;
  [[nodiscard]] std::optional<Vec2> newton(int k, const Vec2& x, Vec2 vw) const;

  std::shared_ptr<const LoopEvBasis> basis_;
  std::vector<int> patches_;
  std::vector<Eigen::MatrixXd> C_;       // centred control points, per patch
  std::vector<Eigen::MatrixXcd> C_hat_;  // and V⁻¹ C with the eigenvalue-1 row zeroed
  Vec3 c0_ = Vec3::Zero(), e1_ = Vec3::UnitX(), e2_ = Vec3::UnitY(), n_ = Vec3::UnitZ();
  double L_ = 1.0;
  double cut_ = 0.125;
  double kappa_ = 1.0;          // |x| ∝ (v + w)^κ near the EV, κ = log λ_1 / log(1/2)
  std::vector<double> sector_;  // angle of each patch's edge (v, 0) in the chart
  std::vector<double> reach_;   // |x| at the middle of each patch's cut line
  double r_min_ = 0.0;          // the smallest |x| evaluated (jet())
  PatchDomain domain_;
};

}  // namespace pivot::detail
