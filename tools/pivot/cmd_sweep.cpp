// pivot sweep SWEEP.json [--local N] [--out DIR] [--keep-runs] [--list] [--quiet]
// (docs/cli.md, docs/sweeps.md): the variants of a sweep file, each run in its own child
// process, N at once, into DIR/results.csv, one row per run. Rows are appended as runs end, so
// a killed sweep loses only the runs in flight, and a second call resumes: the rows already in
// results.csv are not run again (but "crashed" ones are). When all have run, the table is
// rewritten in index order. The sweep file's format, the runs and the rows are the library's
// (scenes/format/sweep.hpp), shared with Python's pivot.sweep.

#include <fcntl.h>
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "commands.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/sweep.hpp"
#include "process_pool/process_pool.hpp"
#include "seconds_option.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct SweepArgs {
  std::string file;
  std::string out;
  int local = 0;  // 0: every core
  bool keep_runs = false;
  bool list = false;
  bool quiet = false;
  std::string shard;     // "K/M": only the variants whose index is K modulo M
  double timeout = 0.0;  // s per run; 0: none
};

/// "K/M" with 0 <= K < M: this process's share of the variants (a Slurm job array's task)
std::pair<long, long> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  std::size_t used_k = 0, used_m = 0;
  long k = -1, m = 0;
  try {
    k = std::stol(text.substr(0, slash), &used_k);
    m = std::stol(text.substr(slash + 1), &used_m);
  } catch (const std::exception&) {
    used_k = 0;
  }
  if (slash == std::string::npos || used_k != slash || used_m != text.size() - slash - 1 || k < 0 ||
      m < 1 || k >= m)
    throw Error(fmt::format("--shard {}: expected K/M with 0 <= K < M, e.g. 3/16", text));
  return {k, m};
}

/// writes `text` to `file` all at once: a temporary file beside it, flushed, renamed over it
void write_atomically(const fs::path& file, const std::string& text) {
  const fs::path partial =
      file.parent_path() / fmt::format(".{}.partial-{}", file.filename().string(), ::getpid());
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write the file", partial.string()));
  }
  std::error_code ec;
  fs::rename(partial, file, ec);
  if (ec) {
    fs::remove(partial, ec);
    throw std::runtime_error(fmt::format("{}: cannot write the file", file.string()));
  }
}

/// results.csv open for appending: each row is one write(2), so a killed sweep leaves whole rows
/// (and at most a last one cut short by a crash of the machine, which a resume drops)
class AppendFile {
 public:
  explicit AppendFile(const fs::path& file) : name_(file.string()) {
    fd_ = ::open(name_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0)
      throw std::runtime_error(fmt::format("{}: cannot open: {}", name_, std::strerror(errno)));
  }
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;
  ~AppendFile() { ::close(fd_); }
  void append(const std::string& line) {
    if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
      throw std::runtime_error(fmt::format("{}: cannot write: {}", name_, std::strerror(errno)));
  }

 private:
  std::string name_;
  int fd_ = -1;
};

/// the progress line on stderr (a terminal only): runs done, failures, rate and time left
class SweepProgress {
 public:
  SweepProgress(bool show, long total, long resumed)
      : show_(show && ::isatty(STDERR_FILENO) != 0),
        total_(total),
        done_(resumed),
        resumed_(resumed) {}
  void update(long done, long not_ok) {
    done_ = done;
    if (!show_) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    const double rate = seconds > 0.0 ? static_cast<double>(done - resumed_) / seconds : 0.0;
    const std::string eta =
        rate > 0.0 ? fmt::format(", ETA {:.0f} s", static_cast<double>(total_ - done) / rate) : "";
    fmt::print(stderr, "\rpivot sweep: {}/{} runs, {} not ok, {:.3g} runs/s{}   ", done, total_,
               not_ok, rate, eta);
    std::fflush(stderr);
  }
  void done() {
    if (show_) fmt::print(stderr, "\n");
    show_ = false;
  }
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

 private:
  bool show_;
  long total_, done_, resumed_;
  Clock::time_point start_ = Clock::now();
};

/// the status cell of a row written by csv_line (the cell after the parameters)
std::string status_of(const Sweep& sweep, const std::string& line) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < 1 + sweep.parameters.size(); ++i) {
    // index and parameter cells before it: skip a cell, quoted or not
    if (line[start] == '"') {
      std::size_t j = start + 1;
      while (j < line.size() && !(line[j] == '"' && (j + 1 >= line.size() || line[j + 1] != '"')))
        j += line[j] == '"' ? 2 : 1;
      start = line.find(',', j) + 1;
    } else {
      start = line.find(',', start) + 1;
    }
  }
  return line.substr(start, line.find(',', start) - start);
}

/// the variant's run folder (--keep-runs): `pivot run`'s files, written by its own code, and
/// scene.json, the variant's scene as `pivot check` prints it (a scene `pivot run` reruns)
void write_run_folder(const Sweep& sweep, const SweepVariant& v, const fs::path& folder) {
  try {
    Scene scene =
        parse_scene(variant_scene_json(sweep, v), sweep.scene_file.parent_path(), sweep.scene);
    scene.settings.world.threads = 1;
    (void)run_scene(scene, folder, {.quiet = true});
    write_atomically(folder / "scene.json", resolved_scene_json(scene));
  } catch (const std::exception&) {
    // an invalid or failing variant has no run folder; its row says why
  }
}

