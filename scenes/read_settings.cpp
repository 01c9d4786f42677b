// "settings" (docs/scene-format.md, "Settings"): the run, the World and the hybrid mode.
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

// ---- settings ----

/// the hybrid mode's settings: entry rule, reduced integrator, friction thresholds and torques
void read_hybrid_settings(const Context& ctx, const Object& o, WorldSettings& w) {
  w.hybrid_entry_steps = o.integer("hybrid_entry_steps", w.hybrid_entry_steps);
  if (w.hybrid_entry_steps < 0)
    ctx.fail(o.pointer("hybrid_entry_steps"),
             fmt::format("expected an integer >= 0 (got {})", w.hybrid_entry_steps));
  w.hybrid_point_tolerance =
      o.number("hybrid_point_tolerance", w.hybrid_point_tolerance, Range::positive);
  w.hybrid_max_normal_speed =
      o.number("hybrid_max_normal_speed", w.hybrid_max_normal_speed, Range::non_negative);
  ReducedStepSettings& ri = w.hybrid_integrator;
  ri.dt_max = o.number("hybrid_dt_max", ri.dt_max, Range::positive);
  if (ri.dt_max < ri.dt_min)
    ctx.fail(
        o.pointer("hybrid_dt_max"),
        fmt::format("expected at least the smallest step {} s (got {})", ri.dt_min, ri.dt_max));
  ri.tolerance = o.number("hybrid_tolerance", ri.tolerance, Range::positive);
  if (ri.tolerance < kMinReducedTolerance)
    ctx.fail(o.pointer("hybrid_tolerance"),
             fmt::format("{:g} is below {:g}, the smallest tolerance the reduced integrator's "
                         "error estimate can reach in double precision (docs/limits.md)",
                         ri.tolerance, kMinReducedTolerance));
  ContactFriction& f = w.hybrid_friction;
  // null (the default): μ_static = the pair's μ
  if (o.has("hybrid_mu_static") && !o.required("hybrid_mu_static").is_null())
    f.mu_static = o.required_number("hybrid_mu_static", Range::non_negative);
  f.mu_spin_static = o.number("hybrid_mu_spin_static", f.mu_spin_static, Range::non_negative);
  f.slip_threshold = o.number("hybrid_slip_threshold", f.slip_threshold, Range::non_negative);
  f.spin_threshold = o.number("hybrid_spin_threshold", f.spin_threshold, Range::non_negative);
  f.min_slide_time = o.number("hybrid_min_slide_time", f.min_slide_time, Range::non_negative);
  f.rolling = o.boolean("hybrid_rolling", f.rolling);
  f.slip_regularization =
      o.number("hybrid_slip_regularization", f.slip_regularization, Range::non_negative);
  // rolling and spinning friction torques, reduced coordinates only (Kry 2000 eqs. 4.27-4.30)
  FrictionTorques& t = w.hybrid_torques;
  t.mu_rolling = o.number("hybrid_mu_rolling", t.mu_rolling, Range::non_negative);
  t.mu_spinning = o.number("hybrid_mu_spinning", t.mu_spinning, Range::non_negative);
  t.stick = o.boolean("hybrid_rolling_stick", t.stick);
}

