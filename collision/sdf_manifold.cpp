#include "pivot/collision/sdf_manifold.hpp"

#include <memory>

#include "pivot/collision/analytic_distance.hpp"
#include "pivot/collision/ellipsoid_distance.hpp"
#include "pivot/collision/polytope_distance.hpp"
#include "pivot/collision/sdf_model.hpp"

namespace pivot::detail {

namespace {

/// neighbours closer than this many mean spacings of the shell join a patch
constexpr double kLinkSpacings = 2.5;
/// a shell point is a contact only where its normal and the distance's gradient oppose within
/// 60°
constexpr double kFacingCos = 0.5;

}  // namespace

namespace {

/// the touching points of one shell (facing rule applied), appended to `points`
void touching_points(const PointShell& shell, const Mat3& R_A, const Vec3& p_A,
                     const DistanceOracle& oracle, const Mat3& R_B, const Vec3& p_B,
                     const TraversalSettings& settings, TraversalCache& cache,
                     TraversalStats* stats, bool oracle_normals,
                     std::vector<ContactPoint>& points) {
  // the shell's pose in the oracle's frame S = B: x_S = R_Bᵀ (R_A x_A + p_A − p_B)
  const Mat3 R_SA = R_B.transpose() * R_A;
  const Vec3 p_SA = R_B.transpose() * (p_A - p_B);
  const std::vector<ShellHit> hits =
      traverse_point_tree(shell, oracle, R_SA, p_SA, settings, cache, stats);
  points.reserve(points.size() + hits.size());
  for (const ShellHit& h : hits) {
    // a point counts only where its outward normal faces the other body within 60°
    // (N · ∇d ≤ −cos 60°): a face turned away (the far side of a thin part, within the
    // margin) would only forbid separating motion, and at an edge the side face's points
    // grazing a floor (N ⟂ ∇d) would push sideways out of a floor penetration
    const Vec3 N_S = R_SA * shell.normals[static_cast<std::size_t>(h.point)];
    const Vec3 grad_S = oracle.normal(h.p_S);
    if (!(N_S.dot(grad_S) <= -kFacingCos)) continue;
    ContactPoint c;
    c.p_WCa = R_A * shell.points[static_cast<std::size_t>(h.point)] + p_A;
    c.n_BA_W = oracle_normals ? Vec3(R_B * grad_S)
                              : Vec3(-(R_A * shell.normals[static_cast<std::size_t>(h.point)]));
    c.gap = h.d;
    c.p_WCb = c.p_WCa - c.gap * c.n_BA_W;
    points.push_back(c);
  }
}

}  // namespace

std::vector<ContactPoint> shell_contacts(const PointShell& shell, const Mat3& R_A, const Vec3& p_A,
                                         const DistanceOracle& oracle, const Mat3& R_B,
                                         const Vec3& p_B, const TraversalSettings& settings,
                                         TraversalCache& cache, TraversalStats* stats,
                                         bool oracle_normals, const PointShell* corners,
                                         TraversalCache* corner_cache) {
  std::vector<ContactPoint> points;
  touching_points(shell, R_A, p_A, oracle, R_B, p_B, settings, cache, stats, oracle_normals,
                  points);
  if (corners && corner_cache)
    touching_points(*corners, R_A, p_A, oracle, R_B, p_B, settings, *corner_cache, nullptr,
                    oracle_normals, points);
  ReductionSettings reduce;
  reduce.link = kLinkSpacings * shell.spacing;
  if (!oracle_normals) return reduce_patches(points, reduce);
  // against an exact (possibly curved) surface every point is kept while they are no more than
  // the cap: a curved body on the shell's points is held by the few nearest its apex (measured:
  // a 50 g ellipsoid on an sdf block kept ~1e-5 J of jitter for seconds with reduce_patches,
  // and came to rest in 0.3 s without it). Beyond the cap the gaps are true heights over one
  // surface, and the reduction keeps the resting layer's outline and the points a tilt would
  // bring down first (reduce_supporting); reduce_patches' 3D extremes, which ignore the gaps,
  // left a torus on a plane rocking on its deepest point, 7 mm into the plane.
  if (static_cast<int>(points.size()) <= reduce.cap) return points;
  // the resting layer: within a thousandth of the shell's spacing of the deepest gap
  reduce.rest_tolerance = 1e-3 * shell.spacing;
  return reduce_supporting(points, reduce);
}

std::vector<ContactPoint> sdf_pair_manifold(const PartGeometry& A, int body_a, bool fixed_a,
                                            const PartGeometry& B, int body_b, bool fixed_b,
                                            double margin, SdfCaches& caches) {
  const SdfModel& a = *A.shape->sdf;
  const SdfModel& b = *B.shape->sdf;
  // the field on B unless A is fixed, or A is larger and B is not fixed
  const bool field_on_a = fixed_a || (!fixed_b && a.bounding_radius > b.bounding_radius);
  const PartGeometry& shell_part = field_on_a ? B : A;
  const PartGeometry& field_part = field_on_a ? A : B;
  const SdfModel& shell_model = field_on_a ? b : a;
  const SdfModel& field_model = field_on_a ? a : b;
  TraversalSettings settings;
  settings.margin = margin;
  settings.budget = shell_model.node_budget;
  TraversalCache& cache =
      caches.pairs[field_on_a ? std::make_tuple(body_b, body_a, B.leaf, A.leaf)
                              : std::make_tuple(body_a, body_b, A.leaf, B.leaf)];
  std::vector<ContactPoint> out =
      shell_contacts(shell_model.shell, shell_part.R, shell_part.p, field_model.field, field_part.R,
                     field_part.p, settings, cache, &caches.last);
  if (field_on_a)
    for (ContactPoint& c : out) c = flipped(c);
  return out;
}

std::vector<ContactPoint> shell_primitive_manifold(const PartGeometry& A, int body_a,
                                                   const PartGeometry& B, int body_b, double margin,
                                                   SdfCaches& caches) {
  const SdfModel& a = *A.shape->sdf;
  const Shape& s = *B.shape;
  std::unique_ptr<DistanceOracle> oracle;
  switch (s.type) {
    case ShapeType::plane:
      oracle = std::make_unique<PlaneDistance>(s.normal, s.offset);
      break;
    case ShapeType::sphere:
      oracle = std::make_unique<SphereDistance>(s.radius);
      break;
    case ShapeType::box:
      oracle = std::make_unique<BoxDistance>(s.half_extents);
      break;
    case ShapeType::capsule:
      oracle = std::make_unique<CapsuleDistance>(s.radius, s.half_length);
      break;
    case ShapeType::cylinder:
      oracle = std::make_unique<CylinderDistance>(s.radius, s.half_length);
      break;
    case ShapeType::ellipsoid:
      oracle = std::make_unique<EllipsoidDistance>(s.radii);
      break;
    case ShapeType::convex:
      if (!B.polytope) return {};
      oracle = std::make_unique<PolytopeDistance>(*B.polytope);
      break;
    case ShapeType::mesh: {
      auto& surface = caches.mesh_surfaces[&s];
      if (!surface) surface = std::make_shared<const MeshSurface>(s.points, s.triangles);
      oracle = std::make_unique<MeshSurfaceDistance>(*surface, margin);
      break;
    }
    default:
      return {};
  }
  TraversalSettings settings;
  settings.margin = margin;
  settings.budget = a.node_budget;
  return shell_contacts(a.shell, A.R, A.p, *oracle, B.R, B.p, settings,
                        caches.pairs[{body_a, body_b, A.leaf, B.leaf}], &caches.last, true,
                        &a.corners, &caches.corner_pairs[{body_a, body_b, A.leaf, B.leaf}]);
}

}  // namespace pivot::detail
