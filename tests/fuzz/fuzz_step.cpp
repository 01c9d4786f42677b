// Fuzz target: the step on small fuzzed worlds (engine/world.hpp, docs/reliability.md).
//
// The bytes decode to world settings (time step 1e-4 … 0.05 s, stabilization, friction
// directions, hybrid mode), an optional fixed ground plane, up to four bodies (shape none,
// sphere, box, capsule, cylinder or ellipsoid with sizes 1e-3 … 1e2 m, masses 1e-3 … 1e4 kg,
// speeds up to 1e2 m/s and rad/s, overlapping or not, fixed or free), up to three joints of any
// type between them or the world (with limits and motors), and up to two springs: extreme but
// finite parameters. Contract: building throws pivot::Error or nothing; then after each of 50
// steps the state is finite (a body the step's state guard put back counts in
// StepReport::failures); no exception other than pivot::Error escapes a step.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "fuzz_support.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"

namespace {

using pivot::Vec3;
using pivot::fuzz::ByteReader;

constexpr int kSteps = 50;

// Every read of the bytes is sequenced (braced lists, or one read per statement): the order in
// which a function's arguments or an operator's operands are evaluated is unspecified, and g++
// and clang++ differ, so `Vec3(in.a(), in.b(), in.c())` decoded the same input to different
// worlds in the libFuzzer build (clang++) and in the replay tests (g++): the committed inputs
// did not replay the worlds they were found on. Braces keep clang's left-to-right order, so the
// committed corpus keeps its meaning there.
Vec3 direction(ByteReader& in) {
  return {in.unit_ish(), in.unit_ish(), in.unit_ish()};  // may be zero: the joint then refuses
}

pivot::Quat orientation(ByteReader& in) {
  pivot::Quat q{in.unit_ish(), in.unit_ish(), in.unit_ish(), in.unit_ish()};
  if (q.norm() == 0.0) return pivot::Quat::Identity();
  return q.normalized();
}

pivot::ShapePtr shape(ByteReader& in, double size) {
  switch (in.below(6)) {
    case 1: return pivot::make_sphere(size);
    case 2: return pivot::make_box(Vec3{size, size * in.uniform(0.1, 2.0), size * in.uniform(0.1, 2.0)});
    case 3: return pivot::make_capsule(size, size * in.uniform(0.0, 3.0));
    case 4: return pivot::make_cylinder(size, size * in.uniform(0.1, 3.0));
    case 5: return pivot::make_ellipsoid(Vec3{size, size * in.uniform(0.2, 2.0), size * in.uniform(0.2, 2.0)});
    default: return nullptr;
  }
}

bool state_finite(const pivot::World& world) {
  for (int b = 0; b < world.body_count(); ++b) {
    const pivot::Pose p = world.pose(b);
    if (!p.all_finite() || !world.twist(b).allFinite())
      return false;
  }
  return true;
}

/// builds the world the bytes describe; throws pivot::Error where the engine refuses it
pivot::World build(ByteReader& in) {
  pivot::WorldSettings settings;
  constexpr double kTimeSteps[] = {1e-4, 1e-3, 1e-2, 0.05};
  settings.time_step = kTimeSteps[in.below(4)];
  settings.stabilization = static_cast<pivot::Stabilization>(in.below(3));
  settings.friction_directions = in.flag() ? 8 : 4;
  settings.hybrid = in.flag();
  settings.hybrid_entry_steps = in.below(3);
  // The reduced integrator's bound per pair and World step (docs/limits.md) is 1 000 substeps,
  // about 0.1 s in a release build; 50 steps of a pair that chatters between stick and slip use
  // hundreds in every step, and under ASan + UBSan (100-170 times slower on this Eigen-heavy
  // code) one such input passes libFuzzer's 30 s per-input limit. The bound itself is tested in
  // tests/engine/hybrid/test_reduced_limits.cpp; here it is 32, which keeps every path of the
  // integrator (and its step_failed exit) within the per-input time.
  settings.hybrid_integrator.max_steps = 32;
  settings.gravity = Vec3(0, 0, -9.81) * in.magnitude(-2, 2);
  pivot::World world(settings);

  if (in.flag()) {
    pivot::BodySettings ground{.name = "ground", .fixed = true};
    ground.shape = pivot::make_plane(Vec3::UnitZ(), 0.0);
    ground.friction = in.uniform(0.0, 2.0);
    world.add_body(ground);
  }
  const int bodies = 1 + in.below(4);
  for (int i = 0; i < bodies; ++i) {
    const double size = in.magnitude(-3, 2);
    pivot::BodySettings body;
    body.name = std::to_string(i);  // (not "b" + …: GCC 12 warns falsely, -Wrestrict)
    body.shape = shape(in, size);
    body.fixed = in.below(8) == 0;
    body.mass = in.magnitude(-3, 4);
    // positions within a few sizes of each other and of the ground: contacts and overlaps
    body.p_WS = Vec3{in.unit_ish(), in.unit_ish(), std::abs(in.unit_ish())} * (size / 32.0);
    body.q_WB = orientation(in);
    const Vec3 v_direction = direction(in);
    body.v_WB = v_direction * (in.magnitude(-3, 2) / 128.0);
    const Vec3 w_direction = direction(in);
    body.w_WB = w_direction * (in.magnitude(-3, 2) / 128.0);
    body.friction = in.uniform(0.0, 2.0);
    body.restitution = in.uniform(0.0, 1.0);
    world.add_body(body);
  }

  const int n = world.body_count();
  const int joints = in.below(4);
  for (int j = 0; j < joints; ++j) {
    const int a = in.below(n);
    const int b = in.below(n + 1) - 1;  // −1 is the world
    const Vec3 anchor = world.pose(a).p_WB + direction(in) / 64.0;
    std::optional<pivot::JointLimits> limits;
    if (in.flag()) limits = pivot::JointLimits{in.unit_ish() / 32.0, in.unit_ish() / 32.0};
    std::optional<pivot::JointMotor> motor;
    if (in.flag()) motor = pivot::JointMotor{in.unit_ish(), in.magnitude(-3, 3)};
    switch (in.below(5)) {
      case 0: world.add_joint(pivot::BallJointSettings{.anchor_W = anchor}, a, b); break;
      case 1:
        world.add_joint(pivot::HingeJointSettings{.anchor_W = anchor, .axis_W = direction(in),
                                                  .limits = limits, .motor = motor}, a, b);
        break;
      case 2:
        world.add_joint(pivot::UniversalJointSettings{.anchor_W = anchor,
                                                      .axis_a_W = direction(in),
                                                      .axis_b_W = direction(in)}, a, b);
        break;
      case 3:
        world.add_joint(pivot::SliderJointSettings{.anchor_W = anchor, .axis_W = direction(in),
                                                   .limits = limits, .motor = motor}, a, b);
        break;
      default: world.add_joint(pivot::FixedJointSettings{.anchor_W = anchor}, a, b); break;
    }
  }
  const int springs = in.below(3);
  for (int s = 0; s < springs; ++s) {
    pivot::SpringSettings spring;
    spring.body_a = in.below(n);
    spring.body_b = in.below(n + 1) - 1;
    spring.p_APa = direction(in) / 128.0;
    spring.stiffness = in.magnitude(-2, 6);
    spring.damping = in.magnitude(-3, 3);
    spring.rest_length = in.uniform(0.0, 2.0);
    world.add_spring(spring);
  }
  return world;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader in(data, size);
  try {
    pivot::World world = build(in);
    for (int step = 0; step < kSteps; ++step) {
      const pivot::StepReport& report = world.step();
      // the step's state guard (docs/step.md "6. The state guard") keeps every body finite,
      // and a body it put back is a reported failure
      if (!state_finite(world))
        pivot::fuzz::finding("the state is not finite after step " + std::to_string(step + 1));
      if (report.warning_count(pivot::StepWarning::nonfinite_state) > report.failures)
        pivot::fuzz::finding("a body was put back by the state guard but the step counts fewer "
                             "failures");
    }
  } catch (const pivot::Error& e) {
    if (std::string(e.what()).empty()) pivot::fuzz::finding("pivot::Error with an empty message");
  } catch (const std::exception& e) {
    pivot::fuzz::finding(std::string("a non-pivot exception escaped: ") + e.what());
  }
  return 0;
}
