#pragma once
// A triangle mesh's neighbourhood (internal), for the mesh contacts of the Bullet bridge: per
// triangle its normal and which of its edges are smooth (flat or concave), per vertex whether
// every triangle around it is coplanar.

#include <array>
#include <map>
#include <utility>
#include <vector>

#include "pivot/collision/shape.hpp"

namespace pivot::detail {

/// a triangle mesh's neighbourhood, to drop Bullet's contacts on internal edges (a contact
/// normal tilted at an edge between coplanar triangles is an artefact of the triangulation)
struct MeshInfo {
  std::vector<Vec3> v;  // mesh frame
  std::vector<std::array<int, 3>> t;
  std::vector<Vec3> n;                           // unit normals, mesh frame (zero if degenerate)
  std::vector<std::array<bool, 3>> smooth_edge;  // edge k = t[k]→t[k+1]: flat or concave
  std::vector<bool> flat_vertex;                 // all triangles around it coplanar

  explicit MeshInfo(const Shape& mesh) : v(mesh.points), t(mesh.triangles) {
    for (const auto& tri : t) {
      const Vec3 c = (v[tri[1]] - v[tri[0]]).cross(v[tri[2]] - v[tri[0]]);
      n.push_back(c.norm() > 0.0 ? Vec3(c.normalized()) : Vec3::Zero());
    }
    std::map<std::pair<int, int>, std::vector<std::pair<std::size_t, int>>> edges;
    for (std::size_t i = 0; i < t.size(); ++i)
      for (int k = 0; k < 3; ++k) {
        const int a = t[i][k], b = t[i][(k + 1) % 3];
        edges[{std::min(a, b), std::max(a, b)}].emplace_back(i, k);
      }
    smooth_edge.assign(t.size(), {false, false, false});
    for (const auto& [e, users] : edges) {
      if (users.size() != 2) continue;  // boundary or non-manifold: a real edge
      for (int side = 0; side < 2; ++side) {
        const auto [i, k] = users[static_cast<std::size_t>(side)];
        const auto [j, kj] = users[static_cast<std::size_t>(1 - side)];
        const int opposite = t[j][(kj + 2) % 3];
        const Vec3& a = v[static_cast<std::size_t>(e.first)];
        const double length = (v[static_cast<std::size_t>(e.second)] - a).norm();
        // the neighbour's far vertex not below this triangle's plane: flat or concave edge
        smooth_edge[i][static_cast<std::size_t>(k)] =
            n[i].dot(v[static_cast<std::size_t>(opposite)] - a) >= -1e-9 * length;
      }
    }
    flat_vertex.assign(v.size(), true);
    std::vector<Vec3> first(v.size(), Vec3::Zero());
    for (std::size_t i = 0; i < t.size(); ++i)
      for (const int k : t[i]) {
        auto& f = first[static_cast<std::size_t>(k)];
        if (f.isZero())
          f = n[i];
        else if (f.dot(n[i]) < 1.0 - 1e-9)
          flat_vertex[static_cast<std::size_t>(k)] = false;
      }
  }
};

}  // namespace pivot::detail
