// The distance of a triangle mesh's surface: see mesh_surface_distance.hpp.
#include "pivot/collision/mesh_surface_distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "pivot/collision/triangle_closest.hpp"

namespace pivot::detail {

namespace {

/// at most this many bins (the grid's memory)
constexpr double kMaxBins = 1 << 20;
/// rings searched before a lower bound is returned, beyond those the reach needs
constexpr int kExtraRings = 4;
/// a triangle whose |ab × ac| is at most this times its longest edge squared has zero area (to
/// rounding: a repeated vertex, collinear vertices): it has no normal and is left out
constexpr double kZeroArea = 1e-12;

}  // namespace

MeshSurface::MeshSurface(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles)
    : v_(std::move(vertices)), t_(std::move(triangles)) {
  // pseudonormals (Bærentzen & Aanæs 2005): faces' own, edges the sum of the two faces (the
  // angle-weighted normal of an edge: each face weighted by π), vertices Σ angle · face normal
  // zero-area triangles (kZeroArea) are dropped first: they would add an arbitrary normal
  // (weighted by an angle up to π) to their vertices' and edges' pseudonormals, and they
  // hold no point the other triangles' edges do not
  std::erase_if(t_, [&](const std::array<int, 3>& t) {
    const Vec3 a = v_[static_cast<std::size_t>(t[0])], b = v_[static_cast<std::size_t>(t[1])],
               c = v_[static_cast<std::size_t>(t[2])];
    const double longest2 =
        std::max({(b - a).squaredNorm(), (c - a).squaredNorm(), (c - b).squaredNorm()});
    return !((b - a).cross(c - a).norm() > kZeroArea * longest2);
  });
  face_n_.resize(t_.size());
  vertex_n_.assign(v_.size(), Vec3::Zero());
  std::map<std::pair<int, int>, Vec3> edge_sum;
  for (std::size_t f = 0; f < t_.size(); ++f) {
    const auto& t = t_[f];
    const Vec3 n =
        (v_[static_cast<std::size_t>(t[1])] - v_[static_cast<std::size_t>(t[0])])
            .cross(v_[static_cast<std::size_t>(t[2])] - v_[static_cast<std::size_t>(t[0])]);
    face_n_[f] = n.normalized();  // non-zero: zero-area triangles were dropped
    for (int k = 0; k < 3; ++k) {
      const int a = t[static_cast<std::size_t>(k)], b = t[static_cast<std::size_t>((k + 1) % 3)],
                c = t[static_cast<std::size_t>((k + 2) % 3)];
      const Vec3 e1 = v_[static_cast<std::size_t>(b)] - v_[static_cast<std::size_t>(a)];
      const Vec3 e2 = v_[static_cast<std::size_t>(c)] - v_[static_cast<std::size_t>(a)];
      const double angle = std::atan2(e1.cross(e2).norm(), e1.dot(e2));
      vertex_n_[static_cast<std::size_t>(a)] += angle * face_n_[f];
      // zero at the first face (a default-constructed Eigen vector is uninitialized)
      edge_sum.try_emplace(std::minmax(a, b), Vec3::Zero()).first->second += face_n_[f];
    }
  }
  for (Vec3& n : vertex_n_) n = n.norm() > 0.0 ? Vec3(n.normalized()) : Vec3(Vec3::UnitZ());
  edge_n_.resize(t_.size());
  for (std::size_t f = 0; f < t_.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      const Vec3 s = edge_sum[std::minmax(t_[f][static_cast<std::size_t>(k)],
                                          t_[f][static_cast<std::size_t>((k + 1) % 3)])];
      edge_n_[f][static_cast<std::size_t>(k)] = s.norm() > 0.0 ? Vec3(s.normalized()) : face_n_[f];
    }

  // bins: about the mean triangle box size, at most kMaxBins over the mesh's box
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Vec3& x : v_) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  if (v_.empty()) lo = hi = Vec3::Zero();
  double mean = 0.0;
  for (const auto& t : t_) {
    Vec3 a = v_[static_cast<std::size_t>(t[0])], b = a;
    for (int k = 1; k < 3; ++k) {
      a = a.cwiseMin(v_[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])]);
      b = b.cwiseMax(v_[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])]);
    }
    mean += (b - a).maxCoeff();
  }
  const Vec3 size = (hi - lo).cwiseMax(1e-9);
  bin_ = std::max(t_.empty() ? 1.0 : mean / static_cast<double>(t_.size()),
                  std::cbrt(size.prod() / kMaxBins));
  bin_ = std::max(bin_, size.maxCoeff() / 1024.0);
  origin_ = lo;
  for (int a = 0; a < 3; ++a)
    bins_[static_cast<std::size_t>(a)] = static_cast<int>(std::floor(size[a] / bin_)) + 1;
  members_.assign(static_cast<std::size_t>(bins_[0]) * static_cast<std::size_t>(bins_[1]) *
                      static_cast<std::size_t>(bins_[2]),
                  {});
  auto cell = [&](double x, int a) {
    return std::clamp(static_cast<int>(std::floor((x - origin_[a]) / bin_)), 0,
                      bins_[static_cast<std::size_t>(a)] - 1);
  };
  for (std::size_t f = 0; f < t_.size(); ++f) {
    Vec3 a = v_[static_cast<std::size_t>(t_[f][0])], b = a;
    for (int k = 1; k < 3; ++k) {
      a = a.cwiseMin(v_[static_cast<std::size_t>(t_[f][static_cast<std::size_t>(k)])]);
      b = b.cwiseMax(v_[static_cast<std::size_t>(t_[f][static_cast<std::size_t>(k)])]);
    }
    for (int k = cell(a.z(), 2); k <= cell(b.z(), 2); ++k)
      for (int j = cell(a.y(), 1); j <= cell(b.y(), 1); ++j)
        for (int i = cell(a.x(), 0); i <= cell(b.x(), 0); ++i)
          members_[static_cast<std::size_t>(i + bins_[0] * (j + bins_[1] * k))].push_back(
              static_cast<int>(f));
  }
}

