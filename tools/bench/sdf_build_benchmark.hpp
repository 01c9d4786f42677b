#pragma once
// Building an sdf shape from a large mesh (the target: a 256³ field from a
// 100k-triangle mesh in under a minute; Barbič 2007 needed about an hour): a closed UV sphere of
// at least `triangles` triangles is written as an OBJ file and loaded by load_sdf_shape with a
// voxel of 1/`resolution` of its diameter, the whole path a scene's sdf shape takes (the OBJ
// reader, OpenVDB's narrow band, Pivot's exact near-surface pass, the point shell and its tree).

#include <iosfwd>

namespace pivot::bench {

struct SdfBuildBenchOptions {
  int triangles = 100000;  ///< at least this many triangles
  int resolution = 256;    ///< voxels across the sphere's diameter
  int points = 4000;       ///< point-shell size
};

void run_sdf_build_benchmark(const SdfBuildBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
