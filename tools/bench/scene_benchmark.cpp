// The scene and scaling benchmarks. Every (scene, engine) run happens in a child process
// (isolated.hpp) with a wall-time budget, so that an engine that is very slow on a large scene
// costs a bounded time and a crash costs one row. Each step is timed alone (steady clock);
// building the scene is not timed.
#include "scene_benchmark.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>

#include "isolated.hpp"
#include "report.hpp"
#include "scene_spec.hpp"

namespace pivot::bench {

RunResult run_case(const Engine& engine, const SceneCase& c, double budget_seconds, int max_steps) {
  const IsolatedResult r = run_isolated(
      [&]() -> IsolatedAnswer {
        std::unique_ptr<Simulation> sim = engine.build(c.spec);
        int planned = static_cast<int>(std::lround(c.spec.duration / c.spec.time_step));
        if (max_steps > 0) planned = std::min(planned, max_steps);
        std::vector<double> times;
        times.reserve(static_cast<std::size_t>(planned));
        double error = 0.0;
        int max_contacts = 0;
        const auto start = Clock::now();
        for (int k = 1; k <= planned; ++k) {
          const auto t0 = Clock::now();
          sim->step();
          times.push_back(seconds_since(t0));
          max_contacts = std::max(max_contacts, sim->contacts());
          if (c.max_over_run || k == planned) {
            const double e = c.error(*sim, c.spec, k * c.spec.time_step);
            error = c.max_over_run ? std::max(error, e) : e;
          }
          if (seconds_since(start) > budget_seconds) break;
        }
        double total = 0.0;
        for (double t : times) total += t;
        if (!std::isfinite(error)) error = INFINITY;
        return {{static_cast<double>(times.size()), static_cast<double>(planned), median(times),
                 total / static_cast<double>(std::max<std::size_t>(1, times.size())), error,
                 static_cast<double>(sim->contacts()), static_cast<double>(max_contacts),
                 times.empty() ? 0.0 : *std::max_element(times.begin(), times.end())},
                sim->note()};
      },
      budget_seconds + 20.0);
  RunResult out;
  const std::vector<double>& d = r.answer.values;
  if (!r.ok || d.size() != 8) {
    out.failure = r.ok ? "bad answer from the child" : r.failure;
    return out;
  }
  out.ok = true;
  out.steps = static_cast<int>(d[0]);
  out.planned = static_cast<int>(d[1]);
  out.median_step = d[2];
  out.mean_step = d[3];
  out.error = d[4];
  out.contacts = static_cast<int>(d[5]);
  out.max_contacts = static_cast<int>(d[6]);
  out.max_step = d[7];
  out.note = r.answer.text;
  return out;
}

namespace {

void print_engines(const std::vector<Engine>& engines, std::ostream& out) {
  for (const Engine& e : engines) out << fmt::format("- `{}`: {}\n", e.name, e.description);
  for (const std::string& m : missing_engines())
    out << fmt::format("- missing (not built in): {}\n", m);
}

}  // namespace

void run_scene_benchmark(const SceneBenchOptions& o, std::ostream& out) {
  const std::vector<Engine> all = engines();
  out << "## Scenes\n\n";
  print_engines(all, out);
  out << fmt::format(
      "\nPer engine: steps done (of those the scene asks for; a run stops after {:g} s of wall "
      "time), the median and mean wall time of one step (collision detection and solve), the "
      "median as a multiple of Pivot's (> 1×: Pivot is faster), contact points in the last step "
      "(as each engine counts them), and the error against the analytic answer (shown only for "
      "runs that finished). An engine whose median step on a pyramid exceeded {:g} s is not run "
      "on the larger pyramids.\n",
      o.budget_seconds, o.scaling_step_limit);

  std::vector<SceneCase> cases{incline_case(false), incline_case(true), stack_case(10)};
  for (int levels : o.pyramid_levels) cases.push_back(pyramid_case(levels));
  cases.push_back(chain_case());
  cases.push_back(rolling_sphere_case());

  // Pivot's step time over ODE's, for the stack and pyramid target
  std::vector<std::string> target;
  // an engine too slow on a pyramid is not run on the larger ones
  std::map<std::string, std::string> too_slow;
  for (const SceneCase& c : cases) {
    out << fmt::format("\n### {}\n\nh = {:g} s, {:g} s simulated; exact: {}; error: {}\n\n",
                       c.spec.name, c.spec.time_step, c.spec.duration, c.exact, c.measure);
    Table table;
    table.header = {"engine", "steps", "step ms (median)", "step ms (mean)", "× Pivot", "contacts",
                    "error",  "note"};
    table.right = {false, true, true, true, true, true, true, false};
    const bool pyramid = c.spec.name.find("pyramid") != std::string::npos;
    std::vector<RunResult> runs;
    for (const Engine& e : all) {
      if (pyramid && too_slow.count(e.name)) {
        RunResult skipped;
        skipped.failure = too_slow[e.name];
        runs.push_back(skipped);
        continue;
      }
      runs.push_back(run_case(e, c, o.budget_seconds));
      const RunResult& r = runs.back();
      if (pyramid && (!r.ok || r.median_step > o.scaling_step_limit))
        too_slow[e.name] = fmt::format("not run ({} on the {} boxes pyramid)",
                                       r.ok ? format_ms(r.median_step) + " ms per step" : r.failure,
                                       c.spec.bodies.size());
      out.flush();
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
      const RunResult& r = runs[i];
      if (!r.ok) {
        table.add({all[i].name, "—", "—", "—", "—", "—", "—", r.failure});
        continue;
      }
      std::string note = r.note;
      if (!r.finished())
        note = fmt::format("stopped after {} of {} steps (budget){}", r.steps, r.planned,
                           note.empty() ? "" : "; " + note);
      table.add({all[i].name, fmt::format("{}/{}", r.steps, r.planned), format_ms(r.median_step),
                 format_ms(r.mean_step),
                 i == 0 ? "1×" : format_ratio(r.median_step, runs[0].ok ? runs[0].median_step : 0),
                 std::to_string(r.contacts), r.finished() ? format_number(r.error) : "—", note});
    }
    table.print(out);
    const bool contact_scene = c.spec.name.find("stack") != std::string::npos ||
                               c.spec.name.find("pyramid") != std::string::npos;
    for (std::size_t i = 1; i < all.size() && contact_scene; ++i) {
      if (all[i].name != "ode" || !runs[0].ok || !runs[i].ok) continue;
      const double ratio = runs[0].median_step / runs[i].median_step;
      target.push_back(fmt::format("{}: Pivot's step = {}× ODE's ({})", c.spec.name,
                                   format_number(ratio),
                                   ratio <= 2.0 ? "within 2×" : "not within 2×"));
    }
  }
  if (!target.empty()) {
    out << "\nTarget (measured, not asserted): steps on the stack and pyramids within 2× of ODE's "
           "dWorldStep (median step times):\n\n";
    for (const std::string& t : target) out << "- " << t << "\n";
  }
  out << "\n";
}

void run_scaling_benchmark(const SceneBenchOptions& o, std::ostream& out) {
  const std::vector<Engine> all = engines();
  out << fmt::format(
      "## Scaling\n\nPyramids of growing size (the scene of the table above), {} steps of h = "
      "5 ms from rest; median wall time of one step in ms, and in brackets the contact points "
      "as the engine counts them. An engine whose median step exceeded {:g} s is not run on "
      "larger pyramids. The exponent k is fitted by least squares on log-log: time ∝ bodiesᵏ "
      "(and ∝ contactsᵏ).\n\n",
      o.scaling_steps, o.scaling_step_limit);
  Table table;
  table.header = {"levels", "bodies"};
  table.right = {true, true};
  for (const Engine& e : all) {
    table.header.push_back(e.name);
    table.right.push_back(true);
  }
  std::map<std::string, std::vector<double>> bodies, contacts, times;
  std::map<std::string, bool> stopped;
  for (int levels : o.scaling_levels) {
    const SceneCase c = pyramid_case(levels, 10.0);
    const int n = static_cast<int>(c.spec.bodies.size());
    std::vector<std::string> row{std::to_string(levels), std::to_string(n)};
    for (const Engine& e : all) {
      if (stopped[e.name]) {
        row.push_back("—");
        continue;
      }
      const RunResult r = run_case(e, c, o.budget_seconds, o.scaling_steps);
      out.flush();
      if (!r.ok) {
        row.push_back(r.failure);
        stopped[e.name] = true;
        continue;
      }
      std::string cell = fmt::format("{} ({})", format_ms(r.median_step), r.contacts);
      if (r.steps < r.planned) cell += fmt::format(" [{} steps]", r.steps);
      row.push_back(cell);
      bodies[e.name].push_back(n);
      contacts[e.name].push_back(r.contacts);
      times[e.name].push_back(r.median_step);
      if (r.median_step > o.scaling_step_limit) stopped[e.name] = true;
    }
    table.add(std::move(row));
  }
  table.print(out);
  out << "\n";
  Table fits;
  fits.header = {"engine", "sizes", "k (time vs bodies)", "k (time vs contacts)"};
  fits.right = {false, true, true, true};
  for (const Engine& e : all) {
    const PowerFit fb = fit_power_law(bodies[e.name], times[e.name]);
    const PowerFit fc = fit_power_law(contacts[e.name], times[e.name]);
    fits.add({e.name, std::to_string(fb.points), fb.ok ? fmt::format("{:.2f}", fb.exponent) : "—",
              fc.ok ? fmt::format("{:.2f}", fc.exponent) : "—"});
  }
  fits.print(out);
  out << "\n";
}

}  // namespace pivot::bench
