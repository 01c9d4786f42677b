// pivot check SCENE.json
//
// Validates a scene strictly (the format, then the engine's own checks by building the World)
// and prints it fully resolved, every default filled in, as pretty JSON on stdout.
// Exit codes: 0 valid, 2 invalid (one line "pivot: error: FILE: /json/pointer: what" on stderr).
#include <fmt/core.h>

#include <memory>
#include <string>

#include "pivot/scenes/scene.hpp"
#include "commands.hpp"

namespace pivot::cli {
namespace {

int check(const std::string& file) {
  const Scene scene = load_scene(file);
  // the engine checks what the format cannot (e.g. inertia, joint geometry)
  (void)build_world(scene);
  fmt::print("{}\n", resolved_scene_json(scene));
  return 0;
}

}  // namespace

void register_check(CLI::App& app, Registry& registry) {
  auto file = std::make_shared<std::string>();
  auto* sub = app.add_subcommand(
      "check", "validate a scene and print it fully resolved (every default filled in)");
  sub->add_option("scene", *file, "scene file (JSON, docs/scene-format.md)")->required();
  registry.actions.emplace_back(sub, [file] { return check(*file); });
}

}  // namespace pivot::cli
