#include "pivot/collision/contact_reduction.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <cstdint>
#include <unordered_map>

namespace pivot::detail {

namespace {

int find_root(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    i = parent[static_cast<std::size_t>(i)];
  }
  return i;
}

double triangle_area(const Vec3& a, const Vec3& b, const Vec3& c) {
  return 0.5 * (b - a).cross(c - a).norm();
}

}  // namespace

std::vector<int> contact_patches(const std::vector<ContactPoint>& points,
                                 const ReductionSettings& settings) {
  const int n = static_cast<int>(points.size());
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  const double link = std::max(settings.link, 1e-12);
  // a spatial hash of cells of the link size: neighbours are in the 27 cells around (cell
  // coordinates packed 21 bits each; the points are near each other, so no wrap-around)
  const auto coord = [&](double x) { return static_cast<std::int64_t>(std::floor(x / link)); };
  const auto key = [](std::int64_t x, std::int64_t y, std::int64_t z) {
    const auto m = [](std::int64_t v) { return static_cast<std::uint64_t>(v) & 0x1FFFFFu; };
    return (m(x) << 42) | (m(y) << 21) | m(z);
  };
  std::unordered_map<std::uint64_t, std::vector<int>> cells;
  cells.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const Vec3& p = points[static_cast<std::size_t>(i)].p_WCa;
    cells[key(coord(p.x()), coord(p.y()), coord(p.z()))].push_back(i);
  }
  for (int i = 0; i < n; ++i) {
    const ContactPoint& a = points[static_cast<std::size_t>(i)];
    const std::int64_t cx = coord(a.p_WCa.x()), cy = coord(a.p_WCa.y()), cz = coord(a.p_WCa.z());
    for (std::int64_t dx = -1; dx <= 1; ++dx)
      for (std::int64_t dy = -1; dy <= 1; ++dy)
        for (std::int64_t dz = -1; dz <= 1; ++dz) {
          const auto it = cells.find(key(cx + dx, cy + dy, cz + dz));
          if (it == cells.end()) continue;
          for (const int j : it->second) {
            if (j <= i) continue;
            const ContactPoint& b = points[static_cast<std::size_t>(j)];
            if ((a.p_WCa - b.p_WCa).norm() > link) continue;
            if (a.n_BA_W.dot(b.n_BA_W) < settings.normal_cos) continue;
            const int ra = find_root(parent, i), rb = find_root(parent, j);
            if (ra != rb) parent[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);
          }
        }
  }
  // patch ids in order of their lowest point index
  std::vector<int> patch(static_cast<std::size_t>(n), -1);
  std::map<int, int> id_of_root;
  for (int i = 0; i < n; ++i) {
    const int r = find_root(parent, i);
    const auto [it, inserted] = id_of_root.emplace(r, static_cast<int>(id_of_root.size()));
    patch[static_cast<std::size_t>(i)] = it->second;
  }
  return patch;
}

std::vector<ContactPoint> reduce_patches(const std::vector<ContactPoint>& points,
                                         const ReductionSettings& settings) {
  const std::vector<int> patch = contact_patches(points, settings);
  const int patches = patch.empty() ? 0 : *std::max_element(patch.begin(), patch.end()) + 1;
  std::vector<std::vector<int>> members(static_cast<std::size_t>(patches));
  for (std::size_t i = 0; i < points.size(); ++i) members[static_cast<std::size_t>(patch[i])].push_back(static_cast<int>(i));

  const auto at = [&](int i) -> const ContactPoint& { return points[static_cast<std::size_t>(i)]; };
  // per patch: the kept points, deepest first
  std::vector<std::vector<int>> kept(static_cast<std::size_t>(patches));
  for (int q = 0; q < patches; ++q) {
    const std::vector<int>& m = members[static_cast<std::size_t>(q)];
    std::vector<int>& k = kept[static_cast<std::size_t>(q)];
    // argmax of a score over the members (first on ties); none when the best score is ≤ tol
    auto best = [&](auto score, double tol) {
      int arg = -1;
      double top = tol;
      for (const int i : m) {
        const double s = score(at(i).p_WCa);
        if (s > top) {
          top = s;
          arg = i;
        }
      }
      return arg;
    };
    int p0 = m.front();
    for (const int i : m)
      if (at(i).gap < at(p0).gap) p0 = i;
    k.push_back(p0);
    const Vec3 a = at(p0).p_WCa;
    const double tiny = 1e-12;
    if (settings.per_patch >= 2) {
      const int p1 = best([&](const Vec3& x) { return (x - a).norm(); }, tiny);
      if (p1 >= 0) {
        k.push_back(p1);
        const Vec3 b = at(p1).p_WCa;
        if (settings.per_patch >= 3) {
          const int p2 = best([&](const Vec3& x) { return triangle_area(a, b, x); }, tiny * tiny);
          if (p2 >= 0) {
            k.push_back(p2);
            const Vec3 c = at(p2).p_WCa;
            const double base = triangle_area(a, b, c);
            if (settings.per_patch >= 4) {
              const int p3 = best(
                  [&](const Vec3& x) {
                    return triangle_area(a, b, x) + triangle_area(b, c, x) + triangle_area(c, a, x) - base;
                  },
                  1e-9 * std::max(base, tiny));
              if (p3 >= 0) k.push_back(p3);
            }
          }
        }
      }
    }
  }
  // patches deepest first (their index on ties), until the cap
  std::vector<int> order(static_cast<std::size_t>(patches));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return at(kept[static_cast<std::size_t>(x)].front()).gap < at(kept[static_cast<std::size_t>(y)].front()).gap;
  });
  std::vector<ContactPoint> out;
  for (const int q : order)
    for (const int i : kept[static_cast<std::size_t>(q)]) {
      if (static_cast<int>(out.size()) >= settings.cap) return out;
      out.push_back(at(i));
    }
  return out;
}

}  // namespace pivot::detail
