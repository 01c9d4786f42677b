#include "regress/regress_report.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "pivot/engine/step_report.hpp"
#include "pivot/version.hpp"
#include "replay/svg_plot.hpp"

#ifndef PIVOT_SOURCE_DIR
#define PIVOT_SOURCE_DIR "."
#endif

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;

/// `target` as a Markdown link from a file in `folder` (absolute): the relative path
std::string link(const fs::path& target, const fs::path& folder) {
  const fs::path rel = fs::absolute(target).lexically_normal().lexically_relative(folder);
  return (rel.empty() ? fs::absolute(target) : rel).generic_string();
}

/// a path as the report shows it: relative to the source tree when inside it
std::string shown(const fs::path& path) {
  const fs::path rel = path.lexically_relative(fs::path(PIVOT_SOURCE_DIR).lexically_normal());
  const bool inside = !rel.empty() && *rel.begin() != "..";
  return (inside ? rel : path).generic_string() + "/";
}

std::string cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

/// a trajectory field of a body as a series (t, value·scale)
PlotSeries body_series(const RunData& run, const std::string& body, const std::string& field,
                       const std::string& label, double scale = 1.0) {
  PlotSeries s{label, {}, {}};
  for (const Frame& f : run.body(body)) {
    s.x.push_back(f[0]);
    s.y.push_back(scale * frame_field(f, field));
  }
  return s;
}

class Figures {
 public:
  Figures(const fs::path& report, const ReportInput& in) : report_(report), in_(in) {}

  [[nodiscard]] const RunData* run(const std::string& stem) const {
    const auto it = in_.runs.find(stem);
    return it == in_.runs.end() ? nullptr : it->second;
  }
  /// a case's run, with the case's own edits
  [[nodiscard]] const RunData* case_run(const std::string& name) const {
    const auto it = in_.case_runs.find(name);
    return it == in_.case_runs.end() ? nullptr : it->second;
  }

  /// writes the SVG and returns the Markdown that shows it
  std::string add(const std::string& id, const std::vector<PlotSeries>& series,
                  const PlotOptions& options, const std::string& caption) {
    const fs::path svg = report_.parent_path() / (report_.stem().string() + "-" + id + ".svg");
    std::ofstream out(svg);
    out << svg_line_plot(series, options);
    if (!out) throw std::runtime_error(fmt::format("{}: cannot be written", svg.string()));
    return fmt::format("![{}]({})\n\n{}\n\n", options.title, svg.filename().string(), caption);
  }

 private:
  fs::path report_;
  const ReportInput& in_;
};

/// one series per run of `runs` (stem, label) that exists, its points added by `points`
template <class Points>
std::vector<PlotSeries> series_of(const Figures& fig,
                                  std::initializer_list<std::pair<const char*, const char*>> runs,
                                  Points points) {
  std::vector<PlotSeries> out;
  for (const auto& [stem, label] : runs)
    if (const RunData* r = fig.run(stem)) {
      PlotSeries s{label, {}, {}};
      points(*r, s);
      out.push_back(std::move(s));
    }
  return out;
}

