// The World's side of the reduced integrator's bounds (issue #24, docs/limits.md): a pair whose
// integration fails leaves reduced mode with a warning that says why (it used to leave
// silently), and WorldSettings::interrupted reaches the integrator.
#include <catch2/catch.hpp>

#include <string>

#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

/// a ball resting and rolling on the ground, entering reduced mode at the first step
World rolling_ball(const WorldSettings& base, double h = 0.01) {
  WorldSettings s = base;
  s.time_step = h;
  s.hybrid = true;
  s.hybrid_entry_steps = 0;
  World w(s);
  w.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  w.add_body({.name = "ball",
              .mass = 1.0,
              .shape = make_sphere(0.1),
              .p_WS = Vec3(0.0, 0.0, 0.1),
              .v_WB = Vec3(1.0, 0.0, 0.0),
              .w_WB = Vec3(0.0, 10.0, 0.0)});
  return w;
}

/// the warnings of one kind in a step's report
std::vector<std::string> warnings_of(const StepReport& r, StepWarning kind) {
  std::vector<std::string> out;
  for (const StepWarningRecord& w : r.warnings)
    if (w.kind == kind) out.push_back(w.message);
  return out;
}

}  // namespace

TEST_CASE("hybrid: a pair whose integration runs out of steps leaves with a warning",
          "[engine][hybrid][limits]") {
  // control: with the default budget the ball stays in reduced mode, with no warning
  {
    World w = rolling_ball({});
    for (int k = 0; k < 3; ++k) {
      const StepReport& r = w.step();
      CHECK(warnings_of(r, StepWarning::hybrid_exit_failed).empty());
    }
    CHECK(w.last_report().reduced_pairs == 1);
  }
  // one step of h = 10 ms at dt_max = 1 ms needs ≥ 10 integrator steps; a budget of 3 runs out
  WorldSettings s;
  s.hybrid_integrator.dt_max = 1e-3;
  s.hybrid_integrator.max_steps = 3;
  World w = rolling_ball(s);
  int exits = 0;
  std::vector<std::string> messages;
  for (int k = 0; k < 3; ++k) {
    const StepReport& r = w.step();
    for (const SwitchEvent& e : r.switches)
      if (!e.entered) {
        ++exits;
        CHECK(e.reason.find("step_failed") == 0);
      }
    for (const std::string& m : warnings_of(r, StepWarning::hybrid_exit_failed)) messages.push_back(m);
  }
  REQUIRE(exits >= 1);
  REQUIRE(messages.size() == static_cast<std::size_t>(exits));
  CHECK(messages[0].find("body \"ball\" left reduced mode: step_failed") != std::string::npos);
  CHECK(messages[0].find("more than 3 steps") != std::string::npos);
  CHECK(w.totals().warnings[static_cast<std::size_t>(StepWarning::hybrid_exit_failed)] == exits);
}

TEST_CASE("hybrid: WorldSettings::interrupted ends a long reduced advance early",
          "[engine][hybrid][limits]") {
  // a step of 10 s at dt_max = 1 ms is 10⁴ integrator steps; interrupted from the start, the
  // integrator stops at its first poll (after 63 steps) and the pair leaves with step_failed;
  // the LCP takes the step
  WorldSettings s;
  s.hybrid_integrator.dt_max = 1e-3;
  World w = rolling_ball(s, 10.0);
  int polls = 0;
  w.set_interrupt_check([&polls] {
    ++polls;
    return true;
  });
  const StepReport& r = w.step();
  const auto messages = warnings_of(r, StepWarning::hybrid_exit_failed);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].find("interrupted after 63 steps") != std::string::npos);
  CHECK(r.reduced_pairs == 0);
  CHECK(polls >= 1);
}

TEST_CASE("hybrid: after failed integrations a body waits 2, 4, 8, ... steps before it re-enters",
          "[engine][hybrid][limits]") {
  // The budget of 3 integrator steps fails every reduced step (as above). Entries are at the
  // start of steps (hybrid_entry_steps = 0), so without a back-off the ball re-entered and
  // failed in every step (a step fuzz finding: 12 failed entries in 50 steps of a stiff pair,
  // each using the whole substep budget). The rule (docs/hybrid.md "The World switch"): after
  // its k-th failure in a row a body waits 2^k whole steps. From step 0: fail; wait 2 (steps
  // 1, 2); fail at 3; wait 4 (4..7); fail at 8; wait 8 (9..16); fail at 17; wait 16; fail at 34.
  WorldSettings s;
  s.hybrid_integrator.dt_max = 1e-3;
  s.hybrid_integrator.max_steps = 3;
  World w = rolling_ball(s);
  std::vector<int> failed_at;
  for (int k = 0; k < 40; ++k) {
    const StepReport& r = w.step();
    for (const SwitchEvent& e : r.switches)
      if (!e.entered && e.reason.starts_with("step_failed")) failed_at.push_back(k);
  }
  CHECK(failed_at == std::vector<int>{0, 3, 8, 17, 34});
}
