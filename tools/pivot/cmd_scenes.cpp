// pivot scenes
//
// Lists the scenes shipped with pivot, two lines each: the name to run it by (the file's stem:
// `pivot run NAME`), the scene's name, its duration and its path, then its description. They
// are looked for in the installed layout first (<folder of the executable>/../share/pivot/
// scenes), then in the source tree the executable was built from (scene_source.hpp). Only each
// file's header is read (load_scene_summary: no bodies, no meshes), so listing is quick;
// `pivot check NAME` validates a whole scene.
// Exit codes: 0 listed, 1 no scenes folder found.
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pivot/scenes/scene.hpp"
#include "scene_source.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;

int list_scenes() {
  const fs::path folder = shipped_scene_folder();
  if (folder.empty()) {
    std::string looked;
    for (const fs::path& f : shipped_scene_folders())
      looked += (looked.empty() ? "" : ", ") + f.string();
    throw std::runtime_error(fmt::format("no scenes folder found (looked in: {})", looked));
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(fs::absolute(entry.path()).lexically_normal());
  std::sort(files.begin(), files.end());
  std::size_t width = 0;
  for (const fs::path& f : files) width = std::max(width, f.stem().string().size());
  fmt::print("{} scenes in {} (pivot run NAME runs one from anywhere)\n\n", files.size(),
             fs::absolute(folder).lexically_normal().string());
  for (const fs::path& f : files) {
    const std::string name = f.stem().string();
    try {
      const SceneSummary scene = load_scene_summary(f);
      fmt::print("{:<{}}  \"{}\", {:g} s, {}\n", name, width, scene.name, scene.duration,
                 f.string());
      if (!scene.description.empty()) fmt::print("{:<{}}  {}\n", "", width, scene.description);
    } catch (const Error& e) {
      fmt::print("{:<{}}  (invalid: {})\n", name, width, e.what());
    }
  }
  return 0;
}

}  // namespace

void register_scenes(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand(
      "scenes", "list the scenes shipped with pivot: name, duration, path and description");
  registry.actions.emplace_back(sub, [] { return list_scenes(); });
}

}  // namespace pivot::cli
