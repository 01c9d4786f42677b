// pivot regress [--filter REGEX] [--report FILE] [--record-goldens] [--fast] [--set P=V]...
//
// The regression suite (docs/regression.md): every case of tests/regression/cases/ (a shipped
// scene, checks with expected values, sources and tolerances) and the golden summary of every
// shipped scene (tests/regression/goldens/). Each entry runs its scene as `pivot run` does,
// into --out, and is judged from the run's output files. One line per check; exit 0 when all
// pass, 1 when any fails, 2 on bad input (a case file, a scene, an option).
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pivot/scenes/scene.hpp"
#include "regress/golden.hpp"
#include "regress/regress_case.hpp"
#include "regress/regress_report.hpp"
#include "replay/replay_html.hpp"
#include "run_files/run_output.hpp"
#include "scene_source.hpp"

#ifndef PIVOT_REGRESSION_DIR
#define PIVOT_REGRESSION_DIR "tests/regression"
#endif

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct RegressArgs {
  std::string filter;
  std::string report;
  std::string out = "pivot-out/regress";
  std::string suite = PIVOT_REGRESSION_DIR;
  std::string scenes = shipped_scene_folder().string();  // as pivot run finds them
  std::vector<std::string> sets;
  bool record = false;
  bool fast = false;
};

using Edits = std::vector<SceneEdit>;

/// runs scene `file` with `edits` (each a JSON pointer into the scene and its new value),
/// once per distinct (file, edits), into out/<slug>; returns the outputs read back
class Runner {
 public:
  Runner(fs::path scenes, fs::path out) : scenes_(std::move(scenes)), out_(std::move(out)) {}

  const RunData& run(const std::string& scene_file, const Edits& edits) {
    json key = json::array({scene_file});
    for (const auto& [p, v] : edits) key.push_back(json::array({p, v}));
    const std::string k = key.dump();
    if (const auto it = runs_.find(k); it != runs_.end()) return *it->second;

    const Scene scene = load_scene_with_edits(scenes_ / scene_file, edits);
    std::string dir = slugify(fs::path(scene_file).stem().string());
    if (!edits.empty()) dir += fmt::format("-edit{}", edited_++);
    const fs::path target = out_ / dir;
    run_scene(scene, target, {.quiet = true});
    auto data = std::make_unique<RunData>(read_run(target));
    const RunData& ref = *data;
    runs_[k] = std::move(data);
    dirs_[&ref] = target;
    return ref;
  }

  /// the folder a run returned by run() was written to
  [[nodiscard]] const fs::path& folder(const RunData& run) const { return dirs_.at(&run); }

 private:
  fs::path scenes_, out_;
  std::map<const RunData*, fs::path> dirs_;
  std::map<std::string, std::unique_ptr<RunData>> runs_;
  int edited_ = 0;
};

struct Tally {
  int passed = 0, failed = 0;
  ReportInput report;
  std::vector<std::pair<std::size_t, fs::path>> replay_runs;  // report.replays index, run folder
  void add(const std::string& entry, const std::string& check, const std::string& expected,
           const std::string& measured, const std::string& source, bool pass) {
    (pass ? passed : failed) += 1;
    fmt::print("{}  {}  {}: expected {}, measured {}\n", pass ? "PASS" : "FAIL", entry, check,
               expected, measured);
    report.rows.push_back({entry, check, expected, measured, source, pass});
  }
};

void run_case(const Case& c, const Edits& global, Runner& runner, Tally& tally) {
  Edits edits = c.edits;
  edits.insert(edits.end(), global.begin(), global.end());
  const RunData& run = runner.run(c.scene, edits);
  if (edits.empty()) tally.report.runs[fs::path(c.scene).stem().string()] = &run;
  if (global.empty()) tally.report.case_runs[c.name] = &run;
  if (c.figure && global.empty()) tally.report.case_figures.push_back({c.name, &*c.figure, &run});
  tally.replay_runs.emplace_back(tally.report.replays.size(), runner.folder(run));
  tally.report.replays.push_back({"case:" + c.name, c.scene, "", ""});
  for (const Check& check : c.checks) {
    const CheckResult r = evaluate(check, run);
    tally.add("case:" + c.name, check.name, r.expected_text,
              r.error.empty() ? fmt::format("{:.6g}", r.measured) : "error: " + r.error,
              check.source, r.pass);
  }
}

void run_golden(const fs::path& scene, const fs::path& golden_dir, const Edits& global, bool record,
                Runner& runner, Tally& tally) {
  const std::string stem = scene.stem().string();
  const std::string entry = "golden:" + stem;
  const RunData& run = runner.run(scene.filename().string(), global);
  if (global.empty()) tally.report.runs[stem] = &run;
  const fs::path file = golden_dir / (stem + ".json");
  if (record) {
    fs::create_directories(golden_dir);
    std::ofstream out(file);
    out << make_golden(scene.filename().string(), run.summary).dump(2) << "\n";
    if (!out) throw std::runtime_error(fmt::format("{}: cannot be written", file.string()));
    fmt::print("RECORDED  {}  {}\n", entry, file.string());
    return;
  }
  std::ifstream in(file);
  if (!in) {
    const std::string record = fmt::format("pivot regress --record-goldens --filter '^{}$'", entry);
    tally.add(entry, "golden file", "a golden", fmt::format("none (record one: {})", record),
              "record it: " + record, false);
    return;
  }
  json golden;
  try {
    golden = json::parse(in);
  } catch (const json::exception& e) {
    throw Error(fmt::format("{}: {}", file.string(), e.what()));
  }
  int compared = 0, failed = 0;
  double worst = 0.0;
  for (const GoldenDiff& d : compare_golden(golden, run.summary)) {
    ++compared;
    if (d.pass) {
      if (d.tolerance > 0) worst = std::max(worst, std::abs(d.measured - d.golden) / d.tolerance);
      continue;
    }
    ++failed;
    tally.add(entry, d.key, fmt::format("{:.9g} ± {:.3g}", d.golden, d.tolerance),
              d.note.empty() ? fmt::format("{:.9g}", d.measured) : d.note,
              "golden of " + scene.filename().string(), false);
  }
  if (failed == 0)
    tally.add(entry, fmt::format("{} quantities", compared), "as recorded",
              fmt::format("largest deviation {:.2f} of its tolerance", worst),
              "golden of " + scene.filename().string(), true);
}

