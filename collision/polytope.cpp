#include "pivot/collision/polytope.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace pivot::detail {

ContactPoint flipped(const ContactPoint& c) {
  ContactPoint f;
  f.p_WCa = c.p_WCb;
  f.p_WCb = c.p_WCa;
  f.n_BA_W = -c.n_BA_W;
  f.gap = c.gap;
  return f;
}

Polytope make_polytope(const ConvexHull& hull) {
  Polytope P;
  P.vertices = hull.vertices;
  for (const Vec3& v : P.vertices) P.centroid += v;
  P.centroid /= static_cast<double>(P.vertices.size());
  for (const Vec3& v : P.vertices) P.radius = std::max(P.radius, (v - P.centroid).norm());
  auto V = [&](int i) -> const Vec3& { return P.vertices[static_cast<std::size_t>(i)]; };

  // group the triangles by outward normal: on a convex polytope equal normals mean one face
  std::vector<int> tri_face(hull.triangles.size(), -1);
  std::vector<Vec3> group_normal;
  std::vector<std::vector<std::size_t>> group_tris;
  for (std::size_t t = 0; t < hull.triangles.size(); ++t) {
    const auto& tri = hull.triangles[t];
    const Vec3 n = (V(tri[1]) - V(tri[0])).cross(V(tri[2]) - V(tri[0])).normalized();
    int g = -1;
    for (std::size_t k = 0; k < group_normal.size(); ++k)
      if (group_normal[k].dot(n) > 1.0 - 1e-9) {
        g = static_cast<int>(k);
        break;
      }
    if (g < 0) {
      g = static_cast<int>(group_normal.size());
      group_normal.push_back(n);
      group_tris.emplace_back();
    }
    tri_face[t] = g;
    group_tris[static_cast<std::size_t>(g)].push_back(t);
  }
  // each face's boundary: its vertices in counter-clockwise order around the normal
  for (std::size_t g = 0; g < group_normal.size(); ++g) {
    std::vector<int> ids;
    for (const std::size_t t : group_tris[g])
      for (const int i : hull.triangles[t]) ids.push_back(i);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    Vec3 c = Vec3::Zero();
    for (const int i : ids) c += V(i);
    c /= static_cast<double>(ids.size());
    const Vec3& n = group_normal[g];
    const Vec3 u = (std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).cross(n).normalized();
    const Vec3 w = n.cross(u);
    std::vector<std::pair<double, int>> by_angle;
    for (const int i : ids)
      by_angle.emplace_back(std::atan2((V(i) - c).dot(w), (V(i) - c).dot(u)), i);
    std::sort(by_angle.begin(), by_angle.end());
    Polytope::Face face;
    for (const auto& [angle, i] : by_angle) face.loop.push_back(i);
    // Newell's normal of the polygon: robust for many nearly collinear vertices
    Vec3 newell = Vec3::Zero();
    for (std::size_t k = 0; k < face.loop.size(); ++k) {
      const Vec3& a = V(face.loop[k]);
      const Vec3& b = V(face.loop[(k + 1) % face.loop.size()]);
      newell += (a - c).cross(b - c);
    }
    face.normal = newell.norm() > 0.0 ? newell.normalized() : n;
    face.offset = face.normal.dot(c);
    P.faces.push_back(std::move(face));
  }
  // feature edges: shared by triangles of different faces
  std::map<std::pair<int, int>, std::vector<int>> edge_tris;
  for (std::size_t t = 0; t < hull.triangles.size(); ++t) {
    const auto& tri = hull.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const int a = tri[static_cast<std::size_t>(k)],
                b = tri[static_cast<std::size_t>((k + 1) % 3)];
      edge_tris[{std::min(a, b), std::max(a, b)}].push_back(tri_face[t]);
    }
  }
  for (const auto& [e, faces] : edge_tris)
    if (faces.size() == 2 && faces[0] != faces[1])
      P.edges.push_back({e.first, e.second, faces[0], faces[1]});
  return P;
}

Polytope make_box_polytope(const Vec3& h) {
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i)
    corners.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(),
                         (i & 4) ? h.z() : -h.z());
  return make_polytope(convex_hull(corners));
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// a polytope placed in the world
struct Placed {
  const Polytope* P = nullptr;
  PointList v;                                   // world vertices
  PointList n;                                   // world face normals
  boost::container::small_vector<double, 16> d;  // world face offsets
  Vec3 c;                                        // world centroid

