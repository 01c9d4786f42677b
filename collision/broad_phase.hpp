#pragma once
// The broad phase (internal): which bounding boxes overlap, by sort and sweep (Baraff 1992's
// "sort and sweep"; Box2D v2's and Bullet's btAxisSweep3 keep it incremental, this one sorts
// anew each call, which keeps it stateless and deterministic).
//
// The boxes are sorted by their lower bound on one axis, the axis along which their centres
// spread most (largest variance); each box is then compared only with the boxes that start
// within its own interval on that axis, and kept where the intervals overlap on the other two.
// The work is O(n log n) for the sort plus the number of interval overlaps on the sweep axis:
// linear in n for bodies spread along a line, in a plane (about n^1.5 for a square grid), or in
// space, and the pairs themselves for bodies that all overlap. An unbounded box (a plane's) is
// compared with every other box once, so a floor adds n comparisons, not n².

#include <utility>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// an axis-aligned box, lo ≤ hi on each axis (closed: boxes that touch overlap)
struct Aabb {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Zero();
};

/// every pair (i, j), i < j, of boxes that overlap on all three axes (lo_i ≤ hi_j and
/// lo_j ≤ hi_i), in no particular order; the boxes must be free of NaN
[[nodiscard]] std::vector<std::pair<int, int>> overlapping_pairs(const std::vector<Aabb>& boxes);

/// the sweep's lists, kept by the caller from call to call for their memory
struct BroadPhaseWork {
  std::vector<int> order;                  ///< the boxes by their lower bound on the sweep axis
  std::vector<std::pair<int, int>> pairs;  ///< the answer
};
/// overlapping_pairs(boxes) into work.pairs (the same pairs in the same order)
void overlapping_pairs(const std::vector<Aabb>& boxes, BroadPhaseWork& work);

}  // namespace pivot::detail
