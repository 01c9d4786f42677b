#pragma once
// Contacts of sdf shapes for the LCP (Barbič 2007, ch. 3, adapted from penalty forces to
// complementarity contacts): the point shell of one body is traversed against the distance of
// the other (point_tree_traversal.hpp), and every shell point p with d(p) ≤ margin becomes a
// contact with
//   normal  n_BA = −R_A N_p   (the shell's outward normal: continuous in the configuration,
//                              the thesis' reason, §3.5; the field's gradient flips at medial
//                              axes and is discontinuous across voxel faces),
//   gap     φ = d(p)          (the field value, which post-stabilization drives to ≥ 0; its
//                              derivative is taken as nᵀ, the thesis' ∂d/∂p ≈ N₀ᵀ, §4.2),
//   Ca = p on A's surface, Cb = p − φ n;
// a point counts only where its normal faces the other body within 60°, N·∇d ≤ −1/2 (the
// thesis uses every point; with an LCP a side face grazing a floor would push sideways).
// Against an exact distance (every shape but another sdf's field) the normal is the
// distance's gradient instead, n_BA = R_B ∇d: there it is the gap's exact derivative, so a
// curved body resting on the shell's points (an ellipsoid on an sdf block) gets the rows of
// its true gaps, where the shell's normal would let it rock on the points.
// Against an exact distance the mesh's own vertices are met too (a second shell, corner_shell):
// a polyhedron's lowest point over a plane is a vertex, which the random samples of its faces
// miss by up to a spacing times the faces' slope (a UV sphere rested 0.1 mm into a plane on
// samples near its pole vertex). The points are then reduced per patch (contact_reduction.hpp):
// reduce_supporting against an exact distance, reduce_patches against a field.
//
// Roles (§3.13): between two sdf shapes the field is the fixed body's, else the larger body's
// (bounding radius; B on a tie), and the shell the other's. Against any other shape the sdf
// body's shell meets that shape's exact distance (§3.11.1: exact implicit functions in place
// of a sampled field): plane, sphere, box, capsule and cylinder in closed form
// (analytic_distance.hpp), a hull by its faces (polytope_distance.hpp), an ellipsoid by
// Eberly's root bracketing (ellipsoid_distance.hpp), and a mesh as a surface within the
// margin (mesh_surface_distance.hpp). No field is sampled for the other shape and no shell is
// built on it: its distance is exact, and a shell on a large fixed mesh would need millions of
// points.

#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "pivot/collision/contact_reduction.hpp"
#include "pivot/collision/manifold.hpp"
#include "pivot/collision/mesh_surface_distance.hpp"
#include "pivot/collision/point_tree_traversal.hpp"

namespace pivot::detail {

/// the traversal caches of the sdf pairs, by (shell body, distance body, shell leaf, distance
/// leaf): each leaf pair of a compound has its own (the narrow phase runs once per leaf pair,
/// and a cache shared by two leaves would skip, for the second, the nodes far from the first)
struct SdfCaches {
  std::map<std::tuple<int, int, int, int>, TraversalCache> pairs;
  /// the same for the shells of the mesh's corners (the exact-distance pairs only)
  std::map<std::tuple<int, int, int, int>, TraversalCache> corner_pairs;
  /// the surfaces of the mesh shapes met so far (built once per shape)
  std::map<const Shape*, std::shared_ptr<const MeshSurface>> mesh_surfaces;
  TraversalStats last;  ///< the statistics of the last traversal (benchmarks, tests)
};

/// a shell at (R_A, p_A) against an oracle at (R_B, p_B), all world: the reduced contacts,
/// normals from the oracle's body B to the shell's body A: the shell's (−R_A N_p), or with
/// `oracle_normals` the oracle's gradient R_B ∇d (for exact distances, whose gradient is the
/// gap's exact derivative and continuous near the surface; a sampled field's is not). With
/// `corners` (and its own cache) the points of that shell are met too: the mesh's vertices,
/// which a flat-faced body rests on and which random samples miss. With `oracle_normals`,
/// more than the cap of points are reduced by reduce_supporting, else by reduce_patches.
[[nodiscard]] std::vector<ContactPoint> shell_contacts(
    const PointShell& shell, const Mat3& R_A, const Vec3& p_A, const DistanceOracle& oracle,
    const Mat3& R_B, const Vec3& p_B, const TraversalSettings& settings, TraversalCache& cache,
    TraversalStats* stats = nullptr, bool oracle_normals = false,
    const PointShell* corners = nullptr, TraversalCache* corner_cache = nullptr);

/// sdf part A against sdf part B (roles as above); `fixed_a`/`fixed_b` say which bodies are fixed
[[nodiscard]] std::vector<ContactPoint> sdf_pair_manifold(const PartGeometry& A, int body_a,
                                                          bool fixed_a, const PartGeometry& B,
                                                          int body_b, bool fixed_b, double margin,
                                                          SdfCaches& caches);

/// sdf part A against a plane, sphere, box, capsule, cylinder, ellipsoid, hull or mesh part B
[[nodiscard]] std::vector<ContactPoint> shell_primitive_manifold(const PartGeometry& A, int body_a,
                                                                 const PartGeometry& B, int body_b,
                                                                 double margin, SdfCaches& caches);

}  // namespace pivot::detail
