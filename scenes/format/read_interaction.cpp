// One entry of "interactions" (docs/scene-format.md, "Interactions").
#include <fmt/core.h>

#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {
namespace {

// the bounds of an interaction's values beyond the scene format's magnitudes (docs/limits.md
// "Magnitudes at load"), which apply to its lengths and densities too:
// a ball's smallest radius, m (a UI's smallest ball)
constexpr double kMinThrowRadius = 1e-4;
// a set_dt's bounds, s: those of `--dt` (docs/limits.md "Times")
constexpr double kMinInteractionDt = 1e-9;
constexpr double kMaxInteractionDt = 1e12;
// a pull's largest stiffness (N/m) and damping (N·s/m): a pull on the heaviest body (10²⁰ kg)
// at 10⁵ rad/s; beyond, k times a length of the scene overflows the step's impulses
constexpr double kMaxPullGain = 1e30;
// a set_target's largest magnitude: a length, an angle, a rate or an effort within the scene
// format's bound on lengths (docs/limits.md "Magnitudes at load")
constexpr double kMaxTarget = kMaxLength;

}  // namespace

SceneInteraction read_interaction(const Context& ctx, const json& j, const std::string& ptr) {
  if (!j.is_object()) ctx.fail(ptr, fmt::format("expected an object (got {})", describe(j)));
  const auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string())
    ctx.fail(ptr + "/type",
             "expected one of \"pull\", \"move\", \"release\", \"throw\", "
             "\"set_dt\", \"hybrid\", \"set_target\", \"end\"");
  const std::string type = type_it->get<std::string>();
  SceneInteraction e;
  std::vector<std::string> keys{"step", "type"};
  if (type == "pull") {
    e.type = InteractionType::pull;
    keys.insert(keys.end(), {"body", "point", "target", "stiffness", "damping"});
  } else if (type == "move") {
    e.type = InteractionType::move;
    keys.emplace_back("target");
  } else if (type == "release") {
    e.type = InteractionType::release;
  } else if (type == "throw") {
    e.type = InteractionType::throw_ball;
    keys.insert(keys.end(), {"origin", "direction", "speed", "radius", "density"});
  } else if (type == "set_dt") {
    e.type = InteractionType::set_dt;
    keys.emplace_back("dt");
  } else if (type == "hybrid") {
    e.type = InteractionType::hybrid;
    keys.emplace_back("on");
  } else if (type == "set_target") {
    e.type = InteractionType::set_target;
    keys.insert(keys.end(), {"actuator", "value"});
  } else if (type == "end") {
    e.type = InteractionType::end;
  } else {
    ctx.fail(ptr + "/type", fmt::format("unknown interaction \"{}\" (expected pull, move, "
                                        "release, throw, set_dt, hybrid, set_target or end)",
                                        type));
  }
  const Object o(ctx, j, ptr, keys);
  const json& step = o.required("step", "a step number");
  if (!step.is_number_integer() || step.get<long long>() < 0)
    ctx.fail(o.pointer("step"), fmt::format("expected an integer >= 0 (got {})", describe(step)));
  e.step = static_cast<long>(step.get<long long>());
  switch (e.type) {
    case InteractionType::pull:
      e.body = o.required_string("body");
      if (e.body.empty()) ctx.fail(o.pointer("body"), "expected a body's name");
      e.point = within(ctx, o.pointer("point"), o.vec3("point", Vec3::Zero(), Range::any),
                       kMaxLength, "m");
      e.target =
          within(ctx, o.pointer("target"), o.required_vec3("target", Range::any), kMaxLength, "m");
      e.stiffness =
          within(ctx, o.pointer("stiffness"), o.required_number("stiffness", Range::non_negative),
                 kMaxPullGain, "N/m");
      e.damping = within(ctx, o.pointer("damping"), o.number("damping", 0.0, Range::non_negative),
                         kMaxPullGain, "N s/m");
      break;
    case InteractionType::move:
      e.target =
          within(ctx, o.pointer("target"), o.required_vec3("target", Range::any), kMaxLength, "m");
      break;
    case InteractionType::throw_ball:
      e.origin =
          within(ctx, o.pointer("origin"), o.required_vec3("origin", Range::any), kMaxLength, "m");
      e.direction = o.unit_vec3("direction", Vec3::Zero());
      if (!o.has("direction")) ctx.fail(o.pointer("direction"), "missing: expected a direction");
      e.speed = o.required_number("speed", Range::non_negative);
      if (e.speed > kMaxThrowSpeed)
        ctx.fail(o.pointer("speed"), fmt::format("expected at most {:g} m/s", kMaxThrowSpeed));
      e.radius = o.number("radius", e.radius, Range::positive);
      if (e.radius > kMaxThrowRadius)
        ctx.fail(o.pointer("radius"), fmt::format("expected at most {:g} m", kMaxThrowRadius));
      if (e.radius < kMinThrowRadius)
        ctx.fail(o.pointer("radius"), fmt::format("expected at least {:g} m", kMinThrowRadius));
      e.density =
          between(ctx, o.pointer("density"), o.number("density", e.density, Range::positive),
                  kMinMass, kMaxMass, "kg/m^3");
      break;
    case InteractionType::set_dt:
      e.dt = between(ctx, o.pointer("dt"), o.required_number("dt", Range::positive),
                     kMinInteractionDt, kMaxInteractionDt, "s");
      break;
    case InteractionType::hybrid: {
      const json& on = o.required("on", "true or false");
      if (!on.is_boolean()) ctx.fail(o.pointer("on"), "expected true or false");
      e.on = on.get<bool>();
      break;
    }
    case InteractionType::set_target:
      e.actuator = o.required_string("actuator");
      if (e.actuator.empty()) ctx.fail(o.pointer("actuator"), "expected an actuator's name");
      e.value = within(ctx, o.pointer("value"), o.required_number("value", Range::any), kMaxTarget,
                       "(rad, m, rad/s, m/s, N m or N)");
      break;
    default:
      break;
  }
  return e;
}

std::vector<SceneInteraction> read_interactions(const Context& ctx, const json& j) {
  if (!j.is_array())
    ctx.fail("/interactions", fmt::format("expected an array (got {})", describe(j)));
  std::vector<SceneInteraction> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string ptr = "/interactions/" + std::to_string(i);
    SceneInteraction e = read_interaction(ctx, j[i], ptr);
    if (!out.empty() && e.step < out.back().step)
      ctx.fail(ptr + "/step",
               fmt::format("steps must not decrease (got {} after {})", e.step, out.back().step));
    if (!out.empty() && out.back().type == InteractionType::end)
      ctx.fail(ptr, "nothing may follow the \"end\" event");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace pivot::detail

namespace pivot {

SceneInteraction parse_interaction(std::string_view json_text, std::string_view source) {
  const detail::Context ctx{std::string(source), {}};
  return detail::read_interaction(ctx, detail::parse_text(ctx, json_text), "");
}

}  // namespace pivot
