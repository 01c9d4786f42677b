// split_islands (engine/island_assembly.hpp): the islands are the connected components of the
// rows' and couplings' body pairs over the dynamic bodies, checked against a breadth-first search
// written here; a call with the inputs of the call before gives its islands again (they are kept),
// even when the caller has changed its copy of the lists in between, and any change of the inputs
// (a row's bodies, a fixed flag, a cone, a coupling) splits anew.
#include <catch2/catch.hpp>

#include <algorithm>
#include <queue>
#include <random>

#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/rigid_body.hpp"
#include "pivot/engine/rigid_body_set.hpp"

using namespace pivot;
using namespace pivot::detail;

namespace {

RigidBodySet bodies(int n, const std::vector<int>& fixed) {
  RigidBodySet set;
  for (int i = 0; i < n; ++i) {
    BodySettings s;
    s.name = "b";
    s.name += std::to_string(i);
    s.fixed = std::find(fixed.begin(), fixed.end(), i) != fixed.end();
    set.add(make_rigid_body(s), Pose{}, Vec6::Zero());
  }
  return set;
}

// the expected islands by breadth-first search over the pairs of dynamic bodies: each island's
// bodies ascending, islands in the order of their lowest body, each row in the island of its
// dynamic body
std::vector<IslandLists> expected_islands(const RigidBodySet& set, const ConstraintSet& rows,
                                          const std::vector<std::pair<int, int>>& couplings) {
  const int n = set.size();
  auto dynamic = [&set](int b) { return b >= 0 && !set.body(b).fixed; };
  std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(n));
  auto edge = [&](int a, int b) {
    if (dynamic(a) && dynamic(b)) {
      neighbours[static_cast<std::size_t>(a)].push_back(b);
      neighbours[static_cast<std::size_t>(b)].push_back(a);
    }
  };
  for (const auto& r : rows.equalities) edge(r.body_a, r.body_b);
  for (const auto& r : rows.unilaterals) edge(r.body_a, r.body_b);
  for (const auto& r : rows.motors) edge(r.body_a, r.body_b);
  for (const auto& [a, b] : couplings) edge(a, b);
  std::vector<int> island_of(static_cast<std::size_t>(n), -1);
  std::vector<IslandLists> islands;
  for (int start = 0; start < n; ++start) {
    if (!dynamic(start) || island_of[static_cast<std::size_t>(start)] >= 0) continue;
    const int k = static_cast<int>(islands.size());
    islands.emplace_back();
    std::queue<int> open;
    open.push(start);
    island_of[static_cast<std::size_t>(start)] = k;
    while (!open.empty()) {
      const int b = open.front();
      open.pop();
      islands.back().bodies.push_back(b);
      for (int c : neighbours[static_cast<std::size_t>(b)])
        if (island_of[static_cast<std::size_t>(c)] < 0) {
          island_of[static_cast<std::size_t>(c)] = k;
          open.push(c);
        }
    }
    std::sort(islands.back().bodies.begin(), islands.back().bodies.end());
  }
  auto of = [&](const RowRef& r) {
    return island_of[static_cast<std::size_t>(dynamic(r.body_a) ? r.body_a : r.body_b)];
  };
  for (int i = 0; i < static_cast<int>(rows.equalities.size()); ++i)
    islands[static_cast<std::size_t>(of(rows.equalities[static_cast<std::size_t>(i)]))]
        .equalities.push_back(i);
  for (int i = 0; i < static_cast<int>(rows.unilaterals.size()); ++i)
    islands[static_cast<std::size_t>(of(rows.unilaterals[static_cast<std::size_t>(i)]))]
        .unilaterals.push_back(i);
  for (int i = 0; i < static_cast<int>(rows.cones.size()); ++i)
    islands[static_cast<std::size_t>(of(rows.unilaterals[static_cast<std::size_t>(
                rows.cones[static_cast<std::size_t>(i)].normal_row)]))]
        .cones.push_back(i);
  for (int i = 0; i < static_cast<int>(rows.motors.size()); ++i)
    islands[static_cast<std::size_t>(of(rows.motors[static_cast<std::size_t>(i)]))]
        .motors.push_back(i);
  return islands;
}

void check_islands(const std::vector<IslandInput>& got, const std::vector<IslandLists>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    CHECK(got[k].bodies == want[k].bodies);
    CHECK(got[k].equalities == want[k].equalities);
    CHECK(got[k].unilaterals == want[k].unilaterals);
    CHECK(got[k].cones == want[k].cones);
    CHECK(got[k].motors == want[k].motors);
  }
}

FrictionCone cone_on(int normal_row) {
  FrictionCone cone;
  cone.normal_row = normal_row;
  return cone;
}

// rows in runs of 1–6 on random pairs (a joint's or a contact's rows): body_a dynamic, body_b any
// body or −1 (the world)
template <typename Row>
void add_runs(std::mt19937& rng, const RigidBodySet& set, int runs, std::vector<Row>& out) {
  std::uniform_int_distribution<int> body(-1, set.size() - 1), length(1, 6);
  for (int r = 0; r < runs; ++r) {
    int a = body(rng), b = body(rng);
    while (a < 0 || set.body(a).fixed) a = (a + 1) % set.size();  // body 0 is never fixed
    Row row;
    row.body_a = a;
    row.body_b = b == a ? -1 : b;
    for (int k = length(rng); k > 0; --k) out.push_back(row);
  }
}

}  // namespace