int list_variants(const Sweep& sweep) {
  std::vector<std::string> header = {"index"};
  for (const SweepParameter& p : sweep.parameters) header.push_back(p.pointer);
  fmt::print("{}", csv_line(header));
  for (const SweepVariant& v : expand_sweep(sweep)) {
    const std::vector<std::string> row = sweep_error_row(sweep, v, "", "");
    fmt::print("{}", csv_line({row.begin(), row.begin() + 1 + static_cast<long>(v.values.size())}));
  }
  return 0;
}

int run_sweep(const SweepArgs& args) {
  const Sweep sweep = load_sweep(args.file);
  if (args.list) return list_variants(sweep);
  const fs::path out =
      args.out.empty() ? fs::path("pivot-out") / (fs::path(args.file).stem().string() + "-sweep")
                       : fs::path(args.out);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec || !fs::is_directory(out))
    throw Error(fmt::format("--out {}: cannot create the folder", out.string()));
  const fs::path table = out / "results.csv";

  // resume: keep the complete rows of a results.csv already there, drop a row cut short
  std::map<long, std::string> rows = read_sweep_results(sweep, table);
  const std::string header = csv_line(sweep_columns(sweep));
  const auto table_text = [&] {
    std::string text = header;
    for (const auto& [index, line] : rows) text += line;
    return text;
  };
  write_atomically(table, table_text());
  const long total = sweep_size(sweep);
  const auto [shard, shards] =
      args.shard.empty() ? std::pair<long, long>{0, 1} : parse_shard(args.shard);
  std::vector<long> todo;
  for (long i = shard; i < total; i += shards)
    if (rows.count(i) == 0) todo.push_back(i);
  const long resumed = static_cast<long>(rows.size());
  const int processes = args.local > 0
                            ? args.local
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (!args.quiet && resumed > 0)
    fmt::print(stderr, "pivot sweep: resuming: {} of {} runs already in {}\n", resumed, total,
               table.string());

  long not_ok = 0;
  for (const auto& [index, line] : rows) not_ok += status_of(sweep, line) != kSweepOk ? 1 : 0;
  SweepProgress progress(!args.quiet, resumed + static_cast<long>(todo.size()), resumed);
  {
    AppendFile append(table);
    const auto work = [&](long index) {
      const SweepVariant v = sweep_variant(sweep, index);
      if (args.keep_runs) write_run_folder(sweep, v, out / "runs" / fmt::format("{:06d}", index));
      return csv_line(run_sweep_variant(sweep, v));
    };
    const auto done = [&](const JobResult& r) {
      // a run past --timeout is the variant's own failure (a resume does not run it again);
      // a process that died otherwise is "crashed" (a resume runs it again)
      const std::string line =
          r.ok ? r.line
               : csv_line(sweep_error_row(
                     sweep, sweep_variant(sweep, r.job), r.timed_out ? kSweepFailed : kSweepCrashed,
                     r.timed_out ? fmt::format("the run took longer than --timeout {} s and was "
                                               "killed",
                                               args.timeout)
                                 : r.death));
      append.append(line);
      rows[r.job] = line;
      if (status_of(sweep, line) != kSweepOk) ++not_ok;
      progress.update(static_cast<long>(rows.size()), not_ok);
    };
    run_in_processes(todo, processes, work, done, args.timeout);
  }
  progress.done();
  write_atomically(table, table_text());  // in index order

  if (!args.quiet) {
    std::map<std::string, long> by_status;
    for (const auto& [index, line] : rows) ++by_status[status_of(sweep, line)];
    std::string counts;
    for (const auto& [status, n] : by_status)
      counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, status);
    const double seconds = progress.seconds();
    fmt::print(stderr,
               "pivot sweep: {} runs ({}); {} run now in {:.3g} s ({:.3g} runs/s, {} processes); "
               "{}\n",
               rows.size() == static_cast<std::size_t>(total)
                   ? fmt::format("{}", total)
                   : fmt::format("{} of {}", rows.size(), total),
               counts, todo.size(), seconds,
               seconds > 0.0 ? static_cast<double>(todo.size()) / seconds : 0.0, processes,
               table.string());
  }
  return 0;
}

}  // namespace

void register_sweep(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* sub = app.add_subcommand(
      "sweep",
      "run the variants of a sweep file in N local processes into DIR/results.csv "
      "(docs/sweeps.md)");
  sub->add_option("SWEEP", args->file, "the sweep file (docs/sweeps.md)")->required();
  sub->add_option("--local", args->local,
                  "processes that run variants at once (default: every core)")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--out", args->out,
                  "folder of results.csv (default ./pivot-out/<sweep name>-sweep); a "
                  "results.csv already there is resumed");
  sub->add_flag("--keep-runs", args->keep_runs,
                "also write each run's folder, as `pivot run` writes it, into DIR/runs/<index>");
  sub->add_option("--timeout", args->timeout,
                  "seconds a run may take (wall time, --keep-runs's second run included); a run "
                  "past it is killed and its row is \"failed\" (default: no limit)")
      ->check(positive_seconds());
  sub->add_option("--shard", args->shard,
                  "K/M: run only the variants whose index is K modulo M (one task of a job array; "
                  "docs/sweeps.md)");
  sub->add_flag("--list", args->list, "print the variants (index and parameters) as CSV and stop");
  sub->add_flag("--quiet,-q", args->quiet, "no progress line and no summary on stderr");
  registry.actions.emplace_back(sub, [args] { return run_sweep(*args); });
}

}  // namespace pivot::cli
