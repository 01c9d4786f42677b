// pivot serve [SCENE.json | NAME] [--port P] [--host H] [--record DIR] [--set P=V]...
//
// A live run: the scene is stepped in real time (or slower) in this process and streamed to
// browsers, which can pull bodies, throw balls, pause, step, reset, change the time step and
// switch the hybrid mode (docs/cli.md "pivot serve"). Prints the address on stdout; Ctrl-C
// (SIGINT) or SIGTERM ends it, writing the recording with --record.
#include <fmt/core.h>

#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "live/live_server.hpp"
#include "pivot/scenes/scene.hpp"
#include "scene_source.hpp"
#include "seconds_option.hpp"

namespace pivot::cli {
namespace {

struct ServeArgs {
  std::string scene;
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string record;
  double display_hz = 30.0;
  std::vector<std::string> sets;
};

int serve_command(const ServeArgs& args) {
  std::vector<SceneEdit> edits;
  for (const std::string& s : args.sets) edits.push_back(parse_scene_edit(s));
  Scene scene;
  if (args.scene.empty()) {
    const std::string text(default_scene_json());
    scene = edit_scene(parse_scene(text, std::filesystem::current_path(),
                                   "<built-in default scene>"),
                       text, std::filesystem::current_path(), edits);
  } else {
    scene = load_scene_with_edits(resolve_scene_path(args.scene), edits);
  }
  if (!scene.interactions.empty())
    throw Error(scene.source, "/interactions",
                "a live run starts without interactions (this scene is a recording: pivot run "
                "replays it)");
  // a live run steps on the server's one thread (live_server.hpp)
  scene.settings.world.threads = 1;
  ServeOptions options;
  options.host = args.host;
  options.port = static_cast<unsigned short>(args.port);
  options.record = args.record;
  options.display_hz = args.display_hz;
  return serve(scene, options);
}

}  // namespace

void register_serve(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<ServeArgs>();
  auto* sub = app.add_subcommand(
      "serve",
      "run a scene live in real time and serve it to browsers: pull bodies, throw balls, pause, "
      "step, reset (docs/cli.md)");
  sub->add_option("scene", args->scene,
                  "scene file (JSON), or the name of a shipped scene (default: the built-in one)");
  sub->add_option("--port", args->port, "TCP port (default 8080; 0: a free one, printed)")
      ->check(CLI::Range(0, 65535));
  sub->add_option("--host", args->host,
                  "address to bind (default 127.0.0.1, this machine only; 0.0.0.0 for every "
                  "interface)");
  sub->add_option("--record", args->record,
                  "on exit, write the live run as a run folder with scene.json holding the "
                  "interactions, which pivot run reproduces");
  sub->add_option("--display-rate", args->display_hz, "frames per second sent to viewers")
      ->check(number_in(1.0, 240.0, "frames per second"));
  sub->add_option("--set", args->sets,
                  "edit the scene first: /json/pointer=value, the value as JSON (repeatable)");
  registry.actions.emplace_back(sub, [args] { return serve_command(*args); });
}

}  // namespace pivot::cli
