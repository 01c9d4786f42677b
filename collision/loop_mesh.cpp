#include "pivot/collision/loop_mesh.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "pivot/core/error.hpp"

namespace pivot::detail {

double loop_beta(int n) {
  // Loop 1987; Stam 1998 §2
  const double c = 3.0 / 8.0 + 0.25 * std::cos(2.0 * std::numbers::pi / n);
  return (5.0 / 8.0 - c * c) / n;
}

Vec3 apply_stencil(const LoopStencil& s, const std::vector<Vec3>& points) {
  Vec3 p = Vec3::Zero();
  for (const auto& [i, w] : s) p += w * points[i];
  return p;
}

LoopMesh::LoopMesh(int vertex_count, std::vector<std::array<int, 3>> faces,
                   const std::string& source)
    : vertex_count_(vertex_count), faces_(std::move(faces)) {
  const auto fail = [&](const std::string& what) {
    throw Error(fmt::format("loop surface \"{}\": {}", source, what));
  };
  if (vertex_count_ <= 0 || faces_.empty()) fail("the control mesh has no triangles");
  std::vector<std::vector<int>>& neighbours = neighbours_;
  neighbours.assign(vertex_count_, {});
  for (int f = 0; f < face_count(); ++f) {
    const auto& t = faces_[f];
    // every index checked before any is used (neighbours[b] below)
    for (const int a : t)
      if (a < 0 || a >= vertex_count_)
        fail(fmt::format("triangle {} has vertex index {} out of range", f, a));
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      if (a == b || a == t[(k + 2) % 3]) fail(fmt::format("triangle {} repeats vertex {}", f, a));
      if (!edge_face_.emplace(key(a, b), f).second)
        fail(
            fmt::format("edge {} → {} is used by two triangles in the same direction (a "
                        "non-manifold or inconsistently oriented mesh; triangles {} and {})",
                        a, b, edge_face_.at(key(a, b)), f));
      neighbours[a].push_back(b);
      neighbours[b].push_back(a);
    }
  }
  interior_.assign(vertex_count_, false);
  valence_.assign(vertex_count_, 0);
  first_out_.assign(vertex_count_, -1);
  for (int v = 0; v < vertex_count_; ++v) {
    auto& nb = neighbours[v];
    std::sort(nb.begin(), nb.end());
    nb.erase(std::unique(nb.begin(), nb.end()), nb.end());
    valence_[v] = static_cast<int>(nb.size());
    bool closed = !nb.empty();
    for (const int x : nb) {
      if (face_of_edge(v, x) < 0 || face_of_edge(x, v) < 0) closed = false;
      if (first_out_[v] < 0 && face_of_edge(v, x) >= 0) first_out_[v] = x;
    }
    if (closed) {
      // one fan: walking around v visits every neighbour once
      int x = first_out_[v], steps = 0;
      do {
        x = apex(v, x);
        ++steps;
      } while (x != first_out_[v] && steps <= valence_[v]);
      closed = steps == valence_[v];
    }
    interior_[v] = closed;
  }
}

int LoopMesh::face_of_edge(int a, int b) const {
  const auto it = edge_face_.find(key(a, b));
  return it == edge_face_.end() ? -1 : it->second;
}

int LoopMesh::apex(int a, int b) const {
  const int f = face_of_edge(a, b);
  if (f < 0) return -1;
  const auto& t = faces_[f];
  for (int k = 0; k < 3; ++k)
    if (t[k] == a) return t[(k + 2) % 3];
  return -1;
}

std::vector<int> LoopMesh::ring(int v, int start) const {
  std::vector<int> r;
  r.reserve(valence_[v]);
  int x = start;
  do {
    r.push_back(x);
    x = apex(v, x);
  } while (x != start && x >= 0 && static_cast<int>(r.size()) <= valence_[v]);
  return r;
}

LoopMesh::Refined LoopMesh::subdivide() const {
  std::vector<LoopStencil> stencils(vertex_count_);
  std::unordered_map<long long, int> edge_point;  // undirected key (min, max) → new vertex
  auto boundary_edge = [&](int a, int b) {
    return face_of_edge(a, b) < 0 || face_of_edge(b, a) < 0;
  };

  // vertex points
  for (int v = 0; v < vertex_count_; ++v) {
    if (valence_[v] == 0) {
      stencils[v] = {{v, 1.0}};
      continue;
    }
    if (interior_[v]) {
      const int n = valence_[v];
      const double beta = loop_beta(n);
      stencils[v].emplace_back(v, 1.0 - n * beta);
      for (const int x : ring(v, first_out_[v])) stencils[v].emplace_back(x, beta);
      continue;
    }
    // boundary rule: 3/4 v + 1/8 each boundary neighbour
    std::vector<int> ends;
    for (const int x : neighbours_[v])
      if (boundary_edge(v, x)) ends.push_back(x);
    if (ends.size() != 2)
      throw Error(
          fmt::format("loop surface: vertex {} has {} open edges (expected 0 or 2: the "
                      "mesh must be a manifold)",
                      v, ends.size()));
    stencils[v] = {{v, 0.75}, {ends[0], 0.125}, {ends[1], 0.125}};
  }

  // edge points, one per undirected edge
  auto edge_vertex = [&](int a, int b) {
    const long long k = static_cast<long long>(std::min(a, b)) * vertex_count_ + std::max(a, b);
    const auto it = edge_point.find(k);
    if (it != edge_point.end()) return it->second;
    const int id = static_cast<int>(stencils.size());
    edge_point.emplace(k, id);
    if (boundary_edge(a, b)) {
      stencils.push_back({{a, 0.5}, {b, 0.5}});
    } else {
      stencils.push_back({{a, 0.375}, {b, 0.375}, {apex(a, b), 0.125}, {apex(b, a), 0.125}});
    }
    return id;
  };

  std::vector<std::array<int, 3>> faces;
  faces.reserve(4 * faces_.size());
  for (const auto& t : faces_) {
    const int a = t[0], b = t[1], c = t[2];
    const int ab = edge_vertex(a, b), bc = edge_vertex(b, c), ca = edge_vertex(c, a);
    faces.push_back({a, ab, ca});
    faces.push_back({ab, b, bc});
    faces.push_back({ca, bc, c});
    faces.push_back({ab, bc, ca});
  }
  const int n_new = static_cast<int>(stencils.size());
  return Refined{LoopMesh(n_new, std::move(faces), "subdivided"), std::move(stencils)};
}

}  // namespace pivot::detail
