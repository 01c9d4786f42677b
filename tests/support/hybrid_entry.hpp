#pragma once
// A check shared by the hybrid tests (tests/engine, tests/scenes): the first step of a World
// with hybrid_entry_steps = 0 entered one pair at t = 0, before any LCP, and the entry's
// projection onto the contact manifold moved the body by less than `tolerance` (m, rad, twist
// components, J).
#include <catch2/catch.hpp>

#include <cmath>

#include "pivot/engine/world.hpp"

namespace pivot::test {

inline void check_entry_at_start(const World& world, const StepReport& first_step,
                                 double tolerance) {
  REQUIRE(first_step.switches.size() == 1);
  const SwitchEvent& e = first_step.switches.front();
  CHECK(e.entered);
  CHECK(e.time == 0.0);
  CHECK(e.position_change < tolerance);
  CHECK(e.rotation_change < tolerance);
  CHECK(e.twist_change < tolerance);
  CHECK(std::abs(e.energy_change) < tolerance);
  CHECK(first_step.reduced_pairs == 1);
  CHECK(world.totals().lcp_solves == 0);
}

}  // namespace pivot::test
