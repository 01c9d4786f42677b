#pragma once
// What an "sdf" shape carries (internal): its closed mesh's signed distance field and its point
// shell with the nested point tree, both in the shape frame, built once when the shape is made.
// A pair of sdf shapes uses the field of one and the shell of the other (role assignment in
// sdf_manifold.hpp); an sdf shape against a plane, sphere or box uses its shell against the
// primitive's exact distance (analytic_distance.hpp).

#include <memory>
#include <string>

#include "pivot/collision/mesh_file.hpp"
#include "pivot/collision/point_shell.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/collision/signed_distance_field.hpp"

namespace pivot::detail {

struct SdfModel {
  SignedDistanceField field;
  PointShell shell;
  double voxel = 0.0;            ///< the field's spacing, m
  long node_budget = 0;          ///< V_W of the traversal, nodes (0: unlimited)
  double bounding_radius = 0.0;  ///< the largest |vertex| in the shape frame, m
  /// the mesh's vertices as a shell (corner_shell), traversed beside `shell` against exact
  /// distances (sdf_manifold.hpp): a flat-faced mesh's lowest point on a plane is a vertex
  PointShell corners;
};

/// the defaults of SdfShapeSettings resolved for a mesh (voxel and point count)
struct SdfResolution {
  double voxel = 0.0;
  int points = 0;
};
[[nodiscard]] SdfResolution resolve_sdf_settings(const TriangleMesh& mesh,
                                                 const SdfShapeSettings& settings);

/// checks the mesh (closed, outward) and builds the field and the shell; throws pivot::Error
/// prefixed by `who`
[[nodiscard]] std::shared_ptr<const SdfModel> build_sdf_model(const TriangleMesh& mesh,
                                                              const SdfShapeSettings& settings,
                                                              const std::string& who);

}  // namespace pivot::detail
