// Sort and sweep: see broad_phase.hpp.
#include "pivot/collision/broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pivot::detail {
namespace {

// the axis along which the boxes' centres spread most (their variance; boxes with an infinite
// or huge bound, a plane's, are left out of it: they overlap every box on every axis anyway)
int sweep_axis(const std::vector<Aabb>& boxes) {
  Vec3 sum = Vec3::Zero(), sum2 = Vec3::Zero();
  double count = 0.0;
  for (const Aabb& b : boxes) {
    const Vec3 c = 0.5 * (b.lo + b.hi);
    if (!c.allFinite() || (b.hi - b.lo).maxCoeff() > 1e15) continue;
    sum += c;
    sum2 += c.cwiseProduct(c);
    count += 1.0;
  }
  if (count < 2.0) return 0;
  const Vec3 mean = sum / count;
  const Vec3 variance = sum2 / count - mean.cwiseProduct(mean);
  int axis = 0;
  variance.maxCoeff(&axis);
  return axis;
}

}  // namespace

std::vector<std::pair<int, int>> overlapping_pairs(const std::vector<Aabb>& boxes) {
  BroadPhaseWork work;
  overlapping_pairs(boxes, work);
  return std::move(work.pairs);
}

void overlapping_pairs(const std::vector<Aabb>& boxes, BroadPhaseWork& work) {
  const int n = static_cast<int>(boxes.size());
  const int x = sweep_axis(boxes), y = (x + 1) % 3, z = (x + 2) % 3;
  std::vector<int>& order = work.order;
  order.resize(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return boxes[a].lo(x) < boxes[b].lo(x) || (boxes[a].lo(x) == boxes[b].lo(x) && a < b);
  });
  std::vector<std::pair<int, int>>& pairs = work.pairs;
  pairs.clear();
  for (int k = 0; k < n; ++k) {
    const Aabb& a = boxes[order[k]];
    // the boxes that start within a's interval on the sweep axis (a later box starts at or
    // after a's start, so it overlaps a on x exactly when it starts at or before a's end)
    for (int l = k + 1; l < n; ++l) {
      const Aabb& b = boxes[order[l]];
      if (b.lo(x) > a.hi(x)) break;
      if (a.lo(y) > b.hi(y) || b.lo(y) > a.hi(y) || a.lo(z) > b.hi(z) || b.lo(z) > a.hi(z))
        continue;
      pairs.emplace_back(std::min(order[k], order[l]), std::max(order[k], order[l]));
    }
  }
}

}  // namespace pivot::detail
