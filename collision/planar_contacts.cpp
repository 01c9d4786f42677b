#include "pivot/collision/planar_contacts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "pivot/core/error.hpp"

namespace pivot::detail {

namespace {

/// a core placed in the world: vertices and edge normals in world (x, z)
struct WorldCore {
  std::vector<Vec2> v;  ///< counter-clockwise
  std::vector<Vec2> n;  ///< n[i]: unit outward normal of edge v[i] → v[i+1] (cyclic)
  double r = 0.0;       ///< rounding radius

  [[nodiscard]] std::size_t next(std::size_t i) const { return i + 1 == v.size() ? 0 : i + 1; }
};

WorldCore place(const PlanarShape& shape, const PlanarPose& pose) {
  const PlanarCore core = planar_core(shape);
  WorldCore w;
  w.r = core.radius;
  for (const Vec2& v : core.vertices) w.v.push_back(pose.to_world(v));
  for (const Vec2& n : core.normals) w.n.push_back(pose.rotate(n));
  return w;
}

PlanarContact flipped(const PlanarContact& c) {
  PlanarContact f;
  f.p_a = c.p_b;
  f.p_b = c.p_a;
  f.n_ba = -c.n_ba;
  f.gap = c.gap;
  return f;
}

/// the contact between core points a (of A) and b (of B) along n_ba: the surface points are the
/// core points moved by the radii along the normal, p_a = a − r_A n_ba, p_b = b + r_B n_ba;
/// the gap is given (so a face contact keeps its exact signed distance)
PlanarContact contact(const Vec2& a, const Vec2& b, const Vec2& n_ba, double gap, double r_a,
                      double r_b) {
  PlanarContact c;
  c.p_a = a - r_a * n_ba;
  c.p_b = b + r_b * n_ba;
  c.n_ba = n_ba;
  c.gap = gap;
  return c;
}

/// the point of segment [s0, s1] closest to x (its ends exactly at the clamped parameters)
Vec2 closest_on_segment(const Vec2& x, const Vec2& s0, const Vec2& s1) {
  const Vec2 e = s1 - s0;
  const double t = (x - s0).dot(e) / e.squaredNorm();
  if (!(t > 0.0)) return s0;
  if (!(t < 1.0)) return s1;
  return s0 + t * e;
}

/// core A against the half-plane {x : n·x ≤ d} (world) as B: n_ba = n; each point of A's edge
/// most opposed to n (or its one vertex) at its signed distance n·w − d minus A's radius
void core_vs_half_plane(const WorldCore& A, const Vec2& n, double d,
                        std::vector<PlanarContact>& out) {
  std::size_t j = 0;
  for (std::size_t k = 1; k < A.n.size(); ++k)
    if (A.n[k].dot(n) < A.n[j].dot(n)) j = k;
  const std::size_t count = A.v.size() == 1 ? 1 : 2;
  for (std::size_t k = 0; k < count; ++k) {
    const Vec2& w = k == 0 ? A.v[j] : A.v[A.next(j)];
    const double sep = n.dot(w) - d;
    out.push_back(contact(w, w - sep * n, n, sep - A.r, A.r, 0.0));
  }
}

/// core A against the circle of centre c and radius r_b as B: one point. The edge i of A with
/// the largest separation s_i = n_i·(c − v_i); when c is outside A's core and beyond an end of
/// that edge, the closest point is that end vertex (Box2D b2CollidePolygonAndCircle), else the
/// face: n_ba = −n_i, gap = s_i − r_A − r_B.
PlanarContact core_vs_circle(const WorldCore& A, const Vec2& c, double r_b) {
  const double r_sum = A.r + r_b;
  if (A.v.size() == 1) {
    // two circles: gap = |a − c| − r_A − r_B; coincident centres take +z
    const Vec2 d = A.v[0] - c;
    const double dist = d.norm();
    const Vec2 n_ba = dist > 0.0 ? Vec2(d / dist) : Vec2::UnitY();
    return contact(A.v[0], c, n_ba, dist - r_sum, A.r, r_b);
  }
  std::size_t i = 0;
  double s = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < A.n.size(); ++k) {
    const double sk = A.n[k].dot(c - A.v[k]);
    if (sk > s) {
      s = sk;
      i = k;
    }
  }
  // a polygon core containing c: the face of least penetration. A segment (2 vertices) never
  // contains c in this sense: c on its line may lie beyond an end.
  if (A.v.size() == 2 || s > 0.0) {
    const Vec2& v1 = A.v[i];
    const Vec2& v2 = A.v[A.next(i)];
    const Vec2* vertex = nullptr;
    if ((c - v1).dot(v2 - v1) < 0.0)
      vertex = &v1;
    else if ((c - v2).dot(v1 - v2) < 0.0)
      vertex = &v2;
    if (vertex) {
      const Vec2 d = *vertex - c;
      const double dist = d.norm();  // > 0: c lies strictly beyond the vertex
      return contact(*vertex, c, d / dist, dist - r_sum, A.r, r_b);
    }
  }
  const Vec2 n_ba = -A.n[i];
  return contact(c - s * A.n[i], c, n_ba, s - r_sum, A.r, r_b);
}

/// the edge of R with the largest separation from I's vertices, s_i = min_j n_i·(w_j − v_i)
struct Face {
  std::size_t index = 0;
  double separation = -std::numeric_limits<double>::infinity();
};

Face best_face(const WorldCore& R, const WorldCore& I) {
  Face f;
  for (std::size_t i = 0; i < R.n.size(); ++i) {
    double s = std::numeric_limits<double>::infinity();
    for (const Vec2& w : I.v) s = std::min(s, R.n[i].dot(w - R.v[i]));
    if (s > f.separation) {
      f.separation = s;
      f.index = i;
    }
  }
  return f;
}

/// the separation of A and B along the direction of a segment core (A's or B's) and its
/// opposite: the axes the edge normals miss for a segment (two collinear segments apart end to
/// end). −∞ when neither core is a segment.
double segment_axis_separation(const WorldCore& A, const WorldCore& B) {
  double best = -std::numeric_limits<double>::infinity();
  for (const WorldCore* S : {&A, &B}) {
    if (S->v.size() != 2) continue;
    const Vec2 u = (S->v[1] - S->v[0]).normalized();
    double a_lo = std::numeric_limits<double>::infinity(), a_hi = -a_lo;
    double b_lo = a_lo, b_hi = -a_lo;
    for (const Vec2& x : A.v) {
      a_lo = std::min(a_lo, u.dot(x));
      a_hi = std::max(a_hi, u.dot(x));
    }
    for (const Vec2& y : B.v) {
      b_lo = std::min(b_lo, u.dot(y));
      b_hi = std::max(b_hi, u.dot(y));
    }
    best = std::max({best, b_lo - a_hi, a_lo - b_hi});
  }
  return best;
}

/// the closest points of two disjoint cores: the least distance over every vertex of one
/// against every edge of the other (in 2-D one of the two closest points is a vertex)
struct Closest {
  double distance = std::numeric_limits<double>::infinity();
  Vec2 a = Vec2::Zero(), b = Vec2::Zero();
};

Closest closest_points(const WorldCore& A, const WorldCore& B) {
  Closest best;
  for (const Vec2& x : A.v)
    for (std::size_t k = 0; k < B.v.size(); ++k) {
      const Vec2 q = closest_on_segment(x, B.v[k], B.v[B.next(k)]);
      const double d = (x - q).norm();
      if (d < best.distance) best = Closest{d, x, q};
    }
  for (const Vec2& y : B.v)
    for (std::size_t k = 0; k < A.v.size(); ++k) {
      const Vec2 q = closest_on_segment(y, A.v[k], A.v[A.next(k)]);
      const double d = (y - q).norm();
      if (d < best.distance) best = Closest{d, q, y};
    }
  return best;
}

/// the face contact with reference edge i of R and the incident edge of I (the one whose
/// normal is most opposed to R's), clipped to the reference edge's side planes
///   t·(w − v1) ≥ 0 and t·(w − v2) ≤ 0,  t = v2 − v1
/// (Sutherland–Hodgman on a segment). Each clipped point w has the exact separation
/// n·(w − v1) and gap n·(w − v1) − r_R − r_I. `reference_is_a` says whether R is A.
std::vector<PlanarContact> face_contact(const WorldCore& R, std::size_t i, const WorldCore& I,
                                        bool reference_is_a) {
  const Vec2& n = R.n[i];
  const Vec2& v1 = R.v[i];
  const Vec2& v2 = R.v[R.next(i)];
  std::size_t j = 0;
  for (std::size_t k = 1; k < I.n.size(); ++k)
    if (I.n[k].dot(n) < I.n[j].dot(n)) j = k;
  Vec2 w[2] = {I.v[j], I.v[I.next(j)]};

  const Vec2 t = v2 - v1;
  // keep the part of [w0, w1] where dist(w) = side·(w − origin) ≤ 0
  const auto clip = [&w](const Vec2& side, const Vec2& origin) {
    const double d0 = side.dot(w[0] - origin), d1 = side.dot(w[1] - origin);
    if (d0 > 0.0 && d1 > 0.0) return false;
    if (d0 > 0.0)
      w[0] = w[0] + (d0 / (d0 - d1)) * (w[1] - w[0]);
    else if (d1 > 0.0)
      w[1] = w[0] + (d0 / (d0 - d1)) * (w[1] - w[0]);
    return true;
  };
  std::vector<PlanarContact> out;
  if (!clip(-t, v1) || !clip(t, v2)) return out;

  const double r_sum = R.r + I.r;
  for (const Vec2& p : w) {
    const double sep = n.dot(p - v1);
    const Vec2 on_face = p - sep * n;
    if (reference_is_a)
      out.push_back(contact(on_face, p, -n, sep - r_sum, R.r, I.r));
    else
      out.push_back(contact(p, on_face, n, sep - r_sum, I.r, R.r));
  }
  // two capsules: one point unless the segments are parallel (then both ends of the overlap)
  if (R.v.size() == 2 && I.v.size() == 2 &&
      std::abs(cross2(n, I.n[j])) > kPlanarRelativeTolerance) {
    if (out[1].gap < out[0].gap) out[0] = out[1];
    out.pop_back();
  }
  return out;
}

/// two cores of ≥ 2 vertices each (box, polygon, capsule)
std::vector<PlanarContact> core_vs_core(const WorldCore& A, const WorldCore& B, double margin) {
  double scale = 0.0;
  for (const WorldCore* S : {&A, &B})
    for (const Vec2& v : S->v) scale = std::max(scale, v.cwiseAbs().maxCoeff());
  const double tol = kPlanarRelativeTolerance * (1.0 + scale);

  const Face face_a = best_face(A, B);
  const Face face_b = best_face(B, A);
  const bool reference_is_a = !(face_b.separation > face_a.separation + tol);
  const double face_separation = reference_is_a ? face_a.separation : face_b.separation;
  const double separation =
      std::max({face_a.separation, face_b.separation, segment_axis_separation(A, B)});
  const double r_sum = A.r + B.r;
  // every axis's separation is a lower bound of the distance
  if (separation - r_sum > margin) return {};
  if (separation > 0.0) {
    // disjoint cores: a vertex–vertex closest pair lies farther than any face separation
    const Closest c = closest_points(A, B);
    if (c.distance - r_sum > margin) return {};
    if (c.distance - face_separation > tol)
      return {contact(c.a, c.b, (c.a - c.b) / c.distance, c.distance - r_sum, A.r, B.r)};
  }
  return reference_is_a ? face_contact(A, face_a.index, B, true)
                        : face_contact(B, face_b.index, A, false);
}

/// A and B with A not a half-plane
std::vector<PlanarContact> contacts_unfiltered(const PlanarShape& a, const PlanarPose& pose_a,
                                               const PlanarShape& b, const PlanarPose& pose_b,
                                               double margin) {
  const WorldCore A = place(a, pose_a);
  std::vector<PlanarContact> out;
  if (b.type == PlanarShapeType::half_plane) {
    // the world half-plane: n_W·x ≤ offset + n_W·p  (x = R b + p with n·b ≤ offset)
    const Vec2 n_W = pose_b.rotate(b.normal);
    core_vs_half_plane(A, n_W, b.offset + n_W.dot(pose_b.p), out);
    return out;
  }
  const WorldCore B = place(b, pose_b);
  if (B.v.size() == 1) return {core_vs_circle(A, B.v[0], B.r)};
  if (A.v.size() == 1) return {flipped(core_vs_circle(B, A.v[0], A.r))};
  return core_vs_core(A, B, margin);
}

void check_pose(const PlanarPose& pose, const char* which) {
  if (!std::isfinite(pose.theta) || !pose.p.allFinite())
    throw Error(fmt::format("planar contacts: the pose of {} is not finite (θ {}, p [{}, {}])",
                            which, pose.theta, pose.p.x(), pose.p.y()));
}

}  // namespace

std::vector<PlanarContact> planar_contacts(const PlanarShape& a, const PlanarPose& pose_a,
                                           const PlanarShape& b, const PlanarPose& pose_b,
                                           double margin) {
  if (!(margin >= 0.0) || !std::isfinite(margin))
    throw Error(fmt::format("planar contacts: margin must be >= 0 and finite (got {})", margin));
  check_pose(pose_a, "A");
  check_pose(pose_b, "B");
  const bool a_half = a.type == PlanarShapeType::half_plane;
  const bool b_half = b.type == PlanarShapeType::half_plane;
  if (a_half && b_half) return {};
  std::vector<PlanarContact> all;
  if (a_half) {
    for (const PlanarContact& c : contacts_unfiltered(b, pose_b, a, pose_a, margin))
      all.push_back(flipped(c));
  } else {
    all = contacts_unfiltered(a, pose_a, b, pose_b, margin);
  }
  std::vector<PlanarContact> out;
  for (const PlanarContact& c : all)
    if (c.gap <= margin) out.push_back(c);
  return out;
}

}  // namespace pivot::detail
