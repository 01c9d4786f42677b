#include "pivot/constraints/joint.hpp"

#include <algorithm>
#include <cmath>

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
  double m = 0.0;
  for (Eigen::Index i = 0; i < scratch.g.size(); ++i) {
    if (std::isnan(scratch.g(i))) return scratch.g(i);
    m = std::max(m, std::abs(scratch.g(i)));
  }
  return m;
}

}  // namespace pivot
