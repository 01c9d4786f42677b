// pivot plot RUN_DIR [--metrics a,b] [--bodies a,b] [--fields x,y,z] [--out DIR]
//
// SVG plots of a run's outputs (docs/cli.md): each metrics.csv column over time
// (metric-<column>.svg) and each body's trajectory fields over time (body-<name>.svg), with the
// plotter of the regression report (svg_plot.hpp), written into RUN_DIR/plots/ or --out.
// Exit codes: 0 written, 1 a file could not be written, 2 bad input (no run there, an unknown
// metric, body or field).
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pivot/core/error.hpp"
#include "replay/svg_plot.hpp"
#include "run_files/run_data.hpp"
#include "run_files/run_output.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxPoints = 2000;  // points per series at most (every k-th row)

struct PlotArgs {
  std::string run;
  std::vector<std::string> metrics, bodies;
  std::vector<std::string> fields = {"x", "y", "z"};
  std::string out;
};

/// the unit of a metrics.csv column or a trajectory field (docs/cli.md)
std::string unit_of(const std::string& name) {
  static const std::map<std::string, std::string> units = {{"kinetic_energy", "J"},
                                                           {"potential_energy", "J"},
                                                           {"total_energy", "J"},
                                                           {"solve_time_s", "s"},
                                                           {"max_joint_error", "m or rad"},
                                                           {"max_penetration", "m"},
                                                           {"x", "m"},
                                                           {"y", "m"},
                                                           {"z", "m"},
                                                           {"vx", "m/s"},
                                                           {"vy", "m/s"},
                                                           {"vz", "m/s"},
                                                           {"wx", "rad/s"},
                                                           {"wy", "rad/s"},
                                                           {"wz", "rad/s"},
                                                           {"wx_body", "rad/s"},
                                                           {"wy_body", "rad/s"},
                                                           {"wz_body", "rad/s"}};
  const auto it = units.find(name);
  return it == units.end() ? "" : it->second;
}

std::string with_unit(const std::string& name) {
  const std::string unit = unit_of(name);
  return unit.empty() ? name : fmt::format("{} ({})", name, unit);
}

/// every k-th index of n so that at most kMaxPoints remain, and always the last
std::vector<std::size_t> sample(std::size_t n) {
  std::vector<std::size_t> out;
  const std::size_t every = std::max<std::size_t>(1, (n + kMaxPoints - 1) / kMaxPoints);
  for (std::size_t i = 0; i < n; i += every) out.push_back(i);
  if (n > 0 && out.back() != n - 1) out.push_back(n - 1);
  return out;
}

void write_svg(const fs::path& file, const std::string& svg) {
  std::ofstream out(file);
  out << svg;
  if (!out) throw std::runtime_error(fmt::format("{}: cannot be written", file.string()));
  fmt::print("{}\n", file.string());
}

