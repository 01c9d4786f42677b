// settings-tables --check|--write SOURCE_DIR: the files made from the settings table
// (engine/world_settings_table.hpp), written from it or checked against it:
//   scenes/schema/pivot-scene-1.schema.json  $defs/settings and $defs/planarSettings
//   docs/scene-format.md                    the tables between the "generated" markers
//   python/pivot/__init__.pyi               WorldSettings' attributes between the markers
// --check exits 1 naming each file that differs from what --write would make; the settings
// that are not the World's (duration, output_rate_hz, mode) are kept as the files have them.
#include <fmt/core.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "pivot/engine/world_settings_table.hpp"

namespace {

using pivot::SettingInfo;
using pivot::SettingRange;
using pivot::SettingScope;
using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

/// a number as the docs write it: 0.001, 200, 1e-9, 1e+09 as 1e9
std::string number_text(double x) {
  std::string s = fmt::format("{:g}", x);
  for (const char* from : {"e-0", "e+0"}) {
    const auto at = s.find(from);
    if (at != std::string::npos) s.replace(at, 3, from[1] == '-' ? "e-" : "e");
  }
  const auto plus = s.find("e+");
  if (plus != std::string::npos) s.erase(plus + 1, 1);
  return s;
}

/// one setting, its default and its type's words, for the three files
struct Row {
  SettingInfo info;
  std::string type_doc;     ///< "number > 0", "even integer in [2, 64]"
  std::string default_doc;  ///< "0.001", "[0, 0, -9.81]", "\"post\"", "null"
  std::string python_type;  ///< "float", "int", ...
  ojson schema;             ///< the JSON Schema property
};

std::string number_range_doc(const SettingRange& r) {
  std::string text = "number";
  if (std::isfinite(r.min) && std::isfinite(r.max))
    text += fmt::format(" in [{}, {}]", number_text(r.min), number_text(r.max));
  else if (std::isfinite(r.min))
    text += fmt::format(" {} {}", r.min_open ? ">" : "≥", number_text(r.min));
  if (r.null_below_zero) text += " or `null`";
  return text;
}

std::string description(const SettingInfo& info, const std::string& default_doc) {
  if (info.unit.empty()) return fmt::format("{} (default {})", info.doc, default_doc);
  return fmt::format("{} ({}; default {})", info.doc, info.unit, default_doc);
}

std::vector<Row> rows() {
  std::vector<Row> out;
  pivot::visit_settings(pivot::WorldSettings{}, [&](const auto& value, const SettingInfo& info) {
    using T = std::decay_t<decltype(value)>;
    const SettingRange& r = info.range;
    Row row;
    row.info = info;
    if constexpr (std::is_same_v<T, double>) {
      row.type_doc = number_range_doc(r);
      row.default_doc = r.null_below_zero && value < 0.0 ? "null" : number_text(value);
      row.python_type = "float";
      row.schema["type"] = r.null_below_zero ? ojson::array({"number", "null"}) : ojson("number");
    } else if constexpr (std::is_same_v<T, int>) {
      row.type_doc = r.multiple_of == 2 ? "even integer" : "integer";
      if (std::isfinite(r.max))
        row.type_doc += fmt::format(" in [{}, {}]", number_text(r.min), number_text(r.max));
      else if (std::isfinite(r.min))
        row.type_doc += fmt::format(" ≥ {}", number_text(r.min));
      row.default_doc = std::to_string(value);
      row.python_type = "int";
      row.schema["type"] = "integer";
    } else if constexpr (std::is_same_v<T, bool>) {
      row.type_doc = "boolean";
      row.default_doc = value ? "true" : "false";
      row.python_type = "bool";
      row.schema["type"] = "boolean";
    } else if constexpr (std::is_same_v<T, pivot::Vec3>) {
      row.type_doc = fmt::format("vector, each within ±{}", number_text(r.max));
      row.default_doc = fmt::format("[{}, {}, {}]", number_text(value.x()), number_text(value.y()),
                                    number_text(value.z()));
      row.python_type = "npt.NDArray[np.float64]";
      row.schema["$ref"] = "#/$defs/accelerationVec3";
    } else if constexpr (std::is_same_v<T, pivot::Stabilization>) {
      row.type_doc = "`\"post\"`, `\"baumgarte\"`, `\"none\"`";
      row.default_doc = fmt::format("\"{}\"", pivot::to_string(value));
      row.python_type = "str";
      row.schema["enum"] = {"post", "baumgarte", "none"};
    }
    row.schema["description"] = description(info, row.default_doc);
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, int>) {
      if (std::isfinite(r.min)) {
        const bool integral = std::is_same_v<T, int> || r.min == std::floor(r.min);
        const ojson min = integral ? ojson(static_cast<long long>(r.min)) : ojson(r.min);
        row.schema[r.min_open ? "exclusiveMinimum" : "minimum"] = min;
      }
      if (std::isfinite(r.max)) row.schema["maximum"] = static_cast<long long>(r.max);
      if (r.multiple_of > 0) row.schema["multipleOf"] = r.multiple_of;
    }
    out.push_back(row);
  });
  return out;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw pivot::Error(fmt::format("{}: cannot read it", path.string()));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// ---- the JSON Schema ----

/// the span of `$defs/<name>` in the schema's text: from its key's line to its closing brace,
/// both at the indent of the $defs' members
std::pair<std::size_t, std::size_t> def_span(const std::string& text, const std::string& name) {
  const std::string key = fmt::format("\n    \"{}\": {{\n      \"type\": \"object\"", name);
  const auto start = text.find(key, text.find("\n  \"$defs\": {"));
  const auto end = start == std::string::npos ? start : text.find("\n    }", start + 1);
  if (end == std::string::npos)
    throw pivot::Error(fmt::format("scenes/schema/pivot-scene-1.schema.json: no $defs/{}", name));
  return {start + 1, end + 6};
}

/// `value` as the schema file writes a member of $defs: 2 spaces a level, ASCII, at indent 4
std::string def_text(const std::string& name, const ojson& value) {
  std::string out = fmt::format("    \"{}\": ", name);
  for (const char c : value.dump(2, ' ', true)) {
    out += c;
    if (c == '\n') out += "    ";
  }
  return out;
}

/// the schema's text with $defs/settings and $defs/planarSettings made from the table; the
/// rest of the file is kept as it is, character for character
std::string schema_text(const std::string& old_text, const std::vector<Row>& table) {
  const ojson old_defs = ojson::parse(old_text)["$defs"];
  ojson settings = old_defs["settings"];
  const ojson old_properties = settings["properties"];
  ojson properties = ojson::object();
  for (const Row& row : table) {
    if (row.info.scope == SettingScope::api) continue;
    const std::string key(row.info.key);
    properties[key] = row.schema;
    // the run's own settings, where the file has them
    if (key == "dt") properties["duration"] = old_properties.at("duration");
    if (key == "hybrid") properties["output_rate_hz"] = old_properties.at("output_rate_hz");
  }
  properties["mode"] = old_properties.at("mode");
  settings["properties"] = properties;
  // a planar scene: its own gravity, friction_directions, hybrid and mode, the others by $ref
  ojson planar = old_defs["planarSettings"];
  const ojson old_planar = planar["properties"];
  ojson planar_properties = ojson::object();
  for (const char* key : {"gravity", "friction_directions", "hybrid", "mode"})
    planar_properties[key] = old_planar.at(key);
  for (const auto& [key, value] : properties.items())
    if (!planar_properties.contains(key))
      planar_properties[key] = {{"$ref", fmt::format("#/$defs/settings/properties/{}", key)}};
  planar["properties"] = planar_properties;
  std::string text = old_text;
  for (const auto& [name, value] :
       {std::pair{"settings", &settings}, {"planarSettings", &planar}}) {
    const auto [start, end] = def_span(text, name);
    text.replace(start, end - start, def_text(name, *value));
  }
  return text;
}

// ---- docs/scene-format.md and the stub: the text between two marker lines ----

std::string replace_between(const std::string& text, const std::string& begin,
                            const std::string& end, const std::string& body,
                            const std::string& file) {
  const auto b = text.find(begin);
  const auto e = text.find(end);
  if (b == std::string::npos || e == std::string::npos || e < b)
    throw pivot::Error(
        fmt::format("{}: the markers \"{}\" … \"{}\" are missing", file, begin, end));
  const auto body_start = text.find('\n', b) + 1;
  return text.substr(0, body_start) + body + text.substr(text.rfind('\n', e) + 1);
}

std::string docs_table(const std::vector<Row>& table, SettingScope scope) {
  std::string out =
      "| key | type | default | unit | meaning (C++ field of `WorldSettings`) |\n"
      "| --- | --- | --- | --- | --- |\n";
  for (const Row& row : table) {
    if (row.info.scope != scope) continue;
    std::string meaning(row.info.doc);
    for (std::size_t at = 0; (at = meaning.find('|', at)) != std::string::npos; at += 2)
      meaning.replace(at, 1, "\\|");
    std::string field = fmt::format("`{}`", row.info.field);
    if (!row.info.note.empty()) field += fmt::format(": {}", row.info.note);
    out += fmt::format("| `{}` | {} | `{}` | {} | {} ({}) |\n", row.info.key, row.type_doc,
                       row.default_doc, row.info.unit.empty() ? "–" : std::string(row.info.unit),
                       meaning, field);
  }
  return out;
}

std::string docs_text(std::string text, const std::vector<Row>& table) {
  const char* file = "docs/scene-format.md";
  for (const auto& [name, scope] :
       {std::pair{"world", SettingScope::scene}, std::pair{"hybrid", SettingScope::hybrid},
        std::pair{"api", SettingScope::api}})
    text = replace_between(text, fmt::format("<!-- generated: {} settings", name),
                           fmt::format("<!-- end of the generated {} settings -->", name),
                           docs_table(table, scope), file);
  return text;
}

std::string stub_text(const std::string& text, const std::vector<Row>& table) {
  std::string body;
  for (const Row& row : table) {
    std::string comment(row.info.unit);
    if (row.python_type == "str") comment = "\"post\", \"baumgarte\" or \"none\"";
    body += fmt::format("    {}: {}{}\n", pivot::python_name(row.info), row.python_type,
                        comment.empty() ? "" : "  # " + comment);
  }
  return replace_between(text, "    # generated: the settings table",
                         "    # end of the generated settings", body, "python/pivot/__init__.pyi");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::string(argv[1]) != "--check" && std::string(argv[1]) != "--write")) {
    std::fprintf(stderr, "usage: settings-tables --check|--write SOURCE_DIR\n");
    return 2;
  }
  const bool write = std::string(argv[1]) == "--write";
  const fs::path root = argv[2];
  try {
    const std::vector<Row> table = rows();
    int stale = 0;
    const auto update = [&](const char* relative, auto make) {
      const fs::path path = root / relative;
      const std::string old_text = read_file(path);
      const std::string new_text = make(old_text, table);
      if (new_text == old_text) return;
      if (write) {
        std::ofstream(path, std::ios::binary) << new_text;
        std::printf("wrote %s\n", relative);
      } else {
        std::printf(
            "%s: out of step with engine/world_settings_table.hpp (run settings-tables "
            "--write SOURCE_DIR)\n",
            relative);
        ++stale;
      }
    };
    update("scenes/schema/pivot-scene-1.schema.json", schema_text);
    update("docs/scene-format.md", docs_text);
    update("python/pivot/__init__.pyi", stub_text);
    return stale == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "settings-tables: error: %s\n", e.what());
    return 2;
  }
}
