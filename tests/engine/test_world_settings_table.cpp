// The settings table (engine/world_settings_table.hpp) is the World's validation: every number
// setting is refused just outside its range and accepted at its bound, with its field named.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <type_traits>

#include "pivot/engine/world_settings_table.hpp"

using namespace pivot;

namespace {

/// sets the setting named `field` of `s` to x (a number or integer setting)
void set_field(WorldSettings& s, std::string_view field, double x) {
  visit_settings(s, [&](auto& value, const SettingInfo& info) {
    using T = std::decay_t<decltype(value)>;
    if (info.field != field) return;
    if constexpr (std::is_same_v<T, double>) value = x;
    if constexpr (std::is_same_v<T, int>) value = static_cast<int>(x);
    if constexpr (std::is_same_v<T, Vec3>) value = Vec3(0.0, 0.0, x);
  });
}

/// a world of dimension 3 with one setting changed; the settings a 3-D world refuses together
/// with that change (none) stay at their defaults
bool accepted(std::string_view field, double x) {
  WorldSettings s;
  set_field(s, field, x);
  try {
    World w(s);
    return true;
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Catch::Contains(std::string(field)));
    return false;
  }
}

}  // namespace

TEST_CASE("every number setting is refused outside the table's range, accepted at its bounds",
          "[world][settings]") {
  int checked = 0;
  visit_settings(WorldSettings{}, [&](const auto& value, const SettingInfo& info) {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, int> || std::is_same_v<T, Vec3>) {
      const std::string field(info.field);
      INFO(field);
      const SettingRange& r = info.range;
      const double step = std::is_same_v<T, int> ? 1.0 : std::max(1e-3 * std::abs(r.min), 1e-20);
      if (std::isfinite(r.min) && !r.null_below_zero) {
        CHECK_FALSE(accepted(field, r.min_open ? r.min : r.min - step));
        // (dimension 2 needs 2 friction directions as well: tests/scenes/test_planar_scenes.cpp)
        if (!r.min_open && r.multiple_of == 0 && field != "dimension")
          CHECK(accepted(field, r.min));
      }
      if (std::isfinite(r.max)) {
        CHECK_FALSE(accepted(field, r.max + (std::is_same_v<T, int> ? 1.0 : 1e-3 * r.max)));
        if (r.multiple_of == 0) CHECK(accepted(field, r.max));
      }
      if (r.multiple_of == 2) CHECK_FALSE(accepted(field, r.min + 1));
      if constexpr (!std::is_same_v<T, int>) CHECK_FALSE(accepted(field, std::nan("")));
      ++checked;
    }
  });
  // 26 number settings: every one but the bools and stabilization (34 - 7 - 1)
  CHECK(checked == 26);
}

TEST_CASE("the settings table names each setting once, by key and by field", "[world][settings]") {
  std::set<std::string> keys, fields, python;
  int n = 0;
  visit_settings(WorldSettings{}, [&](const auto&, const SettingInfo& info) {
    keys.emplace(info.key);
    fields.emplace(info.field);
    python.emplace(python_name(info));
    ++n;
    // a field named apart from its key says why
    const std::string_view leaf = info.field.substr(info.field.rfind('.') + 1);
    if (leaf != info.key) CHECK_FALSE(info.note.empty());
    CHECK_FALSE(info.doc.empty());
  });
  CHECK(keys.size() == static_cast<std::size_t>(n));
  CHECK(fields.size() == static_cast<std::size_t>(n));
  CHECK(python.size() == static_cast<std::size_t>(n));
  // C++ only until the table held them: Python and the docs now have them too
  CHECK(python.count("threads") == 1);
  CHECK(python.count("hybrid_point_tolerance") == 1);
}

TEST_CASE("hybrid_tolerance below 1e-14 is refused once, by the table's rule",
          "[world][settings]") {
  WorldSettings s;
  s.hybrid_integrator.tolerance = 1e-15;  // kMinReducedTolerance = 1e-14 (docs/limits.md)
  CHECK_THROWS_WITH(World(s), Catch::Contains("hybrid_integrator.tolerance must be finite and "
                                              ">= 1e-14 (got 1e-15)"));
  s.hybrid_integrator.tolerance = 1e-14;
  CHECK_NOTHROW(World(s));
}
