// The World's check of its settings, from the settings table (world_settings_table.hpp): one
// rule per setting, written once there; here only the rules between settings.
#include <fmt/core.h>

#include <cmath>
#include <string>
#include <type_traits>

#include "pivot/engine/hybrid/reduced_contact.hpp"
#include "pivot/engine/world_settings_table.hpp"

namespace pivot {
namespace {

/// "> 0", ">= 0", "in [1, 100]", "an even number in [2, 64]"
std::string range_text(const SettingRange& r) {
  std::string text;
  if (std::isfinite(r.min) && std::isfinite(r.max))
    text = fmt::format("in [{:g}, {:g}]", r.min, r.max);
  else if (std::isfinite(r.min))
    text = fmt::format("{} {:g}", r.min_open ? ">" : ">=", r.min);
  else if (std::isfinite(r.max))
    text = fmt::format("<= {:g}", r.max);
  if (r.multiple_of == 2) return "even, " + text;
  if (r.multiple_of > 0) return fmt::format("a multiple of {}, {}", r.multiple_of, text);
  return text;
}

bool within(double x, const SettingRange& r) {
  if (r.null_below_zero && x < 0.0) return true;  // null
  return (r.min_open ? x > r.min : x >= r.min) && x <= r.max;
}

void check_number(double x, const SettingInfo& info, std::string_view name) {
  if (!std::isfinite(x) || !within(x, info.range)) {
    const std::string range = range_text(info.range);
    throw Error(fmt::format("{} must be finite{}{} (got {:g})", name, range.empty() ? "" : " and ",
                            range, x));
  }
}

void check_integer(int n, const SettingInfo& info) {
  const SettingRange& r = info.range;
  if (!within(n, r) || (r.multiple_of > 0 && n % r.multiple_of != 0))
    throw Error(fmt::format("{} must be {} (got {})", info.field, range_text(r), n));
}

}  // namespace

bool stabilization_from_string(std::string_view name, Stabilization& out) {
  for (const Stabilization s : {Stabilization::post, Stabilization::baumgarte, Stabilization::none})
    if (name == to_string(s)) {
      out = s;
      return true;
    }
  return false;
}

void validate(const WorldSettings& s) {
  visit_settings(s, [](const auto& value, const SettingInfo& info) {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, double>) {
      check_number(value, info, info.field);
    } else if constexpr (std::is_same_v<T, int>) {
      check_integer(value, info);
    } else if constexpr (std::is_same_v<T, Vec3>) {
      for (int i = 0; i < 3; ++i)
        check_number(value[i], info, fmt::format("{}[{}]", info.field, i));
    }
    // bool and Stabilization: every value is one
  });
  // the rules between settings, and the reduced model's own check of its friction law
  const ReducedStepSettings& ri = s.hybrid_integrator;
  if (!(ri.dt_min > 0.0) || !(ri.dt_min <= ri.dt_max))
    throw Error(
        fmt::format("hybrid_integrator: dt_max >= dt_min > 0 is needed (dt_min {:g} s, "
                    "dt_max {:g} s)",
                    ri.dt_min, ri.dt_max));
  ContactFriction friction = s.hybrid_friction;
  friction.mu = 0.0;  // μ is the pair's, set per pair
  detail::validate(friction);
}

}  // namespace pivot
