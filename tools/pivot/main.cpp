// pivot: the command-line runner. Each subcommand lives in its own file (cmd_*.cpp).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <exception>

#include "engine/version.hpp"
#include "tools/pivot/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"pivot: full-coordinate LCP rigid-body dynamics"};
  app.set_version_flag("--version", std::string("pivot ") + pivot::kVersion);
  app.require_subcommand(0, 1);

  pivot::cli::Registry registry;
  pivot::cli::register_run(app, registry);
  pivot::cli::register_lcp(app, registry);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    for (auto& [sub, action] : registry.actions)
      if (sub->parsed()) return action();
    // no subcommand: the default job, the built-in default scene
    return registry.default_action();
  } catch (const std::exception& e) {
    fmt::print(stderr, "pivot: error: {}\n", e.what());
    return 1;
  }
}
