#include "run_files/run_sensors.hpp"

#include <fmt/format.h>

#include <fstream>
#include <limits>

#include "pivot/core/error.hpp"
#include "run_files/csv_reader.hpp"

namespace pivot::cli {

std::string sensors_header(const SensorSet& sensors) {
  std::string header = "t";
  for (int i = 0; i < sensors.size(); ++i)
    for (const std::string& field : sensors.fields(i))
      header += "," + sensors.name(i) + "." + field;
  return header;
}

SensorWriter::SensorWriter(const SensorSet& sensors, const std::filesystem::path& file)
    : out_(file) {
  out_.print("{}\n", sensors_header(sensors));
}

void SensorWriter::write(const SensorSet& sensors, double t) {
  row_.clear();
  fmt::format_to(std::back_inserter(row_), "{}", t);
  for (int i = 0; i < sensors.size(); ++i) {
    const std::size_t n = sensors.fields(i).size();
    const std::vector<double>& v = sensors.latest(i).values;
    const bool sampled = sensors.sampled(i) && v.size() == n;
    for (std::size_t k = 0; k < n; ++k) {
      row_ += ',';
      if (sampled) fmt::format_to(std::back_inserter(row_), "{}", v[k]);
    }
  }
  row_ += '\n';
  out_.write(row_);
}

SensorTable read_sensor_table(const std::filesystem::path& file) {
  std::string header;
  {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(file.string(), "", "cannot be read (is the run folder complete?)");
    std::getline(in, header);
  }
  std::vector<std::string> cells;
  if (!split_csv_line(header, cells) || cells.size() < 2 || cells[0] != "t")
    throw Error(file.string(), "line 1", "expected the header \"t,NAME.FIELD,...\"");
  SensorTable table;
  for (std::size_t c = 1; c < cells.size(); ++c) {
    const std::size_t dot = cells[c].rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == cells[c].size())
      throw Error(file.string(), "line 1",
                  fmt::format("column {}: expected NAME.FIELD (got \"{}\")", c + 1, cells[c]));
    table.columns.push_back(cells[c]);
    table.sensor.push_back(cells[c].substr(0, dot));
  }
  table.values.assign(table.columns.size(), {});
  CsvReader csv(file, header);
  while (csv.next()) {
    const double t = csv.number(0);
    if (!table.times.empty() && !(t > table.times.back()))
      csv.fail(
          fmt::format("t = {} does not follow the previous row's t = {}", t, table.times.back()));
    table.times.push_back(t);
    bool any = false;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      // a sensor's cells are all empty (it did not sample) or all numbers
      if (c > 0 && table.sensor[c] == table.sensor[c - 1] &&
          csv.text(c + 1).empty() != csv.text(c).empty())
        csv.fail(
            fmt::format("sensor \"{}\" has empty and filled cells in one row", table.sensor[c]));
      if (csv.text(c + 1).empty()) {
        table.values[c].push_back(std::numeric_limits<double>::quiet_NaN());
      } else {
        table.values[c].push_back(csv.number(c + 1));
        any = true;
      }
    }
    if (!any) csv.fail("a row without a sensor value");
  }
  return table;
}

}  // namespace pivot::cli
