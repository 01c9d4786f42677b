// pivot scenes
//
// Lists the scenes shipped with pivot, one line each: file name, scene name, duration.
// They are looked for in the installed layout first (<folder of the executable>/../share/
// pivot/scenes), then in the source tree the executable was built from (PIVOT_SCENES_DIR).
// Exit codes: 0 listed, 1 no scenes folder found.
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "pivot/scenes/scene.hpp"
#include "commands.hpp"

#ifndef PIVOT_SCENES_DIR
#define PIVOT_SCENES_DIR ""
#endif

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> candidate_folders() {
  std::vector<fs::path> folders;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) folders.push_back(exe.parent_path().parent_path() / "share" / "pivot" / "scenes");
  if (std::string(PIVOT_SCENES_DIR).size() > 0) folders.emplace_back(PIVOT_SCENES_DIR);
  return folders;
}

int list_scenes() {
  const std::vector<fs::path> folders = candidate_folders();
  std::error_code ec;
  const auto found = std::find_if(folders.begin(), folders.end(),
                                  [&ec](const fs::path& f) { return fs::is_directory(f, ec); });
  if (found == folders.end()) {
    std::string looked;
    for (const fs::path& f : folders) looked += (looked.empty() ? "" : ", ") + f.string();
    throw std::runtime_error(fmt::format("no scenes folder found (looked in: {})", looked));
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(*found))
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::size_t width = 0;
  for (const fs::path& f : files) width = std::max(width, f.filename().string().size());
  for (const fs::path& f : files) {
    const std::string file = f.filename().string();
    try {
      const Scene scene = load_scene(f);
      fmt::print("{:<{}}  {:<24}  {:g} s\n", file, width, scene.name, scene.settings.duration);
    } catch (const Error& e) {
      fmt::print("{:<{}}  (invalid: {})\n", file, width, e.what());
    }
  }
  return 0;
}

}  // namespace

void register_scenes(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("scenes", "list the scenes shipped with pivot");
  registry.actions.emplace_back(sub, [] { return list_scenes(); });
}

}  // namespace pivot::cli
