#pragma once
// Pivot's World built from a SceneSpec (sim_pivot.cpp), for the scene benchmark and for writing
// the LCPs of Pivot's own steps (scene_lcps.cpp).

#include "pivot/engine/world.hpp"
#include "scene_spec.hpp"

namespace pivot::bench {

/// the scene as a World with default settings except h, gravity (and record_lcps); body i of
/// the spec is World body i + 1 when the scene has a ground (body 0), else body i
[[nodiscard]] World build_pivot_world(const SceneSpec& spec, bool record_lcps = false,
                                      int threads = 1);

}  // namespace pivot::bench