TEST_CASE("split_islands gives the connected components, kept for the same inputs",
          "[engine][islands]") {
  std::mt19937 rng(7);
  IslandSplit kept_work;  // one work across every call: the kept answer is used and replaced
  std::vector<IslandInput> kept_islands;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 3 + trial % 9;
    std::vector<int> fixed;
    for (int i = 0; i < n; ++i)
      if (i != 0 && rng() % 5 == 0) fixed.push_back(i);
    const RigidBodySet set = bodies(n, fixed);
    ConstraintSet rows;
    add_runs(rng, set, static_cast<int>(rng() % 4), rows.equalities);
    add_runs(rng, set, static_cast<int>(rng() % 4), rows.unilaterals);
    add_runs(rng, set, static_cast<int>(rng() % 2), rows.motors);
    for (int i = 0; i < static_cast<int>(rows.unilaterals.size()); ++i)
      if (rng() % 3 == 0) rows.cones.push_back(cone_on(i));
    std::vector<std::pair<int, int>> couplings;
    if (rng() % 3 == 0) couplings.emplace_back(0, n - 1);
    const auto want = expected_islands(set, rows, couplings);

    // a fresh work, and the kept one
    IslandSplit fresh_work;
    std::vector<IslandInput> fresh;
    split_islands(set, rows, couplings, fresh_work, fresh);
    check_islands(fresh, want);
    split_islands(set, rows, couplings, kept_work, kept_islands);
    check_islands(kept_islands, want);

    // the same inputs again, after the caller has changed its lists (as dropping a joint's
    // repeated rows does): the islands of the inputs, not the changed lists
    if (!kept_islands.empty()) {
      kept_islands.front().equalities.clear();
      kept_islands.front().bodies.push_back(99);
    }
    split_islands(set, rows, couplings, kept_work, kept_islands);
    check_islands(kept_islands, want);

    // a changed input splits anew: a coupling, a row's bodies (any row of a run), a cone; each
    // right after a call with the unchanged inputs, whose islands are then the kept ones
    auto after_unchanged = [&](const ConstraintSet& changed_rows,
                               const std::vector<std::pair<int, int>>& changed_couplings) {
      split_islands(set, rows, couplings, kept_work, kept_islands);
      split_islands(set, changed_rows, changed_couplings, kept_work, kept_islands);
      check_islands(kept_islands, expected_islands(set, changed_rows, changed_couplings));
    };
    auto more_couplings = couplings;
    more_couplings.emplace_back(0, n / 2);
    after_unchanged(rows, more_couplings);
    for (std::size_t i = 0; i < rows.equalities.size(); ++i) {
      ConstraintSet moved = rows;
      moved.equalities[i].body_b = (moved.equalities[i].body_a + 1 + trial % 2) % n;
      after_unchanged(moved, couplings);
      moved.equalities[i].body_a = (moved.equalities[i].body_a + 1) % n;
      if (!set.body(moved.equalities[i].body_a).fixed) after_unchanged(moved, couplings);
    }
    if (!rows.unilaterals.empty()) {
      ConstraintSet coned = rows;
      coned.cones.push_back(cone_on(0));
      after_unchanged(coned, couplings);
    }
    for (std::size_t c = 0; c < rows.cones.size(); ++c) {
      // the same cones, one on another normal row
      ConstraintSet coned = rows;
      for (int r = 0; r < static_cast<int>(rows.unilaterals.size()); ++r) {
        coned.cones[c].normal_row = r;
        after_unchanged(coned, couplings);
      }
    }
  }
}

TEST_CASE("split_islands splits anew when a body becomes fixed", "[engine][islands]") {
  // a chain 0–1–2–3: one island; with 2 fixed, {0, 1} and {3}; the rows the same
  ConstraintSet rows;
  for (int b = 0; b < 3; ++b)
    for (int k = 0; k < 3; ++k) {
      EqualityRow row;
      row.body_a = b;
      row.body_b = b + 1;
      rows.equalities.push_back(row);
    }
  IslandSplit work;
  std::vector<IslandInput> islands;
  const RigidBodySet free = bodies(4, {});
  split_islands(free, rows, {}, work, islands);
  REQUIRE(islands.size() == 1);
  CHECK(islands[0].bodies == std::vector<int>{0, 1, 2, 3});
  const RigidBodySet pinned = bodies(4, {2});
  split_islands(pinned, rows, {}, work, islands);
  REQUIRE(islands.size() == 2);
  CHECK(islands[0].bodies == std::vector<int>{0, 1});
  CHECK(islands[0].equalities == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(islands[1].bodies == std::vector<int>{3});
  CHECK(islands[1].equalities == std::vector<int>{6, 7, 8});
  split_islands(free, rows, {}, work, islands);
  CHECK(islands.size() == 1);
}
