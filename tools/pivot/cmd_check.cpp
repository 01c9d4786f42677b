// pivot check SCENE.json|ROBOT.urdf|NAME [--set P=V]...
//
// Validates a scene strictly (the format, then the engine's own checks by building the World)
// and prints it fully resolved, every default filled in, as pretty JSON on stdout.
// Exit codes: 0 valid, 2 invalid (one line "pivot: error: FILE: /json/pointer: what" on stderr).
#include <fmt/core.h>

#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pivot/scenes/scene.hpp"
#include "scene_source.hpp"

namespace pivot::cli {
namespace {

struct CheckArgs {
  std::string scene;
  std::vector<std::string> sets;  // --set POINTER=VALUE
};

int check(const CheckArgs& args) {
  std::vector<SceneEdit> edits;
  for (const std::string& s : args.sets) edits.push_back(parse_scene_edit(s));
  const Scene scene = load_scene_with_edits(resolve_scene_path(args.scene), edits);
  print_scene_warnings(scene);
  // the engine checks what the format cannot (e.g. inertia, joint geometry)
  (void)build_world(scene);
  fmt::print("{}\n", resolved_scene_json(scene));
  return 0;
}

}  // namespace

void register_check(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<CheckArgs>();
  auto* sub = app.add_subcommand(
      "check", "validate a scene and print it fully resolved (every default filled in)");
  sub->add_option("scene", args->scene,
                  "scene file (JSON, docs/scene-format.md), a URDF robot (docs/models.md), or "
                  "the name of a shipped scene")
      ->required();
  sub->add_option("--set", args->sets,
                  "edit the scene before it is checked: /json/pointer=value (repeatable)");
  registry.actions.emplace_back(sub, [args] { return check(*args); });
}

}  // namespace pivot::cli
