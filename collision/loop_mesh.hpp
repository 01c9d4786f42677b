#pragma once
// A triangle control mesh for Loop subdivision (internal): topology queries and one step of
// Loop's subdivision rules with the stencils of the new vertices.
//
// Loop's rules (C. Loop, "Smooth subdivision surfaces based on triangles", MS thesis, Utah 1987;
// as restated in J. Stam, "Evaluation of Loop subdivision surfaces", SIGGRAPH 1998 §2, and Kry
// 2000 §5.2):
//   vertex point of an interior vertex of valence n: (1 − n β_n) v + β_n Σ ring,
//     β_n = (1/n) (5/8 − (3/8 + 1/4 cos(2π/n))²)
//   edge point of an interior edge (a, b) with opposite vertices c, d: 3/8 (a + b) + 1/8 (c + d)
//   boundary (crease) rules: vertex 3/4 v + 1/8 (two boundary neighbours); edge (a + b)/2.
// Every face (a, b, c) splits into (a', e_ab, e_ca), (e_ab, b', e_bc), (e_ca, e_bc, c') and the
// middle (e_ab, e_bc, e_ca), at indices 4 f + 0 ... 4 f + 3; the vertex point of old vertex i
// keeps index i.

#include <array>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// a row of a stencil: (old vertex, weight) pairs
using LoopStencil = std::vector<std::pair<int, double>>;

class LoopMesh {
 public:
  /// triangles counter-clockwise seen from outside; throws pivot::Error (naming `source`) for an
  /// index out of range, a degenerate triangle, or an edge used twice in the same direction
  /// (non-manifold or inconsistently oriented)
  LoopMesh(int vertex_count, std::vector<std::array<int, 3>> faces, const std::string& source);

  [[nodiscard]] int vertex_count() const { return vertex_count_; }
  [[nodiscard]] int face_count() const { return static_cast<int>(faces_.size()); }
  [[nodiscard]] const std::array<int, 3>& face(int f) const { return faces_[f]; }
  [[nodiscard]] const std::vector<std::array<int, 3>>& faces() const { return faces_; }

  /// the face holding the directed edge a → b, or −1
  [[nodiscard]] int face_of_edge(int a, int b) const;
  /// the third vertex of the face holding a → b, or −1 (the next neighbour of a
  /// counter-clockwise after b)
  [[nodiscard]] int apex(int a, int b) const;
  /// true when every edge at v has faces on both sides
  [[nodiscard]] bool interior(int v) const { return interior_[v]; }
  /// number of edges at v
  [[nodiscard]] int valence(int v) const { return valence_[v]; }
  /// the neighbours of an interior vertex v counter-clockwise, starting at `start`
  [[nodiscard]] std::vector<int> ring(int v, int start) const;
  /// a neighbour of v (the first outgoing edge found)
  [[nodiscard]] int any_neighbour(int v) const { return first_out_[v]; }

  /// one step of Loop subdivision: the new mesh and, per new vertex, its stencil over the old
  /// vertices (interior rules inside, the boundary rules on open edges and their vertices)
  struct Refined;
  [[nodiscard]] Refined subdivide() const;

 private:
  int vertex_count_ = 0;
  std::vector<std::array<int, 3>> faces_;
  std::unordered_map<long long, int> edge_face_;  // key a * n + b → face
  std::vector<bool> interior_;
  std::vector<int> valence_;
  std::vector<int> first_out_;
  std::vector<std::vector<int>> neighbours_;  // sorted, unique
  [[nodiscard]] long long key(int a, int b) const {
    return static_cast<long long>(a) * vertex_count_ + b;
  }
};

struct LoopMesh::Refined {
  LoopMesh mesh;
  std::vector<LoopStencil> stencils;  ///< per new vertex
};

/// Loop's β_n for an interior vertex of valence n (see above)
[[nodiscard]] double loop_beta(int n);

/// the positions a stencil gives
[[nodiscard]] Vec3 apply_stencil(const LoopStencil& s, const std::vector<Vec3>& points);

}  // namespace pivot::detail
