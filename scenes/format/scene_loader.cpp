// Scene files, version 1: JSON → Scene (docs/scene-format.md). Strict: unknown keys, wrong
// types and bad values are errors naming the JSON pointer. The document's top level is read
// here; each section by its reader (section_readers.hpp), values by the strict JSON reader
// (json_reader.hpp).
#include <fmt/core.h>

#include <algorithm>

#include <array>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "pivot/core/bounded_file.hpp"
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/section_readers.hpp"
#include "pivot/scenes/urdf.hpp"

namespace pivot {
namespace {

namespace fs = std::filesystem;
using namespace detail;

// the top-level object's keys, the format version, the name and the settings: what both the
// full loader and the summary read
struct Header {
  std::string name;
  std::string description;
  int dimension = 3;
  SceneSettings settings;
};

Header read_header(const Context& ctx, const Object& o, const std::string& default_name) {
  if (o.has("$schema")) (void)o.required_string("$schema");
  if (!o.has("pivot_scene"))
    ctx.fail("/pivot_scene", fmt::format("missing: a scene file starts with \"pivot_scene\": {}",
                                         kSceneFormatVersion));
  const int version = o.integer("pivot_scene", 0);
  if (version != kSceneFormatVersion)
    ctx.fail("/pivot_scene", fmt::format("unsupported scene format version {} (this pivot reads "
                                         "version {})",
                                         version, kSceneFormatVersion));
  Header h;
  h.name = o.string("name", default_name);
  if (h.name.empty()) ctx.fail("/name", "expected a non-empty name");
  h.description = o.string("description", "");
  h.dimension = o.integer("dimension", 3);
  if (h.dimension != 2 && h.dimension != 3)
    ctx.fail("/dimension", fmt::format("expected 2 (a planar scene) or 3 (got {})", h.dimension));
  h.settings =
      read_settings(ctx, o.has("settings") ? &o.required("settings") : nullptr, h.dimension);
  return h;
}

// the keys of a scene's top level
std::vector<std::string> top_level_keys() {
  return {"pivot_scene", "$schema",   "name",    "description", "settings",
          "bodies",      "joints",    "springs", "manipulanda", "interactions",
          "character",   "dimension", "models",  "actuators",   "sensors"};
}

Scene parse_impl(std::string_view text, const fs::path& base_dir, std::string source,
                 std::string default_name) {
  const Context ctx{source, base_dir};
  const json doc = parse_text(ctx, text);
  // "$schema" names a JSON Schema for editors (docs/scene-format.md); the loader ignores it
  const Object o(ctx, doc, "", top_level_keys());
  Header header = read_header(ctx, o, default_name);
  Scene scene;
  scene.source = std::move(source);
  scene.name = std::move(header.name);
  scene.description = std::move(header.description);
  scene.dimension = header.dimension;
  scene.settings = std::move(header.settings);
  const bool planar = scene.dimension == 2;
  if (planar)
    for (const char* key : {"springs", "manipulanda", "character"})
      if (o.has(key))
        ctx.fail(o.pointer(key), fmt::format("a planar scene (\"dimension\": 2) has no \"{}\" "
                                             "(docs/planar.md)",
                                             key));

  if (planar && o.has("models"))
    ctx.fail("/models", "a planar scene (\"dimension\": 2) has no \"models\" (docs/planar.md)");
  // URDF models: read now, their bodies after the file's and their joints after the file's,
  // each read in a context naming the model (read_models.cpp)
  const std::vector<SceneModel> models =
      o.has("models") ? read_models(ctx, o.required("models")) : std::vector<SceneModel>{};
  std::unordered_map<std::string, std::string> body_place;  // name → where it was given
  if (o.has("bodies")) {
    const json& bodies = o.required_array("bodies");
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const std::string ptr = "/bodies/" + std::to_string(i);
      SceneBody b = planar ? read_planar_body(ctx, bodies[i], ptr) : read_body(ctx, bodies[i], ptr);
      const auto [it, fresh] = body_place.emplace(b.settings.name, ptr + "/name");
      if (!fresh)
        ctx.fail(ptr + "/name", fmt::format("duplicate body name {} (also {})",
                                            pivot::quoted(b.settings.name), it->second));
      scene.bodies.push_back(std::move(b));
    }
  }
  for (std::size_t m = 0; m < models.size(); ++m) {
    const Context mctx{models[m].source, ctx.base_dir};
    const json& bodies = models[m].entries.at("bodies");
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      SceneBody b = read_body(mctx, bodies[i], "/bodies/" + std::to_string(i));
      const auto [it, fresh] =
          body_place.emplace(b.settings.name, "/models/" + std::to_string(m) + "/name");
      if (!fresh)
        ctx.fail("/models/" + std::to_string(m) + "/name",
                 fmt::format("the model's body {} has the name of another body ({})",
                             pivot::quoted(b.settings.name), it->second));
      scene.bodies.push_back(std::move(b));
    }
    scene.warnings.insert(scene.warnings.end(), models[m].warnings.begin(),
                          models[m].warnings.end());
  }
  if (o.has("joints")) {
    const json& joints = o.required_array("joints");
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < joints.size(); ++i) {
      const std::string ptr = "/joints/" + std::to_string(i);
      SceneJoint jt = planar ? read_planar_joint(ctx, joints[i], ptr, scene)
                             : read_joint(ctx, joints[i], ptr, scene);
      if (!jt.name().empty()) {
        const auto [it, fresh] = seen.emplace(jt.name(), i);
        if (!fresh)
          ctx.fail(ptr + "/name", fmt::format("duplicate joint name {} (also /joints/{}/name)",
                                              pivot::quoted(jt.name()), it->second));
      }
      scene.joints.push_back(std::move(jt));
    }
  }
  for (const SceneModel& model : models) {
    const Context mctx{model.source, ctx.base_dir};
    const json& joints = model.entries.at("joints");
    for (std::size_t i = 0; i < joints.size(); ++i)
      scene.joints.push_back(read_joint(mctx, joints[i], "/joints/" + std::to_string(i), scene));
  }
  if (o.has("springs")) {
    const json& springs = o.required_array("springs");
    for (std::size_t i = 0; i < springs.size(); ++i)
      scene.springs.push_back(read_spring(ctx, springs[i], "/springs/" + std::to_string(i), scene));
  }
  if (o.has("actuators")) {
    const json& a = o.required_array("actuators");
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string ptr = "/actuators/" + std::to_string(i);
      SceneActuator act = read_actuator(ctx, a[i], ptr, scene);
      const auto [it, fresh] = seen.emplace(act.settings.name, i);
      if (!fresh)
        ctx.fail(ptr + "/name", fmt::format("duplicate actuator name {} (also /actuators/{}/name)",
                                            pivot::quoted(act.settings.name), it->second));
      scene.actuators.push_back(std::move(act));
    }
  }
  if (o.has("sensors")) scene.sensors = read_sensors(ctx, o.required("sensors"), scene);
  if (o.has("manipulanda")) {
    const json& m = o.required_array("manipulanda");
    for (std::size_t i = 0; i < m.size(); ++i)
      scene.manipulanda.push_back(
          read_manipulandum(ctx, m[i], "/manipulanda/" + std::to_string(i), scene));
  }
  if (o.has("character"))
    scene.character = read_character(ctx, o.required("character"), "/character");
  if (o.has("interactions")) {
    scene.interactions = read_interactions(ctx, o.required("interactions"));
    // a set_target names one of the scene's actuators (read above)
    for (std::size_t i = 0; i < scene.interactions.size(); ++i) {
      const SceneInteraction& e = scene.interactions[i];
      if (e.type != InteractionType::set_target) continue;
      const bool known =
          std::any_of(scene.actuators.begin(), scene.actuators.end(),
                      [&](const SceneActuator& a) { return a.settings.name == e.actuator; });
      if (!known)
        ctx.fail(fmt::format("/interactions/{}/actuator", i),
                 fmt::format("no actuator named {}", pivot::quoted(e.actuator)));
    }
  }
  return scene;
}

}  // namespace

