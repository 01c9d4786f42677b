// The scene file's "settings" are the settings table's (engine/world_settings_table.hpp): each
// key is read into its field, written back by resolved_scene_json, and refused out of range.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>

#include "pivot/engine/world_settings_table.hpp"
#include "pivot/scenes/scene.hpp"

using namespace pivot;
using json = nlohmann::json;

namespace {

/// a value in the setting's range other than its default (every key of the table at once)
json other_value(const auto& value, const SettingInfo& info) {
  using T = std::decay_t<decltype(value)>;
  const SettingRange& r = info.range;
  if constexpr (std::is_same_v<T, double>) return std::max(r.min, 0.0) + 0.125;
  if constexpr (std::is_same_v<T, int>) {
    int n = static_cast<int>(r.min) + 3;
    return r.multiple_of == 2 && n % 2 != 0 ? n + 1 : n;
  }
  if constexpr (std::is_same_v<T, bool>) return !value;
  if constexpr (std::is_same_v<T, Vec3>) return json::array({1.0, 2.0, -3.0});
  if constexpr (std::is_same_v<T, Stabilization>) return "baumgarte";
  return nullptr;
}

json settings_of(const WorldSettings& w) {
  json j;
  visit_settings(w, [&](const auto& value, const SettingInfo& info) {
    if (info.scope == SettingScope::api) return;
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, Vec3>)
      j[std::string(info.key)] = json::array({value.x(), value.y(), value.z()});
    else if constexpr (std::is_same_v<T, Stabilization>)
      j[std::string(info.key)] = to_string(value);
    else
      j[std::string(info.key)] = value;
  });
  return j;
}

}  // namespace

TEST_CASE("every scene key of the settings table reads into its field and writes back",
          "[scene][settings]") {
  json settings;
  visit_settings(WorldSettings{}, [&](const auto& value, const SettingInfo& info) {
    if (info.scope != SettingScope::api) settings[std::string(info.key)] = other_value(value, info);
  });
  settings["hybrid_entry_steps"] = 3;
  const json scene{{"pivot_scene", 1}, {"settings", settings}};
  const Scene s = parse_scene(scene.dump(), ".");
  // each field holds the value its key gave (json → field → json, compared as JSON values)
  CHECK(settings_of(s.settings.world) == settings);
  // and the writer writes every key back: the resolved scene reads to the same settings
  const Scene again = parse_scene(resolved_scene_json(s), ".");
  CHECK(settings_of(again.settings.world) == settings);
}

TEST_CASE("a scene setting out of the table's range is refused at its pointer",
          "[scene][settings]") {
  const auto error_of = [](const json& settings) {
    try {
      (void)parse_scene(json{{"pivot_scene", 1}, {"settings", settings}}.dump(), ".");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  using Catch::Contains;
  CHECK_THAT(error_of({{"hybrid_point_tolerance", 0.0}}),
             Contains("/settings/hybrid_point_tolerance: expected a positive number"));
  CHECK_THAT(error_of({{"hybrid_max_normal_speed", -1.0}}),
             Contains("/settings/hybrid_max_normal_speed: expected a number >= 0"));
  CHECK_THAT(error_of({{"friction_directions", 6}}), Contains("accepted"));
  CHECK_THAT(error_of({{"friction_directions", 5}}),
             Contains("/settings/friction_directions: expected an even number in [2, 64]"));
  CHECK_THAT(error_of({{"hybrid_entry_steps", -1}}),
             Contains("/settings/hybrid_entry_steps: expected an integer >= 0"));
  CHECK_THAT(error_of({{"stabilization", "sometimes"}}),
             Contains("/settings/stabilization: expected \"post\", \"baumgarte\" or \"none\""));
  CHECK_THAT(error_of({{"hybrid_mu_static", nullptr}}), Contains("accepted"));
  // a setting the scene file does not hold (C++ and Python only) is an unknown key
  CHECK_THAT(error_of({{"threads", 2}}), Contains("/settings/threads: unknown key"));
}

TEST_CASE("friction_direction_offset is a scene key (one line of the settings table)",
          "[scene][settings]") {
  // a setting of C++ only until its table entry took the scene scope: the reader, the writer,
  // the schema and the docs followed from that one line
  const Scene s =
      parse_scene(R"({"pivot_scene": 1, "settings": {"friction_direction_offset": 0.5}})", ".");
  CHECK(s.settings.world.friction_direction_offset == 0.5);
  CHECK(json::parse(resolved_scene_json(s))["settings"]["friction_direction_offset"] == 0.5);
}
