#include "pivot/collision/contact_reduction.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <unordered_map>

namespace pivot::detail {

namespace {

int find_root(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    parent[static_cast<std::size_t>(i)] =
        parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
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
  // cells of the link size: linked points lie in the same or adjacent cells (cell coordinates
  // packed 21 bits each; the points are near each other, so no wrap-around)
  const auto coord = [&](double x) { return static_cast<std::int64_t>(std::floor(x / link)); };
  const auto key = [](std::int64_t x, std::int64_t y, std::int64_t z) {
    const auto m = [](std::int64_t v) { return static_cast<std::uint64_t>(v) & 0x1FFFFFu; };
    return (m(x) << 42) | (m(y) << 21) | m(z);
  };
  // the points sorted by cell (then by index), copied in that order for locality; a cell is a
  // run of this order
  struct Entry {
    std::uint64_t key;
    int point;
  };
  std::vector<Entry> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const Vec3& p = points[static_cast<std::size_t>(i)].p_WCa;
    order[static_cast<std::size_t>(i)] = {key(coord(p.x()), coord(p.y()), coord(p.z())), i};
  }
  std::sort(order.begin(), order.end(), [](const Entry& x, const Entry& y) {
    return x.key != y.key ? x.key < y.key : x.point < y.point;
  });
  std::vector<Vec3> position(static_cast<std::size_t>(n)), normal(static_cast<std::size_t>(n));
  for (std::size_t r = 0; r < order.size(); ++r) {
    const ContactPoint& c = points[static_cast<std::size_t>(order[r].point)];
    position[r] = c.p_WCa;
    normal[r] = c.n_BA_W;
  }
  struct Cell {
    std::int64_t x, y, z;
    int begin, end;  ///< its run in `order`
  };
  std::vector<Cell> cells;
  std::unordered_map<std::uint64_t, int> cell_of_key;
  for (int r = 0; r < n;) {
    int e = r + 1;
    while (e < n &&
           order[static_cast<std::size_t>(e)].key == order[static_cast<std::size_t>(r)].key)
      ++e;
    const Vec3& p = position[static_cast<std::size_t>(r)];
    cell_of_key.emplace(order[static_cast<std::size_t>(r)].key, static_cast<int>(cells.size()));
    cells.push_back({coord(p.x()), coord(p.y()), coord(p.z()), r, e});
    r = e;
  }
  // links between rows r and s of the order; symmetric in r and s (the same distance and dot
  // product either way), so each pair is tested once and the patches do not depend on the order
  // the pairs come in (a union keeps the smaller root: every root is its set's lowest index)
  const auto join = [&](int r, int s) {
    const std::size_t ur = static_cast<std::size_t>(r), us = static_cast<std::size_t>(s);
    if ((position[ur] - position[us]).norm() > link) return;
    if (normal[ur].dot(normal[us]) < settings.normal_cos) return;
    const int ra = find_root(parent, order[ur].point), rb = find_root(parent, order[us].point);
    if (ra != rb) parent[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);
  };
  // every cell with itself and with the 13 of its 26 neighbours that come after it
  // (lexicographically positive offsets): each pair of adjacent cells once
  for (const Cell& c : cells) {
    for (int r = c.begin; r < c.end; ++r)
      for (int s = r + 1; s < c.end; ++s) join(r, s);
    for (std::int64_t dx = 0; dx <= 1; ++dx)
      for (std::int64_t dy = (dx == 0 ? 0 : -1); dy <= 1; ++dy)
        for (std::int64_t dz = (dx == 0 && dy == 0 ? 1 : -1); dz <= 1; ++dz) {
          const auto it = cell_of_key.find(key(c.x + dx, c.y + dy, c.z + dz));
          if (it == cell_of_key.end()) continue;
          const Cell& d = cells[static_cast<std::size_t>(it->second)];
          for (int r = c.begin; r < c.end; ++r)
            for (int s = d.begin; s < d.end; ++s) join(r, s);
        }
  }
  // patch ids in order of their lowest point index
  std::vector<int> patch(static_cast<std::size_t>(n), -1);
  std::vector<int> id_of_root(static_cast<std::size_t>(n), -1);
  int patches = 0;
  for (int i = 0; i < n; ++i) {
    int& id = id_of_root[static_cast<std::size_t>(find_root(parent, i))];
    if (id < 0) id = patches++;
    patch[static_cast<std::size_t>(i)] = id;
  }
  return patch;
}

std::vector<ContactPoint> reduce_patches(const std::vector<ContactPoint>& points,
                                         const ReductionSettings& settings) {
  const std::vector<int> patch = contact_patches(points, settings);
  const int patches = patch.empty() ? 0 : *std::max_element(patch.begin(), patch.end()) + 1;
  std::vector<std::vector<int>> members(static_cast<std::size_t>(patches));
  for (std::size_t i = 0; i < points.size(); ++i)
    members[static_cast<std::size_t>(patch[i])].push_back(static_cast<int>(i));

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
                    return triangle_area(a, b, x) + triangle_area(b, c, x) +
                           triangle_area(c, a, x) - base;
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
    return at(kept[static_cast<std::size_t>(x)].front()).gap <
           at(kept[static_cast<std::size_t>(y)].front()).gap;
  });
  std::vector<ContactPoint> out;
  for (const int q : order)
    for (const int i : kept[static_cast<std::size_t>(q)]) {
      if (static_cast<int>(out.size()) >= settings.cap) return out;
      out.push_back(at(i));
    }
  return out;
}

