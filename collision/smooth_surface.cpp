#include "pivot/collision/smooth_surface.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "pivot/core/error.hpp"

namespace pivot {

namespace {

double cross_2d(const Vec2& a, const Vec2& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// the bounding box (lo, hi) of a bounded domain's polygon
std::pair<Vec2, Vec2> bounding_box(const PatchDomain& dom) {
  Vec2 lo = dom.vertices[0], hi = dom.vertices[0];
  for (const Vec2& v : dom.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  return {lo, hi};
}
}  // namespace

double PatchDomain::edge_distance(int edge, const Vec2& uv) const {
  const Vec2& a = vertices[edge];
  const Vec2& b = vertices[(edge + 1) % vertices.size()];
  const Vec2 d = b - a;
  // counter-clockwise polygon: the interior is to the left of every edge
  return cross_2d(d, uv - a) / d.norm();
}

bool PatchDomain::contains(const Vec2& uv, double tolerance) const {
  for (int i = 0; i < edge_count(); ++i)
    if (edge_distance(i, uv) < -tolerance) return false;
  return true;
}

Vec2 PatchDomain::edge_point(int edge, double alpha) const {
  const Vec2& a = vertices[edge];
  const Vec2& b = vertices[(edge + 1) % vertices.size()];
  return (1.0 - alpha) * a + alpha * b;
}

double PatchDomain::edge_parameter(int edge, const Vec2& uv) const {
  const Vec2& a = vertices[edge];
  const Vec2& b = vertices[(edge + 1) % vertices.size()];
  const Vec2 d = b - a;
  return d.dot(uv - a) / d.squaredNorm();
}

Vec2 PatchDomain::wrapped(const Vec2& uv) const {
  Vec2 w = uv;
  for (int k = 0; k < 2; ++k) {
    if (period[k] > 0.0) {
      w[k] = std::fmod(w[k], period[k]);
      if (w[k] < 0.0) w[k] += period[k];
      if (w[k] >= period[k]) w[k] = 0.0;  // fmod of a tiny negative number
    }
  }
  return w;
}

PatchEdgeLink SmoothSurface::neighbour(int /*patch*/, int /*edge*/) const {
  return {};
}

std::vector<SurfacePoint> SmoothSurface::samples() const {
  std::vector<SurfacePoint> out;
  constexpr int n = 7;
  for (int patch = 0; patch < patch_count(); ++patch) {
    const PatchDomain& dom = domain(patch);
    if (dom.bounded()) {
      // a grid over the bounding box, keeping the points inside
      const auto [lo, hi] = bounding_box(dom);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const Vec2 uv(lo.x() + (hi.x() - lo.x()) * (i + 0.5) / n,
                        lo.y() + (hi.y() - lo.y()) * (j + 0.5) / n);
          if (dom.contains(uv)) out.push_back({patch, uv});
        }
    } else {
      // periodic coordinates: a grid over one period; others: the origin only
      const int nu = dom.period.x() > 0.0 ? 2 * n : 1;
      const int nv = dom.period.y() > 0.0 ? 2 * n : 1;
      for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j)
          out.push_back({patch, Vec2(dom.period.x() * i / nu, dom.period.y() * j / nv)});
    }
  }
  return out;
}

std::vector<Vec3> surface_grid_points(const SmoothSurface& surface, int n) {
  if (n < 2)
    throw Error(fmt::format("{}: a sampling grid needs n >= 2 (got {})", surface.name(), n));
  std::vector<Vec3> out;
  for (int patch = 0; patch < surface.patch_count(); ++patch) {
    const PatchDomain& dom = surface.domain(patch);
    Vec2 lo = Vec2::Zero(), hi = Vec2::Zero();
    double closed = 1.0;  // 1: the grid includes the far edge; 0: periodic, one period
    if (dom.bounded()) {
      std::tie(lo, hi) = bounding_box(dom);
    } else if (dom.period.x() > 0.0 && dom.period.y() > 0.0) {
      hi = dom.period;
      closed = 0.0;
    } else {
      throw Error(
          fmt::format("{}: an unbounded surface cannot be sampled on a grid", surface.name()));
    }
    const double steps = n - closed;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const Vec2 uv(lo.x() + (hi.x() - lo.x()) * i / steps,
                      lo.y() + (hi.y() - lo.y()) * j / steps);
        if (dom.contains(uv, 1e-12 * (1.0 + (hi - lo).norm())))
          out.push_back(surface.point(patch, uv));
      }
  }
  return out;
}

std::optional<SurfacePoint> across_edge(const SmoothSurface& surface, int patch, int edge,
                                        double alpha) {
  const PatchEdgeLink link = surface.neighbour(patch, edge);
  if (link.open()) return std::nullopt;
  const double beta = link.reversed ? 1.0 - alpha : alpha;
  return SurfacePoint{link.patch, surface.domain(link.patch).edge_point(link.edge, beta)};
}

