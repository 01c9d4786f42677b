#include "pivot/collision/point_shell.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/core.h>

#include "pivot/core/error.hpp"

namespace pivot::detail {

namespace {

/// a uniform double in [0, 1) from a 64-bit draw (portable, unlike std's distributions)
double unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// farthest-point order (Barbič 2007, §3.9.1): start at candidate 0, then repeatedly the
/// candidate whose distance to the chosen set is largest (lowest index on ties); the first
/// `keep` of the order
std::vector<int> farthest_point_order(const std::vector<Vec3>& p, int keep) {
  const std::size_t n = p.size();
  std::vector<double> gap(n, std::numeric_limits<double>::infinity());
  std::vector<int> order;
  order.reserve(static_cast<std::size_t>(keep));
  std::size_t next = 0;
  for (int chosen = 0; chosen < keep; ++chosen) {
    order.push_back(static_cast<int>(next));
    const Vec3 c = p[next];
    gap[next] = -1.0;
    double best = -1.0;
    std::size_t best_i = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (gap[i] < 0.0) continue;
      gap[i] = std::min(gap[i], (p[i] - c).squaredNorm());
      if (gap[i] > best) {
        best = gap[i];
        best_i = i;
      }
    }
    next = best_i;
  }
  return order;
}

}  // namespace

PointShell sample_point_shell(const std::vector<Vec3>& vertices,
                              const std::vector<std::array<int, 3>>& triangles, int count) {
  if (count < 8) throw Error(fmt::format("point shell: needs at least 8 points (got {})", count));
  std::vector<double> cdf;
  std::vector<Vec3> face_normal;
  double area = 0.0;
  for (const auto& t : triangles) {
    const Vec3& a = vertices[static_cast<std::size_t>(t[0])];
    const Vec3& b = vertices[static_cast<std::size_t>(t[1])];
    const Vec3& c = vertices[static_cast<std::size_t>(t[2])];
    const Vec3 n = (b - a).cross(c - a);
    area += 0.5 * n.norm();
    cdf.push_back(area);
    face_normal.push_back(n.norm() > 0.0 ? Vec3(n.normalized()) : Vec3(Vec3::Zero()));
  }
  if (!(area > 0.0)) throw Error("point shell: the mesh has no area");
  // area-weighted candidates: a triangle by the area CDF, a point by the square-root rule
  std::mt19937_64 rng(20070801u);
  const std::size_t candidates = 2 * static_cast<std::size_t>(count);
  std::vector<Vec3> cand_p, cand_n;
  cand_p.reserve(candidates);
  cand_n.reserve(candidates);
  for (std::size_t s = 0; s < candidates; ++s) {
    const double u = unit(rng) * area;
    std::size_t f =
        static_cast<std::size_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    f = std::min(f, triangles.size() - 1);
    while (face_normal[f].isZero() && f > 0) --f;  // never a degenerate triangle
    const auto& t = triangles[f];
    const double r1 = std::sqrt(unit(rng)), r2 = unit(rng);
    const Vec3& a = vertices[static_cast<std::size_t>(t[0])];
    const Vec3& b = vertices[static_cast<std::size_t>(t[1])];
    const Vec3& c = vertices[static_cast<std::size_t>(t[2])];
    cand_p.push_back((1 - r1) * a + r1 * (1 - r2) * b + r1 * r2 * c);
    cand_n.push_back(face_normal[f]);
  }
  const std::vector<int> order = farthest_point_order(cand_p, count);
  std::vector<Vec3> points, normals;
  for (const int i : order) {
    points.push_back(cand_p[static_cast<std::size_t>(i)]);
    normals.push_back(cand_n[static_cast<std::size_t>(i)]);
  }
  return make_point_shell(std::move(points), std::move(normals),
                          std::sqrt(area / static_cast<double>(count)));
}

PointShell corner_shell(const std::vector<Vec3>& vertices,
                        const std::vector<std::array<int, 3>>& triangles, int max_count) {
  std::vector<Vec3> pseudonormal(vertices.size(), Vec3::Zero());
  double area = 0.0;
  for (const auto& t : triangles) {
    const Vec3 n =
        (vertices[static_cast<std::size_t>(t[1])] - vertices[static_cast<std::size_t>(t[0])])
            .cross(vertices[static_cast<std::size_t>(t[2])] -
                   vertices[static_cast<std::size_t>(t[0])]);
    area += 0.5 * n.norm();
    if (!(n.norm() > 0.0)) continue;  // a zero-area triangle has no normal to add
    for (int k = 0; k < 3; ++k) {
      const Vec3& x = vertices[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])];
      const Vec3 a =
          vertices[static_cast<std::size_t>(t[static_cast<std::size_t>((k + 1) % 3)])] - x;
      const Vec3 b =
          vertices[static_cast<std::size_t>(t[static_cast<std::size_t>((k + 2) % 3)])] - x;
      const double angle = std::atan2(a.cross(b).norm(), a.dot(b));
      pseudonormal[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])] +=
          angle * n.normalized();
    }
  }
  std::vector<int> order;
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (pseudonormal[i].norm() > 0.0) order.push_back(static_cast<int>(i));
  if (order.empty()) throw Error("corner shell: the mesh has no area");
  // Fisher–Yates with the portable draw of `unit` (the same order on every machine)
  std::mt19937_64 rng(20070802u);
  for (std::size_t i = order.size(); i > 1; --i) {
    const auto j = std::min(static_cast<std::size_t>(unit(rng) * static_cast<double>(i)), i - 1);
    std::swap(order[i - 1], order[j]);
  }
  if (order.size() > static_cast<std::size_t>(std::max(max_count, 1)))
    order.resize(static_cast<std::size_t>(std::max(max_count, 1)));
  std::vector<Vec3> points, normals;
  for (const int i : order) {
    points.push_back(vertices[static_cast<std::size_t>(i)]);
    normals.push_back(pseudonormal[static_cast<std::size_t>(i)].normalized());
  }
  const double spacing = std::sqrt(area / static_cast<double>(order.size()));
  return make_point_shell(std::move(points), std::move(normals), spacing);
}