// Kry & Pai 2002 §4.2: the bowl thrown on the table at maximum steps of 1-64 ms (the cases
// bowl_step_NNms): the COM in the table's plane (Fig. 7), the histogram of accepted RK4 steps
// (Fig. 8), and the runs beside the paper's Table II
std::string bowl_step_study(Figures& fig) {
  struct StudyRun {
    int ms;
    double paper_cpu_s;  // Kry & Pai 2002 Table II, 1.8 GHz Xeon
    const RunData* run;
  };
  std::vector<StudyRun> runs;
  for (const auto& [ms, cpu] : std::initializer_list<std::pair<int, double>>{
           {1, 6.542}, {2, 3.328}, {4, 1.766}, {8, 0.974}, {16, 0.521}, {32, 0.370}, {64, 0.286}})
    if (const RunData* r = fig.case_run(fmt::format("bowl_step_{:02d}ms", ms)))
      runs.push_back({ms, cpu, r});
  if (runs.empty()) return "";
  std::string md;
  const auto shown = [](int ms) { return ms == 1 || ms == 16 || ms == 64; };  // the paper's
  std::vector<PlotSeries> com, hist;
  for (const StudyRun& s : runs) {
    if (!shown(s.ms)) continue;
    PlotSeries c{fmt::format("max step {} ms", s.ms), {}, {}};
    for (const Frame& f : s.run->body("bowl")) {
      c.x.push_back(1e3 * frame_field(f, "x"));
      c.y.push_back(1e3 * frame_field(f, "y"));
    }
    com.push_back(std::move(c));
  }
  // histogram: the fraction of accepted steps per power-of-two bin, drawn as steps over
  // log2(step / 1 ms)
  int lo = kReducedStepBins, hi = -1;
  for (const StudyRun& s : runs) {
    const auto& count = s.run->summary.at("hybrid").at("accepted_steps").at("count");
    for (int k = 0; k < kReducedStepBins; ++k)
      if (count.at(k).get<long>() > 0) lo = std::min(lo, k), hi = std::max(hi, k);
  }
  for (const StudyRun& s : runs) {
    if (!shown(s.ms) || hi < lo) continue;
    const auto& count = s.run->summary.at("hybrid").at("accepted_steps").at("count");
    double total = 0.0;
    for (int k = 0; k < kReducedStepBins; ++k) total += count.at(k).get<double>();
    PlotSeries h{fmt::format("max step {} ms", s.ms), {}, {}};
    for (int k = lo; k <= hi; ++k) {
      const double x = std::log2(reduced_step_bin_start(k) / 1e-3);
      const double y = total > 0.0 ? count.at(k).get<double>() / total : 0.0;
      h.x.insert(h.x.end(), {x, x + 1.0});
      h.y.insert(h.y.end(), {y, y});
    }
    hist.push_back(std::move(h));
  }
  if (!com.empty())
    md += fig.add("bowl-com", com,
                  {.title = "Kry & Pai 2002 Fig. 7: the bowl's COM on the table",
                   .x_label = "x (mm)",
                   .y_label = "y (mm)"},
                  "The bowl thrown on the table (scenes/bowl_on_table.json) with World step = "
                  "maximum reduced step of 1, 16 and 64 ms (cases bowl_step_NNms), 3 s: the "
                  "trajectories differ but all are plausible, as in the paper; none leaves "
                  "the table (the paper's bowl falls off only at 128 ms), and each comes to "
                  "rest (rolling and spinning friction, Kry 2000 eqs. 4.27-4.30).");
  if (!hist.empty())
    md += fig.add("bowl-steps", hist,
                  {.title = "Kry & Pai 2002 Fig. 8: accepted RK4 step sizes",
                   .x_label = "log2(step / 1 ms)",
                   .y_label = "fraction of accepted steps"},
                  "Per run, the fraction of the reduced integrator's accepted steps in each "
                  "power-of-two bin [2^k, 2^(k+1)) ms (summary.json hybrid.accepted_steps). "
                  "At 1 ms most steps are the maximum; at 16 and 64 ms most lie near 1 ms: "
                  "the error test (tolerance 1e-9), not the maximum step, sets the step, and "
                  "once the bowl is at rest the stiff regularized friction torques hold it "
                  "near 1 ms (docs/loop-surfaces.md). Steps are cut at the World step's end "
                  "and at events (patch edges, mode changes), which gives the short steps; the "
                  "paper's Fig. 8 has minimum-size (1 ms) steps at its boundary crossings.");
  md +=
      "The step-size study beside Kry & Pai 2002 Table II (CPU time of the 3 s run on a 1.8 "
      "GHz Xeon). Pivot's times are the wall time of this report's run (`pivot regress` "
      "runs cases in parallel on a shared machine: an upper bound; `pivot-bench bowl` "
      "measures CPU time, docs/loop-surfaces.md).\n\n"
      "| max step ms | World steps | reduced s | accepted RK4 steps | E(3 s) J | entries, "
      "exits | wall s | paper CPU s |\n"
      "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const StudyRun& s : runs) {
    const auto& sum = s.run->summary;
    long accepted = 0;
    for (const auto& c : sum.at("hybrid").at("accepted_steps").at("count"))
      accepted += c.get<long>();
    md += fmt::format(
        "| {} | {} | {:.2f} | {} | {:.5f} | {}, {} | {:.3f} | {:.3f} |\n", s.ms,
        sum.at("steps").get<long>(), sum.at("hybrid").at("reduced_time_s").get<double>(), accepted,
        sum.at("energy").at("final").at("total").get<double>(),
        sum.at("hybrid").at("entries").get<long>(), sum.at("hybrid").at("exits").get<long>(),
        sum.at("wall_time_s").get<double>(), s.paper_cpu_s);
  }
  return md + "\n";
}

