#include "pivot/collision/point_tree_traversal.hpp"

#include <algorithm>
#include <cmath>

namespace pivot::detail {

namespace {

/// 2 sin(θ/2) of the rotation R_new R_oldᵀ, from its trace (|(R_new − R_old) x| ≤ this·|x|)
double rotation_chord(const Mat3& R_new, const Mat3& R_old) {
  const double c = std::clamp(0.5 * ((R_new * R_old.transpose()).trace() - 1.0), -1.0, 1.0);
  // 2 sin(θ/2) = sqrt(2 (1 − cos θ))
  return std::sqrt(std::max(0.0, 2.0 * (1.0 - c)));
}

}  // namespace

std::vector<ShellHit> traverse_point_tree(const PointShell& shell, const DistanceOracle& oracle,
                                          const Mat3& R_SA, const Vec3& p_SA,
                                          const TraversalSettings& settings, TraversalCache& cache,
                                          TraversalStats* stats) {
  const std::size_t points = shell.points.size();
  const std::size_t nodes = static_cast<std::size_t>(shell.nodes());
  if (cache.stamp.size() != points) {
    cache = TraversalCache{};
    cache.stamp.assign(points, 0);
    cache.distance.assign(points, 0.0);
    cache.slack.assign(nodes, -1.0);
    cache.slack_t.assign(nodes, 0.0);
    cache.slack_r.assign(nodes, 0.0);
  }
  if (++cache.call == 0) {  // the stamp wrapped: forget every cached distance
    std::fill(cache.stamp.begin(), cache.stamp.end(), 0u);
    cache.call = 1;
  }
  // the motion sums (an upper bound of every point's path since any earlier call)
  if (cache.has_pose) {
    cache.sum_t += (p_SA - cache.p_SA).norm();
    cache.sum_r += rotation_chord(R_SA, cache.R_SA);
  }
  cache.R_SA = R_SA;
  cache.p_SA = p_SA;
  cache.has_pose = true;
  const bool skip = settings.coherence && oracle.skip_is_safe(settings.margin);
  const double L = oracle.lipschitz();

  TraversalStats st;
  std::vector<ShellHit> hits;
  std::vector<int> queue, next;
  for (int k = 0; k < shell.level_size.front(); ++k) queue.push_back(k);
  const long warm = settings.budget;
  const long cold = static_cast<long>(std::floor(settings.cold_ratio * static_cast<double>(warm)));
  for (int level = 0; level < shell.levels() && !queue.empty(); ++level) {
    if (warm > 0 && level > 0) {
      const long threshold = level <= cache.last_depth ? warm : cold;
      if (st.visited >= threshold) {
        st.cut = true;
        break;
      }
    }
    st.depth = level;
    next.clear();
    const int offset = shell.level_offset[static_cast<std::size_t>(level)];
    for (const int k : queue) {
      const std::size_t id = static_cast<std::size_t>(offset + k);
      const std::size_t pk = static_cast<std::size_t>(k);
      const double R = shell.radius[id];
      if (skip && cache.slack[id] >= 0.0) {
        const double moved =
            (cache.sum_t - cache.slack_t[id]) + (cache.sum_r - cache.slack_r[id]) * shell.reach[id];
        if (moved < cache.slack[id]) {
          ++st.skipped;
          continue;
        }
        cache.slack[id] = -1.0;
      }
      const Vec3 p_S = R_SA * shell.points[pk] + p_SA;
      if (cache.stamp[pk] != cache.call) {
        cache.distance[pk] = oracle.distance(p_S);
        cache.stamp[pk] = cache.call;
        ++st.queries;
      }
      const double d = cache.distance[pk];
      const double lower = oracle.lower_bound(p_S, d, R);
      if (lower > settings.margin) {
        if (skip) {
          cache.slack[id] = (lower - settings.margin) / L;
          cache.slack_t[id] = cache.sum_t;
          cache.slack_r[id] = cache.sum_r;
        }
        continue;
      }
      ++st.visited;
      if (shell.first_level[pk] == level && d <= settings.margin) hits.push_back({k, d, p_S});
      if (level + 1 < shell.levels()) {
        next.push_back(k);
        for (int c = shell.child_begin[id]; c < shell.child_begin[id + 1]; ++c)
          next.push_back(shell.children[static_cast<std::size_t>(c)]);
      }
    }
    std::swap(queue, next);
  }
  cache.last_depth = st.depth;
  st.touching = static_cast<int>(hits.size());
  std::sort(hits.begin(), hits.end(),
            [](const ShellHit& a, const ShellHit& b) { return a.point < b.point; });
  if (stats) *stats = st;
  return hits;
}

std::vector<ShellHit> brute_force_points(const PointShell& shell, const DistanceOracle& oracle,
                                         const Mat3& R_SA, const Vec3& p_SA, double margin,
                                         int levels) {
  const int n = levels < 0 || levels >= shell.levels()
                    ? static_cast<int>(shell.points.size())
                    : shell.level_size[static_cast<std::size_t>(levels - 1)];
  std::vector<ShellHit> hits;
  for (int k = 0; k < n; ++k) {
    const Vec3 p_S = R_SA * shell.points[static_cast<std::size_t>(k)] + p_SA;
    const double d = oracle.distance(p_S);
    if (d <= margin) hits.push_back({k, d, p_S});
  }
  return hits;
}

}  // namespace pivot::detail
