// results.csv of a sweep (docs/sweeps.md "results.csv"): its columns, one row as a CSV line,
// and the rows of a partial table read back to resume from.

#include <fmt/core.h>

#include <fstream>
#include <sstream>

#include "pivot/core/csv_line.hpp"
#include "pivot/scenes/sweep.hpp"
#include "pivot/scenes/sweep_pointer.hpp"

namespace pivot {

const std::vector<std::string>& sweep_summary_keys() {
  static const std::vector<std::string> keys = {"steps",
                                                "simulated_time_s",
                                                "energy.initial.kinetic",
                                                "energy.initial.potential",
                                                "energy.initial.total",
                                                "energy.final.kinetic",
                                                "energy.final.potential",
                                                "energy.final.total",
                                                "max_joint_error",
                                                "max_penetration",
                                                "contacts_per_step",
                                                "lcp.solves",
                                                "lcp.pivots",
                                                "lcp.failures",
                                                "lcp.fallbacks",
                                                "lcp.failed_steps",
                                                "hybrid.entries",
                                                "hybrid.exits"};
  return keys;
}

const std::vector<std::string>& sweep_metric_keys() {
  // metrics.csv's columns but t (summary.simulated_time_s) and solve_time_s (a wall time,
  // which would make the table differ from run to run)
  static const std::vector<std::string> keys = {
      "kinetic_energy", "potential_energy", "total_energy",    "contacts",      "lcp_size",
      "pivots",         "max_joint_error",  "max_penetration", "reduced_pairs", "status"};
  return keys;
}

std::vector<std::string> sweep_columns(const Sweep& sweep) {
  std::vector<std::string> columns = {"index"};
  for (const SweepParameter& p : sweep.parameters) columns.push_back(p.pointer);
  columns.insert(columns.end(), {"status", "error", "final_state_hash"});
  for (const std::string& k : sweep.keep.summary) columns.push_back("summary." + k);
  for (const std::string& k : sweep.keep.metrics) columns.push_back("metrics." + k);
  if (sweep.keep.final_state)
    for (const std::string& body : sweep.state_bodies)
      for (const char* f :
           {"x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"})
        columns.push_back(fmt::format("final.{}.{}", body, f));
  return columns;
}

std::vector<std::string> sweep_error_row(const Sweep& sweep, const SweepVariant& variant,
                                         std::string_view status, std::string_view error) {
  std::vector<std::string> row = {std::to_string(variant.index)};
  for (const std::string& v : variant.values) row.push_back(detail::parameter_cell(v));
  row.emplace_back(status);
  row.emplace_back(error);
  row.resize(sweep_columns(sweep).size());  // no hash, no outputs
  return row;
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += ',';
    std::string cell = cells[i];
    for (char& c : cell)
      if (c == '\n' || c == '\r') c = ' ';
    if (cell.find_first_of(",\"") == std::string::npos) {
      out += cell;
      continue;
    }
    out += '"';
    for (const char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    out += '"';
  }
  return out + '\n';
}

std::map<long, std::string> read_sweep_results(const Sweep& sweep,
                                               const std::filesystem::path& file) {
  std::map<long, std::string> rows;
  std::ifstream in(file, std::ios::binary);
  if (!in) return rows;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const std::string source = file.string();
  const std::string header = csv_line(sweep_columns(sweep));
  if (text.empty()) return rows;
  if (text.compare(0, header.size(), header) != 0)
    throw Error(source, "line 1",
                "its columns are not this sweep's (another sweep's results? move it away or "
                "choose another --out)");
  const std::size_t columns = sweep_columns(sweep).size();
  std::vector<std::string> cells;
  std::size_t start = header.size();
  for (long line = 2; start < text.size(); ++line) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // cut off by a killed sweep: run again
    const std::string row = text.substr(start, end - start + 1);
    start = end + 1;
    const auto fail = [&](const std::string& what) {
      throw Error(source, fmt::format("line {}", line), what);
    };
    if (!split_csv_line(row.substr(0, row.size() - 1), cells) || cells.size() != columns)
      fail(fmt::format("expected {} cells", columns));
    std::size_t used = 0;
    long index = -1;
    try {
      index = std::stol(cells[0], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != cells[0].size() || index < 0 || index >= sweep_size(sweep))
      fail(fmt::format("no variant has the index \"{}\"", cells[0]));
    const SweepVariant v = sweep_variant(sweep, index);
    for (std::size_t i = 0; i < v.values.size(); ++i)
      if (cells[1 + i] != detail::parameter_cell(v.values[i]))
        fail(fmt::format("variant {} has {} = {} in this sweep, not {} (another sweep's results?)",
                         index, sweep.parameters[i].pointer, detail::parameter_cell(v.values[i]),
                         cells[1 + i]));
    // a crashed row is not the variant's result but its process's: run it again
    if (cells[1 + v.values.size()] != kSweepCrashed) rows.emplace(index, row);
  }
  return rows;
}

}  // namespace pivot
