// pivot replay RUN_DIR [--out FILE] [--max-mb N] [--quiet]
//
// Writes RUN_DIR/replay.html (or FILE): the run replayed in a browser, one self-contained file
// (docs/viewer.md). Exit codes: 0 written, 1 the file could not be written, 2 bad input (a
// missing, corrupted or truncated run folder; a pivot built without the viewer).
#include <fmt/core.h>

#include <filesystem>
#include <memory>
#include <string>

#include "commands.hpp"
#include "replay/replay_html.hpp"
#include "seconds_option.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;

struct ReplayArgs {
  std::string run_dir;
  std::string out;
  bool quiet = false;
  double max_mb = static_cast<double>(kReplayMaxBytes) / 1e6;
};

int replay(const ReplayArgs& args) {
  const fs::path out =
      args.out.empty() ? fs::path(args.run_dir) / "replay.html" : fs::path(args.out);
  const ReplayWritten w =
      write_replay(args.run_dir, out, static_cast<std::uintmax_t>(args.max_mb * 1e6));
  if (!args.quiet) print_replay_written(w);
  return 0;
}

}  // namespace

void print_replay_written(const ReplayWritten& w) {
  fmt::print("  replay       {} ({:.1f} MB, {} frames{}, {:.2f} s to write)\n", w.file.string(),
             static_cast<double>(w.bytes) / 1e6, w.frames,
             w.frames < w.recorded ? fmt::format(" of {}", w.recorded) : std::string(), w.seconds);
}

void register_replay(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<ReplayArgs>();
  auto* sub = app.add_subcommand(
      "replay",
      "write replay.html for a run folder: the run in a browser, one file (docs/viewer.md)");
  sub->add_option("run_dir", args->run_dir, "a folder written by pivot run")->required();
  sub->add_option("--out", args->out, "the file to write (default RUN_DIR/replay.html)");
  sub->add_option("--max-mb", args->max_mb,
                  "keep the file under this size, MB, by showing every k-th frame (default 45; "
                  "0.001 to 10^6)")
      ->check(number_in(kMinReplayMb, kMaxReplayMb, "MB"));
  sub->add_flag("--quiet,-q", args->quiet, "print nothing on success");
  registry.actions.emplace_back(sub, [args] { return replay(*args); });
}

}  // namespace pivot::cli
