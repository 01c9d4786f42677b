#pragma once
// A smooth surface moved rigidly: the points and every partial of a base surface mapped by
// x → R x + t (docs/scene-format.md "Smooth surfaces": a scene places a surface in its body's
// shape frame with `position` and `quat_wxyz`). Patches, domains and edge links are the base's;
// a rotation keeps p_u × p_v pointing out of the solid.
#include "pivot/collision/smooth_surface.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::detail {

class TransformedSurface final : public SmoothSurface {
 public:
  /// `base` (not null) seen through the pose X: points X.q_WB p + X.p_WB
  TransformedSurface(SmoothSurfacePtr base, const Pose& X);

  [[nodiscard]] std::string name() const override { return base_->name(); }
  [[nodiscard]] int patch_count() const override { return base_->patch_count(); }
  [[nodiscard]] const PatchDomain& domain(int patch) const override { return base_->domain(patch); }
  [[nodiscard]] SurfaceJet evaluate(int patch, const Vec2& uv) const override {
    return base_->evaluate(patch, uv).transformed(R_, t_);
  }
  [[nodiscard]] Vec3 point(int patch, const Vec2& uv) const override {
    return R_ * base_->point(patch, uv) + t_;
  }
  [[nodiscard]] PatchEdgeLink neighbour(int patch, int edge) const override {
    return base_->neighbour(patch, edge);
  }
  /// the base's closest point to the point moved back into the base's frame
  [[nodiscard]] SurfacePoint closest_point(const Vec3& p_S) const override {
    return base_->closest_point(R_.transpose() * (p_S - t_));
  }
  [[nodiscard]] std::vector<SurfacePoint> samples() const override { return base_->samples(); }
  [[nodiscard]] int chart_count() const override { return base_->chart_count(); }
  [[nodiscard]] const PatchDomain& contact_domain(int patch) const override {
    return base_->contact_domain(patch);
  }
  [[nodiscard]] std::optional<SurfacePoint> across_contact_edge(int patch, int edge,
                                                                double alpha) const override {
    return base_->across_contact_edge(patch, edge, alpha);
  }
  [[nodiscard]] SurfacePoint contact_chart(const SurfacePoint& p) const override {
    return base_->contact_chart(p);
  }

 private:
  SmoothSurfacePtr base_;
  Mat3 R_;
  Vec3 t_;
};

/// `base` placed by X; the base itself when X is the identity (exactly)
[[nodiscard]] SmoothSurfacePtr place_surface(SmoothSurfacePtr base, const Pose& X);

}  // namespace pivot::detail