SceneSettings read_settings(const Context& ctx, const json* j, int dimension) {
  SceneSettings s;
  const bool planar = dimension == 2;
  s.world.dimension = dimension;
  if (planar) s.world.friction_directions = 2;  // ±t in the plane
  if (!j) return s;
  const Object o(ctx, *j, "/settings",
                 {"dt",
                  "duration",
                  "gravity",
                  "friction_directions",
                  "stabilization",
                  "hybrid",
                  "output_rate_hz",
                  "baumgarte_alpha",
                  "implicit_forces",
                  "contact_margin",
                  "restitution_threshold",
                  "post_step_cap",
                  "max_post_steps",
                  "limit_margin",
                  "hybrid_entry_steps",
                  "hybrid_point_tolerance",
                  "hybrid_max_normal_speed",
                  "hybrid_dt_max",
                  "hybrid_tolerance",
                  "hybrid_mu_static",
                  "hybrid_mu_spin_static",
                  "hybrid_slip_threshold",
                  "hybrid_spin_threshold",
                  "hybrid_min_slide_time",
                  "hybrid_rolling",
                  "hybrid_slip_regularization",
                  "hybrid_mu_rolling",
                  "hybrid_mu_spinning",
                  "hybrid_rolling_stick",
                  "mode"});
  WorldSettings& w = s.world;
  w.time_step = o.number("dt", w.time_step, Range::positive);
  s.duration = o.number("duration", s.duration, Range::positive);
  if (w.time_step > s.duration)
    ctx.fail(o.pointer("dt"), fmt::format("the time step {:g} s is longer than the run's duration "
                                          "{:g} s",
                                          w.time_step, s.duration));
  s.output_rate_hz = o.number("output_rate_hz", s.output_rate_hz, Range::non_negative);
  s.world.hybrid = o.boolean("hybrid", s.world.hybrid);
  if (planar && o.has("gravity")) {
    const Vec2 g = vec2(ctx, o.required("gravity"), o.pointer("gravity"), Range::any);
    w.gravity =
        within(ctx, o.pointer("gravity"), Vec3(g.x(), 0.0, g.y()), kMaxAcceleration, "m/s²");
  } else {
    w.gravity = within(ctx, o.pointer("gravity"), o.vec3("gravity", w.gravity, Range::any),
                       kMaxAcceleration, "m/s²");
  }
  w.friction_directions = o.integer("friction_directions", w.friction_directions);
  if (planar && w.friction_directions != 2)
    ctx.fail(o.pointer("friction_directions"),
             fmt::format("a planar scene has 2 friction directions, ±t in the plane (got {})",
                         w.friction_directions));
  if (planar && s.world.hybrid)
    ctx.fail(o.pointer("hybrid"), "a planar scene has no hybrid mode (docs/planar.md)");
  if (w.friction_directions < 2 || w.friction_directions > 64 || w.friction_directions % 2 != 0)
    ctx.fail(o.pointer("friction_directions"),
             fmt::format("expected an even number in [2, 64], e.g. 4, 8 or 16 (got {})",
                         w.friction_directions));
  const std::string stab = o.string("stabilization", to_string(w.stabilization));
  if (stab == "post")
    w.stabilization = Stabilization::post;
  else if (stab == "baumgarte")
    w.stabilization = Stabilization::baumgarte;
  else if (stab == "none")
    w.stabilization = Stabilization::none;
  else
    ctx.fail(
        o.pointer("stabilization"),
        fmt::format("expected \"post\", \"baumgarte\" or \"none\" (got {})", pivot::quoted(stab)));
  w.baumgarte_alpha = o.number("baumgarte_alpha", w.baumgarte_alpha, Range::non_negative);
  w.implicit_forces = o.boolean("implicit_forces", w.implicit_forces);
  w.contact_margin = o.number("contact_margin", w.contact_margin, Range::non_negative);
  w.restitution_threshold =
      o.number("restitution_threshold", w.restitution_threshold, Range::non_negative);
  w.post_step_cap = o.number("post_step_cap", w.post_step_cap, Range::non_negative);
  w.max_post_steps = o.integer("max_post_steps", w.max_post_steps);
  if (w.max_post_steps < 1 || w.max_post_steps > kMaxPostSteps)
    ctx.fail(o.pointer("max_post_steps"), fmt::format("expected an integer in [1, {}] (got {})",
                                                      kMaxPostSteps, w.max_post_steps));
  w.limit_margin = o.number("limit_margin", w.limit_margin, Range::non_negative);
  read_hybrid_settings(ctx, o, w);
  const std::string mode = o.string("mode", "dynamics");
  if (mode == "animator" && planar)
    ctx.fail(o.pointer("mode"), "a planar scene has no animator mode (docs/planar.md)");
  if (mode == "animator")
    s.animator = true;
  else if (mode != "dynamics")
    ctx.fail(o.pointer("mode"),
             fmt::format("expected \"dynamics\" or \"animator\" (got \"{}\")", mode));
  return s;
}

}  // namespace pivot::detail
