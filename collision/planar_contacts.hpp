#pragma once
// The 2-D narrow phase of a planar world: contact points between two planar shapes
// (collision/planar_shape.hpp) at planar poses, all in world (x, z).
//
// Every shape but the half-plane is a core polygon swept by a radius (planar_core). The pairs:
//  - half-plane vs half-plane: no contacts.
//  - half-plane vs a core: the edge of the core most opposed to the half-plane's normal (its
//    two ends; the one vertex of a circle), each point's gap its signed distance to the boundary
//    minus the radius. A resting face gives 2 points, a tilted corner 1 once the margin drops
//    the far end.
//  - a circle vs anything: 1 point, the closest features of the centre and the other core
//    (Box2D's b2CollidePolygonAndCircle: the face of largest separation, then its end vertices'
//    regions).
//  - two cores of ≥ 2 vertices (box, polygon, capsule): the separating-axis test over the edge
//    normals of both (Box2D b2CollidePolygons, Catto GDC 2007 "Contact Manifolds"): the
//    reference face is the edge of largest separation, the incident edge the edge of the other
//    core most opposed to its normal, clipped to the reference face's two side planes; each
//    clipped point's gap is its signed distance to the reference face minus both radii and its
//    normal the exact face normal. When the cores are apart and their closest features are two
//    vertices (the true distance exceeds the best face separation), 1 point along the line
//    between those vertices instead. Two capsules keep only the deepest point unless their
//    segments are parallel (then the 2 ends of the overlap).
//
// Every point's p_a, p_b is its core point moved by the radius along the normal (Box2D's
// convention). For the deepest point, and for every point of a polygon or of a face parallel to
// the reference face, that is on the surface; the shallower point of a tilted capsule's edge
// (against a half-plane or a polygon face) lies within the capsule, its gap the separation of its
// core point minus the radii.
//
// Tie-breaks (the result is a pure function of the inputs, bit for bit):
//  - the reference face is on A unless B's best separation exceeds A's by more than
//    kPlanarRelativeTolerance × s, s = 1 + the largest |coordinate| of the two world cores;
//  - among equal separations (or equally opposed incident edges) the lower edge index wins;
//  - the face contact is used when the core distance exceeds the face separation by at most
//    kPlanarRelativeTolerance × s;
//  - two capsules count as parallel when |sin(angle)| ≤ kPlanarRelativeTolerance;
//  - a circle centre on a capsule's segment or two coincident circle centres take the first
//    edge's normal, and world +z for two circles.
// Points are reported in the incident edge's vertex order.

#include <vector>

#include "pivot/collision/planar_shape.hpp"

namespace pivot::detail {

/// the relative tolerance of the tie-breaks above (times 1 + the largest |coordinate|)
inline constexpr double kPlanarRelativeTolerance = 1e-10;

/// one contact point pair of shapes A and B (world x, z)
struct PlanarContact {
  Vec2 p_a = Vec2::Zero();    ///< m, the point on A's surface
  Vec2 p_b = Vec2::Zero();    ///< m, the point on B's surface
  Vec2 n_ba = Vec2::UnitY();  ///< unit normal from B to A
  double gap = 0.0;           ///< m, n_ba·(p_a − p_b): > 0 apart, < 0 penetrating
};

/// the contacts of A at pose_a and B at pose_b with gap ≤ margin (m, ≥ 0 and finite). Either
/// shape may be a half-plane (its pose applies). Throws pivot::Error for a bad margin or a
/// non-finite pose.
[[nodiscard]] std::vector<PlanarContact> planar_contacts(const PlanarShape& a,
                                                         const PlanarPose& pose_a,
                                                         const PlanarShape& b,
                                                         const PlanarPose& pose_b, double margin);

}  // namespace pivot::detail