int plot(const PlotArgs& args) {
  const fs::path dir(args.run);
  if (!fs::is_regular_file(dir / "metrics.csv") || !fs::is_regular_file(dir / "trajectory.csv"))
    throw Error(args.run, "", "not a run folder (expected trajectory.csv and metrics.csv there)");
  RunData run;
  try {
    run = read_run(dir);
  } catch (const std::runtime_error& e) {
    throw Error(e.what());
  }
  const std::string scene = run.summary.value("scene", dir.filename().string());

  // what to plot: everything when neither --metrics nor --bodies is given
  const bool all = args.metrics.empty() && args.bodies.empty();
  std::vector<std::string> metrics = args.metrics, bodies = args.bodies;
  if (all) {
    for (const std::string& c : run.metric_columns)
      if (c != "t") metrics.push_back(c);
    for (const auto& [name, frames] : run.frames) bodies.push_back(name);
  }
  for (const std::string& m : metrics)
    if (m == "t" || std::find(run.metric_columns.begin(), run.metric_columns.end(), m) ==
                        run.metric_columns.end()) {
      std::string known;
      for (const std::string& c : run.metric_columns)
        if (c != "t") known += (known.empty() ? "" : ", ") + c;
      throw Error(
          fmt::format("--metrics {}: metrics.csv has no such column (it has: {})", m, known));
    }
  for (const std::string& b : bodies)
    if (!run.frames.contains(b)) {
      std::string known;
      for (const auto& [name, frames] : run.frames) known += (known.empty() ? "" : ", ") + name;
      throw Error(
          fmt::format("--bodies {}: trajectory.csv has no dynamic body of that name "
                      "(it has: {})",
                      b, known));
    }
  for (const std::string& f : args.fields) {
    try {
      (void)frame_field(Frame{}, f);
    } catch (const std::runtime_error& e) {
      throw Error(fmt::format("--fields {}: {}", f, e.what()));
    }
  }

  const fs::path out = args.out.empty() ? dir / "plots" : fs::path(args.out);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec)
    throw Error(fmt::format("--out {}: cannot create the folder: {}", out.string(), ec.message()));

  const std::vector<double> t = run.metric("t");
  for (const std::string& m : metrics) {
    const std::vector<double> y = run.metric(m);
    PlotSeries s{m, {}, {}};
    for (const std::size_t i : sample(t.size())) {
      s.x.push_back(t[i]);
      s.y.push_back(y[i]);
    }
    write_svg(out / fmt::format("metric-{}.svg", m),
              svg_line_plot({s}, {.title = fmt::format("{}: {}", scene, m),
                                  .x_label = "t (s)",
                                  .y_label = with_unit(m)}));
  }
  std::string unit = unit_of(args.fields.front());
  for (const std::string& f : args.fields)
    if (unit_of(f) != unit) unit.clear();
  for (const std::string& b : bodies) {
    const std::vector<Frame>& frames = run.body(b);
    std::vector<PlotSeries> series;
    for (const std::string& f : args.fields) {
      PlotSeries s{with_unit(f), {}, {}};
      for (const std::size_t i : sample(frames.size())) {
        s.x.push_back(frames[i][0]);
        s.y.push_back(frame_field(frames[i], f));
      }
      series.push_back(std::move(s));
    }
    write_svg(out / fmt::format("body-{}.svg", slugify(b)),
              svg_line_plot(series, {.title = fmt::format("{}: body {}", scene, b),
                                     .x_label = "t (s)",
                                     .y_label = unit.empty() ? "value" : unit}));
  }
  // sensors.csv: a plot per sensor, its fields over the times it sampled
  const SensorTable& table = run.sensors;
  for (std::size_t c = 0; all && c < table.columns.size();) {
    const std::string& name = table.sensor[c];
    std::vector<std::size_t> rows;  // where this sensor sampled
    for (std::size_t r = 0; r < table.times.size(); ++r)
      if (!std::isnan(table.values[c][r])) rows.push_back(r);
    std::vector<PlotSeries> series;
    for (; c < table.columns.size() && table.sensor[c] == name; ++c) {
      PlotSeries s{table.columns[c].substr(name.size() + 1), {}, {}};
      for (const std::size_t i : sample(rows.size())) {
        s.x.push_back(table.times[rows[i]]);
        s.y.push_back(table.values[c][rows[i]]);
      }
      series.push_back(std::move(s));
    }
    if (rows.empty()) continue;
    write_svg(out / fmt::format("sensor-{}.svg", slugify(name)),
              svg_line_plot(series, {.title = fmt::format("{}: sensor {}", scene, name),
                                     .x_label = "t (s)",
                                     .y_label = "value (docs/sensors.md)"}));
  }
  return 0;
}

}  // namespace

void register_plot(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<PlotArgs>();
  auto* sub =
      app.add_subcommand("plot", "SVG plots of a run's metrics and body coordinates over time");
  sub->add_option("run", args->run, "a run's output folder (pivot run --out)")->required();
  sub->add_option("--metrics", args->metrics,
                  "metrics.csv columns to plot, e.g. total_energy,contacts (default: all)")
      ->delimiter(',');
  sub->add_option("--bodies", args->bodies,
                  "bodies whose trajectory to plot (default: all dynamic bodies)")
      ->delimiter(',');
  sub->add_option("--fields", args->fields,
                  "trajectory fields of each body, in one plot (default x,y,z; also qw..qz, "
                  "vx..vz, wx..wz, wx_body..wz_body)")
      ->delimiter(',');
  sub->add_option("--out", args->out, "folder for the SVG files (default: RUN_DIR/plots)");
  registry.actions.emplace_back(sub, [args] { return plot(*args); });
}

}  // namespace pivot::cli