std::string figures(const fs::path& file, const ReportInput& in) {
  Figures fig(file, in);
  std::string md;
  // Cline 2002 Figs. 5.6–5.10: max joint error per step, three stabilization modes
  {
    const auto series = series_of(fig,
                                  {{"chain_6_links_none", "none"},
                                   {"chain_6_links_baumgarte", "Baumgarte, alpha = 200"},
                                   {"chain_6_links", "post-stabilization (after the post-step)"}},
                                  [](const RunData& r, PlotSeries& s) {
                                    const auto t = r.metric("t"), e = r.metric("max_joint_error");
                                    for (std::size_t i = 0; i < t.size(); ++i) {
                                      s.x.push_back(std::round(t[i] / 1e-3));
                                      s.y.push_back(e[i] * 1e3);
                                    }
                                  });
    if (!series.empty())
      md += fig.add("cline-chain", series,
                    {.title = "Cline 2002 sec. 5.2.1: 6-link chain, max joint error",
                     .x_label = "time step (h = 1 ms)",
                     .y_label = "max joint error (mm)",
                     .log_y = true},
                    "Cline's thesis: without stabilization the error grows to about 20 mm by "
                    "step 600 (Figs. 5.5–5.6); Baumgarte with alpha = 200 never exceeds 3 mm "
                    "(Fig. 5.7); after the post-step it never exceeds 0.01 mm (Fig. 5.10).");
  }
  if (const RunData* r = fig.run("rolling_sphere")) {
    PlotSeries expected{"5/7 v0", {0.0, 1.0}, {2.0 * 5.0 / 7.0, 2.0 * 5.0 / 7.0}};
    md += fig.add("rolling-sphere",
                  {body_series(*r, "ball", "vx", "v (m/s)"),
                   body_series(*r, "ball", "wy", "omega r (m/s)", 0.1), expected},
                  {.title = "Sphere launched sliding: v and omega r meet at 5/7 v0",
                   .x_label = "t (s)",
                   .y_label = "m/s"},
                  "Closed form: sliding friction decelerates v and spins the sphere up until "
                  "v = omega r = 5/7 v0 at t = 2 v0 / (7 mu g).");
  }
  {
    std::vector<PlotSeries> series;
    for (const char* stem : {"pendulum", "dzhanibekov", "default"})
      if (const RunData* r = fig.run(stem)) {
        const auto t = r->metric("t"), e = r->metric("total_energy");
        const double e0 = r->summary.at("energy").at("initial").at("total").get<double>();
        PlotSeries s{stem, {}, {}};
        for (std::size_t i = 0; i < t.size(); i += std::max<std::size_t>(1, t.size() / 2000)) {
          s.x.push_back(t[i]);
          s.y.push_back(std::abs(e[i] - e0) / std::max(std::abs(e0), 1e-300));
        }
        series.push_back(std::move(s));
      }
    if (!series.empty())
      md += fig.add("energy", series,
                    {.title = "Relative energy change, conservative scenes",
                     .x_label = "t (s)",
                     .y_label = "|E - E0| / |E0|",
                     .log_y = true},
                    "No contacts and no damping: the total energy should stay constant. The "
                    "velocity-level step dissipates a little (first order in h).");
  }
  // Kry 2000 §6.4 / App. B: the rattleback's yaw rate (scenes/rattleback_*.json)
  {
    const auto series = series_of(fig,
                                  {{"rattleback_spin", "spin start, mu = 0.3"},
                                   {"rattleback_frictionless", "spin start, mu = 0"},
                                   {"rattleback_tap", "tap start, mu = 0.3"}},
                                  [](const RunData& r, PlotSeries& s) {
                                    const auto& frames = r.body("rattleback");
                                    for (std::size_t i = 0; i < frames.size(); i += 2) {
                                      s.x.push_back(frames[i][0]);
                                      s.y.push_back(frame_field(frames[i], "wz"));
                                    }
                                  });
    if (!series.empty())
      md += fig.add("rattleback-yaw", series,
                    {.title = "Kry's rattleback (App. B): yaw rate omega_z",
                     .x_label = "t (s)",
                     .y_label = "omega_z, world (rad/s)"},
                    "Reduced contact coordinates from t = 0. The spin start with mu = 0.3 turns "
                    "from counter-clockwise to clockwise (Kry 2000 Fig. 6.7) at 25.5 s, where "
                    "the independent re-implementation (docs/regression.md, \"Reference "
                    "numbers\") has its first negative sample (the paper says about 8 s; with "
                    "App. B's body and g = 9.81 the reversal comes later). Without friction it "
                    "never reverses (Kry 2000 sec. 6.4); the tap start spins clockwise (Fig. "
                    "6.6).");
  }
  md += bowl_step_study(fig);
  // the figures the cases ask for
  for (const CaseFigureRun& c : in.case_figures) {
    std::vector<PlotSeries> series;
    for (const FigureSeries& f : c.figure->series) {
      PlotSeries s{f.label, {}, {}};
      if (f.metric == "character") {  // character.csv's tracking error (docs/character.md)
        for (const auto& [t, e] : c.run->character) {
          s.x.push_back(t);
          s.y.push_back(f.scale * e);
        }
      } else if (!f.metric.empty()) {
        const auto t = c.run->metric("t"), y = c.run->metric(f.metric);
        for (std::size_t i = 0; i < t.size(); i += std::max<std::size_t>(1, t.size() / 2000)) {
          s.x.push_back(t[i]);
          s.y.push_back(f.scale * y[i]);
        }
      } else {
        s = body_series(*c.run, f.body, f.field, f.label, f.scale);
      }
      series.push_back(std::move(s));
    }
    md += fig.add("case-" + c.case_name, series,
                  {.title = c.figure->title,
                   .x_label = "t (s)",
                   .y_label = c.figure->y_label,
                   .log_y = c.figure->log_y},
                  fmt::format("{} (case `{}`)", c.figure->caption, c.case_name));
  }
  return md;
}

}  // namespace

