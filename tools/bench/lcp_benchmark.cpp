// The LCP benchmark. For each problem and solver: solved or not (Pivot's residual check,
// lcp/residual.hpp: worst() ≤ 1e-9 on the problem as given, never the solver's word), the pivots
// the solver reports, the median wall time of repeated solves, and the time as a multiple of
// Pivot's. Each (problem, solver) runs in a child process (isolated.hpp) with a time limit.
#include "lcp_benchmark.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <ostream>

#include "isolated.hpp"
#include "lcp_solvers.hpp"
#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/residual.hpp"
#include "report.hpp"

namespace pivot::bench {
namespace {

namespace fs = std::filesystem;

struct Entry {
  std::string group;  ///< folder: siconos, contact, fclib, or the extra folder's name
  std::string name;   ///< file stem
  lcp::LcpProblem problem;
};

struct Cell {
  bool run = false;
  std::string skipped;   ///< why it was not run, or how the child failed
  bool solved = false;   ///< passed Pivot's residual check
  bool claimed = false;  ///< the solver said it succeeded
  int pivots = -1;
  double seconds = 0.0;  ///< median
  int repeats = 0;
  double residual = 0.0;  ///< worst() of the answer
  std::string status;     ///< the solver's word on a failure (Pivot: its LcpStatus)
};

std::vector<Entry> load_folder(const fs::path& dir, const std::string& group, std::ostream& out) {
  std::vector<Entry> entries;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    out << fmt::format("- no folder {}: its problems are skipped\n", dir.string());
    return entries;
  }
  for (const auto& f : fs::directory_iterator(dir, ec)) {
    if (f.path().extension() != ".dat") continue;
    try {
      entries.push_back({group, f.path().stem().string(), lcp::read_lcp_file(f.path())});
    } catch (const Error& e) {
      out << fmt::format("- skipped: {}\n", e.what());
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::pair(a.problem.q.size(), a.name) < std::pair(b.problem.q.size(), b.name);
  });
  return entries;
}

// the child's record: solved, claimed, pivots, seconds, repeats, residual
Cell measure(const LcpSolver& solver, const lcp::LcpProblem& problem, const LcpBenchOptions& o) {
  Cell cell;
  const IsolatedResult r = run_isolated(
      [&]() -> IsolatedAnswer {
        const SolveFn solve = solver.prepare(problem);
        SolveOutcome outcome;
        const auto t0 = Clock::now();
        outcome = solve();
        const double first = seconds_since(t0);
        Timing timing{first, 1};
        if (first < o.budget_seconds)
          timing = time_median([&] { outcome = solve(); }, o.budget_seconds, 3, o.max_repeats);
        const lcp::Vector& z = outcome.z;
        double residual = INFINITY;
        if (z.size() == problem.q.size() && z.allFinite())
          residual = lcp::measure_residuals(problem.M, problem.q, z).worst();
        const bool solved = residual <= lcp::kDefaultResidualTolerance;
        return {
            {solved ? 1.0 : 0.0, outcome.claimed ? 1.0 : 0.0, static_cast<double>(outcome.pivots),
             timing.median_seconds, static_cast<double>(timing.repeats), residual},
            outcome.status};
      },
      o.timeout_seconds);
  cell.run = true;
  const std::vector<double>& d = r.answer.values;
  if (!r.ok || d.size() != 6) {
    cell.skipped = r.ok ? "bad answer from the child" : r.failure;
    return cell;
  }
  cell.solved = d[0] != 0.0;
  cell.claimed = d[1] != 0.0;
  cell.pivots = static_cast<int>(d[2]);
  cell.seconds = d[3];
  cell.repeats = static_cast<int>(d[4]);
  cell.residual = d[5];
  cell.status = r.answer.text;
  return cell;
}

std::string describe(const Cell& c, const Cell* pivot) {
  if (!c.run) return c.skipped;
  if (!c.skipped.empty()) return fmt::format("✗ {}", c.skipped);
  std::string s = c.solved ? "✓" : (c.claimed ? "✗ false success" : "✗");
  if (!c.solved && c.claimed)
    s += std::isfinite(c.residual) ? fmt::format(" (res {:.0e})", c.residual)
                                   : std::string(" (z not finite)");
  if (!c.solved && !c.status.empty()) s += fmt::format(" {}", c.status);
  if (c.pivots >= 0) s += fmt::format(" {}p", c.pivots);
  s += fmt::format(" {}", format_ms(c.seconds));
  if (pivot && pivot->run && pivot->skipped.empty())
    s += fmt::format(" ({})", format_ratio(c.seconds, pivot->seconds));
  return s;
}

double geometric_mean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double s = 0.0;
  for (double x : v) s += std::log(x);
  return std::exp(s / static_cast<double>(v.size()));
}

}  // namespace

