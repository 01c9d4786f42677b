// "settings" (docs/scene-format.md, "Settings"): the run, the World and the hybrid mode.
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

#include <cmath>
#include <type_traits>

#include "pivot/engine/world_settings_table.hpp"

namespace pivot::detail {
namespace {

/// the JSON value of a number setting at its key, in the table's range
double read_number(const Context& ctx, const Object& o, const SettingInfo& info) {
  const std::string key(info.key);
  const SettingRange& r = info.range;
  if (r.null_below_zero && o.required(key).is_null()) return -1.0;  // null: none
  const double x = o.required_number(key, Range::any);
  if ((r.min > 0.0 || (r.min == 0.0 && r.min_open)) && !(x > 0.0))
    ctx.fail(o.pointer(key), fmt::format("expected a positive number (got {:g})", x));
  if (r.min == 0.0 && !r.min_open && !(x >= 0.0))
    ctx.fail(o.pointer(key), fmt::format("expected a number >= 0 (got {:g})", x));
  if (r.min_open ? !(x > r.min) : !(x >= r.min))
    ctx.fail(o.pointer(key), fmt::format("{:g} is below {:g}, the smallest {} allowed "
                                         "(docs/scene-format.md, \"Settings\")",
                                         x, r.min, key));
  if (!(x <= r.max))
    ctx.fail(o.pointer(key), fmt::format("{:g} is above {:g}, the largest {} allowed "
                                         "(docs/scene-format.md, \"Settings\")",
                                         x, r.max, key));
  return x;
}

int read_integer(const Context& ctx, const Object& o, const SettingInfo& info) {
  const std::string key(info.key);
  const SettingRange& r = info.range;
  const int n = o.integer(key, 0);
  const bool in_range = n >= r.min && n <= r.max;
  if (r.multiple_of == 2 && (!in_range || n % 2 != 0))
    ctx.fail(o.pointer(key), fmt::format("expected an even number in [{:g}, {:g}], e.g. 4, 8 or "
                                         "16 (got {})",
                                         r.min, r.max, n));
  if (!in_range && std::isfinite(r.max))
    ctx.fail(o.pointer(key),
             fmt::format("expected an integer in [{:g}, {:g}] (got {})", r.min, r.max, n));
  if (!in_range)
    ctx.fail(o.pointer(key), fmt::format("expected an integer >= {:g} (got {})", r.min, n));
  return n;
}

/// every setting of the table that the scene file holds, in its range, except gravity
void read_table_settings(const Context& ctx, const Object& o, WorldSettings& w) {
  visit_settings(w, [&](auto& value, const SettingInfo& info) {
    using T = std::decay_t<decltype(value)>;
    const std::string key(info.key);
    if (info.scope == SettingScope::api || !o.has(key)) return;
    if constexpr (std::is_same_v<T, double>) {
      value = read_number(ctx, o, info);
    } else if constexpr (std::is_same_v<T, int>) {
      value = read_integer(ctx, o, info);
    } else if constexpr (std::is_same_v<T, bool>) {
      value = o.boolean(key, value);
    } else if constexpr (std::is_same_v<T, Stabilization>) {
      const std::string name = o.required_string(key);
      if (!stabilization_from_string(name, value))
        ctx.fail(o.pointer(key),
                 fmt::format("expected \"post\", \"baumgarte\" or \"none\" (got {})",
                             pivot::quoted(name)));
    }
    // Vec3: gravity, read with the scene's dimension (read_settings)
  });
}

/// the keys of "settings": the table's, and the run's own
std::vector<std::string> settings_keys() {
  std::vector<std::string> keys{"duration", "output_rate_hz", "mode"};
  visit_settings(WorldSettings{}, [&](const auto&, const SettingInfo& info) {
    if (info.scope != SettingScope::api) keys.emplace_back(info.key);
  });
  return keys;
}

}  // namespace

// ---- settings ----

SceneSettings read_settings(const Context& ctx, const json* j, int dimension) {
  SceneSettings s;
  const bool planar = dimension == 2;
  s.world.dimension = dimension;
  if (planar) s.world.friction_directions = 2;  // ±t in the plane
  if (!j) return s;
  const Object o(ctx, *j, "/settings", settings_keys());
  WorldSettings& w = s.world;
  read_table_settings(ctx, o, w);
  s.duration = o.number("duration", s.duration, Range::positive);
  if (w.time_step > s.duration)
    ctx.fail(o.pointer("dt"), fmt::format("the time step {:g} s is longer than the run's duration "
                                          "{:g} s",
                                          w.time_step, s.duration));
  s.output_rate_hz = o.number("output_rate_hz", s.output_rate_hz, Range::non_negative);
  if (planar && o.has("gravity")) {
    const Vec2 g = vec2(ctx, o.required("gravity"), o.pointer("gravity"), Range::any);
    w.gravity =
        within(ctx, o.pointer("gravity"), Vec3(g.x(), 0.0, g.y()), kMaxAcceleration, "m/s²");
  } else {
    w.gravity = within(ctx, o.pointer("gravity"), o.vec3("gravity", w.gravity, Range::any),
                       kMaxAcceleration, "m/s²");
  }
  if (planar && w.friction_directions != 2)
    ctx.fail(o.pointer("friction_directions"),
             fmt::format("a planar scene has 2 friction directions, ±t in the plane (got {})",
                         w.friction_directions));
  if (planar && s.world.hybrid)
    ctx.fail(o.pointer("hybrid"), "a planar scene has no hybrid mode (docs/planar.md)");
  const ReducedStepSettings& ri = w.hybrid_integrator;
  if (ri.dt_max < ri.dt_min)
    ctx.fail(
        o.pointer("hybrid_dt_max"),
        fmt::format("expected at least the smallest step {} s (got {})", ri.dt_min, ri.dt_max));
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
