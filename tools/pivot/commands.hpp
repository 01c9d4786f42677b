#pragma once
// Subcommands of the pivot CLI. Each register_* adds its subcommand to the app and records
// the action to run when it is parsed. Actions return the process exit code:
// 0 success, 1 a run that failed, 2 bad input.

#include <CLI/CLI.hpp>

#include <functional>
#include <utility>
#include <vector>

namespace pivot::cli {

struct Registry {
  std::vector<std::pair<CLI::App*, std::function<int()>>> actions;
  std::function<int()> default_action;
};

void register_run(CLI::App& app, Registry& registry);
void register_lcp(CLI::App& app, Registry& registry);

}  // namespace pivot::cli