int run_lcp_benchmark(const LcpBenchOptions& o, std::ostream& out) {
  const std::vector<LcpSolver> solvers = lcp_solvers();
  out << "## LCP solvers\n\n";
  for (const LcpSolver& s : solvers) out << fmt::format("- `{}`: {}\n", s.name, s.api);
  for (const std::string& m : missing_lcp_peers())
    out << fmt::format("- missing (not built in): {}\n", m);

  std::vector<Entry> entries;
  for (const char* group : {"siconos", "contact", "fclib"}) {
    auto e = load_folder(o.data_dir / "lcp" / group, group, out);
    entries.insert(entries.end(), std::make_move_iterator(e.begin()),
                   std::make_move_iterator(e.end()));
  }
  for (const fs::path& dir : o.extra_dirs) {
    auto e = load_folder(dir, dir.filename().string(), out);
    entries.insert(entries.end(), std::make_move_iterator(e.begin()),
                   std::make_move_iterator(e.end()));
  }
  if (entries.empty()) {
    out << "\nno LCP problem files found (shared data folder: " << o.data_dir.string()
        << "; set PIVOT_SHARED_DATA_DIR or --data)\n\n";
    return 0;
  }

  // run in order of size, so that a solver found too slow at some n is not tried on larger n
  std::vector<std::size_t> order(entries.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return entries[a].problem.q.size() < entries[b].problem.q.size();
  });
  std::vector<std::vector<Cell>> cells(entries.size(), std::vector<Cell>(solvers.size()));
  for (std::size_t s = 0; s < solvers.size(); ++s) {
    Eigen::Index timed_out_n = LONG_MAX;
    for (std::size_t i : order) {
      const Eigen::Index n = entries[i].problem.q.size();
      Cell& cell = cells[i][s];
      if (n > timed_out_n) {
        cell.skipped = fmt::format("not run (timed out at n = {})", timed_out_n);
        continue;
      }
      cell = measure(solvers[s], entries[i].problem, o);
      if (cell.skipped.rfind("timed out", 0) == 0) timed_out_n = std::min(timed_out_n, n);
    }
    out.flush();
  }

  // one table per folder: a cell is "✓/✗ pivots time (time / Pivot's time)"
  out << fmt::format(
      "\nEach cell: ✓ solved / ✗ not solved (judged by Pivot's residual check, worst() ≤ 1e-9, "
      "on the problem as given), pivots as the solver counts them (none when it does not say), "
      "median time in ms (of repeated solves within {:g} s; one solve when it takes longer), and "
      "in brackets the time as a multiple of Pivot's (> 1×: Pivot is "
      "faster). \"false success\": the solver reported success, the residual check says no. Each "
      "problem and solver runs in a child process, stopped after {:g} s; a solver that timed out "
      "is not run on larger problems.\n",
      o.budget_seconds, o.timeout_seconds);
  std::string group;
  Table table;
  auto flush = [&] {
    if (table.rows.empty()) return;
    out << "\n### " << group << "\n\n";
    table.print(out);
    table.rows.clear();
  };
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].group != group) {
      flush();
      group = entries[i].group;
      table.header = {"problem", "n"};
      table.right = {false, true};
      for (const LcpSolver& s : solvers) {
        table.header.push_back(s.name);
        table.right.push_back(false);
      }
    }
    std::vector<std::string> row{entries[i].name, std::to_string(entries[i].problem.q.size())};
    for (std::size_t s = 0; s < solvers.size(); ++s)
      row.push_back(describe(cells[i][s], s == 0 ? nullptr : &cells[i][0]));
    table.add(std::move(row));
  }
  flush();

  // summary per solver
  out << "\n### Summary\n\n";
  Table summary;
  summary.header = {"solver",
                    "solved",
                    "false successes",
                    "solved, Pivot not",
                    "time / Pivot's, median (all both solved)",
                    "time / Pivot's at n ≥ 100: geo. mean, min"};
  summary.right = {false, true, true, false, true, true};
  std::vector<std::string> pivot_misses;
  for (std::size_t s = 0; s < solvers.size(); ++s) {
    int solved = 0, run = 0, false_successes = 0;
    std::vector<std::string> only_here;
    std::vector<double> ratios, big;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const Cell& c = cells[i][s];
      const Cell& p = cells[i][0];
      if (c.run) ++run;
      if (c.solved) ++solved;
      if (c.run && c.skipped.empty() && c.claimed && !c.solved) ++false_successes;
      if (s > 0 && c.solved && !p.solved) {
        only_here.push_back(entries[i].name);
        pivot_misses.push_back(entries[i].name + " (" + solvers[s].name + ")");
      }
      if (s > 0 && c.solved && p.solved && p.seconds > 0.0 && c.seconds > 0.0) {
        ratios.push_back(c.seconds / p.seconds);
        if (entries[i].problem.q.size() >= 100) big.push_back(c.seconds / p.seconds);
      }
    }
    std::string only = only_here.empty() ? "—" : fmt::format("{}", only_here.size());
    if (!only_here.empty()) {
      only += ": ";
      for (std::size_t k = 0; k < only_here.size(); ++k) only += (k ? ", " : "") + only_here[k];
    }
    summary.add(
        {solvers[s].name, fmt::format("{}/{}", solved, run), std::to_string(false_successes),
         s == 0 ? "" : only, s == 0 || ratios.empty() ? "" : format_number(median(ratios)) + "×",
         s == 0 || big.empty()
             ? ""
             : fmt::format("{}× , {}× ({} problems)", format_number(geometric_mean(big)),
                           format_number(*std::min_element(big.begin(), big.end())), big.size())});
  }
  summary.print(out);

  // the LCP targets, measured
  out << "\nTargets (measured, not asserted):\n\n";
  if (pivot_misses.empty()) {
    out << "- Pivot solves every problem that some peer solves: **met**\n";
  } else {
    out << "- Pivot solves every problem that some peer solves: **not met**: ";
    for (std::size_t k = 0; k < pivot_misses.size(); ++k) out << (k ? ", " : "") << pivot_misses[k];
    out << "\n";
  }
  for (std::size_t s = 1; s < solvers.size(); ++s) {
    if (solvers[s].name != "siconos") continue;
    std::vector<double> big;
    std::vector<std::string> slow;
    int siconos_solved = 0, not_run = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const Cell& c = cells[i][s];
      const Cell& p = cells[i][0];
      if (entries[i].problem.q.size() < 100 || !p.solved) continue;
      if (!c.run || !c.skipped.empty()) {
        ++not_run;
        continue;
      }
      siconos_solved += c.solved ? 1 : 0;
      big.push_back(c.seconds / p.seconds);
      if (c.seconds / p.seconds < 2.0) slow.push_back(entries[i].name);
    }
    out << fmt::format(
        "- at n ≥ 100, Pivot ≥ 2× faster than Siconos lcp_lexicolemke: **{}** on the {} "
        "problems with n ≥ 100 that Pivot solved and Siconos ran ({} of them solved by Siconos; "
        "{} more not run or timed out); Siconos' time / Pivot's: min {}×, geometric mean {}×{}\n",
        slow.empty() && !big.empty() ? "met" : "not met", big.size(), siconos_solved, not_run,
        big.empty() ? "—" : format_number(*std::min_element(big.begin(), big.end())),
        format_number(geometric_mean(big)),
        slow.empty() ? "" : fmt::format("; below 2× on {}", fmt::join(slow, ", ")));
    // the small-LCP target: at n ≤ 30, Pivot's median time no worse than Siconos' (problems both solved)
    std::vector<double> pivot_small, siconos_small;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const Cell& c = cells[i][s];
      const Cell& p = cells[i][0];
      if (entries[i].problem.q.size() > 30 || !p.solved || !c.solved) continue;
      pivot_small.push_back(p.seconds);
      siconos_small.push_back(c.seconds);
    }
    if (!pivot_small.empty()) {
      const double mp = median(pivot_small), ms = median(siconos_small);
      out << fmt::format(
          "- at n ≤ 30, Pivot's median time no worse than Siconos lcp_lexicolemke's: **{}** on the "
          "{} problems with n ≤ 30 both solved: median {} ms against {} ms ({}×)\n",
          mp <= ms ? "met" : "missed", pivot_small.size(), format_ms(mp), format_ms(ms),
          format_number(mp / ms));
    }
  }
  out << "\n";
  return static_cast<int>(entries.size());
}

}  // namespace pivot::bench