PointShell make_point_shell(std::vector<Vec3> points, std::vector<Vec3> normals, double spacing) {
  if (points.empty() || points.size() != normals.size())
    throw Error("point shell: needs points, one normal each");
  PointShell s;
  s.points = std::move(points);
  s.normals = std::move(normals);
  s.spacing = spacing;
  const int n = static_cast<int>(s.points.size());
  // levels of 8, 64, 512, ... points (cumulative), the last one all points (§3.9.1, B = 8)
  for (long size = 8;; size *= 8) {
    s.level_size.push_back(static_cast<int>(std::min<long>(size, n)));
    if (size >= n) break;
  }
  const int levels = s.levels();
  s.first_level.assign(static_cast<std::size_t>(n), 0);
  for (int i = 1; i < levels; ++i)
    for (int k = s.level_size[static_cast<std::size_t>(i - 1)];
         k < s.level_size[static_cast<std::size_t>(i)]; ++k)
      s.first_level[static_cast<std::size_t>(k)] = i;
  int total = 0;
  for (int i = 0; i < levels; ++i) {
    s.level_offset.push_back(total);
    total += s.level_size[static_cast<std::size_t>(i)];
  }
  // parent of a point new at level i + 1: the nearest point of level i (lowest index on ties)
  std::vector<int> parent(static_cast<std::size_t>(n), -1);
  for (int i = 0; i + 1 < levels; ++i) {
    const int lo = s.level_size[static_cast<std::size_t>(i)];
    const int hi = s.level_size[static_cast<std::size_t>(i + 1)];
    for (int m = lo; m < hi; ++m) {
      double best = std::numeric_limits<double>::infinity();
      for (int k = 0; k < lo; ++k) {
        const double d =
            (s.points[static_cast<std::size_t>(m)] - s.points[static_cast<std::size_t>(k)])
                .squaredNorm();
        if (d < best) {
          best = d;
          parent[static_cast<std::size_t>(m)] = k;
        }
      }
    }
  }
  // children, grouped by parent node (counting sort per level)
  s.child_begin.assign(static_cast<std::size_t>(total) + 1, 0);
  for (int m = 0; m < n; ++m) {
    const int i = s.first_level[static_cast<std::size_t>(m)];
    if (i == 0) continue;
    ++s.child_begin[static_cast<std::size_t>(s.level_offset[static_cast<std::size_t>(i - 1)] +
                                             parent[static_cast<std::size_t>(m)]) +
                    1];
  }
  for (int id = 0; id < total; ++id)
    s.child_begin[static_cast<std::size_t>(id) + 1] += s.child_begin[static_cast<std::size_t>(id)];
  s.children.assign(static_cast<std::size_t>(s.child_begin.back()), 0);
  std::vector<int> fill(s.child_begin.begin(), s.child_begin.end() - 1);
  for (int m = 0; m < n; ++m) {
    const int i = s.first_level[static_cast<std::size_t>(m)];
    if (i == 0) continue;
    const int id =
        s.level_offset[static_cast<std::size_t>(i - 1)] + parent[static_cast<std::size_t>(m)];
    s.children[static_cast<std::size_t>(fill[static_cast<std::size_t>(id)]++)] = m;
  }
  // radii: walk each point up its chain of ancestors (a point present at a level is its own
  // ancestor there) and grow every ancestor's sphere to hold it
  s.radius.assign(static_cast<std::size_t>(total), 0.0);
  for (int j = 0; j < n; ++j) {
    int a = j;
    for (int i = levels - 1; i >= 0; --i) {
      if (a >= s.level_size[static_cast<std::size_t>(i)]) a = parent[static_cast<std::size_t>(a)];
      const std::size_t id =
          static_cast<std::size_t>(s.level_offset[static_cast<std::size_t>(i)] + a);
      s.radius[id] = std::max(
          s.radius[id],
          (s.points[static_cast<std::size_t>(j)] - s.points[static_cast<std::size_t>(a)]).norm());
    }
  }
  s.reach.resize(static_cast<std::size_t>(total));
  for (int i = 0; i < levels; ++i)
    for (int k = 0; k < s.level_size[static_cast<std::size_t>(i)]; ++k) {
      const std::size_t id =
          static_cast<std::size_t>(s.level_offset[static_cast<std::size_t>(i)] + k);
      s.reach[id] = s.points[static_cast<std::size_t>(k)].norm() + s.radius[id];
    }
  return s;
}

}  // namespace pivot::detail
