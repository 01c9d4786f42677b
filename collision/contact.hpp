#pragma once
// A contact record from collision detection (ARCHITECTURE.md, step 1).

#include "pivot/core/spatial.hpp"

namespace pivot {

struct Contact {
  int body_a = -1;  ///< body indices (a fixed body or −1 for none)
  int body_b = -1;
  Vec3 point_a = Vec3::Zero();  ///< the closest point on A's surface, world, m
  Vec3 point_b = Vec3::Zero();  ///< the closest point on B's surface, world, m
  Vec3 normal = Vec3::UnitZ();  ///< unit, from B to A, world
  double gap = 0.0;             ///< n·(point_a − point_b): > 0 separated, < 0 penetrating, m
};

}  // namespace pivot
