#include <catch2/catch.hpp>
#include <string>

#include "pivot/constraints/joint.hpp"

TEST_CASE("joint type names as written in scene files", "[constraints]") {
  using pivot::JointType;
  CHECK(std::string(pivot::to_string(JointType::ball)) == "ball");
  CHECK(std::string(pivot::to_string(JointType::hinge)) == "hinge");
  CHECK(std::string(pivot::to_string(JointType::universal)) == "universal");
  CHECK(std::string(pivot::to_string(JointType::slider)) == "slider");
  CHECK(std::string(pivot::to_string(JointType::fixed)) == "fixed");
  CHECK(std::string(pivot::to_string(JointType::planar)) == "planar");
}
