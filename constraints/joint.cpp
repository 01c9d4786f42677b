#include "pivot/constraints/joint.hpp"

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

}  // namespace pivot
