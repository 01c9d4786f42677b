// Bounds on an island's problem: see island_bounds.hpp.
#include "pivot/engine/island_bounds.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <tuple>
#include <utility>

namespace pivot::detail {
namespace {

using Vec12 = Eigen::Matrix<double, 12, 1>;

// the body index as seen by islands: −1 for the world and for fixed bodies
int pair_body(const RigidBodySet& set, int b) {
  return b >= 0 && !set.body(b).fixed ? b : -1;
}

}  // namespace

std::vector<DroppedEqualities> drop_dependent_equalities(const RigidBodySet& set,
                                                         const ConstraintSet& rows,
                                                         IslandInput& island) {
  // the rows by body pair (lower dynamic index first), in island order: sorted (pair, row)
  // entries in a buffer each thread keeps, so that a step allocates nothing here
  struct Entry {
    int a, b;
    std::size_t k;
    bool operator<(const Entry& o) const { return std::tie(a, b, k) < std::tie(o.a, o.b, o.k); }
  };
  thread_local std::vector<Entry> by_pair;
  by_pair.clear();
  for (std::size_t k = 0; k < island.equalities.size(); ++k) {
    const EqualityRow& r = rows.equalities[static_cast<std::size_t>(island.equalities[k])];
    const int a = pair_body(set, r.body_a), b = pair_body(set, r.body_b);
    by_pair.push_back({std::min(a, b), std::max(a, b), k});
  }
  std::sort(by_pair.begin(), by_pair.end());
  std::vector<DroppedEqualities> dropped;
  std::vector<bool> keep;
  for (std::size_t begin = 0, end = 0; begin < by_pair.size(); begin = end) {
    const std::pair<int, int> pair{by_pair[begin].a, by_pair[begin].b};
    end = begin;
    while (end < by_pair.size() && by_pair[end].a == pair.first && by_pair[end].b == pair.second)
      ++end;
    const int coordinates = pair.first < 0 ? 6 : 12;
    if (static_cast<int>(end - begin) <= coordinates) continue;
    if (keep.empty()) keep.assign(island.equalities.size(), true);
    // Gram–Schmidt (twice, for orthogonality to rounding) in the pair's coordinates: a row whose
    // part outside the span of the rows kept is below 1e-9 of its norm is dependent
    std::vector<Vec12> basis;
    DroppedEqualities d;
    d.rows = static_cast<int>(end - begin);
    d.coordinates = coordinates;
    for (std::size_t e = begin; e < end; ++e) {
      const std::size_t k = by_pair[e].k;
      const EqualityRow& r = rows.equalities[static_cast<std::size_t>(island.equalities[k])];
      const int a = pair_body(set, r.body_a);
      Vec12 v = Vec12::Zero();
      // the pair's lower dynamic body in the first six coordinates
      const bool a_first = a == pair.first && pair.first >= 0;
      if (pair.first < 0) {
        v.head<6>() = (a >= 0 ? r.J_A : r.J_B).transpose();
      } else {
        v.head<6>() = (a_first ? r.J_A : r.J_B).transpose();
        v.tail<6>() = (a_first ? r.J_B : r.J_A).transpose();
      }
      const double norm = v.norm();
      Vec12 rest = v;
      for (int pass = 0; pass < 2; ++pass)
        for (const Vec12& e_k : basis) rest -= e_k.dot(rest) * e_k;
      if (norm > 0.0 && rest.norm() > 1e-9 * norm && static_cast<int>(basis.size()) < coordinates) {
        basis.push_back(rest.normalized());
        continue;
      }
      keep[k] = false;
      if (d.first_joint < 0) d.first_joint = r.owner;
    }
    d.kept = static_cast<int>(basis.size());
    dropped.push_back(d);
  }
  if (dropped.empty()) return dropped;
  std::vector<int> kept;
  for (std::size_t k = 0; k < island.equalities.size(); ++k)
    if (keep[k]) kept.push_back(island.equalities[k]);
  island.equalities = std::move(kept);
  return dropped;
}

std::optional<std::string> overlapping_island(const ConstraintSet& rows,
                                              const IslandInput& island) {
  const auto bodies = static_cast<long>(island.bodies.size());
  if (static_cast<long>(island.unilaterals.size()) <= kMaxContactPairsPerBody * bodies)
    return std::nullopt;  // fewer rows than the bound on pairs: nothing to count
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(island.unilaterals.size());
  for (const int u : island.unilaterals) {
    const UnilateralRow& r = rows.unilaterals[static_cast<std::size_t>(u)];
    pairs.emplace_back(std::min(r.body_a, r.body_b), std::max(r.body_a, r.body_b));
  }
  std::sort(pairs.begin(), pairs.end());
  const auto count = static_cast<long>(std::unique(pairs.begin(), pairs.end()) - pairs.begin());
  if (count <= kMaxContactPairsPerBody * bodies) return std::nullopt;
  return fmt::format(
      "an island of {} bodies has {} body pairs in contact ({} rows), more than {} a body: its "
      "bodies are placed into each other; not solved",
      bodies, count, island.unilaterals.size(), kMaxContactPairsPerBody);
}

}  // namespace pivot::detail
