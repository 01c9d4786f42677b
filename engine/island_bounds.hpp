#pragma once
// Bounds on an island's problem (internal): two degenerate inputs whose LCP grows far beyond
// what the bodies can use, detected before the solve, so the work of a step stays bounded
// (docs/limits.md "Work per step").
//
//  - Repeated joints. Equality rows between the same two bodies live in the 12 (6 with a fixed
//    body or the world) velocity coordinates of that pair: more rows than that are dependent
//    for certain, and the general path's dense factorization of the joint block grew with their
//    cube (400 fixed joints between two boxes: 2 400 rows, 106 s for two steps). Such a pair's
//    rows are reduced to an independent subset, in row order (the first joint's rows first), by
//    Gram–Schmidt in the pair's coordinates; the rows left out get no impulse and are reported.
//    Pairs with no more rows than coordinates are left to the solver (its regularization layer,
//    island_solver.hpp), so an ordinary scene's problem is unchanged.
//  - Bodies overlapping many others. Separate convex bodies touch few others: equal spheres at
//    most 12 (the kissing number), so the pairs in contact number at most 6 a body, and 7 with a
//    floor. An island in contact with more than kMaxContactPairsPerBody pairs a body is made of
//    bodies placed into each other (51 boxes at one pose: 1 326 pairs, 5 304 contacts, 100 s a
//    step and all memory at 101 boxes). Its LCP is not solved: the step reports the island's
//    failure (the failed LCP's path: the bodies keep their velocities, the post-step leaves them
//    uncorrected).

#include <optional>
#include <string>
#include <vector>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/rigid_body_set.hpp"

namespace pivot::detail {

/// the most body pairs in contact per island body before the island counts as degenerate
inline constexpr int kMaxContactPairsPerBody = 8;

/// the rows of one body pair left out of an island as dependent
struct DroppedEqualities {
  int first_joint = -1;  ///< the owner of the first row left out
  int rows = 0;          ///< the pair's equality rows
  int kept = 0;          ///< of them, independent and kept
  int coordinates = 0;   ///< 12, or 6 with a fixed body or the world
};

/// removes from `island.equalities` the dependent rows of every body pair that has more
/// equality rows than velocity coordinates (above); the cost is linear in the island's rows.
/// Returns what was left out, one entry per such pair.
std::vector<DroppedEqualities> drop_dependent_equalities(const RigidBodySet& set,
                                                         const ConstraintSet& rows,
                                                         IslandInput& island);

/// a message saying why the island's LCP is not solved when its bodies are in contact with more
/// than kMaxContactPairsPerBody pairs a body (above), else nullopt; linear in its rows (a sort)
[[nodiscard]] std::optional<std::string> overlapping_island(const ConstraintSet& rows,
                                                            const IslandInput& island);

}  // namespace pivot::detail
