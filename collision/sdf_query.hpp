#pragma once
// One sdf contact query outside a World, for tools and benchmarks (docs/distributed-contact.md):
// the point shell of one sdf shape against the distance field of another, by the budgeted
// nested-tree traversal (Barbič 2007, §3.10) or by brute force over every point, with its
// statistics. Poses are those of the shapes' frames (the frames their OBJ files are written in).

#include <memory>

#include "pivot/collision/shape.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot {

struct SdfQueryStats {
  int points = 0;     ///< the shell's size
  int levels = 0;     ///< its tree's levels
  int touching = 0;   ///< shell points within the margin (before reduction)
  int contacts = 0;   ///< contacts after reduction
  long visited = 0;   ///< tree nodes tested and not culled (brute force: every point)
  long skipped = 0;   ///< nodes passed by the temporal-coherence skip
  long queries = 0;   ///< distance-field lookups
  int depth = -1;     ///< deepest level rendered
};

class SdfQuery {
 public:
  /// both shapes must be sdf shapes (throws pivot::Error otherwise)
  SdfQuery(ShapePtr shell, ShapePtr field);
  ~SdfQuery();
  SdfQuery(const SdfQuery&) = delete;
  SdfQuery& operator=(const SdfQuery&) = delete;

  /// the tree traversal; its caches persist between calls (call it along a motion for the
  /// temporal-coherence skip); budget 0: unlimited; `reduce`: also the contacts for the LCP
  /// (facing rule and patch reduction), else only the touching points (contacts stays 0)
  SdfQueryStats traverse(const Pose& shell_pose, const Pose& field_pose, double margin,
                         long budget = 0, bool coherence = true, bool reduce = true);
  /// every point tested, no tree, no reduction
  SdfQueryStats brute_force(const Pose& shell_pose, const Pose& field_pose, double margin);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pivot