void write_report(const fs::path& file, const ReportInput& in) {
  if (file.has_parent_path()) fs::create_directories(file.parent_path());
  std::string md = "# Pivot regression report\n\n";
  int passed = 0;
  for (const ReportRow& r : in.rows) passed += r.pass ? 1 : 0;
  md += fmt::format("Generated by `pivot regress --report {}` (pivot {}). {} of {} checks pass. ",
                    file.generic_string(), kVersion, passed, in.rows.size());
  const fs::path folder = fs::absolute(file).parent_path();
  const fs::path docs = fs::path(PIVOT_SOURCE_DIR) / "docs" / "regression.md";
  if (fs::exists(docs))
    md += fmt::format("What each case checks and why is in [docs/regression.md]({}); ",
                      link(docs, folder));
  const fs::path cases = fs::absolute(in.cases_dir).lexically_normal();
  md += fmt::format("the case files are in [{}]({}).\n\n", shown(cases), link(cases, folder));
  const std::string figs = figures(file, in);
  if (!figs.empty()) md += "## Figures\n\n" + figs;
  if (!in.replays.empty()) {
    md += fmt::format(
        "## Replays\n\nEach case's run in the browser ([docs/viewer.md]({})), "
        "written beside this report by the same command (about 1 MB each; named here, "
        "not linked, since a committed report's folder does not keep them).\n\n| case | scene | "
        "replay |\n| --- | --- | --- |\n",
        link(fs::path(PIVOT_SOURCE_DIR) / "docs" / "viewer.md", folder));
    for (const ReportReplay& r : in.replays)
      md += fmt::format("| {} | `{}` | {} |\n", cell(r.entry), r.scene,
                        r.link.empty() ? cell(r.note) : fmt::format("`{}` ({})", r.link, r.note));
    md += "\n";
  }
  md += "## Checks\n\n| entry | check | expected | measured | result | source |\n";
  md += "| --- | --- | --- | --- | --- | --- |\n";
  for (const ReportRow& r : in.rows)
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(r.entry), cell(r.check),
                      cell(r.expected), cell(r.measured), r.pass ? "pass" : "**FAIL**",
                      cell(r.source));
  std::ofstream out(file);
  out << md;
  if (!out) throw std::runtime_error(fmt::format("{}: cannot be written", file.string()));
}

}  // namespace pivot::cli
