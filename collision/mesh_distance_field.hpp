#pragma once
// A grid signed distance field of a closed triangle mesh, built with OpenVDB's mesh-to-volume
// conversion (Debian's libopenvdb-dev): exact closest-triangle distances in a band wide enough
// to cover the whole grid, signs from OpenVDB's inside/outside classification, then sampled on
// Pivot's dense grid. The box is the mesh's bounding box grown by a tenth of its largest side
// and two voxels on every side. Barbič 2007, §3.11, uses a cube scaled 1.5× about the centre;
// the smaller box keeps flat parts cheap (a 200 × 100 × 10 mm plate at 1 mm: 2.6M nodes instead
// of 15M), and beyond it the conservative bound d_box + d_boundary answers.

#include "pivot/collision/mesh_file.hpp"
#include "pivot/collision/signed_distance_field.hpp"

namespace pivot::detail {

/// throws pivot::Error for a voxel that is not positive or a grid of more than 512³ nodes
[[nodiscard]] SignedDistanceField mesh_distance_field(const TriangleMesh& mesh, double voxel);

}  // namespace pivot::detail
