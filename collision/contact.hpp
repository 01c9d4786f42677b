#pragma once
// A contact record from collision detection (docs/step.md, step 1). Names carry their frames
// (docs/notation.md): p_WCa is the position of point Ca measured from the world origin, in
// world coordinates; n_BA_W the normal from B to A, in world coordinates.

#include "pivot/core/spatial.hpp"

namespace pivot {

struct Contact {
  int body_a = -1;  ///< body indices (a fixed body or −1 for none)
  int body_b = -1;
  Vec3 p_WCa = Vec3::Zero();    ///< Ca, the closest point on A's surface, in world, m
  Vec3 p_WCb = Vec3::Zero();    ///< Cb, the closest point on B's surface, in world, m
  Vec3 n_BA_W = Vec3::UnitZ();  ///< the unit normal from B to A, in world
  double gap = 0.0;             ///< n_BA_W·(p_WCa − p_WCb): > 0 separated, < 0 penetrating, m
};

}  // namespace pivot