JointType SceneJoint::type() const {
  return std::visit(
      [](const auto& s) -> JointType {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, BallJointSettings>)
          return JointType::ball;
        else if constexpr (std::is_same_v<T, HingeJointSettings>)
          return JointType::hinge;
        else if constexpr (std::is_same_v<T, UniversalJointSettings>)
          return JointType::universal;
        else if constexpr (std::is_same_v<T, SliderJointSettings>)
          return JointType::slider;
        else if constexpr (std::is_same_v<T, PlanarJointSettings>)
          return JointType::planar;
        else
          return JointType::fixed;
      },
      settings);
}

const std::string& SceneJoint::name() const {
  return std::visit([](const auto& s) -> const std::string& { return s.name; }, settings);
}

int Scene::find_body(std::string_view name) const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].settings.name == name) return static_cast<int>(i);
  return -1;
}

Scene parse_scene(std::string_view json_text, const fs::path& base_dir, std::string_view source) {
  return parse_impl(json_text, base_dir, std::string(source), "unnamed");
}

namespace {

// the file's text: at most kMaxSceneBytes + 1 bytes are read, so a larger file (or an endless
// one, /dev/zero) is refused without reading it all
std::string read_scene_text(const fs::path& file) {
  std::string text;
  switch (detail::read_at_most(file, kMaxSceneBytes, text)) {
    case detail::FileRead::ok:
      return text;
    case detail::FileRead::folder:
      throw Error(file.string(), "", "is a folder, not a scene file");
    case detail::FileRead::cannot_open:
      throw Error(file.string(), "", "cannot open the file");
    case detail::FileRead::cannot_read:
      throw Error(file.string(), "", "cannot read the file");
    case detail::FileRead::too_large:
      break;
  }
  throw Error(
      file.string(), "",
      fmt::format("the file is larger than the limit of {} MiB for a scene (docs/limits.md)",
                  kMaxSceneBytes >> 20));
}

}  // namespace

Scene load_scene(const fs::path& file) {
  if (is_urdf_path(file)) return load_urdf_scene(file);
  const std::string text = read_scene_text(file);
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  return parse_impl(text, dir, file.string(), file.stem().string());
}

SceneSummary load_scene_summary(const fs::path& file) {
  if (is_urdf_path(file)) {
    const Scene scene = load_urdf_scene(file);
    return {scene.name, scene.description, scene.settings.duration};
  }
  const std::string text = read_scene_text(file);
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const Context ctx{file.string(), dir};
  const json doc = parse_text(ctx, text);
  const Object o(ctx, doc, "", top_level_keys());
  Header header = read_header(ctx, o, file.stem().string());
  return {std::move(header.name), std::move(header.description), header.settings.duration};
}

}  // namespace pivot
