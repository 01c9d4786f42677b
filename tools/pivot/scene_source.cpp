#include "scene_source.hpp"

#include <fmt/core.h>

#include <fstream>
#include <sstream>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/sweep_pointer.hpp"

#ifndef PIVOT_SCENES_DIR
#define PIVOT_SCENES_DIR ""
#endif

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

/// applies one edit to `doc`; `where` names the file in messages
void apply_edit(ojson& doc, const SceneEdit& edit, const std::string& where) {
  // (not a structured binding: clang 14, the release-clang preset, cannot capture one)
  const std::string& pointer = edit.first;
  const nlohmann::json& value = edit.second;
  const auto fail = [&](const std::string& what) {
    throw Error(fmt::format("--set {}={}: {}: {}", pointer, value.dump(), where, what));
  };
  std::vector<std::string> tokens;
  try {
    // json_pointer checks the syntax and unescapes ~0 and ~1
    const nlohmann::json::json_pointer parsed(pointer);
    for (nlohmann::json::json_pointer p = parsed; !p.empty(); p.pop_back())
      tokens.insert(tokens.begin(), p.back());
  } catch (const nlohmann::json::exception&) {
    fail("not a JSON pointer (expected /key/0/key...)");
  }
  if (tokens.empty()) fail("cannot replace the whole scene");
  ojson* node = &doc;
  std::string at;  // the pointer walked so far
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    const bool last = i + 1 == tokens.size();
    if (node->is_array()) {
      const std::optional<std::size_t> index = detail::pointer_array_index(token);
      if (!index || *index >= node->size())
        fail(fmt::format("{} has no element {} (it has {})", at.empty() ? "(document)" : at, token,
                         node->size()));
      node = &(*node)[*index];
    } else if (node->is_object()) {
      // a missing key is created: an object on the way, the value at the end
      if (!last && !node->contains(token)) (*node)[token] = ojson::object();
      node = &(*node)[token];
    } else {
      fail(fmt::format("{} is not an object or an array", at));
    }
    at += "/" + token;
  }
  *node = value;
}

}  // namespace

SceneEdit parse_scene_edit(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || text[0] != '/')
    throw Error(fmt::format("--set {}: expected /json/pointer=value", text));
  const std::string value = text.substr(eq + 1);
  nlohmann::json v;
  try {
    v = nlohmann::json::parse(value);
  } catch (const nlohmann::json::exception&) {
    v = value;
  }
  return {text.substr(0, eq), v};
}

std::vector<fs::path> shipped_scene_folders() {
  std::vector<fs::path> folders;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) folders.push_back(exe.parent_path().parent_path() / "share" / "pivot" / "scenes");
  if (std::string(PIVOT_SCENES_DIR).size() > 0) folders.emplace_back(PIVOT_SCENES_DIR);
  return folders;
}

fs::path shipped_scene_folder() {
  std::error_code ec;
  for (const fs::path& f : shipped_scene_folders())
    if (fs::is_directory(f, ec)) return f;
  return {};
}

fs::path resolve_scene_path(const std::string& arg) {
  const fs::path given(arg);
  std::error_code ec;
  if (fs::exists(given, ec) || given.has_parent_path() || arg.empty()) return given;
  const fs::path folder = shipped_scene_folder();
  if (!folder.empty())
    for (const fs::path& candidate : {folder / arg, folder / (arg + ".json")})
      if (fs::is_regular_file(candidate, ec)) return candidate;
  throw Error(
      arg, "",
      fmt::format("cannot open the file, and no shipped scene is named \"{}\" ({})",
                  given.stem().string(),
                  folder.empty() ? "no scenes folder was found" : "`pivot scenes` lists them"));
}

Scene edit_scene(const Scene& scene, const std::string& text, const fs::path& base_dir,
                 const std::vector<SceneEdit>& edits) {
  if (edits.empty()) return scene;
  ojson doc = ojson::parse(text);
  for (const SceneEdit& edit : edits) apply_edit(doc, edit, scene.source);
  Scene edited = parse_scene(doc.dump(), base_dir, scene.source + " (after --set)");
  if (!doc.contains("name")) edited.name = scene.name;
  edited.source = scene.source;
  return edited;
}

Scene load_scene_with_edits(const fs::path& file, const std::vector<SceneEdit>& edits,
                            const UrdfSceneOptions& urdf) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : ".";
  if (is_urdf_path(file)) {
    const Scene scene = load_urdf_scene(file, urdf);
    if (edits.empty()) return scene;
    // the edits apply to the scene JSON the model becomes (what `pivot check` prints)
    Scene edited = edit_scene(scene, urdf_scene_json(file, urdf), dir, edits);
    edited.warnings = scene.warnings;
    return edited;
  }
  // strictly first: syntax errors as line and column, duplicate keys, the file's own errors
  const Scene scene = load_scene(file);
  if (edits.empty()) return scene;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return edit_scene(scene, text.str(), dir, edits);
}

void print_scene_warnings(const Scene& scene) {
  for (const std::string& w : scene.warnings) fmt::print(stderr, "pivot: warning: {}\n", w);
}

}  // namespace pivot::cli
