// pivot: the command-line runner (docs/cli.md). Each subcommand lives in its own file
// (cmd_*.cpp). No exception escapes: bad input is one line "pivot: error: ..." and exit 2,
// any other failure exit 1.
#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include <exception>

#include "commands.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/version.hpp"

int main(int argc, char** argv) {
  try {
    CLI::App app{"pivot: full-coordinate LCP rigid-body dynamics"};
    app.set_version_flag("--version", std::string("pivot ") + pivot::kVersion);
    app.require_subcommand(0, 1);

    pivot::cli::Registry registry;
    pivot::cli::register_run(app, registry);
    pivot::cli::register_check(app, registry);
    pivot::cli::register_scenes(app, registry);
    pivot::cli::register_replay(app, registry);
    pivot::cli::register_lcp(app, registry);
    pivot::cli::register_regress(app, registry);
    pivot::cli::register_plot(app, registry);
    pivot::cli::register_render(app, registry);
    pivot::cli::register_animate(app, registry);
    pivot::cli::register_sweep(app, registry);
    pivot::cli::register_serve(app, registry);

    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      // --help and --version are "errors" with exit code 0
      if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
      fmt::print(stderr, "pivot: error: {} (see pivot --help)\n", e.what());
      return 2;
    }
    for (auto& [sub, action] : registry.actions)
      if (sub->parsed()) return action();
    // no subcommand: the default job, the built-in default scene
    return registry.default_action();
  } catch (const pivot::Error& e) {
    fmt::print(stderr, "pivot: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "pivot: error: {}\n", e.what());
    return 1;
  } catch (...) {
    fmt::print(stderr, "pivot: error: unknown internal error\n");
    return 1;
  }
}
