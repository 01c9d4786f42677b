#include "pivot/collision/convex_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include <fmt/core.h>

#include "pivot/core/error.hpp"

namespace pivot::detail {

double enclosed_volume(const std::vector<Vec3>& vertices,
                       const std::vector<std::array<int, 3>>& triangles) {
  // V = Σ a·(b × c) / 6 over the triangles (a, b, c) (divergence theorem)
  double volume = 0.0;
  for (const auto& t : triangles)
    volume +=
        vertices[static_cast<std::size_t>(t[0])].dot(vertices[static_cast<std::size_t>(t[1])].cross(
            vertices[static_cast<std::size_t>(t[2])])) /
        6.0;
  return volume;
}

namespace {

using Index3 = Eigen::Array3i;

/// a box of voxels [lo, hi) of the grid
struct VoxelBox {
  Index3 lo;
  Index3 hi;
};

/// the mesh's bounding box divided into voxels (about `resolution` along its largest side,
/// a whole number on every side) and which voxel centres are inside the solid, summed so that
/// any box's count is 8 lookups
class VoxelGrid {
 public:
  VoxelGrid(const TriangleMesh& mesh, int resolution) {
    lo_ = mesh.vertices.front();
    Vec3 hi = lo_;
    for (const Vec3& v : mesh.vertices) {
      lo_ = lo_.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
    const Vec3 extent = hi - lo_;
    const double target = extent.maxCoeff() / resolution;
    for (int a = 0; a < 3; ++a) {
      n_[a] = std::max(1, static_cast<int>(std::ceil(extent[a] / target - 1e-9)));
      h_[a] = extent[a] / n_[a];
    }
    classify(mesh);
  }

  [[nodiscard]] const Index3& size() const { return n_; }
  [[nodiscard]] Vec3 corner(const Index3& i) const {
    return lo_ + Vec3(i[0] * h_[0], i[1] * h_[1], i[2] * h_[2]);
  }
  [[nodiscard]] double voxel_volume() const { return h_.prod(); }

  /// inside voxel centres in [lo, hi)
  [[nodiscard]] long count(const Index3& lo, const Index3& hi) const {
    if ((hi <= lo).any()) return 0;
    long sum = 0;
    for (int corner = 0; corner < 8; ++corner) {
      Index3 at;
      int sign = 1;
      for (int a = 0; a < 3; ++a) {
        const bool upper = ((corner >> a) & 1) != 0;
        at[a] = upper ? hi[a] : lo[a];
        if (!upper) sign = -sign;
      }
      sum += sign * prefix_[flat(at)];
    }
    return sum;
  }

  /// the smallest box holding the inside voxels of `box` (empty: lo = hi = box.lo)
  [[nodiscard]] VoxelBox tight(const VoxelBox& box) const {
    VoxelBox t = box;
    if (count(t.lo, t.hi) == 0) return VoxelBox{box.lo, box.lo};
    for (int a = 0; a < 3; ++a) {
      auto slab = [&](int from, int to) {
        Index3 lo = t.lo, hi = t.hi;
        lo[a] = from;
        hi[a] = to;
        return count(lo, hi);
      };
      while (slab(t.lo[a], t.lo[a] + 1) == 0) ++t.lo[a];
      while (slab(t.hi[a] - 1, t.hi[a]) == 0) --t.hi[a];
    }
    return t;
  }

 private:
  [[nodiscard]] std::size_t flat(const Index3& i) const {
    return (static_cast<std::size_t>(i[2]) * static_cast<std::size_t>(n_[1] + 1) +
            static_cast<std::size_t>(i[1])) *
               static_cast<std::size_t>(n_[0] + 1) +
           static_cast<std::size_t>(i[0]);
  }

  // voxel centres along each x row by the parity of the surface crossings before them; the
  // row is moved off the centre by a small irrational fraction of a voxel so that it misses the
  // mesh's edges and vertices, which on a grid-aligned mesh it would otherwise hit
  void classify(const TriangleMesh& mesh) {
    prefix_.assign(static_cast<std::size_t>((n_ + 1).prod()), 0);
    std::vector<double> crossings;
    for (int k = 0; k < n_[2]; ++k)
      for (int j = 0; j < n_[1]; ++j) {
        const double y = lo_.y() + (j + 0.5 + 1.2345678e-5) * h_.y();
        const double z = lo_.z() + (k + 0.5 + 2.3456789e-5) * h_.z();
        crossings.clear();
        for (const auto& t : mesh.triangles) {
          const Vec3& a = mesh.vertices[static_cast<std::size_t>(t[0])];
          const Vec3& b = mesh.vertices[static_cast<std::size_t>(t[1])];
          const Vec3& c = mesh.vertices[static_cast<std::size_t>(t[2])];
          // barycentric coordinates of (y, z) in the triangle's projection on the y–z plane
          const double d = (b.y() - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (b.z() - a.z());
          if (d == 0.0) continue;  // the triangle is parallel to the row
          const double u = ((y - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (z - a.z())) / d;
          const double v = ((b.y() - a.y()) * (z - a.z()) - (y - a.y()) * (b.z() - a.z())) / d;
          if (u < 0.0 || v < 0.0 || u + v > 1.0) continue;
          crossings.push_back(a.x() + u * (b.x() - a.x()) + v * (c.x() - a.x()));
        }
        std::sort(crossings.begin(), crossings.end());
        std::size_t before = 0;
        for (int i = 0; i < n_[0]; ++i) {
          const double x = lo_.x() + (i + 0.5) * h_.x();
          while (before < crossings.size() && crossings[before] < x) ++before;
          if (before % 2 == 1) prefix_[flat(Index3(i + 1, j + 1, k + 1))] = 1;
        }
      }
    // summed-volume table: prefix(i, j, k) = inside voxels in [0, i) × [0, j) × [0, k)
    for (int a = 0; a < 3; ++a)
      for (int k = 1; k <= n_[2]; ++k)
        for (int j = 1; j <= n_[1]; ++j)
          for (int i = 1; i <= n_[0]; ++i) {
            Index3 at(i, j, k);
            Index3 before_at = at;
            --before_at[a];
            prefix_[flat(at)] += prefix_[flat(before_at)];
          }
  }

  Vec3 lo_ = Vec3::Zero();
  Vec3 h_ = Vec3::Zero();
  Index3 n_ = Index3::Zero();
  std::vector<long> prefix_;
};

/// whether p is inside the closed mesh: the parity of the crossings of a ray from p in a fixed
/// direction chosen to miss edges (a point on the surface may answer either way, and either is
/// right for the hull: it is on the solid's boundary)
bool inside(const TriangleMesh& mesh, const Vec3& p) {
  const Vec3 dir = Vec3(1.0, 1.2345678e-4, 2.3456789e-4).normalized();
  int crossings = 0;
  for (const auto& t : mesh.triangles) {
    // Möller–Trumbore: p + s dir = a + u (b − a) + v (c − a), s > 0, u, v ≥ 0, u + v ≤ 1
    const Vec3& a = mesh.vertices[static_cast<std::size_t>(t[0])];
    const Vec3 e1 = mesh.vertices[static_cast<std::size_t>(t[1])] - a;
    const Vec3 e2 = mesh.vertices[static_cast<std::size_t>(t[2])] - a;
    const Vec3 q = dir.cross(e2);
    const double det = e1.dot(q);
    if (det == 0.0) continue;
    const Vec3 r = p - a;
    const double u = r.dot(q) / det;
    if (u < 0.0 || u > 1.0) continue;
    const Vec3 w = r.cross(e1);
    const double v = dir.dot(w) / det;
    if (v < 0.0 || u + v > 1.0) continue;
    if (e2.dot(w) / det > 0.0) ++crossings;
  }
  return crossings % 2 == 1;
}

/// the triangle (a, b, c) clipped to the box [lo, hi] (Sutherland–Hodgman, one face at a
/// time); the corners of what is left are appended to `out`. The part is the closure of the
/// solid inside the open box, so what lies only on the box's boundary is left out: a clipped
/// polygon without area (the triangle touches the box along an edge or at a point), and a
/// triangle in a face's plane whose solid side is outside the box.
void clip_triangle(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& lo, const Vec3& hi,
                   std::vector<Vec3>& out) {
  std::vector<Vec3> poly = {a, b, c};
  std::vector<Vec3> next;
  for (int face = 0; face < 6 && !poly.empty(); ++face) {
    const int axis = face / 2;
    const bool upper = face % 2 == 1;
    const double bound = upper ? hi[axis] : lo[axis];
    // signed distance into the box
    const auto depth = [&](const Vec3& p) { return upper ? bound - p[axis] : p[axis] - bound; };
    next.clear();
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const Vec3& p = poly[i];
      const Vec3& q = poly[(i + 1) % poly.size()];
      const double dp = depth(p), dq = depth(q);
      if (dp >= 0.0) next.push_back(p);
      if ((dp >= 0.0) != (dq >= 0.0)) {
        Vec3 x = p + (dp / (dp - dq)) * (q - p);
        x[axis] = bound;  // exactly on the face
        next.push_back(x);
      }
    }
    poly.swap(next);
  }
  if (poly.size() < 3) return;
  // the polygon's area vector (Newell): none, a segment or a point on the boundary
  Vec3 area = Vec3::Zero();
  for (std::size_t i = 0; i < poly.size(); ++i) area += poly[i].cross(poly[(i + 1) % poly.size()]);
  const double diagonal = (hi - lo).norm();
  if (!(area.norm() > 1e-12 * diagonal * diagonal)) return;
  const Vec3 n = (b - a).cross(c - a);  // outward: the solid is on the −n side
  for (int axis = 0; axis < 3; ++axis)
    for (const bool upper : {false, true}) {
      const double bound = upper ? hi[axis] : lo[axis];
      const bool in_face = std::all_of(poly.begin(), poly.end(),
                                       [&](const Vec3& p) { return p[axis] == bound; });
      // solid beyond the lower face (n along +axis there) or beyond the upper one: outside
      if (in_face && (upper ? n[axis] < 0.0 : n[axis] > 0.0)) return;
    }
  out.insert(out.end(), poly.begin(), poly.end());
}

struct Part {
  VoxelBox box;
  ConvexHull hull;
  double volume = 0.0;  ///< the hull's, m³ (0: no solid in the box)
  double excess = 0.0;  ///< hull volume − the box's inside voxels' volume, m³
};

Part make_part(const TriangleMesh& mesh, const VoxelGrid& grid, const VoxelBox& box) {
  Part part;
  part.box = box;
  const Vec3 lo = grid.corner(box.lo), hi = grid.corner(box.hi);
  std::vector<Vec3> points;
  for (const auto& t : mesh.triangles)
    clip_triangle(mesh.vertices[static_cast<std::size_t>(t[0])],
                  mesh.vertices[static_cast<std::size_t>(t[1])],
                  mesh.vertices[static_cast<std::size_t>(t[2])], lo, hi, points);
  // a corner belongs to the part when the solid fills the box next to it: the test point is
  // moved a hair into the box, so a corner on the solid's surface with the solid outside the
  // box is not taken
  const Vec3 centre = 0.5 * (lo + hi);
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p((corner & 1) ? hi.x() : lo.x(), (corner & 2) ? hi.y() : lo.y(),
                 (corner & 4) ? hi.z() : lo.z());
    if (inside(mesh, p + 1e-9 * (centre - p))) points.push_back(p);
  }
  if (points.size() < 4) return part;
  try {
    part.hull = convex_hull(points);
  } catch (const Error&) {
    return part;  // the solid meets this box in a point, a segment or a face: no volume
  }
  part.volume = enclosed_volume(part.hull.vertices, part.hull.triangles);
  part.excess = part.volume - static_cast<double>(grid.count(box.lo, box.hi)) * grid.voxel_volume();
  return part;
}

/// how badly the inside voxels of `box` fill their bounding box, voxels
long fill_cost(const VoxelGrid& grid, const VoxelBox& box) {
  const VoxelBox t = grid.tight(box);
  return static_cast<long>((t.hi - t.lo).max(0).prod()) - grid.count(box.lo, box.hi);
}

/// the cut of `box` (axis, voxel plane) whose halves fill their bounding boxes best, the
/// plane nearest the middle among equals; none when the inside voxels are one layer thick
std::optional<std::pair<int, int>> best_cut(const VoxelGrid& grid, const VoxelBox& box) {
  const VoxelBox t = grid.tight(box);
  std::optional<std::pair<int, int>> best;
  long best_cost = 0;
  double best_offcentre = 0.0;
  for (int a = 0; a < 3; ++a)
    for (int p = t.lo[a] + 1; p < t.hi[a]; ++p) {
      VoxelBox left = box, right = box;
      left.hi[a] = p;
      right.lo[a] = p;
      const long cost = fill_cost(grid, left) + fill_cost(grid, right);
      const double offcentre = std::abs(p - 0.5 * (t.lo[a] + t.hi[a])) / (t.hi[a] - t.lo[a]);
      if (!best || cost < best_cost || (cost == best_cost && offcentre < best_offcentre)) {
        best = std::pair(a, p);
        best_cost = cost;
        best_offcentre = offcentre;
      }
    }
  return best;
}

}  // namespace

std::vector<ConvexHull> convex_decomposition(const TriangleMesh& mesh,
                                             const ConvexDecompositionSettings& settings,
                                             const std::string& who) {
  if (settings.resolution < 4 || settings.resolution > 256 || settings.max_parts < 1 ||
      settings.max_parts > 256 || !(settings.tolerance >= 0.0))
    throw Error(fmt::format("{}: convex decomposition settings out of range", who));
  const double solid = enclosed_volume(mesh.vertices, mesh.triangles);
  const VoxelGrid grid(mesh, settings.resolution);
  std::vector<Part> parts;
  parts.push_back(make_part(mesh, grid, VoxelBox{Index3::Zero(), grid.size()}));
  std::vector<bool> done(1, false);
  while (static_cast<int>(parts.size()) < settings.max_parts) {
    double total = 0.0;
    for (const Part& p : parts) total += p.volume;
    if (total <= (1.0 + settings.tolerance) * solid) break;
    // the part whose hull exceeds its solid the most, first among equals
    std::size_t worst = parts.size();
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (!done[i] && parts[i].volume > 0.0 &&
          (worst == parts.size() || parts[i].excess > parts[worst].excess))
        worst = i;
    if (worst == parts.size()) break;
    const std::optional<std::pair<int, int>> cut = best_cut(grid, parts[worst].box);
    if (!cut) {
      done[worst] = true;
      continue;
    }
    VoxelBox left = parts[worst].box, right = parts[worst].box;
    left.hi[cut->first] = cut->second;
    right.lo[cut->first] = cut->second;
    parts[worst] = make_part(mesh, grid, left);
    parts.insert(parts.begin() + static_cast<std::ptrdiff_t>(worst) + 1,
                 make_part(mesh, grid, right));
    done.insert(done.begin() + static_cast<std::ptrdiff_t>(worst) + 1, false);
  }
  std::vector<ConvexHull> hulls;
  for (Part& p : parts)
    if (p.volume > 0.0) hulls.push_back(std::move(p.hull));
  if (hulls.empty()) throw Error(fmt::format("{}: the convex decomposition has no part", who));
  return hulls;
}

}  // namespace pivot::detail
