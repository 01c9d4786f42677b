#pragma once
// Breadth-first traversal of a nested point tree against a distance oracle (Barbič 2007, §3.10):
//
//   queue ← level-0 nodes; V ← 0 (nodes visited)
//   for level i = 0, 1, …:
//     threshold ← (i ≤ deepest level rendered last call) ? V_W : V_C     (V_C = 0.8 V_W)
//     if i > 0 and V ≥ threshold: stop       (a level is rendered completely or not at all)
//     for node (i, k) in queue:
//       if the temporal-coherence record proves the node still culled: skip it
//       d ← d(p_k)  (cached per point per call: a point is a node of every deeper level too)
//       if lower_bound(p_k, d, R) > margin: cull the subtree, record its slack; continue
//       V += 1; a point at its first level with d ≤ margin is a contact; queue the children
//
// The budget counts visited nodes, never time, so the same states give the same contacts on
// any machine. With an unlimited budget the result is exactly the brute-force loop over all
// points (d(p) ≤ margin), because culling uses a proven lower bound (distance_oracle.hpp).
//
// Temporal coherence (§3.10.2), made exact: instead of a bound on velocities, the traversal
// sums the actual motion of the shell in the oracle's frame, call by call: translation
// S_t = Σ |Δt| and rotation S_θ = Σ 2 sin(Δθ/2) (|(R′ − R) x| = 2 sin(Δθ/2) |x|). A point x of a
// culled node has moved at most (S_t − S_t0) + (S_θ − S_θ0)·(|p_k| + R) since the node was
// culled with slack s = (lower_bound − margin)/L; while that is below s the node is still
// culled, without a distance query. The skip never changes the contacts, only the work.

#include <cstdint>
#include <vector>

#include "pivot/collision/distance_oracle.hpp"
#include "pivot/collision/point_shell.hpp"

namespace pivot::detail {

/// the per-pair memory of the traversal: the point distance cache, the temporal-coherence
/// records, the motion sums and the deepest level of the last call
struct TraversalCache {
  std::vector<std::uint32_t> stamp;  ///< per point: the call that filled `distance`
  std::vector<double> distance;      ///< per point, m
  std::vector<double> slack;         ///< per node: motion it may make and stay culled (< 0: none)
  std::vector<double> slack_t, slack_r;  ///< per node: the motion sums when it was recorded
  std::uint32_t call = 0;
  bool has_pose = false;
  Mat3 R_SA = Mat3::Identity();  ///< the shell's pose in the oracle frame at the last call
  Vec3 p_SA = Vec3::Zero();
  double sum_t = 0.0, sum_r = 0.0;  ///< S_t (m) and S_θ (dimensionless)
  int last_depth = -1;              ///< deepest level rendered last call
};

struct TraversalSettings {
  double margin = 0.0;      ///< points with d ≤ margin are contacts, m
  long budget = 0;          ///< V_W, nodes; 0: unlimited
  double cold_ratio = 0.8;  ///< V_C / V_W (§3.10.3)
  bool coherence = true;    ///< the temporal-coherence skip
};

struct ShellHit {
  int point = -1;    ///< index into the shell
  double d = 0.0;    ///< its distance, m
  Vec3 p_S = Vec3::Zero();  ///< its position in the oracle frame
};

struct TraversalStats {
  long visited = 0;  ///< nodes whose distance was tested
  long skipped = 0;  ///< nodes passed by the temporal-coherence skip
  long queries = 0;  ///< distance queries (cache misses)
  int depth = -1;    ///< deepest level rendered (or reached: deeper ones were all culled)
  bool cut = false;  ///< the budget stopped the traversal before the deepest level
  int touching = 0;  ///< points found within the margin
};

/// the shell's points within `margin` of the oracle's surface, in shell order, with the shell
/// at pose (R_SA, p_SA) in the oracle's frame S
std::vector<ShellHit> traverse_point_tree(const PointShell& shell, const DistanceOracle& oracle,
                                          const Mat3& R_SA, const Vec3& p_SA,
                                          const TraversalSettings& settings, TraversalCache& cache,
                                          TraversalStats* stats = nullptr);

/// the reference: every point of the first `levels` levels (all when < 0) tested
std::vector<ShellHit> brute_force_points(const PointShell& shell, const DistanceOracle& oracle,
                                         const Mat3& R_SA, const Vec3& p_SA, double margin,
                                         int levels = -1);

}  // namespace pivot::detail