  Placed(const Polytope& poly, const Mat3& R, const Vec3& p) : P(&poly) {
    for (const Vec3& x : poly.vertices) v.push_back(R * x + p);
    for (const Polytope::Face& f : poly.faces) {
      n.push_back(R * f.normal);
      d.push_back(f.offset + n.back().dot(p));
    }
    c = R * poly.centroid + p;
  }
  [[nodiscard]] double min_along(const Vec3& dir) const {
    double m = kInf;
    for (const Vec3& x : v) m = std::min(m, dir.dot(x));
    return m;
  }
};

struct FaceQuery {
  int face = -1;
  double separation = -kInf;
};

/// max over A's faces of the distance of B's deepest vertex above the face plane
FaceQuery query_faces(const Placed& A, const Placed& B) {
  FaceQuery q;
  for (std::size_t f = 0; f < A.n.size(); ++f) {
    const double s = B.min_along(A.n[f]) - A.d[f];
    if (s > q.separation) {
      q.separation = s;
      q.face = static_cast<int>(f);
    }
  }
  return q;
}

struct EdgeQuery {
  int edge_a = -1, edge_b = -1;
  double separation = -kInf;
  Vec3 axis = Vec3::UnitZ();  // from A to B
};

/// do the arcs a–b and c–d on the Gauss map cross? (edges of A with face normals a, b and of B
/// with face normals −c, −d build a face of the Minkowski difference; Gregorius 2013)
bool is_minkowski_face(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 bxa = b.cross(a), dxc = d.cross(c);
  const double cba = c.dot(bxa), dba = d.dot(bxa), adc = a.dot(dxc), bdc = b.dot(dxc);
  return cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0;
}

EdgeQuery query_edges(const Placed& A, const Placed& B) {
  EdgeQuery q;
  for (std::size_t i = 0; i < A.P->edges.size(); ++i) {
    const Polytope::Edge& ea = A.P->edges[i];
    const Vec3& pa = A.v[static_cast<std::size_t>(ea.v0)];
    const Vec3 da = A.v[static_cast<std::size_t>(ea.v1)] - pa;
    const Vec3& na0 = A.n[static_cast<std::size_t>(ea.f0)];
    const Vec3& na1 = A.n[static_cast<std::size_t>(ea.f1)];
    for (std::size_t j = 0; j < B.P->edges.size(); ++j) {
      const Polytope::Edge& eb = B.P->edges[j];
      const Vec3& nb0 = B.n[static_cast<std::size_t>(eb.f0)];
      const Vec3& nb1 = B.n[static_cast<std::size_t>(eb.f1)];
      if (!is_minkowski_face(na0, na1, -nb0, -nb1)) continue;
      const Vec3& pb = B.v[static_cast<std::size_t>(eb.v0)];
      const Vec3 db = B.v[static_cast<std::size_t>(eb.v1)] - pb;
      const Vec3 cross = da.cross(db);
      const double length = cross.norm();
      if (length < 1e-3 * da.norm() * db.norm()) continue;  // (nearly) parallel: faces cover it
      Vec3 axis = cross / length;
      if (axis.dot(pa - A.c) < 0.0) axis = -axis;
      const double s = axis.dot(pb - pa);
      if (s > q.separation) {
        q.separation = s;
        q.edge_a = static_cast<int>(i);
        q.edge_b = static_cast<int>(j);
        q.axis = axis;
      }
    }
  }
  return q;
}

/// Sutherland–Hodgman: keeps the part of the polygon with side·x ≤ offset + tol
void clip(const PointList& polygon, const Vec3& side, double offset, double tol, PointList& out) {
  out.clear();
  const std::size_t n = polygon.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Vec3& p = polygon[k];
    const Vec3& q = polygon[(k + 1) % n];
    const double dp = side.dot(p) - offset - tol, dq = side.dot(q) - offset - tol;
    if (dp <= 0.0) out.push_back(p);
    if ((dp <= 0.0) != (dq <= 0.0)) out.push_back(p + (dp / (dp - dq)) * (q - p));
  }
}

/// the incident face for a reference normal n: among the faces around the deepest vertex
/// (the support point in −n), the one most opposed to n, so the deepest vertex is on it
int incident_face_index(const Polytope& P, const PointList& v, const PointList& normals,
                        const Vec3& n) {
  int deepest = 0;
  for (std::size_t i = 1; i < v.size(); ++i)
    if (n.dot(v[i]) < n.dot(v[static_cast<std::size_t>(deepest)])) deepest = static_cast<int>(i);
  int best = -1;
  double most = kInf;
  for (std::size_t g = 0; g < P.faces.size(); ++g) {
    const auto& loop = P.faces[g].loop;
    if (std::find(loop.begin(), loop.end(), deepest) == loop.end()) continue;
    const double dot = normals[g].dot(n);
    if (dot < most) {
      most = dot;
      best = static_cast<int>(g);
    }
  }
  return best < 0 ? 0 : best;
}

