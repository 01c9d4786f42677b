#pragma once
// The pair table (internal): which contact manifold two leaf shape types get, in the style of
// Box2D v3's contact registers. One rule list decides every ordered pair; the table is built
// from it once, and the narrow phase does one lookup per part pair. A swapped entry means "run
// the manifold with the parts exchanged, then flip the points": each manifold is written for
// one order only, and the flip is done in one place (collision_world.cpp, narrow).
//
// Why these manifolds (a resting box needs its 4 corners in one call, which Bullet's own
// algorithms give only over several frames or only when penetrating):
//   · any shape against a plane is analytic and exact (box and hull: every vertex within
//     the margin; capsule: both end spheres; cylinder: 4 fixed rim points per cap and the
//     deepest rim point; sphere, ellipsoid: the support point);
//   · box/hull against box/hull: separating axes + face clipping (polytope.cpp), exact;
//     a separated pair whose SAT value is only a lower bound is refereed by GJK, and a
//     penetrating pair whose deepest vertex was clipped away gets EPA's point added;
//   · sphere–sphere, sphere–capsule, capsule–capsule: analytic (segment closest points;
//     parallel capsules get both ends of their overlap);
//   · a capsule against a box/hull/ellipsoid/cylinder/mesh: GJK's point plus its end
//     spheres, so a lying capsule rests on two points;
//   · against a mesh, a box/hull face contact becomes the clipped face (as on a plane),
//     and contacts on edges between coplanar triangles are dropped;
//   · the rest (cylinder, ellipsoid against curved or polyhedral shapes): one GJK/EPA pair;
//   · an sdf shape: its point shell against the other sdf shape's field, or against the exact
//     distance of any other leaf shape (sdf_manifold.hpp; a mesh as a surface within the
//     margin, mesh_surface_distance.hpp).

#include <array>
#include <cstddef>

#include "pivot/collision/shape.hpp"

namespace pivot::detail {

/// the manifolds of the narrow phase (normals from B to A)
enum class Manifold {
  none,             ///< no contact computed: compounds (split into leaves first), fixed–fixed
  plane,            ///< A against plane B, analytic (manifold_plane.cpp)
  mesh,             ///< A against mesh B: Bullet's convex–concave query, faces clipped
  capsule_mesh,     ///< capsule A against mesh B: the mesh query plus the end spheres
  polytopes,        ///< box/hull against box/hull: separating axes and clipping (polytope.cpp)
  spheres,          ///< sphere against sphere, analytic
  segments,         ///< capsule A against sphere or capsule B, analytic (manifold_segments.cpp)
  capsule_convex,   ///< capsule A against any other convex B: GJK plus the end spheres
  gjk,              ///< one GJK/EPA closest pair (cylinder, ellipsoid against curved shapes)
  sdf_pair,         ///< sdf A against sdf B: point shell against distance field (sdf_manifold.cpp)
  shell_primitive,  ///< sdf A's point shell against any other leaf shape B's exact distance
  planar,           ///< planar A against planar B, in the x–z plane (planar_contacts.cpp)
};

/// "plane", "mesh", ...
[[nodiscard]] constexpr const char* to_string(Manifold m) {
  switch (m) {
    case Manifold::none:
      return "none";
    case Manifold::plane:
      return "plane";
    case Manifold::mesh:
      return "mesh";
    case Manifold::capsule_mesh:
      return "capsule_mesh";
    case Manifold::polytopes:
      return "polytopes";
    case Manifold::spheres:
      return "spheres";
    case Manifold::segments:
      return "segments";
    case Manifold::capsule_convex:
      return "capsule_convex";
    case Manifold::gjk:
      return "gjk";
    case Manifold::sdf_pair:
      return "sdf_pair";
    case Manifold::shell_primitive:
      return "shell_primitive";
    case Manifold::planar:
      return "planar";
  }
  return "unknown";
}

/// true when the manifold reads only its two parts and its own locals, so pairs may run on
/// several threads at once (CollisionWorld::detect with a ParallelFor). The mesh manifolds run
/// Bullet's convex–concave algorithm objects and the sdf ones share the World's traversal caches:
/// those pairs run on the calling thread.
[[nodiscard]] constexpr bool runs_in_parallel(Manifold m) {
  switch (m) {
    case Manifold::mesh:
    case Manifold::capsule_mesh:
    case Manifold::sdf_pair:
    case Manifold::shell_primitive:
      return false;
    default:
      return true;
  }
}

struct PairRule {
  Manifold manifold = Manifold::none;
  bool swap = false;  ///< run as (B, A) and flip the result
};

/// the rules, in order; the first that applies decides
[[nodiscard]] constexpr PairRule pair_rule_of(ShapeType a, ShapeType b) {
  using enum ShapeType;
  const auto is_polytope = [](ShapeType t) { return t == box || t == convex; };
  const auto is_static = [](ShapeType t) { return t == plane || t == mesh; };
  if (a == compound || b == compound) return {};
  // planar shapes meet only planar shapes (a world is planar or not: CollisionWorld::add)
  if (a == planar || b == planar)
    return {a == planar && b == planar ? Manifold::planar : Manifold::none};
  // sdf shapes: a shell against a field or the other shape's exact distance; the sdf shape is A
  if (a == sdf && b == sdf) return {Manifold::sdf_pair};
  if (a == sdf) return {Manifold::shell_primitive};
  if (b == sdf) return {Manifold::shell_primitive, true};
  // planes and meshes belong to fixed bodies and are always B
  if (is_static(a)) return is_static(b) ? PairRule{} : PairRule{pair_rule_of(b, a).manifold, true};
  if (b == plane) return {Manifold::plane};
  if (b == mesh) return {a == capsule ? Manifold::capsule_mesh : Manifold::mesh};
  if (is_polytope(a) && is_polytope(b)) return {Manifold::polytopes};
  if (a == sphere && b == sphere) return {Manifold::spheres};
  // a capsule is always A
  if (a == capsule && (b == sphere || b == capsule)) return {Manifold::segments};
  if (b == capsule) return {pair_rule_of(b, a).manifold, true};
  if (a == capsule) return {Manifold::capsule_convex};
  return {Manifold::gjk};
}

inline constexpr std::size_t kShapeTypeCount = 11;  // ShapeType's enumerators

/// the rule of every ordered pair, indexed by the ShapeType values
inline constexpr auto kPairTable = [] {
  std::array<std::array<PairRule, kShapeTypeCount>, kShapeTypeCount> table{};
  for (std::size_t a = 0; a < kShapeTypeCount; ++a)
    for (std::size_t b = 0; b < kShapeTypeCount; ++b)
      table[a][b] = pair_rule_of(static_cast<ShapeType>(a), static_cast<ShapeType>(b));
  return table;
}();

[[nodiscard]] inline PairRule pair_rule(ShapeType a, ShapeType b) {
  return kPairTable[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
}

}  // namespace pivot::detail
