#pragma once
// A closed triangle mesh of an axis-aligned box, counter-clockwise seen from outside: the test
// fixture of the sdf, point-shell and mesh-distance tests.

#include "pivot/collision/mesh_file.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::test {

/// the box [lo, hi]: 8 vertices (bit k of the index picks hi for axis k), 12 triangles
inline detail::TriangleMesh box_mesh(const Vec3& lo, const Vec3& hi) {
  detail::TriangleMesh m;
  for (int k = 0; k < 8; ++k)
    m.vertices.emplace_back(k & 1 ? hi.x() : lo.x(), k & 2 ? hi.y() : lo.y(),
                            k & 4 ? hi.z() : lo.z());
  m.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                 {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return m;
}

}  // namespace pivot::test