/// face contact: the reference face `face` of R, the incident face of I most opposed to it;
/// reference_is_a says which body R is
ContactPoints face_contact(const Placed& R, int face, const Placed& I, bool reference_is_a,
                           double margin, double tol) {
  const Vec3 n = R.n[static_cast<std::size_t>(face)];
  const double d = R.d[static_cast<std::size_t>(face)];
  PointList polygon, reference;
  for (const int i :
       I.P->faces[static_cast<std::size_t>(incident_face_index(*I.P, I.v, I.n, n))].loop)
    polygon.push_back(I.v[static_cast<std::size_t>(i)]);
  for (const int i : R.P->faces[static_cast<std::size_t>(face)].loop)
    reference.push_back(R.v[static_cast<std::size_t>(i)]);
  ContactPoints points;
  for (const Vec3& p :
       clip_to_face(std::move(polygon), {reference.data(), reference.size()}, n, tol)) {
    const double gap = n.dot(p) - d;
    if (gap > margin) continue;
    ContactPoint c;
    const Vec3 on_reference = p - gap * n;
    if (reference_is_a) {
      c.n_BA_W = -n;
      c.p_WCa = on_reference;
      c.p_WCb = p;
    } else {
      c.n_BA_W = n;
      c.p_WCa = p;
      c.p_WCb = on_reference;
    }
    c.gap = gap;
    points.push_back(c);
  }
  return points;
}

}  // namespace

PointList incident_face(const Polytope& P, const Mat3& R, const Vec3& p, const Vec3& n) {
  PointList v, normals;
  for (const Vec3& x : P.vertices) v.push_back(R * x + p);
  for (const Polytope::Face& f : P.faces) normals.push_back(R * f.normal);
  PointList out;
  for (const int i : P.faces[static_cast<std::size_t>(incident_face_index(P, v, normals, n))].loop)
    out.push_back(v[static_cast<std::size_t>(i)]);
  return out;
}

PointList clip_to_face(PointList polygon, std::span<const Vec3> loop, const Vec3& n, double tol) {
  PointList clipped;  // each side's clip from `polygon` into `clipped`, then the two swapped
  for (std::size_t k = 0; k < loop.size() && !polygon.empty(); ++k) {
    const Vec3& a = loop[k];
    const Vec3& b = loop[(k + 1) % loop.size()];
    const Vec3 side = (b - a).cross(n).normalized();  // outward for a counter-clockwise loop
    clip(polygon, side, side.dot(a), tol, clipped);
    polygon.swap(clipped);
  }
  // clipping at a vertex can repeat a point: drop repeats
  PointList out;
  for (const Vec3& p : polygon) {
    bool duplicate = false;
    for (const Vec3& q : out)
      if ((p - q).norm() <= tol) duplicate = true;
    if (!duplicate) out.push_back(p);
  }
  return out;
}

void closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2,
                             Vec3& c1, Vec3& c2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  const double tiny = 1e-300;
  double s = 0.0, t = 0.0;
  if (a <= tiny && e <= tiny) {
    s = t = 0.0;
  } else if (a <= tiny) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= tiny) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;
      s = denom > 1e-14 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  c1 = p1 + s * d1;
  c2 = p2 + t * d2;
}