std::vector<ContactPoint> reduce_supporting(const std::vector<ContactPoint>& points,
                                            const ReductionSettings& settings) {
  const std::vector<int> patch = contact_patches(points, settings);
  const int patches = patch.empty() ? 0 : *std::max_element(patch.begin(), patch.end()) + 1;
  std::vector<std::vector<int>> members(static_cast<std::size_t>(patches));
  for (std::size_t i = 0; i < points.size(); ++i)
    members[static_cast<std::size_t>(patch[i])].push_back(static_cast<int>(i));
  const auto at = [&](int i) -> const ContactPoint& { return points[static_cast<std::size_t>(i)]; };
  std::vector<std::vector<int>> kept(static_cast<std::size_t>(patches));
  for (int q = 0; q < patches; ++q) {
    const std::vector<int>& m = members[static_cast<std::size_t>(q)];
    std::vector<int>& k = kept[static_cast<std::size_t>(q)];
    int p0 = m.front();
    for (const int i : m)
      if (at(i).gap < at(p0).gap) p0 = i;
    k.push_back(p0);
    const auto keep = [&](int i) {
      if (i >= 0 && std::find(k.begin(), k.end(), i) == k.end()) k.push_back(i);
    };
    // the tangent plane at p0: x̄ = (x − p0) − ((x − p0)·n) n, in the basis (u, w)
    const Vec3 n = at(p0).n_BA_W.normalized();
    const Vec3 u = (std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).cross(n).normalized();
    const Vec3 w = n.cross(u);
    const auto flat = [&](int i) {
      const Vec3 d = at(i).p_WCa - at(p0).p_WCa;
      return Vec3(d.dot(u), d.dot(w), 0.0);
    };
    // the resting layer's extremes: the farthest from p0, the largest triangle, the largest
    // added area (first on ties; none when the best is ≤ a tolerance)
    std::vector<int> layer;
    for (const int i : m)
      if (at(i).gap <= at(p0).gap + settings.rest_tolerance) layer.push_back(i);
    const auto best = [&](auto score, double tol) {
      int arg = -1;
      double top = tol;
      for (const int i : layer) {
        const double s = score(flat(i));
        if (s > top) {
          top = s;
          arg = i;
        }
      }
      return arg;
    };
    const Vec3 a = Vec3::Zero();
    const double tiny = 1e-12;
    const int p1 = best([&](const Vec3& x) { return x.norm(); }, tiny);
    if (p1 >= 0) {
      keep(p1);
      const Vec3 b = flat(p1);
      const int p2 = best([&](const Vec3& x) { return triangle_area(a, b, x); }, tiny * tiny);
      if (p2 >= 0) {
        keep(p2);
        const Vec3 c = flat(p2);
        const double base = triangle_area(a, b, c);
        keep(best(
            [&](const Vec3& x) {
              return triangle_area(a, b, x) + triangle_area(b, c, x) + triangle_area(c, a, x) -
                     base;
            },
            1e-9 * std::max(base, tiny)));
      }
    }
    // the first to touch under a tilt of slope s toward each direction
    for (int d = 0; d < settings.guard_directions; ++d) {
      const double angle = 2.0 * std::numbers::pi * d / settings.guard_directions;
      const Vec3 e(std::cos(angle), std::sin(angle), 0.0);
      int arg = -1;
      double low = -tiny;
      for (const int i : m) {
        const double s = (at(i).gap - at(p0).gap) - settings.guard_slope * flat(i).dot(e);
        if (s < low) {
          low = s;
          arg = i;
        }
      }
      keep(arg);
    }
  }
  std::vector<int> order(static_cast<std::size_t>(patches));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return at(kept[static_cast<std::size_t>(x)].front()).gap <
           at(kept[static_cast<std::size_t>(y)].front()).gap;
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