// Closest point: minimise f(u,v) = ½|p(u,v) − x|². Gradient g = (r·p_u, r·p_v) with r = p − x,
// Hessian A = [p_u·p_u + r·p_uu, p_u·p_v + r·p_uv; ., p_v·p_v + r·p_vv]; a Newton step when A is
// positive definite, else the Gauss-Newton step (r terms dropped). A step that leaves a bounded
// domain is cut at the edge it crosses first; there the walk continues on the neighbour (the
// rest of the step is dropped) or stops at an open edge.
SurfacePoint SmoothSurface::closest_point(const Vec3& x) const {
  SurfacePoint best;
  double best_d = std::numeric_limits<double>::infinity();
  for (const SurfacePoint& s : samples()) {
    const double d = (point(s.patch, s.uv) - x).squaredNorm();
    if (d < best_d) {
      best_d = d;
      best = s;
    }
  }
  if (!std::isfinite(best_d)) throw Error(name() + ": closest_point: the surface has no samples");

  SurfacePoint cur = best;
  for (int iter = 0; iter < 100; ++iter) {
    const SurfaceJet j = evaluate(cur.patch, cur.uv);
    const Vec3 r = j.p - x;
    const Vec2 g(r.dot(j.p_u), r.dot(j.p_v));
    Eigen::Matrix2d A;
    A << j.p_u.dot(j.p_u) + r.dot(j.p_uu), j.p_u.dot(j.p_v) + r.dot(j.p_uv),
        j.p_u.dot(j.p_v) + r.dot(j.p_uv), j.p_v.dot(j.p_v) + r.dot(j.p_vv);
    if (A.determinant() <= 0.0 || A(0, 0) <= 0.0) {
      A << j.p_u.dot(j.p_u), j.p_u.dot(j.p_v), j.p_u.dot(j.p_v), j.p_v.dot(j.p_v);
    }
    Vec2 step = -A.ldlt().solve(g);
    // a step never moves the point by more than a fraction of the surface size seen locally
    const double scale = std::max(j.p_u.norm(), j.p_v.norm());
    const double max_step = 0.5 * std::max(1.0, std::sqrt(best_d)) / std::max(scale, 1e-300);
    if (step.norm() > max_step) step *= max_step / step.norm();
    const PatchDomain& dom = domain(cur.patch);
    const Vec2 next = cur.uv + step;
    if (dom.bounded() && !dom.contains(next)) {
      // the first edge crossed along the step
      double t_hit = 1.0;
      int hit = -1;
      for (int e = 0; e < dom.edge_count(); ++e) {
        const double d0 = dom.edge_distance(e, cur.uv), d1 = dom.edge_distance(e, next);
        if (d1 < 0.0 && d0 >= 0.0) {
          const double t = d0 / (d0 - d1);
          if (t < t_hit || hit < 0) {
            t_hit = t;
            hit = e;
          }
        }
      }
      if (hit < 0) {  // started outside: project back onto the domain by clamping edge by edge
        cur.uv = next;
        for (int e = 0; e < dom.edge_count(); ++e) {
          const double d = dom.edge_distance(e, cur.uv);
          if (d < 0.0) {
            const Vec2 a = dom.vertices[e], b = dom.vertices[(e + 1) % dom.vertices.size()];
            const Vec2 n_in = Vec2(-(b - a).y(), (b - a).x()).normalized();
            cur.uv -= d * n_in;
          }
        }
        continue;
      }
      const Vec2 on_edge = cur.uv + t_hit * step;
      const double alpha = std::clamp(dom.edge_parameter(hit, on_edge), 0.0, 1.0);
      const std::optional<SurfacePoint> other = across_edge(*this, cur.patch, hit, alpha);
      if (!other) {
        cur.uv = dom.edge_point(hit, alpha);
        if (t_hit < 1e-12) break;  // pressing against an open edge: that is the answer
        continue;
      }
      cur = *other;
      continue;
    }
    cur.uv = dom.wrapped(next);
    if (step.norm() * scale < 1e-14 * std::max(1.0, j.p.norm())) break;
  }
  return cur;
}

std::vector<std::vector<PatchEdgeLink>> link_edges_by_geometry(const SmoothSurface& surface,
                                                               double tolerance) {
  const int n = surface.patch_count();
  std::vector<std::vector<PatchEdgeLink>> links(n);
  // three points per edge: start, middle, end
  std::vector<std::vector<std::array<Vec3, 3>>> pts(n);
  for (int p = 0; p < n; ++p) {
    const PatchDomain& dom = surface.domain(p);
    links[p].resize(dom.edge_count());
    for (int e = 0; e < dom.edge_count(); ++e)
      pts[p].push_back({surface.point(p, dom.edge_point(e, 0.0)),
                        surface.point(p, dom.edge_point(e, 0.5)),
                        surface.point(p, dom.edge_point(e, 1.0))});
  }
  auto same = [&](const Vec3& a, const Vec3& b) { return (a - b).norm() <= tolerance; };
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < static_cast<int>(pts[a].size()); ++i)
      for (int b = 0; b < n; ++b)
        for (int j = 0; j < static_cast<int>(pts[b].size()); ++j) {
          if (a == b && i == j) continue;
          const auto& A = pts[a][i];
          const auto& B = pts[b][j];
          if (!same(A[1], B[1])) continue;
          if (same(A[0], B[2]) && same(A[2], B[0]))
            links[a][i] = {b, j, true};
          else if (same(A[0], B[0]) && same(A[2], B[2]))
            links[a][i] = {b, j, false};
        }
  return links;
}

std::optional<SurfacePoint> SmoothSurface::across_contact_edge(int patch, int edge,
                                                               double alpha) const {
  return across_edge(*this, patch, edge, alpha);
}

}  // namespace pivot
