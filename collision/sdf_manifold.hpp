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
// The points are then reduced per patch (contact_reduction.hpp).
//
// Roles (§3.13): between two sdf shapes the field is the fixed body's, else the larger body's
// (bounding radius; B on a tie), and the shell the other's. Against a plane, sphere, box or
// capsule the sdf body's shell meets the primitive's exact distance (§3.11.1).

#include <map>
#include <tuple>
#include <vector>

#include "pivot/collision/contact_reduction.hpp"
#include "pivot/collision/manifold.hpp"
#include "pivot/collision/point_tree_traversal.hpp"

namespace pivot::detail {

/// the traversal caches of the sdf pairs, by (shell body, distance body)
struct SdfCaches {
  std::map<std::pair<int, int>, TraversalCache> pairs;
  TraversalStats last;  ///< the statistics of the last traversal (benchmarks, tests)
};

/// a shell at (R_A, p_A) against an oracle at (R_B, p_B), all world: the reduced contacts,
/// normals from the oracle's body B to the shell's body A
[[nodiscard]] std::vector<ContactPoint> shell_contacts(const PointShell& shell, const Mat3& R_A,
                                                       const Vec3& p_A, const DistanceOracle& oracle,
                                                       const Mat3& R_B, const Vec3& p_B,
                                                       const TraversalSettings& settings,
                                                       TraversalCache& cache,
                                                       TraversalStats* stats = nullptr);

/// sdf part A against sdf part B (roles as above); `fixed_a`/`fixed_b` say which bodies are fixed
[[nodiscard]] std::vector<ContactPoint> sdf_pair_manifold(const PartGeometry& A, int body_a,
                                                          bool fixed_a, const PartGeometry& B,
                                                          int body_b, bool fixed_b, double margin,
                                                          SdfCaches& caches);

/// sdf part A against a plane, sphere, box or capsule part B
[[nodiscard]] std::vector<ContactPoint> shell_primitive_manifold(const PartGeometry& A, int body_a,
                                                                 const PartGeometry& B, int body_b,
                                                                 double margin, SdfCaches& caches);

}  // namespace pivot::detail
