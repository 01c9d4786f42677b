#include "pivot/collision/mesh_distance_field.hpp"

#include <cmath>

#include <fmt/core.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/MeshToVolume.h>

#include "pivot/core/error.hpp"

namespace pivot::detail {

SignedDistanceField mesh_distance_field(const TriangleMesh& mesh, double voxel) {
  if (!(voxel > 0.0) || !std::isfinite(voxel))
    throw Error(fmt::format("distance field: the voxel size must be positive (got {})", voxel));
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = -lo;
  for (const Vec3& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const Vec3 extent = hi - lo;
  const double pad = 0.1 * extent.maxCoeff() + 2.0 * voxel;
  // node indices in OpenVDB's index space (world = index · voxel)
  std::array<int, 3> first{}, dims{};
  for (int a = 0; a < 3; ++a) {
    const double i0 = std::floor((lo[a] - pad) / voxel);
    const double i1 = std::ceil((hi[a] + pad) / voxel);
    if (!(i1 - i0 + 1 <= 512.0))
      throw Error(fmt::format("distance field: {} nodes along axis {} (at most 512; use a larger "
                              "voxel than {} m)",
                              i1 - i0 + 1, a, voxel));
    first[static_cast<std::size_t>(a)] = static_cast<int>(i0);
    dims[static_cast<std::size_t>(a)] = static_cast<int>(i1 - i0) + 1;
  }
  openvdb::initialize();
  const auto transform = openvdb::math::Transform::createLinearTransform(voxel);
  std::vector<openvdb::Vec3s> points;
  points.reserve(mesh.vertices.size());
  for (const Vec3& v : mesh.vertices)
    points.emplace_back(static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z()));
  std::vector<openvdb::Vec3I> triangles;
  triangles.reserve(mesh.triangles.size());
  for (const auto& t : mesh.triangles)
    triangles.emplace_back(static_cast<unsigned>(t[0]), static_cast<unsigned>(t[1]),
                           static_cast<unsigned>(t[2]));
  const std::vector<openvdb::Vec4I> quads;
  // bands in voxels: outside, the farthest box corner from the mesh; inside, the deepest point
  // of a solid is at most half its smallest bounding-box side from the surface
  const float outside = static_cast<float>(std::sqrt(3.0) * pad / voxel + 2.0);
  const float inside = static_cast<float>(0.5 * extent.minCoeff() / voxel + 2.0);
  const auto grid = openvdb::tools::meshToSignedDistanceField<openvdb::FloatGrid>(
      *transform, points, triangles, quads, outside, inside);
  const auto accessor = grid->getConstAccessor();
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1]) *
                 static_cast<std::size_t>(dims[2]));
  for (int k = 0; k < dims[2]; ++k)
    for (int j = 0; j < dims[1]; ++j)
      for (int i = 0; i < dims[0]; ++i)
        values.push_back(static_cast<double>(
            accessor.getValue(openvdb::Coord(first[0] + i, first[1] + j, first[2] + k))));
  const Vec3 origin = voxel * Vec3(first[0], first[1], first[2]);
  return SignedDistanceField(origin, voxel, dims, std::move(values));
}

}  // namespace pivot::detail
