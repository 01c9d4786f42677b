#include "pivot/collision/transformed_surface.hpp"

#include "pivot/core/error.hpp"

namespace pivot::detail {

TransformedSurface::TransformedSurface(SmoothSurfacePtr base, const Pose& X)
    : base_(std::move(base)), R_(X.q_WB.normalized().toRotationMatrix()), t_(X.p_WB) {
  if (!base_) throw Error("transformed surface: no base surface");
  if (!R_.allFinite() || !t_.allFinite())
    throw Error("transformed surface: the pose must be finite");
}

SmoothSurfacePtr place_surface(SmoothSurfacePtr base, const Pose& X) {
  if (X.p_WB == Vec3::Zero() && X.q_WB.coeffs() == Quat::Identity().coeffs()) return base;
  return std::make_shared<TransformedSurface>(std::move(base), X);
}

}  // namespace pivot::detail
