#include "pivot/collision/sdf_model.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "pivot/collision/mesh_distance_field.hpp"
#include "pivot/core/error.hpp"

namespace pivot::detail {

SdfResolution resolve_sdf_settings(const TriangleMesh& mesh, const SdfShapeSettings& settings) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = -lo;
  for (const Vec3& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  double area = 0.0;
  for (const auto& t : mesh.triangles)
    area += 0.5 * (mesh.vertices[static_cast<std::size_t>(t[1])] -
                   mesh.vertices[static_cast<std::size_t>(t[0])])
                      .cross(mesh.vertices[static_cast<std::size_t>(t[2])] -
                             mesh.vertices[static_cast<std::size_t>(t[0])])
                      .norm();
  SdfResolution r;
  r.voxel = settings.voxel > 0.0 ? settings.voxel : (hi - lo).maxCoeff() / kSdfDefaultCells;
  if (settings.points > 0) {
    r.points = settings.points;
  } else {
    // the sampling rule of Barbič 2007, §3.8: the shell no coarser than the field's voxels
    const double wanted = std::ceil(area / (r.voxel * r.voxel));
    // NaN (an overflowed area over an overflowed voxel²) leaves 0: build_sdf_model refuses it
    r.points = std::isnan(wanted)
                   ? 0
                   : static_cast<int>(std::clamp(wanted, double(kSdfMinDefaultPoints),
                                                 double(kSdfMaxDefaultPoints)));
  }
  return r;
}

std::shared_ptr<const SdfModel> build_sdf_model(const TriangleMesh& mesh,
                                                const SdfShapeSettings& settings,
                                                const std::string& who) {
  check_closed_mesh(mesh, who);
  if (settings.voxel < 0.0 || !std::isfinite(settings.voxel))
    throw Error(fmt::format("{}: voxel must be positive (got {})", who, settings.voxel));
  if (settings.points != 0 && (settings.points < 8 || settings.points > kSdfMaxPoints))
    throw Error(
        fmt::format("{}: points must be in [8, {}] (got {})", who, kSdfMaxPoints, settings.points));
  if (settings.node_budget < 0)
    throw Error(fmt::format("{}: node_budget must be ≥ 0 (got {})", who, settings.node_budget));
  const SdfResolution r = resolve_sdf_settings(mesh, settings);
  // coordinates near 1e154 and beyond overflow the area or the voxel's square: no point count
  // or grid follows from them (the count came out as INT_MIN from a NaN)
  if (!(r.voxel > 0.0) || !std::isfinite(r.voxel * r.voxel) || r.points < 8)
    throw Error(
        fmt::format("{}: the mesh is too large for a distance field: its voxel ({:g} m) "
                    "or its area overflows a double; scale it down",
                    who, r.voxel));
  auto model = std::make_shared<SdfModel>(SdfModel{
      [&] {
        try {
          return mesh_distance_field(mesh, r.voxel);
        } catch (const Error& e) {
          throw Error(fmt::format("{}: {}", who, e.what()));
        }
      }(),
      sample_point_shell(mesh.vertices, mesh.triangles, r.points), r.voxel, settings.node_budget,
      0.0, corner_shell(mesh.vertices, mesh.triangles, kSdfMaxPoints)});
  for (const Vec3& v : mesh.vertices)
    model->bounding_radius = std::max(model->bounding_radius, v.norm());
  return model;
}

}  // namespace pivot::detail
