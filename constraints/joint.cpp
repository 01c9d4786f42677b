#include "pivot/constraints/joint.hpp"

#include "pivot/constraints/joint_rows.hpp"

namespace pivot {

const char* to_string(JointType type) {
  switch (type) {
    case JointType::ball:
      return "ball";
    case JointType::hinge:
      return "hinge";
    case JointType::universal:
      return "universal";
    case JointType::slider:
      return "slider";
    case JointType::fixed:
      return "fixed";
    case JointType::planar:
      return "planar";
  }
  return "unknown";
}

double Joint::equality_error(const Pose& A, const Pose& B, ConstraintRows& scratch) const {
  equality(A, B, scratch);
  return detail::max_abs(scratch.g.data(), scratch.g.data() + scratch.g.size());
}

}  // namespace pivot
