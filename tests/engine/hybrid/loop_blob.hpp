#pragma once
// Octahedron-based Loop blobs for the hybrid tests: the regular octahedron (six vertices of
// valence 4, extraordinary for Loop, whose regular valence is 6) scaled by `radii`. Every
// triangle has three extraordinary vertices, so LoopSurface subdivides the mesh once: 32
// patches, 24 of them with an EV (the six octahedron vertices, each shared by four patches).
#include <array>
#include <memory>
#include <vector>

#include "pivot/collision/loop_surface.hpp"

namespace pivot::test {

inline std::shared_ptr<const LoopSurface> octahedron_blob(const Vec3& radii) {
  std::vector<Vec3> p = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (Vec3& x : p) x = x.cwiseProduct(radii);
  std::vector<std::array<int, 3>> t = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                       {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  return std::make_shared<LoopSurface>(std::move(p), std::move(t), "octahedron blob");
}

}  // namespace pivot::test
