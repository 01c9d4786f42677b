// The reduced integrator's bounds (issue #24, docs/limits.md): one advance() call takes at most
// max_steps steps and polls `interrupted`, so no input makes one World step run for minutes;
// both end the call with step_failed and a message that says which.
#include <catch2/catch.hpp>

#include <string>

#include "reduced_test_support.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using namespace pivot::test;

namespace {

/// a sphere of radius 0.1 m rolling at 1 m/s on the ground plane, entered in reduced mode
struct RollingSphere {
  ReducedContactModel model;
  ReducedContactState state;
  RollingSphere() {
    const double r = 0.1;
    model.body1 = sphere_body(r, 2.0);
    model.body2 = ground_plane();
    model.friction.mu = 0.5;
    Pose X;
    X.p_WB = Vec3(0.0, 0.0, r);
    Vec6 V;
    V << 0.0, 1.0 / r, 0.0, 1.0, 0.0, 0.0;  // rolling without slip along +x
    state = enter_reduced_mode(model, X, V, Pose{}, Vec6::Zero()).state;
  }
};

}  // namespace

TEST_CASE("advance() stops at max_steps with step_failed", "[engine][reduced][limits]") {
  // 100 s at dt_max = 10 ms needs 10⁴ accepted steps (closed form: the rolling sphere's error
  // test never shrinks the step, so h / dt_max of them); a budget of 500 is used up first
  RollingSphere s;
  ReducedStepSettings settings;
  settings.max_steps = 500;
  const ReducedAdvanceResult r = advance(s.model, s.state, 100.0, settings);
  CHECK(r.status == ReducedStatus::step_failed);
  // the loop's budget counts its passes; a few passes (event restarts) take no step
  CHECK(r.steps + r.rejected <= 500);
  CHECK(r.steps > 400);
  CHECK(r.message.find("more than 500 steps") != std::string::npos);
  CHECK(s.state.time < 100.0);
}

TEST_CASE("advance() polls `interrupted` and ends with step_failed", "[engine][reduced][limits]") {
  RollingSphere s;
  ReducedStepSettings settings;
  int polls = 0;
  settings.interrupted = [&polls] { return ++polls >= 3; };  // true at the third poll
  const ReducedAdvanceResult r = advance(s.model, s.state, 100.0, settings);
  CHECK(r.status == ReducedStatus::step_failed);
  CHECK(r.message.find("interrupted") != std::string::npos);
  CHECK(polls == 3);
  // polled every 64 passes of the loop: the third poll comes after 3 · 64 − 1 of them
  CHECK(r.message.find("interrupted after 191 steps") != std::string::npos);
  CHECK(r.steps + r.rejected <= 191);
}