PolytopeQuery polytope_contacts(const Polytope& A_, const Mat3& R_A, const Vec3& p_A,
                                const Polytope& B_, const Mat3& R_B, const Vec3& p_B,
                                double margin) {
  const Placed A(A_, R_A, p_A), B(B_, R_B, p_B);
  const double scale = std::max(A_.radius, B_.radius);
  const double tol = 1e-9 * scale;
  PolytopeQuery result;

  const FaceQuery fa = query_faces(A, B);
  result.separation = fa.separation;
  if (fa.separation > margin) {
    result.separated = true;
    return result;
  }
  const FaceQuery fb = query_faces(B, A);
  result.separation = std::max(result.separation, fb.separation);
  if (fb.separation > margin) {
    result.separated = true;
    return result;
  }
  const EdgeQuery ee = query_edges(A, B);
  result.separation = std::max(result.separation, ee.separation);
  if (ee.separation > margin) {
    result.separated = true;
    return result;
  }

  // prefer faces over edges (unless the edge axis separates by 2% more) and A's face over B's
  // (unless B's separates by 0.1% more), plus an absolute 1e-6 of the size: ties between
  // equal axes (a box squarely on another) always go the same way (after Gregorius 2013)
  const double face_best = std::max(fa.separation, fb.separation);
  const double abs_tol = 1e-6 * scale;
  if (ee.edge_a >= 0 && ee.separation > face_best + 0.02 * std::abs(face_best) + abs_tol) {
    const Polytope::Edge& ea = A_.edges[static_cast<std::size_t>(ee.edge_a)];
    const Polytope::Edge& eb = B_.edges[static_cast<std::size_t>(ee.edge_b)];
    Vec3 ca, cb;
    closest_points_segments(
        A.v[static_cast<std::size_t>(ea.v0)], A.v[static_cast<std::size_t>(ea.v1)],
        B.v[static_cast<std::size_t>(eb.v0)], B.v[static_cast<std::size_t>(eb.v1)], ca, cb);
    ContactPoint c;
    c.n_BA_W = -ee.axis;  // the axis points from A to B
    c.p_WCa = ca;
    c.p_WCb = cb;
    c.gap = c.n_BA_W.dot(ca - cb);
    if (c.gap <= margin) result.points.push_back(c);
    result.axis_separation = ee.separation;
    return result;
  }
  if (fb.separation > fa.separation + 1e-3 * std::abs(fa.separation) + abs_tol) {
    result.points = face_contact(B, fb.face, A, false, margin, tol);
    result.axis_separation = fb.separation;
  } else {
    result.points = face_contact(A, fa.face, B, true, margin, tol);
    result.axis_separation = fa.separation;
  }
  result.points = reduce_manifold(std::move(result.points));
  return result;
}

std::size_t reduce_manifold_in_place(std::span<ContactPoint> points, std::size_t max_points) {
  if (points.size() <= max_points || max_points < 4) return points.size();
  const Vec3 n = points.front().n_BA_W;
  auto at = [&](std::size_t i) { return Vec3(0.5 * (points[i].p_WCa + points[i].p_WCb)); };
  const std::size_t count = points.size();
  boost::container::small_vector<bool, 32> taken(count, false);
  // 1: the deepest
  std::size_t i0 = 0;
  for (std::size_t i = 1; i < count; ++i)
    if (points[i].gap < points[i0].gap) i0 = i;
  taken[i0] = true;
  // 2: the farthest from it in the contact plane
  auto planar = [&](const Vec3& v) { return Vec3(v - n.dot(v) * n); };
  std::size_t i1 = count;
  double best = -1.0;
  for (std::size_t i = 0; i < count; ++i)
    if (!taken[i] && planar(at(i) - at(i0)).squaredNorm() > best)
      best = planar(at(i) - at(i0)).squaredNorm(), i1 = i;
  taken[i1] = true;
  // 3: the largest triangle
  std::size_t i2 = count;
  best = -1.0;
  for (std::size_t i = 0; i < count; ++i) {
    if (taken[i]) continue;
    const double area = std::abs((at(i1) - at(i0)).cross(at(i) - at(i0)).dot(n));
    if (area > best) best = area, i2 = i;
  }
  taken[i2] = true;
  // 4: the point that adds the most area outside the triangle
  const double orientation = (at(i1) - at(i0)).cross(at(i2) - at(i0)).dot(n) >= 0.0 ? 1.0 : -1.0;
  const std::size_t tri[3] = {i0, i1, i2};
  std::size_t i3 = count;
  best = -kInf;
  for (std::size_t i = 0; i < count; ++i) {
    if (taken[i]) continue;
    double added = -kInf;
    for (int k = 0; k < 3; ++k) {
      const Vec3 a = at(tri[k]), b = at(tri[(k + 1) % 3]);
      added = std::max(added, -orientation * (b - a).cross(at(i) - a).dot(n));
    }
    if (added > best) best = added, i3 = i;
  }
  taken[i3] = true;
  std::size_t kept = 0;  // the taken points to the front, in order (kept ≤ i: no overwrite)
  for (std::size_t i = 0; i < count; ++i)
    if (taken[i]) points[kept++] = points[i];
  return kept;
}

ContactPoints reduce_manifold(ContactPoints points, std::size_t max_points) {
  points.resize(reduce_manifold_in_place({points.data(), points.size()}, max_points));
  return points;
}

std::vector<ContactPoint> reduce_manifold(std::vector<ContactPoint> points,
                                          std::size_t max_points) {
  points.resize(reduce_manifold_in_place(points, max_points));
  return points;
}

}  // namespace pivot::detail
