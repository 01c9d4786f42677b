#pragma once
// Bicubic Bézier surfaces, one patch or many joined along shared edges (Kry 2000 §6.4 and
// App. B use them for the rattleback and the floor; Kry & Pai 2002 §3.5 for the traversal):
//   p(u, v) = Σ_i Σ_j B_i(u) B_j(v) P_ij,  B_i the cubic Bernstein polynomials, (u, v) ∈ [0, 1]²
// Every patch has the domain [0, 1]² with vertices (0,0), (1,0), (1,1), (0,1): edge 0 is v = 0,
// 1 is u = 1, 2 is v = 1, 3 is u = 0. Edges whose boundary curves coincide (same control points,
// either direction) are linked; the others are open. The joins must be tangent-plane continuous
// and p_u × p_v must point out of the solid (Kry & Pai 2002 §3.5).

#include <array>
#include <vector>

#include "pivot/collision/smooth_surface.hpp"

namespace pivot {

/// the 16 control points of one bicubic patch, P_ij at index 4 i + j (i along u, j along v)
using BezierPatch = std::array<Vec3, 16>;

class BezierSurface final : public SmoothSurface {
 public:
  /// at least one patch, finite control points; throws pivot::Error otherwise
  explicit BezierSurface(std::vector<BezierPatch> patches);

  [[nodiscard]] std::string name() const override { return "bezier"; }
  [[nodiscard]] int patch_count() const override { return static_cast<int>(patches_.size()); }
  [[nodiscard]] const PatchDomain& domain(int /*patch*/) const override { return domain_; }
  [[nodiscard]] SurfaceJet evaluate(int patch, const Vec2& uv) const override;
  [[nodiscard]] Vec3 point(int patch, const Vec2& uv) const override;
  [[nodiscard]] PatchEdgeLink neighbour(int patch, int edge) const override {
    return links_[patch][edge];
  }

  [[nodiscard]] const std::vector<BezierPatch>& patches() const { return patches_; }

 private:
  std::vector<BezierPatch> patches_;
  PatchDomain domain_;
  std::vector<std::vector<PatchEdgeLink>> links_;
};

/// the patch split into nu × nv sub-patches of equal parameter size (blossoming: the sub-patch
/// over [a, b] × [c, d] has the control points f(a..b, c..d)); the same surface, C∞ across the
/// new edges. Sub-patch (i, j) is at index i nv + j (i along u).
[[nodiscard]] std::vector<BezierPatch> subdivide_bezier_patch(const BezierPatch& patch, int nu,
                                                              int nv);

/// the same surface with its domain turned by quarter_turns × 90° counter-clockwise:
/// q(u', v') = p(1 − v', u') per turn (orientation p_u × p_v unchanged)
[[nodiscard]] BezierPatch rotate_bezier_parameters(const BezierPatch& patch, int quarter_turns);

/// control points mapped by x → A x + t (Bézier patches are affine invariant)
[[nodiscard]] BezierPatch transform_bezier_patch(const BezierPatch& patch, const Mat3& A,
                                                 const Vec3& t);

}  // namespace pivot
