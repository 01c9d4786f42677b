#pragma once
// What World::step keeps from one step to the next (internal): the stages' buffers, so that a
// step whose islands and contacts are those of the step before reuses their memory instead of
// allocating it again (MuJoCo's mjData arena, for the same reason). Nothing here carries
// meaning across steps except the warm starts; every buffer is written before it is read.

#include <Eigen/Core>
#include <map>
#include <utility>
#include <vector>

#include "pivot/collision/contact.hpp"
#include "pivot/constraints/joint.hpp"
#include "pivot/core/spatial.hpp"
#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/island_batch.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/step_context.hpp"

namespace pivot::detail {

/// rows.clear(), keeping the direction lists of its friction cones (empty) in `spare`
inline void clear_keeping_cones(ConstraintSet& rows, std::vector<std::vector<RowRef>>& spare) {
  for (FrictionCone& cone : rows.cones) {
    cone.directions.clear();
    spare.push_back(std::move(cone.directions));
  }
  rows.clear();
}

/// an island's warm start: its LCP size and the active set of its last solved step
struct WarmStart {
  int m = 0;
  std::vector<int> active_set;
  long step = -1;  ///< the step that wrote it: entries of earlier steps are dropped at its end
};

/// the buffers of one solve of a step's islands (the dynamics, or a post-step pass)
struct IslandWork {
  IslandSplit split;
  std::vector<IslandInput> islands;
  /// whether some island of the last split had joint rows repeated on one pair of bodies
  /// (World::drop_repeated_joint_rows): with the same split again, none has, and none is looked for
  bool repeated_joint_rows = true;
  std::vector<IslandJob> jobs;
  std::vector<IslandOutput> outputs;
};

struct StepWorkspace {
  StepContext ctx;                        ///< the stages' hand-over, cleared at each step
  IslandWork dynamics;                    ///< the step's islands
  std::vector<int> sizes;                 ///< the dynamics islands' complementarity variables
  IslandWork post;                        ///< post-stabilization's islands
  Eigen::VectorXd dp;                     ///< post-stabilization's correction, 6 per body
  std::vector<Contact> contacts_at_end;   ///< contacts at p(t+h)
  std::vector<Vec3> friction_directions;  ///< one contact's tangent directions
  /// each joint's equality and limit rows, by joint: a joint's row counts rarely change, and an
  /// Eigen matrix reallocates whenever its size does (one buffer for all joints did, 3 times
  /// a joint)
  std::vector<ConstraintRows> joint_equality, joint_limits;
  /// the buffers of joint j, made on first use
  ConstraintRows& equality_rows(std::size_t j) {
    if (joint_equality.size() <= j) joint_equality.resize(j + 1);
    return joint_equality[j];
  }
  ConstraintRows& limit_rows(std::size_t j) {
    if (joint_limits.size() <= j) joint_limits.resize(j + 1);
    return joint_limits[j];
  }
  /// the direction lists of the last step's friction cones, for this step's cones
  std::vector<std::vector<RowRef>> spare_directions;
  /// the warm starts by island (its bodies), from the last step that solved each
  std::map<std::vector<int>, WarmStart> warm_start;
};

}  // namespace pivot::detail
