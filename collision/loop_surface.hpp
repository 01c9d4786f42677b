#pragma once
// Loop subdivision surfaces evaluated exactly (J. Stam, "Evaluation of Loop subdivision
// surfaces", SIGGRAPH 1998), for the reduced contact mode: the surfaces of Kry 2000 §5.2 and
// Kry & Pai 2002 §4.2 (the bowl and the table).
//
// The control mesh is a closed or open manifold triangle mesh, triangles counter-clockwise seen
// from outside (then p_u × p_v points out of the solid, as SmoothSurface requires). Every
// triangle whose three vertices are interior (every edge at them has two triangles) is a patch
// over 0 ≤ u, v, u + v ≤ 1 (edge 0 from (0,0) to (1,0), edge 1 to (0,1), edge 2 back): a quartic
// box spline when its vertices have valence 6, Stam's eigenbasis evaluation when one vertex is
// extraordinary (that vertex is put at (0,0)). If some such triangle has more than one
// extraordinary vertex, the mesh is first subdivided once with Loop's rules (Kry 2000 §5.2: after
// one step no triangle has two). Triangles at the boundary of an open mesh are not patches: the
// surface ends at their edges (open edges). The surface is C2 except at extraordinary vertices
// (C1 there, with a parameterization that is singular at the vertex itself).

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "pivot/collision/smooth_surface.hpp"

namespace pivot {

namespace detail {
struct LoopEvBasis;
class LoopEvChart;
}  // namespace detail

class LoopSurface final : public SmoothSurface {
 public:
  /// control points (surface frame, m) and counter-clockwise triangles; `source` names the mesh
  /// in messages. Throws pivot::Error for a non-manifold or badly oriented mesh, non-finite
  /// points, a valence outside [3, 64], or a mesh with no patch (every triangle at a boundary).
  LoopSurface(std::vector<Vec3> points, std::vector<std::array<int, 3>> triangles,
              std::string source = {});
  ~LoopSurface() override;

  [[nodiscard]] std::string name() const override { return "loop"; }
  [[nodiscard]] int patch_count() const override { return static_cast<int>(patches_.size()); }
  [[nodiscard]] const PatchDomain& domain(int patch) const override;
  [[nodiscard]] SurfaceJet evaluate(int patch, const Vec2& uv) const override;
  /// a chart's edges are open here (across_contact_edge crosses them)
  [[nodiscard]] PatchEdgeLink neighbour(int patch, int edge) const override {
    return patch < patch_count() ? patches_[patch].links[edge] : PatchEdgeLink{};
  }
  /// one sample per patch, at its centre
  [[nodiscard]] std::vector<SurfacePoint> samples() const override;

  /// Regular charts around the extraordinary vertices (collision/loop_ev_chart.hpp): one per EV
  /// whose patches all exist, the chart of the surface over its tangent plane there, domain a
  /// 16-gon; its patches hand a contact to it at v + w = kEvChartCut (their contact domain is
  /// the triangle without that corner) and take it back beyond the chart's 16-gon.
  [[nodiscard]] int chart_count() const override { return static_cast<int>(charts_.size()); }
  [[nodiscard]] const PatchDomain& contact_domain(int patch) const override;
  [[nodiscard]] std::optional<SurfacePoint> across_contact_edge(int patch, int edge,
                                                                double alpha) const override;
  [[nodiscard]] SurfacePoint contact_chart(const SurfacePoint& p) const override;
  /// the chart of the EV at (0, 0) of a patch (an index ≥ patch_count()), or −1
  [[nodiscard]] int patch_chart(int patch) const { return patches_[patch].chart; }
  /// the chart's construction, for tests
  [[nodiscard]] const detail::LoopEvChart& ev_chart(int chart) const { return *charts_[chart]; }
  /// where an EV patch hands a contact to its EV's chart: v + w below this
  static constexpr double kEvChartCut = 0.125;

  /// the control mesh the patches are built on (after the global subdivision, if any)
  [[nodiscard]] const std::vector<Vec3>& control_points() const { return points_; }
  /// the corners (a, b, c) of a patch in the control mesh: a at (0,0), b at (1,0), c at (0,1)
  [[nodiscard]] const std::array<int, 3>& patch_corners(int patch) const {
    return patches_[patch].corners;
  }
  /// the valence of the extraordinary vertex at (0,0) of a patch or at the centre of a chart
  /// (an index ≥ patch_count()), or 6 for a regular patch
  [[nodiscard]] int patch_valence(int patch) const;
  /// true when the input mesh was subdivided once (a triangle had two extraordinary vertices)
  [[nodiscard]] bool subdivided() const { return subdivided_; }

 private:
  struct Patch {
    std::array<int, 3> corners{};
    int valence = 6;
    std::array<Vec3, 25> regular{};  // regular patches: monomial coefficients (loop_patch.hpp)
    Eigen::MatrixXd C0;              // EV patches: the K control points
    Eigen::MatrixXcd C_hat;          // and V⁻¹ C0 (Stam 1998 §4)
    std::array<PatchEdgeLink, 3> links{};
    int chart = -1;   // the chart of its EV (an index ≥ patch_count()), −1: none
    int sector = -1;  // its index among the chart's patches
  };
  std::vector<Vec3> points_;
  std::vector<Patch> patches_;
  std::vector<std::shared_ptr<const detail::LoopEvChart>> charts_;
  PatchDomain cut_domain_;  // the contact domain of a patch with a chart
  std::vector<std::shared_ptr<const detail::LoopEvBasis>> bases_;  // by valence (null: unused)
  PatchDomain domain_;
  bool subdivided_ = false;
};

/// a Loop surface whose control mesh is read from a mesh file of any format (as mesh shapes:
/// collision/shape.hpp load_mesh_file), scaled by `scale`; throws pivot::Error naming the file
/// for what it cannot read
[[nodiscard]] std::shared_ptr<const LoopSurface> load_loop_surface(
    const std::string& path, const Vec3& scale = Vec3::Ones());

}  // namespace pivot