MeshSurface::Nearest MeshSurface::nearest(const Vec3& p, double reach) const {
  Nearest out;
  // how far outside the grid p is: rings start covering the grid only beyond that
  const Vec3 top = origin_ + bin_ * Vec3(bins_[0], bins_[1], bins_[2]);
  const double outside = (origin_ - p).cwiseMax(p - top).cwiseMax(0.0).norm();
  if (outside > reach) {
    out.u = outside;  // every triangle lies in the grid's box
    return out;
  }
  std::array<int, 3> c{};
  double wall = std::numeric_limits<double>::infinity();  // p's distance to its cell's walls
  for (int a = 0; a < 3; ++a) {
    const double x = (p[a] - origin_[a]) / bin_;
    c[static_cast<std::size_t>(a)] = static_cast<int>(std::floor(x));
    const double frac = x - std::floor(x);
    wall = std::min(wall, bin_ * std::min(frac, 1.0 - frac));
  }
  const int rings = static_cast<int>(std::ceil(reach / bin_)) + kExtraRings;
  double best2 = std::numeric_limits<double>::infinity();
  double covered = 0.0;
  for (int ring = 0; ring <= rings; ++ring) {
    for (int k = c[2] - ring; k <= c[2] + ring; ++k) {
      if (k < 0 || k >= bins_[2]) continue;
      for (int j = c[1] - ring; j <= c[1] + ring; ++j) {
        if (j < 0 || j >= bins_[1]) continue;
        for (int i = c[0] - ring; i <= c[0] + ring; ++i) {
          if (i < 0 || i >= bins_[0]) continue;
          // only the ring's shell of cells
          if (std::max({std::abs(i - c[0]), std::abs(j - c[1]), std::abs(k - c[2])}) != ring)
            continue;
          for (const int f :
               members_[static_cast<std::size_t>(i + bins_[0] * (j + bins_[1] * k))]) {
            const auto& t = t_[static_cast<std::size_t>(f)];
            const TriangleClosest q = closest_on_triangle(p, v_[static_cast<std::size_t>(t[0])],
                                                          v_[static_cast<std::size_t>(t[1])],
                                                          v_[static_cast<std::size_t>(t[2])]);
            const double d2 = (p - q.point).squaredNorm();
            if (!(d2 < best2)) continue;  // also a NaN never replaces the best
            best2 = d2;
            out.point = q.point;
            using F = TriangleFeature;
            switch (q.feature) {
              case F::vertex_a:
                out.pseudonormal = vertex_n_[static_cast<std::size_t>(t[0])];
                break;
              case F::vertex_b:
                out.pseudonormal = vertex_n_[static_cast<std::size_t>(t[1])];
                break;
              case F::vertex_c:
                out.pseudonormal = vertex_n_[static_cast<std::size_t>(t[2])];
                break;
              case F::edge_ab:
                out.pseudonormal = edge_n_[static_cast<std::size_t>(f)][0];
                break;
              case F::edge_bc:
                out.pseudonormal = edge_n_[static_cast<std::size_t>(f)][1];
                break;
              case F::edge_ac:
                out.pseudonormal = edge_n_[static_cast<std::size_t>(f)][2];
                break;
              case F::face:
                out.pseudonormal = face_n_[static_cast<std::size_t>(f)];
                break;
            }
          }
        }
      }
    }
    // the cells within `ring` rings hold every triangle that reaches the ball of radius
    // ring · bin + wall about p
    covered = ring * bin_ + wall;
    if (best2 <= covered * covered) {
      out.u = std::sqrt(best2);
      out.exact = true;
      return out;
    }
    if (covered > reach && !std::isfinite(best2)) break;
  }
  out.u = std::isfinite(best2) ? std::min(std::sqrt(best2), covered) : covered;
  out.exact = false;
  return out;
}

double MeshSurfaceDistance::distance(const Vec3& p) const {
  const MeshSurface::Nearest n = S_.nearest(p, margin_);
  if (!n.exact || n.u > margin_) return std::max(n.u, std::nextafter(margin_, 1e300));
  return (p - n.point).dot(n.pseudonormal) < 0.0 ? -n.u : n.u;
}

Vec3 MeshSurfaceDistance::normal(const Vec3& p) const {
  const MeshSurface::Nearest n = S_.nearest(p, margin_);
  if (!n.exact) return n.pseudonormal;
  const Vec3 d = p - n.point;
  const double len = d.norm();
  // the direction away from the surface on p's side; on the surface, the pseudonormal
  if (len <= 1e-12) return n.pseudonormal;
  return d.dot(n.pseudonormal) < 0.0 ? Vec3(-d / len) : Vec3(d / len);
}

}  // namespace pivot::detail
