#pragma once
// A small collision scene for the tests of collision/collision_world.hpp: bodies by index with
// their poses.
#include <cstdint>
#include <map>
#include <vector>

#include <Eigen/Geometry>

#include "pivot/collision/collision_world.hpp"

namespace pivot::test {

/// a small scene: bodies by index with their poses
struct Scene {
  CollisionWorld world;
  std::map<int, Pose> poses;

  void add(int body, ShapePtr shape, const Vec3& x, const Quat& q = Quat::Identity(),
           bool fixed = false, std::uint32_t group = 1, std::uint32_t mask = 0xffffffffu) {
    CollisionObjectSettings s;
    s.body = body;
    s.shape = std::move(shape);
    s.fixed = fixed;
    s.group = group;
    s.mask = mask;
    world.add(s);
    poses[body] = Pose{x, q};
  }
  std::vector<Contact> detect(double margin) {
    return world.detect([&](int i) { return poses.at(i); }, margin);
  }
};

inline Quat axis_angle(double angle, const Vec3& axis) {
  return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

}  // namespace pivot::test
