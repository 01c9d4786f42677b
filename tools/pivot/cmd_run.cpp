#include <fmt/core.h>

#include "tools/pivot/commands.hpp"

namespace pivot::cli {

void register_run(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("run", "run a scene (the built-in default scene when none is given)");
  auto action = [] {
    fmt::print("pivot run: not implemented yet\n");
    return 0;
  };
  registry.actions.emplace_back(sub, action);
  registry.default_action = action;
}

}  // namespace pivot::cli