/// each case's replay as <report folder>/replays/<case>.html, or the reason there is none
void write_replays(const fs::path& report, Tally& tally) {
  for (const auto& [index, folder] : tally.replay_runs) {
    ReportReplay& r = tally.report.replays[index];
    const std::string name = r.entry.substr(r.entry.find(':') + 1);
    const fs::path link = fs::path("replays") / (slugify(name) + ".html");
    const fs::path file = report.parent_path() / link;
    try {
      fs::create_directories(file.parent_path());
      const ReplayWritten w = write_replay(folder, file);
      r.link = link.generic_string();
      r.note = fmt::format("{:.1f} MB", static_cast<double>(w.bytes) / 1e6);
    } catch (const Error& e) {
      r.note = fmt::format("not written: {}", e.what());
    }
  }
}

int regress(const RegressArgs& args) {
  std::regex filter;
  try {
    filter = std::regex(args.filter.empty() ? std::string(".") : args.filter);
  } catch (const std::regex_error& e) {
    throw Error(fmt::format("--filter {}: not a regular expression ({})", args.filter, e.what()));
  }
  Edits global;
  for (const std::string& s : args.sets) global.push_back(parse_scene_edit(s));
  const fs::path suite(args.suite), scenes(args.scenes);
  if (!fs::is_directory(suite / "cases"))
    throw Error(fmt::format("{}: no cases folder (--suite)", (suite / "cases").string()));
  if (!fs::is_directory(scenes))
    throw Error(fmt::format("{}: no scenes folder (--scenes)", scenes.string()));

  std::vector<fs::path> case_files, scene_files;
  for (const auto& e : fs::directory_iterator(suite / "cases"))
    if (e.path().extension() == ".json") case_files.push_back(e.path());
  for (const auto& e : fs::directory_iterator(scenes))
    if (e.path().extension() == ".json") scene_files.push_back(e.path());
  std::sort(case_files.begin(), case_files.end());
  std::sort(scene_files.begin(), scene_files.end());

  Runner runner(scenes, args.out);
  Tally tally;
  tally.report.cases_dir = suite / "cases";
  int entries = 0;
  std::vector<Case> cases;  // kept for the report, which points into them
  if (!args.record)
    for (const fs::path& f : case_files) {
      try {
        cases.push_back(load_case(f));
      } catch (const std::invalid_argument& e) {
        throw Error(e.what());
      }
    }
  for (const Case& c : cases) {
    if (!std::regex_search("case:" + c.name, filter) || (args.fast && c.slow)) continue;
    ++entries;
    run_case(c, global, runner, tally);
  }
  for (const fs::path& s : scene_files) {
    if (!std::regex_search("golden:" + s.stem().string(), filter)) continue;
    ++entries;
    run_golden(s, suite / "goldens", global, args.record, runner, tally);
  }
  if (entries == 0) throw Error(fmt::format("--filter {}: matches no entry", args.filter));
  if (args.record) return 0;
  fmt::print("regress: {} checks passed, {} failed ({} entries)\n", tally.passed, tally.failed,
             entries);
  if (!args.report.empty()) {
    write_replays(args.report, tally);
    write_report(args.report, tally.report);
    fmt::print("report: {}\n", args.report);
  }
  return tally.failed == 0 ? 0 : 1;
}

}  // namespace

void register_regress(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<RegressArgs>();
  auto* sub = app.add_subcommand(
      "regress", "run the regression suite: analytic and seed cases, and golden summaries");
  sub->add_option("--filter", args->filter,
                  "only entries whose name (case:NAME or golden:SCENE) matches this regular "
                  "expression");
  sub->add_option("--report", args->report, "write a Markdown report with SVG figures here");
  sub->add_option("--out", args->out, "folder for the runs' outputs (default pivot-out/regress)");
  sub->add_option("--suite", args->suite, "the suite folder with cases/ and goldens/");
  sub->add_option("--scenes", args->scenes,
                  "the scenes folder (default: the shipped scenes, as pivot scenes lists them)");
  sub->add_option("--set", args->sets,
                  "edit every scene before it runs: /json/pointer=value (repeatable)");
  sub->add_flag("--record-goldens", args->record,
                "re-record the goldens of the selected scenes instead of checking (give the "
                "reason in the commit message)");
  sub->add_flag("--fast", args->fast, "skip the cases marked slow");
  registry.actions.emplace_back(sub, [args] { return regress(*args); });
}

}  // namespace pivot::cli
