#pragma once
// Smooth parametric surfaces for the reduced contact mode (Kry & Pai 2002 §3, §3.5; Kry 2000
// ch. 4-5).
//
// A surface is a set of patches. Each patch maps its parameter domain (a convex polygon with
// counter-clockwise vertices, or the whole plane, possibly periodic) to points in the surface's
// own frame S. The surface must be regular (p_u × p_v ≠ 0) and oriented so that p_u × p_v points
// OUT of the solid: the contact frames of both bodies then have outward normals, which is the
// convention under which docs/hybrid.md fixes the signs of H and of the separation test.
// Neighbouring patches must join with a common tangent plane (G1) along shared edges, and
// every patch must be evaluable a little outside its domain (integrator stages may look there).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pivot/collision/surface_jet.hpp"

namespace pivot {

/// a point of a surface: which patch, and the parameters in that patch's domain
struct SurfacePoint {
  int patch = 0;
  Vec2 uv = Vec2::Zero();
};

/// A patch's parameter domain: a convex polygon P_0 ... P_{n−1} counter-clockwise, edge i from
/// P_i to P_{i+1} (indices mod n); or, with no vertices, the whole plane, where a coordinate
/// with a positive period is wrapped into [0, period).
struct PatchDomain {
  std::vector<Vec2> vertices;  ///< counter-clockwise, convex; empty: unbounded
  Vec2 period = Vec2::Zero();  ///< unbounded domains: periods of u and v (0: not periodic)

  [[nodiscard]] bool bounded() const { return !vertices.empty(); }
  [[nodiscard]] int edge_count() const { return static_cast<int>(vertices.size()); }
  /// signed distance of uv from the line of edge i, positive on the inner side (parameter units)
  [[nodiscard]] double edge_distance(int edge, const Vec2& uv) const;
  /// true when uv is inside or within `tolerance` outside every edge (always for unbounded)
  [[nodiscard]] bool contains(const Vec2& uv, double tolerance = 0.0) const;
  /// the point at fraction α along edge i: P_i (1 − α) + P_{i+1} α  (Kry & Pai 2002 §3.5)
  [[nodiscard]] Vec2 edge_point(int edge, double alpha) const;
  /// α of the point of edge i's line nearest to uv
  [[nodiscard]] double edge_parameter(int edge, const Vec2& uv) const;
  /// uv with the periodic coordinates wrapped into [0, period)
  [[nodiscard]] Vec2 wrapped(const Vec2& uv) const;
};

/// what lies across edge i of a patch. Both domains run counter-clockwise, so a shared edge is
/// usually traversed in opposite directions and the neighbour's edge parameter is g(α) = 1 − α
/// (Kry & Pai 2002 §3.5); `reversed = false` means g(α) = α.
struct PatchEdgeLink {
  int patch = -1;  ///< -1: open edge, the surface ends there
  int edge = -1;
  bool reversed = true;

  [[nodiscard]] bool open() const { return patch < 0; }
};

/// the interface every smooth surface implements
class SmoothSurface {
 public:
  virtual ~SmoothSurface() = default;

  /// "plane", "ellipsoid", ... for messages
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual int patch_count() const = 0;
  [[nodiscard]] virtual const PatchDomain& domain(int patch) const = 0;
  /// point and all partials up to third order at (u, v) of a patch, in the surface frame
  [[nodiscard]] virtual SurfaceJet evaluate(int patch, const Vec2& uv) const = 0;
  /// the patch across an edge (default: every edge is open)
  [[nodiscard]] virtual PatchEdgeLink neighbour(int patch, int edge) const;
  /// the surface point nearest to p_S (surface frame): the best of samples(), then damped
  /// Newton on (p − p_S)·p_u = (p − p_S)·p_v = 0, walking across linked edges and stopping at
  /// open ones. A local answer for non-convex surfaces.
  [[nodiscard]] virtual SurfacePoint closest_point(const Vec3& p_S) const;
  /// a few points spread over the surface, starts for closest_point (default: a grid over every
  /// bounded or periodic domain, the origin of an unbounded one)
  [[nodiscard]] virtual std::vector<SurfacePoint> samples() const;

  /// the point only (the default evaluates the whole jet)
  [[nodiscard]] virtual Vec3 point(int patch, const Vec2& uv) const {
    return evaluate(patch, uv).p;
  }

  // Overlapping charts, for contacts. A surface may add charts that parameterize part of it
  // again, regularly where its patches are singular (LoopSurface: around extraordinary
  // vertices). They take the indices patch_count() ... patch_count() + chart_count() − 1 in
  // domain, evaluate, point, contact_domain, across_contact_edge. The patches alone cover the
  // surface: sampling, drawing and edge linking use them only. A patch hands the part a chart
  // covers to it: its contact domain leaves that part out, and across the contact domain's
  // edge there the contact continues in the chart (and back, with an overlap).

  /// the number of overlapping charts (default none)
  [[nodiscard]] virtual int chart_count() const { return 0; }
  /// the part of a patch's or chart's domain in which a contact is tracked (default: all of it)
  [[nodiscard]] virtual const PatchDomain& contact_domain(int patch) const { return domain(patch); }
  /// the same surface point seen from the patch or chart across edge `edge` of
  /// contact_domain(patch) at fraction α; nothing for an open edge (default: across_edge)
  [[nodiscard]] virtual std::optional<SurfacePoint> across_contact_edge(int patch, int edge,
                                                                        double alpha) const;
  /// the point where a contact at `p` is tracked: `p` itself when it lies in its contact
  /// domain, else the same surface point in the chart or patch that covers it (default: `p`)
  [[nodiscard]] virtual SurfacePoint contact_chart(const SurfacePoint& p) const { return p; }
};

using SmoothSurfacePtr = std::shared_ptr<const SmoothSurface>;

/// the same surface point seen from the patch across edge `edge` at fraction α (Kry & Pai 2002
/// eq. 41: P^B_{j+1}(1 − α) + P^B_j α for a reversed link); nothing for an open edge
[[nodiscard]] std::optional<SurfacePoint> across_edge(const SmoothSurface& surface, int patch,
                                                      int edge, double alpha);

/// points of the surface on an n × n grid over every patch (n ≥ 2): over the bounding box of a
/// bounded domain, edges included, keeping the points inside it; over one period of a periodic
/// coordinate. E.g. for a convex hull that approximates the surface from inside (scene shapes
/// `"convex"` with `"surface_samples"`). Throws pivot::Error for an unbounded, non-periodic
/// domain (a plane) or n < 2.
[[nodiscard]] std::vector<Vec3> surface_grid_points(const SmoothSurface& surface, int n);

/// the edge links of a multi-patch surface found from its geometry: edge i of patch a and edge
/// j of patch b are linked when their end points and midpoints coincide within `tolerance`
/// (reversed: a's start is b's end). Returns links[patch][edge].
[[nodiscard]] std::vector<std::vector<PatchEdgeLink>> link_edges_by_geometry(
    const SmoothSurface& surface, double tolerance);

}  // namespace pivot
